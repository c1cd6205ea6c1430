/*
 * collapsed2sst: convert folded stacks ("root;...;leaf weight", one a
 * line, as stackcollapse-perf.pl and py-spy write them) to an sst(5)
 * stream.  The thread is the first frame, which stays in the stack.
 * Weights become seconds: when the median weight of the whole input
 * exceeds 100000 they are nanoseconds, else sample counts at -f Hz, and
 * a line "stack N" of counts is N samples (-F lines: one, as Ray's
 * converter counts).  That is known only at the end, so records are
 * kept per distinct stack (and, with -s, each line's) until then.  With
 * -V it reports the line count, the median weight (as Python prints the
 * int or float it reads) and the unit on standard error.
 */
#define _GNU_SOURCE
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"
#include "input.h"

#define NSMAX	2		/* candidate scales: nanoseconds, counts */
#define MAXWARN	10		/* warnings an input, but with -F lines */

struct acc {
	uint64_t	 n;		/* lines */
	uint64_t	 ns;		/* samples if counts: N a line, or 1 */
	int		 allcnt;	/* every line's weight a count */
	double		 sum[NSMAX];	/* scaled weights, in line order */
	double		 per[NSMAX];	/* the first scaled weight */
	int		 same[NSMAX];	/* all scaled weights equal per */
};

/* With -s: a line kept until the scale is known. */
struct line {
	double		 w;
	size_t		 id;
	uint64_t	 cnt;
	int		 iscnt;
};

/* Where something first overflowed: file and line, or none (0). */
struct place {
	const char	*name;
	unsigned long long line;
};

struct conv {
	struct htab	*stacks;	/* offset-stripped raw stacks */
	struct acc	*acc;		/* by stack id */
	size_t		 accap;
	struct line	*ln;		/* with -s and no -u */
	size_t		 nlines, cap;
	size_t		 nsmall;	/* lines weighing at most 100000 */
	double		 sc[NSMAX];
	int		 nsc;		/* 1 when -u fixes the scale */
	int		 ucount;	/* -u count or none: N samples */
	int		 lflag, sflag, vflag;
	struct fold_meds med;		/* with -V: every line's weight */
	enum sst_unit	 unit;
	const char	*tname;		/* -L */
	unsigned long long nread, nbad, ntext;	/* of the current input */
	struct place	 bigcnt;	/* a sample count past 2^64 - 1 */
	struct place	 inf[NSMAX];	/* a weight summed to inf */
	struct buf	 key, thread, stack, num;
};

static int	counting(const struct conv *, int);
static void	skipline(struct conv *, const char *, unsigned long long,
		    const char *);
static void	addline(struct conv *, const char *, unsigned long long,
		    const char *, size_t);
static void	overflow(struct place *, const char *, unsigned long long);
static void	readfile(struct conv *, const char *);
static void	emit(struct conv *, const char *, size_t, uint64_t, double,
		    int, double);
static void	emitline(struct conv *, const char *, size_t,
		    const struct line *, int);
static void	emitacc(struct conv *, size_t, int);
static void	report(struct conv *, const char *);
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
	if (c->lflag || c->nbad < MAXWARN)
		warnx("%s:%llu: %s", name, lineno, why);
	c->nbad++;
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
	const char *sp, *k;
	struct acc *a;
	struct line l;
	size_t kn;
	double x;
	int i, isnew, isint;

	if ((n = fold_rstrip(s, n)) == 0)
		return;
	c->ntext++;
	if ((sp = memrchr(s, ' ', n)) == NULL) {
		skipline(c, name, lineno, "skipping malformed line");
		return;
	}
	if (fold_weight(sp + 1, (size_t)(s + n - sp - 1), &l.w, &isint,
	    &c->num) == -1) {
		skipline(c, name, lineno, "skipping line with bad weight");
		return;
	}
	c->nread++;
	l.iscnt = isint ? fold_count(sp + 1, (size_t)(s + n - sp - 1),
	    &l.cnt) : 0;
	if (l.iscnt == -1)
		overflow(&c->bigcnt, name, lineno);
	k = fold_strip(&c->key, s, (size_t)(sp - s), &kn);
	if (c->vflag)
		fold_medadd(&c->med, l.w, isint);
	c->nsmall += l.w <= 100000;
	if (c->sflag && c->nsc == 1) {
		if (l.iscnt == -1 && counting(c, 0))
			errx(1, "%s:%llu: sample count passes 2^64 - 1", name,
			    lineno);
		emitline(c, k, kn, &l, 0);
		return;
	}
	l.id = ht_intern(c->stacks, k, kn, &isnew);
	c->nlines++;
	if (c->sflag) {
		if (c->nlines > c->cap) {
			c->cap = c->cap ? c->cap * 2 : 4096;
			c->ln = xreallocarray(c->ln, c->cap, sizeof(*c->ln));
		}
		c->ln[c->nlines - 1] = l;
		return;
	}
	if (isnew) {
		if (l.id == c->accap) {
			c->accap = c->accap ? c->accap * 2 : 1024;
			c->acc = xreallocarray(c->acc, c->accap,
			    sizeof(*c->acc));
		}
		memset(&c->acc[l.id], 0, sizeof(c->acc[l.id]));
		c->acc[l.id].allcnt = 1;
	}
	a = &c->acc[l.id];
	for (i = 0; i < c->nsc; i++) {
		x = l.w * c->sc[i];
		if (a->n == 0) {
			a->per[i] = x;
			a->same[i] = 1;
		} else if (x != a->per[i])
			a->same[i] = 0;
		if (isinf(a->sum[i] += x))
			overflow(&c->inf[i], name, lineno);
	}
	a->n++;
	a->allcnt &= l.iscnt == 1;
	if (l.iscnt != 1)
		l.cnt = 1;
	if (l.iscnt == -1 || a->ns > UINT64_MAX - l.cnt)
		overflow(&c->bigcnt, name, lineno);
	else
		a->ns += l.cnt;
}

/* Read one input; a lone CR also ends a line, as in Python text files. */
static void
readfile(struct conv *c, const char *path)
{
	struct lines *l;
	unsigned long long lineno = 0;
	const char *head, *says;
	char *s, *e, *cr, msg[256];
	enum sniff k;
	size_t n;
	int fd;

	fd = xopen(path);
	l = lines_open(fd, path);
	c->nread = c->nbad = c->ntext = 0;
	while ((s = lines_next(l, &n)) != NULL) {
		for (e = s + n;; s = cr + 1) {
			cr = memchr(s, '\r', (size_t)(e - s));
			addline(c, lines_name(l), ++lineno, s,
			    (size_t)((cr != NULL ? cr : e) - s));
			if (cr == NULL || cr + 1 == e)
				break;
		}
	}
	if (!c->lflag && c->nbad > MAXWARN)
		warnx("%s: %llu more lines skipped", lines_name(l),
		    c->nbad - MAXWARN);
	says = NULL;
	if (!c->lflag && c->ntext > 0 && c->nread == 0) {
		head = lines_head(l, &n);
		k = sniff(head, n);
		if ((says = sniff_says(k, msg, sizeof(msg))) == NULL)
			says = k == SN_BINARY ? "this looks like binary data" :
			    "not folded stacks";
	}
	lines_close(l);
	if (fd != STDIN_FILENO)
		close(fd);
	if (says != NULL)
		errx(1, "%s: no folded stack read: %s", path != NULL &&
		    strcmp(path, "-") != 0 ? path : "<stdin>", says);
}

/* Write one record for the stripped stack k[0..n). */
static void
emit(struct conv *c, const char *k, size_t n, uint64_t samples, double w,
    int hasper, double per)
{
	const char *f;

	fold_stack(&c->stack, k, n);
	if (c->tname == NULL) {
		buf_reset(&c->thread);
		f = memchr(k, ';', n);
		esc_add(&c->thread, k, f != NULL ? (size_t)(f - k) : n);
	}
	rec_write(stdout, &(struct sst_rec){ .thread = c->thread.data,
	    .threadlen = c->thread.len, .samples = samples, .weight = w,
	    .unit = c->unit, .hasperiod = hasper, .period = per,
	    .stack = c->stack.data, .stacklen = c->stack.len, .locs = "" });
}

/* Write the record of a line of stack k[0..n) at scale sel. */
static void
emitline(struct conv *c, const char *k, size_t n, const struct line *l,
    int sel)
{
	double x;

	x = l->w * c->sc[sel];
	if (counting(c, sel) && l->iscnt == 1)
		emit(c, k, n, l->cnt, fmt_pysum(0, c->sc[sel], l->cnt), 1,
		    c->sc[sel]);
	else
		emit(c, k, n, 1, x, 1, x);
}

/* Write the record of stack id at scale sel. */
static void
emitacc(struct conv *c, size_t id, int sel)
{
	const struct acc *a = &c->acc[id];
	const char *k;
	size_t n;

	k = ht_key(c->stacks, id, &n);
	if (!counting(c, sel))
		emit(c, k, n, a->n, a->sum[sel], a->same[sel], a->per[sel]);
	else if (a->allcnt)
		emit(c, k, n, a->ns, fmt_pysum(0, c->sc[sel], a->ns), 1,
		    c->sc[sel]);
	else
		emit(c, k, n, a->ns, a->sum[sel], a->ns == a->n &&
		    a->same[sel], a->per[sel]);
}

/* Report the lines read, their median weight and the unit taken. */
static void
report(struct conv *c, const char *unit)
{
	char n[FMTBUF], w[FMTBUF];
	const char *l = c->med.n == 1 ? "line" : "lines";

	fmt_commas(n, sizeof(n), c->med.n);
	if (fold_median(&c->med, w, sizeof(w)) == NULL)
		warnx("%s %s", n, l);
	else
		warnx("%s %s, median weight %s, unit %s", n, l, w, unit);
}

static __dead void
usage(int status)
{
	fprintf(status ? stderr : stdout, "usage: collapsed2sst [-hsV] "
	    "[-F lines] [-f freq] [-L thread] [-u unit] [file ...]\n");
	exit(status);
}

int
main(int argc, char *argv[])
{
	struct conv c;
	const char *errstr, *k, *uarg = NULL;
	size_t i, n;
	long long freq = 99;
	int ch, sel;

	sst_init();
	memset(&c, 0, sizeof(c));
	for (ch = 1; ch < argc && strcmp(argv[ch], "--") != 0; ch++)
		if (strcmp(argv[ch], "--help") == 0)
			usage(0);
	while ((ch = getopt(argc, argv, "F:f:hL:su:V")) != -1) {
		switch (ch) {
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
			usage(0);
		case 'L':
			c.tname = optarg;
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
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;

	c.nsc = 2;
	c.sc[0] = 1e-9;
	c.sc[1] = 1.0 / (double)freq;
	c.unit = U_SECONDS;
	if (uarg != NULL) {
		if (fold_unit(uarg, c.sc[1], &c.sc[0], &c.unit) == -1)
			errx(2, "-u: unknown unit: %s", uarg);
		c.nsc = 1;
		c.ucount = strcmp(uarg, "count") == 0 ||
		    strcmp(uarg, "none") == 0;
	}
	c.stacks = ht_new();
	buf_init(&c.key);
	buf_init(&c.thread);
	buf_init(&c.stack);
	buf_init(&c.num);
	if (c.tname != NULL)
		esc_add(&c.thread, c.tname, strlen(c.tname));
	if (argc == 0)
		readfile(&c, NULL);
	for (i = 0; i < (size_t)argc; i++)
		readfile(&c, argv[i]);

	/* sorted(weights)[n // 2] > 100000: nanoseconds, else counts. */
	sel = c.nsc > 1 && c.nsmall > c.nlines / 2;
	if (counting(&c, sel) && c.bigcnt.line != 0)
		errx(1, "%s:%llu: sample count passes 2^64 - 1",
		    c.bigcnt.name, c.bigcnt.line);
	if (c.inf[sel].line != 0)
		errx(1, "%s:%llu: summed weight of the stack overflows to inf",
		    c.inf[sel].name, c.inf[sel].line);
	for (i = 0; c.sflag && i < c.nlines; i++) {
		k = ht_key(c.stacks, c.ln[i].id, &n);
		emitline(&c, k, n, &c.ln[i], sel);
	}
	for (i = 0; !c.sflag && i < ht_count(c.stacks); i++)
		emitacc(&c, i, sel);
	ht_free(c.stacks);
	free(c.acc);
	free(c.ln);
	buf_free(&c.key);
	buf_free(&c.thread);
	buf_free(&c.stack);
	buf_free(&c.num);
	fshut(stdout, "stdout");
	if (c.vflag)
		report(&c, uarg != NULL ? uarg : sel ? "count" : "ns");
	free(c.med.m);
	return 0;
}
