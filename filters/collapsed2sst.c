/*
 * collapsed2sst: convert folded stacks ("root;...;leaf weight", one a
 * line, as stackcollapse-perf.pl and py-spy write them) to an sst(5)
 * stream.  The thread is the first frame, which stays in the stack.
 * Weights become seconds: when the median weight of the whole input
 * exceeds 100000 they are nanoseconds, else sample counts at -f Hz.
 * That is known only at the end, so records are kept per distinct
 * stack (and, with -s, each line's stack id and weight) until then.
 * With -v it reports the line count, the median weight (as Python
 * prints the int or float it reads) and the unit on standard error.
 */
#define _GNU_SOURCE
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"

#define NSMAX	2		/* candidate scales: nanoseconds, counts */

struct acc {
	uint64_t	 n;		/* lines */
	double		 sum[NSMAX];	/* scaled weights, in line order */
	double		 per[NSMAX];	/* the first scaled weight */
	int		 same[NSMAX];	/* all scaled weights equal per */
};

struct conv {
	struct htab	*stacks;	/* offset-stripped raw stacks */
	struct acc	*acc;		/* by stack id */
	size_t		 accap;
	double		*w;		/* with -s: raw weight of each line */
	size_t		*id;		/* and its stack id */
	size_t		 nlines, cap;
	size_t		 nsmall;	/* lines weighing at most 100000 */
	double		 sc[NSMAX];
	int		 nsc;		/* 1 when -u fixes the scale */
	int		 sflag;
	int		 vflag;
	struct fold_meds med;		/* with -v: every line's weight */
	enum sst_unit	 unit;
	const char	*tname;		/* -t */
	struct buf	 key, thread, stack, num;
};

static void	addline(struct conv *, const char *, unsigned long long,
		    const char *, size_t);
static void	readfile(struct conv *, const char *);
static void	emit(struct conv *, const char *, size_t, uint64_t, double,
		    int, double);
static void	report(struct conv *, const char *);
static __dead void usage(void);

/* Parse one line (without its line end) and account for it. */
static void
addline(struct conv *c, const char *name, unsigned long long lineno,
    const char *s, size_t n)
{
	const char *sp, *k;
	struct acc *a;
	size_t id, kn;
	double w, x;
	int i, isnew, isint;

	if ((n = fold_rstrip(s, n)) == 0)
		return;
	if ((sp = memrchr(s, ' ', n)) == NULL) {
		warnx("%s:%llu: skipping malformed line", name, lineno);
		return;
	}
	if (fold_weight(sp + 1, (size_t)(s + n - sp - 1), &w, &isint,
	    &c->num) == -1) {
		warnx("%s:%llu: skipping line with bad weight", name, lineno);
		return;
	}
	k = fold_strip(&c->key, s, (size_t)(sp - s), &kn);
	if (c->vflag)
		fold_medadd(&c->med, w, isint);
	c->nsmall += w <= 100000;
	if (c->sflag && c->nsc == 1) {
		x = w * c->sc[0];
		emit(c, k, kn, 1, x, 1, x);
		return;
	}
	id = ht_intern(c->stacks, k, kn, &isnew);
	c->nlines++;
	if (c->sflag) {
		if (c->nlines > c->cap) {
			c->cap = c->cap ? c->cap * 2 : 4096;
			c->w = xreallocarray(c->w, c->cap, sizeof(*c->w));
			c->id = xreallocarray(c->id, c->cap, sizeof(*c->id));
		}
		c->id[c->nlines - 1] = id;
		c->w[c->nlines - 1] = w;
		return;
	}
	if (isnew) {
		if (id == c->accap) {
			c->accap = c->accap ? c->accap * 2 : 1024;
			c->acc = xreallocarray(c->acc, c->accap,
			    sizeof(*c->acc));
		}
		memset(&c->acc[id], 0, sizeof(c->acc[id]));
	}
	a = &c->acc[id];
	for (i = 0; i < c->nsc; i++) {
		x = w * c->sc[i];
		if (a->n == 0) {
			a->per[i] = x;
			a->same[i] = 1;
		} else if (x != a->per[i])
			a->same[i] = 0;
		a->sum[i] += x;
	}
	a->n++;
}

/* Read one input; a lone CR also ends a line, as in Python text files. */
static void
readfile(struct conv *c, const char *path)
{
	struct lines *l;
	unsigned long long lineno = 0;
	char *s, *e, *cr;
	size_t n;
	int fd;

	fd = xopen(path);
	l = lines_open(fd, path);
	while ((s = lines_next(l, &n)) != NULL) {
		for (e = s + n;; s = cr + 1) {
			cr = memchr(s, '\r', (size_t)(e - s));
			addline(c, lines_name(l), ++lineno, s,
			    (size_t)((cr != NULL ? cr : e) - s));
			if (cr == NULL || cr + 1 == e)
				break;
		}
	}
	lines_close(l);
	if (fd != STDIN_FILENO)
		close(fd);
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

/* Report the lines read, their median weight and the unit taken. */
static void
report(struct conv *c, const char *unit)
{
	char n[FMTBUF], w[FMTBUF];

	fmt_commas(n, sizeof(n), c->med.n);
	if (fold_median(&c->med, w, sizeof(w)) == NULL)
		warnx("%s lines", n);
	else
		warnx("%s lines, median weight %s, unit %s", n, w, unit);
}

static __dead void
usage(void)
{
	fprintf(stderr, "usage: collapsed2sst [-sv] [-f freq] [-t thread] "
	    "[-u unit] [file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct conv c;
	const char *errstr, *k, *uarg = NULL;
	struct acc *a;
	size_t i, n;
	long long freq = 99;
	int ch, sel;

	sst_init();
	memset(&c, 0, sizeof(c));
	while ((ch = getopt(argc, argv, "f:st:u:v")) != -1) {
		switch (ch) {
		case 'f':
			freq = strtonum(optarg, 1, 1000000, &errstr);
			if (errstr != NULL)
				errx(2, "-f: %s: %s", errstr, optarg);
			break;
		case 's':
			c.sflag = 1;
			break;
		case 't':
			c.tname = optarg;
			break;
		case 'u':
			uarg = optarg;
			break;
		case 'v':
			c.vflag = 1;
			break;
		default:
			usage();
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
	if (c.sflag) {
		for (i = 0; i < c.nlines; i++) {
			k = ht_key(c.stacks, c.id[i], &n);
			emit(&c, k, n, 1, c.w[i] * c.sc[sel], 1,
			    c.w[i] * c.sc[sel]);
		}
	} else {
		for (i = 0; i < ht_count(c.stacks); i++) {
			k = ht_key(c.stacks, i, &n);
			a = &c.acc[i];
			emit(&c, k, n, a->n, a->sum[sel], a->same[sel],
			    a->per[sel]);
		}
	}
	ht_free(c.stacks);
	free(c.acc);
	free(c.w);
	free(c.id);
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
