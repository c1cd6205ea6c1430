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
#include <math.h>
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

/* A line's weight, for the median. */
struct med {
	double		 w;
	size_t		 i;		/* line number, to break ties */
	int		 isint;		/* an int literal, not a float */
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
	int		 isint;		/* the last weight read was an int */
	struct med	*med;		/* with -v: every line's weight */
	size_t		 nmed, medcap;
	enum sst_unit	 unit;
	const char	*tname;		/* -t */
	struct buf	 key, thread, stack, num;
};

static int	isws(int);
static size_t	digitpart(const char *, size_t, size_t *, int *);
static int	parseweight(struct conv *, const char *, size_t, double *);
static const char *strip(struct buf *, const char *, size_t, size_t *);
static void	addline(struct conv *, const char *, unsigned long long,
		    const char *, size_t);
static void	readfile(struct conv *, const char *);
static void	emit(struct conv *, const char *, size_t, uint64_t, double,
		    int, double);
static int	bymed(const void *, const void *);
static void	report(struct conv *, const char *);
static __dead void usage(void);

/* Python's white space among the ASCII bytes. */
static int
isws(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* Skip digits, with single '_' between digits; returns the digit count. */
static size_t
digitpart(const char *s, size_t n, size_t *i, int *under)
{
	size_t k = 0;

	while (*i < n) {
		if (s[*i] >= '0' && s[*i] <= '9')
			k++;
		else if (s[*i] == '_' && k > 0 && *i + 1 < n &&
		    s[*i + 1] >= '0' && s[*i + 1] <= '9')
			*under = 1;
		else
			break;
		(*i)++;
	}
	return k;
}

/* A weight as Python's int() or float() reads it; 0 ok, -1 not. */
static int
parseweight(struct conv *c, const char *s, size_t n, double *w)
{
	size_t i = 0, j, nd;
	uint64_t v = 0;
	int under = 0, plain;

	while (n > 0 && isws((unsigned char)*s))
		s++, n--;
	if (n > 0 && (s[0] == '+' || s[0] == '-'))
		i++;
	nd = digitpart(s, n, &i, &under);
	plain = i == n && !under && nd <= 19;
	c->isint = i == n || (s[i] != '.' && s[i] != 'e' && s[i] != 'E');
	if (i < n && s[i] == '.') {
		i++;
		nd += digitpart(s, n, &i, &under);
	}
	if (nd == 0)
		return -1;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (digitpart(s, n, &i, &under) == 0)
			return -1;
	}
	if (i != n)
		return -1;
	if (plain) {
		/* A cast rounds to nearest, as Python's int * float does. */
		for (j = s[0] == '+' || s[0] == '-'; j < n; j++)
			v = v * 10 + (uint64_t)(s[j] - '0');
		*w = s[0] == '-' ? -(double)v : (double)v;
		return 0;
	}
	buf_reset(&c->num);
	for (j = 0; j < n; j++)
		if (s[j] != '_')
			buf_addc(&c->num, s[j]);
	*w = strtod(c->num.data, NULL);
	return isfinite(*w) ? 0 : -1;
}

/* The stack without each frame's trailing "+0x<hex>"; s if none has one. */
static const char *
strip(struct buf *b, const char *s, size_t n, size_t *len)
{
	const char *p, *f, *q, *e = s + n;

	*len = n;
	for (p = s; (p = memchr(p, '+', (size_t)(e - p))) != NULL; p++)
		if (e - p > 3 && p[1] == '0' && p[2] == 'x')
			break;
	if (p == NULL)
		return s;
	buf_reset(b);
	for (p = s;; p = f + 1) {
		if ((f = memchr(p, ';', (size_t)(e - p))) == NULL)
			f = e;
		for (q = f; q > p && ((q[-1] >= '0' && q[-1] <= '9') ||
		    (q[-1] >= 'a' && q[-1] <= 'f')); q--)
			;
		if (q < f && q - p >= 3 && memcmp(q - 3, "+0x", 3) == 0)
			buf_add(b, p, (size_t)(q - 3 - p));
		else
			buf_add(b, p, (size_t)(f - p));
		if (f == e)
			break;
		buf_addc(b, ';');
	}
	*len = b->len;
	return b->data;
}

/* Parse one line (without its line end) and account for it. */
static void
addline(struct conv *c, const char *name, unsigned long long lineno,
    const char *s, size_t n)
{
	const char *sp, *k;
	struct acc *a;
	size_t id, kn;
	double w, x;
	int i, isnew;

	while (n > 0 && isws((unsigned char)s[n - 1]))
		n--;
	if (n == 0)
		return;
	if ((sp = memrchr(s, ' ', n)) == NULL) {
		warnx("%s:%llu: skipping malformed line", name, lineno);
		return;
	}
	if (parseweight(c, sp + 1, (size_t)(s + n - sp - 1), &w) == -1) {
		warnx("%s:%llu: skipping line with bad weight", name, lineno);
		return;
	}
	k = strip(&c->key, s, (size_t)(sp - s), &kn);
	if (c->medcap > 0) {
		if (c->nmed == c->medcap - 1) {
			c->medcap *= 2;
			c->med = xreallocarray(c->med, c->medcap,
			    sizeof(*c->med));
		}
		c->med[c->nmed] = (struct med){ w, c->nmed, c->isint };
		c->nmed++;
	}
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
	const char *p, *f, *e = k + n;

	buf_reset(&c->stack);
	for (p = k;; p = f + 1) {
		if ((f = memchr(p, ';', (size_t)(e - p))) == NULL)
			f = e;
		if (f == p)
			buf_add(&c->stack, "\\e", 2);
		else
			esc_add(&c->stack, p, (size_t)(f - p));
		if (f == e)
			break;
		buf_addc(&c->stack, ';');
	}
	if (c->tname == NULL) {
		buf_reset(&c->thread);
		f = memchr(k, ';', n);
		esc_add(&c->thread, k, (size_t)((f != NULL ? f : e) - k));
	}
	rec_write(stdout, &(struct sst_rec){ .thread = c->thread.data,
	    .threadlen = c->thread.len, .samples = samples, .weight = w,
	    .unit = c->unit, .hasperiod = hasper, .period = per,
	    .stack = c->stack.data, .stacklen = c->stack.len, .locs = "" });
}

/* Weights in Python's sort order: by value, then by line. */
static int
bymed(const void *a, const void *b)
{
	const struct med *x = a, *y = b;

	if (x->w != y->w)
		return x->w < y->w ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Report the lines read, their median weight and the unit taken. */
static void
report(struct conv *c, const char *unit)
{
	struct med *m;
	char n[FMTBUF], w[FMTBUF];

	fmt_commas(n, sizeof(n), c->nmed);
	if (c->nmed == 0) {
		warnx("%s lines", n);
		return;
	}
	qsort(c->med, c->nmed, sizeof(*c->med), bymed);
	m = &c->med[c->nmed / 2];
	if (m->isint)
		snprintf(w, sizeof(w), "%.0f", m->w + 0.0);
	else
		fmt_pyfloat(w, sizeof(w), m->w);
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
	static const char *units[] = { "ns", "us", "ms", "s", "count", "none" };
	static const double scales[] = { 1e-9, 1e-6, 1e-3, 1 };
	struct conv c;
	const char *errstr, *k, *uarg = NULL;
	struct acc *a;
	size_t i, n, u;
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
			if (c.medcap == 0)
				c.med = xreallocarray(NULL, c.medcap = 1024,
				    sizeof(*c.med));
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
		for (u = 0; u < 6 && strcmp(uarg, units[u]) != 0; u++)
			;
		if (u == 6)
			errx(2, "-u: unknown unit: %s", uarg);
		c.nsc = 1;
		c.sc[0] = u < 4 ? scales[u] : u == 4 ? c.sc[1] : 1;
		c.unit = u == 5 ? U_NONE : U_SECONDS;
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
	if (c.medcap > 0)
		report(&c, uarg != NULL ? uarg : sel ? "count" : "ns");
	free(c.med);
	return 0;
}
