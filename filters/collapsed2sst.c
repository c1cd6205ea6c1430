/*
 * collapsed2sst: convert folded stacks ("root;...;leaf weight", one a
 * line, as stackcollapse-perf.pl and py-spy write them) to an sst(5)
 * stream.  The thread is the first frame, which stays in the stack.
 * Weights become seconds: when the median weight of the whole input
 * exceeds 100000 they are nanoseconds, else sample counts at -f Hz, and
 * a line "stack N" of counts is N samples (-F lines: one, as Ray's
 * converter counts).  That is known only at the end, so records are
 * kept per distinct stack (and, with -s, each line's) until then, by
 * common/formats/foldrec.c.  With -V it reports the line count, the median
 * weight (as Python prints the int or float it reads) and the unit on
 * standard error.  Long runs show their progress on standard error when
 * it is a terminal (-p: always, -P: never).  With -J the records make
 * a speedscope document instead, as sst2speedscope writes one
 * (common/formats/scopedoc.c), with no stream between.
 */
#define _GNU_SOURCE
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "lines.h"
#include "progress.h"
#include "esc.h"
#include "rec.h"
#include "fmt.h"
#include "folded.h"
#include "foldrec.h"
#include "input.h"
#include "scopedoc.h"

#define NSMAX	FOLDREC_NSMAX	/* candidate scales: nanoseconds, counts */
#define MAXWARN	10		/* warnings an input, but with -F lines */

/* Where something first overflowed: file and line, or none (0). */
struct place {
	const char	*name;
	unsigned long long line;
};

struct conv {
	struct foldrecs	*recs;		/* by stack, or with -s by line */
	double		 sc[NSMAX];
	int		 nsc;		/* 1 when -u fixes the scale */
	int		 ucount;	/* -u count or none: N samples */
	int		 lflag, sflag, vflag;
	int		 progress;	/* progress_open()'s force */
	int		 nfiles, nth;	/* files given; the one being read */
	struct fold_meds med;		/* with -V: every line's weight */
	enum sst_unit	 unit;
	const char	*tname;		/* -L */
	unsigned long long nread, nbad, ntext;	/* of the current input */
	struct place	 bigcnt;	/* a sample count past 2^64 - 1 */
	struct place	 inf[NSMAX];	/* a weight summed to inf */
	struct buf	 thread, stack;
	struct scopedoc	*doc;		/* -J */
	int		 defer;		/* -J -F lines -s: scale it picks */
	struct buf	 err;
};

static int	counting(const struct conv *, int);
static void	skipline(struct conv *, const char *, unsigned long long,
		    const char *);
static void	addline(struct conv *, const char *, unsigned long long,
		    const char *, size_t);
static void	emit(struct conv *, const char *, size_t,
		    const struct foldrec_rec *);
static void	overflow(struct place *, const char *, unsigned long long);
static void	readfile(struct conv *, const char *);
static __dead void usage(int);

/* Whether a line of counts is N samples at scale sel. */
static int
counting(const struct conv *c, int sel)
{
	return !c->lflag && (c->nsc == 1 ? c->ucount : sel == 1);
}

/* Warn of a skipped line; by default only the first MAXWARN. */
static void
skipline(struct conv *c, const char *name, unsigned long long lineno,
    const char *why)
{
	if (c->lflag || c->nbad < MAXWARN) {
		progress_hide();
		warnx("%s:%llu: %s", name, lineno, why);
	}
	c->nbad++;
}

/* Write the record of stack k[0..n), or with -J add it to the document. */
static void
emit(struct conv *c, const char *k, size_t n, const struct foldrec_rec *r)
{
	struct sst_rec s;

	foldrec_make(&c->thread, &c->stack, c->tname == NULL, k, n, r,
	    c->unit, &s);
	if (c->doc == NULL)
		rec_write(stdout, &s);
	else if (scopedoc_add(c->doc, &s, &c->err) == -1) {
		progress_hide();
		errx(1, "%s", c->err.data);
	}
}

/* Note the first place p of an overflow. */
static void
overflow(struct place *p, const char *name, unsigned long long lineno)
{
	if (p->line == 0) {
		p->name = name;
		p->line = lineno;
	}
}

/* Parse one line (without its line end) and account for it. */
static void
addline(struct conv *c, const char *name, unsigned long long lineno,
    const char *s, size_t n)
{
	struct foldrec_line l;
	struct foldrec_rec r;
	enum foldrec_kind k;
	int i, over;

	if ((k = foldrec_parse(c->recs, &l, s, n)) == FOLDREC_BLANK)
		return;
	c->ntext++;
	if (k != FOLDREC_OK) {
		skipline(c, name, lineno, k == FOLDREC_NOSPACE ?
		    "skipping malformed line" :
		    "skipping line with bad weight");
		return;
	}
	c->nread++;
	if (c->vflag)
		fold_medadd(&c->med, l.w, l.isint);
	if (c->defer) {
		/* Each line a sample to the document, its scale to come. */
		foldrec_note(c->recs, &l);
		foldrec_linerec(&l, 1, 0, &r);
		emit(c, l.stack, l.stackn, &r);
		return;
	}
	if (c->sflag && c->nsc == 1) {
		if (l.iscnt == -1 && counting(c, 0)) {
			progress_hide();
			errx(1, "%s:%llu: sample count passes 2^64 - 1", name,
			    lineno);
		}
		foldrec_linerec(&l, c->sc[0], counting(c, 0), &r);
		emit(c, l.stack, l.stackn, &r);
		return;
	}
	over = foldrec_add(c->recs, &l);
	if (over & FOLDREC_BIGCNT)
		overflow(&c->bigcnt, name, lineno);
	for (i = 0; i < c->nsc; i++)
		if (over & FOLDREC_INF(i))
			overflow(&c->inf[i], name, lineno);
}

/* Read one input; a lone CR also ends a line, as in Python text files. */
static void
readfile(struct conv *c, const char *path)
{
	struct lines *l;
	struct progress *pr;
	unsigned long long lineno = 0, bytes = 0;
	const char *head, *says;
	char *s, *e, *cr, msg[256];
	size_t n;
	int fd;

	fd = xopen(path);
	l = lines_open(fd, path);
	pr = progress_open(fd, path, c->progress);
	if (c->nfiles > 1)
		progress_file(pr, (size_t)c->nth, (size_t)c->nfiles);
	c->nread = c->nbad = c->ntext = 0;
	while ((s = xlines_next(l, &n)) != NULL) {
		progress_poll(pr, bytes += n + 1);
		for (e = s + n;; s = cr + 1) {
			cr = memchr(s, '\r', (size_t)(e - s));
			addline(c, lines_name(l), ++lineno, s,
			    (size_t)((cr != NULL ? cr : e) - s));
			if (cr == NULL || cr + 1 == e)
				break;
		}
	}
	progress_close(pr);
	if (!c->lflag && c->nbad > MAXWARN)
		warnx("%s: %llu more lines skipped", lines_name(l),
		    c->nbad - MAXWARN);
	says = NULL;
	if (!c->lflag && c->ntext > 0 && c->nread == 0) {
		head = lines_head(l, &n);
		says = fold_notfolded(head, n, msg, sizeof(msg));
	}
	lines_close(l);
	if (fd != STDIN_FILENO)
		close(fd);
	if (says != NULL)
		errx(1, "%s: no folded stack read: %s", path != NULL &&
		    strcmp(path, "-") != 0 ? path : "<stdin>", says);
}

/* The usage line: on stdout for help (exit 0), else on stderr (2). */
static void
usage(int help)
{
	xusage(help, "usage: collapsed2sst [-hJPpSsV] [-D name] "
	    "[-e exporter] [-F lines] [-f freq] [-L thread] [-u unit] "
	    "[file ...]\n");
}

/*
 * Pick the scale of the weights (foldrec_pick()), check the sums made at
 * it, and write every record; the scale picked.
 */
static int
writeall(struct conv *c)
{
	struct foldrec_rec r;
	const char *k;
	size_t i, n;
	int sel;

	sel = foldrec_pick(c->recs);
	if (counting(c, sel) && c->bigcnt.line != 0)
		errx(1, "%s:%llu: sample count passes 2^64 - 1",
		    c->bigcnt.name, c->bigcnt.line);
	if (c->inf[sel].line != 0)
		errx(1, "%s:%llu: summed weight of the stack overflows to inf",
		    c->inf[sel].name, c->inf[sel].line);
	for (i = 0; !c->defer && i < foldrec_count(c->recs); i++) {
		k = foldrec_get(c->recs, i, sel, counting(c, sel), &r, &n);
		emit(c, k, n, &r);
	}
	return sel;
}

int
main(int argc, char *argv[])
{
	struct conv c;
	const char *errstr, *uarg = NULL, *name = NULL;
	const char *exporter = "collapsed2sst";
	char vmsg[1024];
	size_t i;
	long long freq = 99;
	int ch, sel, jflag = 0, Sflag = 0;

	sst_init();
	memset(&c, 0, sizeof(c));
	c.progress = -1;
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "D:e:F:f:hJL:PpSsu:V")) != -1) {
		switch (ch) {
		case 'D':
			name = optarg;
			break;
		case 'e':
			exporter = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "lines") != 0)
				errx(2, "-F: unknown form: %s", optarg);
			c.lflag = 1;
			break;
		case 'f':
			freq = strtonum(optarg, 1, 1000000, &errstr);
			if (errstr != NULL)
				errx(2, "-f: %s: %s", errstr, optarg);
			break;
		case 'h':
			usage(1);
		case 'J':
			jflag = 1;
			break;
		case 'L':
			c.tname = optarg;
			break;
		case 'P':
			c.progress = 0;
			break;
		case 'p':
			c.progress = 1;
			break;
		case 'S':
			Sflag = 1;
			break;
		case 's':
			c.sflag = 1;
			break;
		case 'u':
			uarg = optarg;
			break;
		case 'V':
			c.vflag = 1;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;

	if ((c.nsc = foldrec_scales(uarg, freq, c.sc, &c.ucount,
	    &c.unit)) == -1)
		errx(2, "-u: unknown unit: %s", uarg);
	c.recs = foldrec_new(c.sc, c.nsc, c.sflag);
	buf_init(&c.thread);
	buf_init(&c.stack);
	buf_init(&c.err);
	if (jflag)
		c.doc = scopedoc_new();
	if ((c.defer = jflag && c.sflag && c.lflag && c.nsc > 1))
		scopedoc_scales(c.doc, c.sc, c.nsc);
	if (c.tname != NULL)
		esc_add(&c.thread, c.tname, strlen(c.tname));
	if (argc == 0)
		readfile(&c, NULL);
	c.nfiles = argc;
	for (i = 0; i < (size_t)argc; i++) {
		c.nth = (int)i + 1;
		readfile(&c, argv[i]);
	}

	sel = writeall(&c);
	foldrec_free(c.recs);
	if (c.vflag)
		fold_summary(&c.med, uarg != NULL ? uarg : sel ? "count" :
		    "ns", vmsg, sizeof(vmsg));
	if (c.doc != NULL) {
		/* Its -V report comes first: the document may fail. */
		if (c.vflag)
			warnx("%s", vmsg);
		if (name == NULL)
			name = argc == 0 || strcmp(argv[0], "-") == 0 ?
			    "<stdin>" : argv[0];
		scopedoc_pick(c.doc, sel);
		scopedoc_end(c.doc, Sflag);
		scopedoc_put(c.doc, name, exporter);
	}
	xfshut(stdout, "stdout");
	if (c.vflag && c.doc != NULL)
		scopedoc_verbose(c.doc, getprogname());
	else if (c.vflag)
		warnx("%s", vmsg);
	scopedoc_free(c.doc);
	buf_free(&c.thread);
	buf_free(&c.stack);
	buf_free(&c.err);
	free(c.med.m);
	return 0;
}
