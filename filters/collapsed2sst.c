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
#include "progress.h"
#include "esc.h"
#include "rec.h"
#include "fmt.h"
#include "folded.h"
#include "foldrec.h"
#include "foldin.h"
#include "scopedoc.h"

#define MAXWARN	10		/* warnings an input, but with -F lines */
#define DOCMEM	(64 << 20)	/* -J: records kept in memory, bytes */

struct conv {
	struct foldrecs	*recs;		/* by stack, or with -s by line */
	double		 sc[FOLDREC_NSMAX];	/* ns, counts */
	int		 nsc;		/* 1 when -u fixes the scale */
	int		 ucount;	/* -u count or none: N samples */
	int		 lflag, sflag, vflag;
	int		 progress;	/* progress_open()'s force */
	int		 nfiles, nth;	/* files given; the one being read */
	struct fold_meds med;		/* with -V: every line's weight */
	enum sst_unit	 unit;
	const char	*tname;		/* -L */
	unsigned long long nbad;	/* lines skipped of the input */
	struct fold_place bigcnt;	/* a sample count past 2^64 - 1 */
	struct fold_place inf[FOLDREC_NSMAX];	/* a weight summed to inf */
	struct buf	 thread, stack;
	struct scopedoc	*doc;		/* -J */
	int		 defer;		/* -J -F lines -s: scale it picks */
	struct buf	 err;
};

static int	counting(const struct conv *, int);
static enum foldin_kind addline(void *, const char *, unsigned long long,
		    const char *, size_t);
static void	emit(struct conv *, const char *, size_t,
		    const struct foldrec_rec *);
static void	readfile(struct conv *, const char *);
static __dead void usage(int);

/* Whether a line of counts is N samples at scale sel. */
static int
counting(const struct conv *c, int sel)
{
	return !c->lflag && (c->nsc == 1 ? c->ucount : sel == 1);
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

/* Parse one line (without its line end) and account for it. */
static enum foldin_kind
addline(void *arg, const char *name, unsigned long long lineno,
    const char *s, size_t n)
{
	struct conv *c = arg;
	struct foldrec_line l;
	struct foldrec_rec r;
	enum foldrec_kind k;
	int i, over;

	if ((k = foldrec_parse(c->recs, &l, s, n)) == FOLDREC_BLANK)
		return FOLDIN_BLANK;
	if (k != FOLDREC_OK) {
		/* Warned of; by default only the first MAXWARN. */
		if (c->nbad++ < MAXWARN || c->lflag) {
			progress_hide();
			warnx("%s:%llu: %s", name, lineno, k ==
			    FOLDREC_NOSPACE ? "skipping malformed line" :
			    "skipping line with bad weight");
		}
		return FOLDIN_SKIPPED;
	}
	if (c->vflag)
		fold_medadd(&c->med, l.w, l.isint);
	if (c->defer) {
		/* Each line a sample to the document, its scale to come. */
		foldrec_note(c->recs, &l);
		foldrec_linerec(&l, 1, 0, &r);
		emit(c, l.stack, l.stackn, &r);
		return FOLDIN_READ;
	}
	if (c->sflag && c->nsc == 1) {
		if (l.iscnt == -1 && counting(c, 0)) {
			progress_hide();
			errx(1, "%s:%llu: sample count passes 2^64 - 1", name,
			    lineno);
		}
		foldrec_linerec(&l, c->sc[0], counting(c, 0), &r);
		emit(c, l.stack, l.stackn, &r);
		return FOLDIN_READ;
	}
	over = foldrec_add(c->recs, &l);
	if (over & FOLDREC_BIGCNT)
		fold_placeat(&c->bigcnt, name, lineno);
	for (i = 0; i < c->nsc; i++)
		if (over & FOLDREC_INF(i))
			fold_placeat(&c->inf[i], name, lineno);
	return FOLDIN_READ;
}

/* Read one input (foldin_read()). */
static void
readfile(struct conv *c, const char *path)
{
	struct foldin_count n;
	int r;

	c->nbad = 0;
	r = foldin_read(path, c->progress, (size_t)c->nth, (size_t)c->nfiles,
	    addline, c, &n, &c->err);
	if (!c->lflag && n.skipped > MAXWARN)
		warnx("%s: %llu more lines skipped", path != NULL &&
		    strcmp(path, "-") != 0 ? path : "<stdin>",
		    n.skipped - MAXWARN);
	if (r == -1 && !c->lflag)
		errx(1, "%s", c->err.data);
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
 * it, write every record (-J: the document) and the -V report; free
 * what c holds.
 */
static void
finish(struct conv *c, const struct scopedoc_opts *o, const char *uarg,
    int argc, char *argv[])
{
	struct foldrec_rec r;
	const char *k;
	char vmsg[1024];
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
	foldrec_free(c->recs);
	c->recs = NULL;
	if (c->vflag)
		fold_summary(&c->med, uarg != NULL ? uarg : sel ? "count" :
		    "ns", vmsg, sizeof(vmsg));
	if (c->doc != NULL) {
		/* Its -V report comes first: the document may fail. */
		if (c->vflag)
			warnx("%s", vmsg);
		scopedoc_pick(c->doc, sel);
		scopedoc_write(c->doc, o, argc, argv);
	}
	xfshut(stdout, "stdout");
	if (c->vflag && c->doc != NULL)
		scopedoc_verbose(c->doc, getprogname());
	else if (c->vflag)
		warnx("%s", vmsg);
	scopedoc_free(c->doc);
	buf_free(&c->thread);
	buf_free(&c->stack);
	buf_free(&c->err);
	free(c->med.m);
}

int
main(int argc, char *argv[])
{
	struct conv c;
	struct scopedoc_opts o = { NULL, "collapsed2sst", 0 };
	const char *uarg = NULL;
	size_t i;
	long long freq = 99;
	int ch, jflag = 0;

	sst_init();
	memset(&c, 0, sizeof(c));
	c.progress = -1;
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "D:e:F:f:hJL:PpSsu:V")) != -1) {
		switch (ch) {
		case 'F':
			if (strcmp(optarg, "lines") != 0)
				errx(2, "-F: unknown form: %s", optarg);
			c.lflag = 1;
			break;
		case 'f':
			freq = xoptnum("-f", optarg, 1, 1000000);
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
			if (!scopedoc_opt(&o, ch, optarg))	/* D e S */
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
		c.doc = scopedoc_new(DOCMEM);
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

	finish(&c, &o, uarg, argc, argv);
	return 0;
}
