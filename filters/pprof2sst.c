/*
 * pprof2sst: convert pprof's profile.proto, gzip-compressed or not, to
 * the sst stream: one record per distinct (thread, stack), in the order
 * in which each was first seen.  The thread is the sample's label
 * "thread", or "all"; the weight is one value of the samples (-X, else
 * the default sample type, else the last, as pprof picks it), its unit
 * told by the sample type's; samples are the value of the nearest
 * sample type of unit "count" before it (the value itself if it is a
 * count), else one per Sample.  Frames come from Location.Line, the
 * inlined ones expanded, innermost last; a location without lines, or
 * a line without a function name, is "0xADDR" in the mapping's file.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"
#include "input.h"
#include "pprof.h"

/* The totals of a (thread, stack, locations) key. */
struct tot {
	uint64_t	 n;
	int64_t		 v;
	int64_t		 per;
	int		 pstate;	/* 0: none yet, 1: per, 2: none */
};

/* Each location's frames as stack and locations field text. */
struct lt {
	struct buf	 text;
	size_t		*stk, *locs, *end;	/* offsets in text */
	int		*has;		/* some frame has a location */
};

static void	xread(const char *, struct buf *);
static __dead void bad(const char *, const struct buf *, const char *);
static void	frames(const struct pprof *, struct lt *);
static int	frameof(const struct pprof *, const struct pprof_loc *,
		    size_t, struct buf *, struct buf *);
static int	streq(const struct pprof *, int64_t, const char *);
static int	pick(const struct pprof *, const char *, size_t *);
static double	unitof(const struct pprof *, int64_t, enum sst_unit *);
static void	convert(const char *, const char *);
static __dead void usage(int);

/* The whole input, decompressed, into b. */
static void
xread(const char *path, struct buf *b)
{
	struct input *in;
	ssize_t n;
	int fd;

	fd = xopen(path);
	in = input_open(fd);
	for (;;) {
		buf_grow(b, 1 << 16);
		if ((n = input_read(in, b->data + b->len, 1 << 16)) == -1)
			errx(1, "%s: %s", path ? path : "<stdin>",
			    input_errmsg(in));
		if (n == 0)
			break;
		b->len += (size_t)n;
	}
	input_close(in);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* Exit 1 on input b that is no profile, with what it looks like. */
static __dead void
bad(const char *name, const struct buf *b, const char *why)
{
	char msg[256];
	const char *says;
	enum sniff k;

	if (b->len == 0)
		errx(1, "%s: empty input", name);
	k = sniff(b->data, b->len < INPUT_HEADMAX ? b->len : INPUT_HEADMAX);
	if ((says = sniff_says(k, msg, sizeof(msg))) != NULL)
		errx(1, "%s: not a profile.proto: %s", name, says);
	if (k != SN_BINARY)
		errx(1, "%s: not a profile.proto: this looks like %s (%s)",
		    name, sniff_what(k), why);
	errx(1, "%s: %s", name, why);
}

/*
 * Frame k of location l, its name escaped into nm, its entry into lc;
 * whether the entry says something (a file, a line or a column).
 */
static int
frameof(const struct pprof *p, const struct pprof_loc *l, size_t k,
    struct buf *nm, struct buf *lc)
{
	const struct pprof_line *ln = NULL;
	const struct pprof_func *fn = NULL;
	const char *s = NULL;
	size_t n = 0;
	long ix;

	if (k < l->nline) {
		ln = &p->line[l->line0 + l->nline - 1 - k];
		if ((ix = pprof_findfn(p, ln->func)) >= 0)
			fn = &p->fn[ix];
	}
	if (fn != NULL && (s = pprof_str(p, fn->name, &n), n == 0))
		s = pprof_str(p, fn->sysname, &n);
	if (n > 0) {
		esc_name(nm, s, n);
		s = pprof_str(p, fn->file, &n);
		esc_add(lc, s, n);
		buf_addc(lc, ':');
		if (ln->line != 0)
			buf_printf(lc, "%lld", (long long)ln->line);
		buf_addc(lc, ':');
		if (ln->col != 0)
			buf_printf(lc, "%lld", (long long)ln->col);
		buf_addc(lc, ':');
		return n > 0 || ln->line != 0 || ln->col != 0;
	}
	buf_printf(nm, "0x%llx", (unsigned long long)l->addr);
	if (l->mapping != 0 && (ix = pprof_findmap(p, l->mapping)) >= 0) {
		s = pprof_str(p, p->map[ix].file, &n);
		esc_add(lc, s, n);
	}
	buf_add(lc, ":::", 3);
	return n > 0;
}

/* The frames of every location, root first (innermost last). */
static void
frames(const struct pprof *p, struct lt *t)
{
	const struct pprof_loc *l;
	struct buf nm, lc;
	size_t i, k, nf;

	buf_init(&t->text);
	buf_init(&nm);
	buf_init(&lc);
	t->stk = xcalloc(p->nloc + 1, sizeof(*t->stk));
	t->locs = xcalloc(p->nloc + 1, sizeof(*t->locs));
	t->end = xcalloc(p->nloc + 1, sizeof(*t->end));
	t->has = xcalloc(p->nloc + 1, sizeof(*t->has));
	for (i = 0; i < p->nloc; i++) {
		l = &p->loc[i];
		nf = l->nline > 0 ? l->nline : 1;
		buf_reset(&nm);
		buf_reset(&lc);
		for (k = 0; k < nf; k++) {
			if (k > 0) {
				buf_addc(&nm, ';');
				buf_addc(&lc, ';');
			}
			t->has[i] |= frameof(p, l, k, &nm, &lc);
		}
		t->stk[i] = t->text.len;
		buf_add(&t->text, nm.data, nm.len);
		t->locs[i] = t->text.len;
		buf_add(&t->text, lc.data, lc.len);
		t->end[i] = t->text.len;
	}
	buf_free(&nm);
	buf_free(&lc);
}

/* Whether string i of the table is s. */
static int
streq(const struct pprof *p, int64_t i, const char *s)
{
	const char *t;
	size_t n;

	t = pprof_str(p, i, &n);
	return n == strlen(s) && memcmp(t, s, n) == 0;
}

/* The index of the sample type to read: -X's, pprof's default, last. */
static int
pick(const struct pprof *p, const char *x, size_t *ix)
{
	const char *e;
	size_t i;

	if (x == NULL && p->defst != 0) {
		for (i = 0; i < p->nst; i++)
			if (p->st[i].type == p->defst)
				break;
		*ix = i < p->nst ? i : p->nst - 1;
		return 0;
	}
	if (x == NULL) {
		*ix = p->nst - 1;
		return 0;
	}
	for (i = 0; i < p->nst; i++)
		if (streq(p, p->st[i].type, x)) {
			*ix = i;
			return 0;
		}
	i = (size_t)strtonum(x, 0, (long long)p->nst - 1, &e);
	*ix = i;
	return e == NULL ? 0 : -1;
}

/* The divisor to seconds of a time unit, or 0; the unit in *u. */
static double
unitof(const struct pprof *p, int64_t ui, enum sst_unit *u)
{
	static const struct {
		const char	*name;
		double		 div;
	} t[] = {
		{ "nanoseconds", 1e9 }, { "microseconds", 1e6 },
		{ "milliseconds", 1e3 }, { "seconds", 1 },
	};
	size_t i;

	*u = U_SECONDS;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (streq(p, ui, t[i].name))
			return t[i].div;
	*u = streq(p, ui, "bytes") ? U_BYTES : U_NONE;
	return 1;
}

/* What a conversion reads and adds up. */
struct conv {
	const char		*name;
	const struct pprof	*p;
	struct lt		 lt;
	size_t			 ix;	/* the value read */
	long			 cnt;	/* the count's, or -1 */
	int64_t			 per;	/* the profile's period, or 0 */
	struct htab		*keys;
	struct tot		*tot;
	size_t			 cap;
	struct buf		 key;
	struct pprof_sample	 s;
};

/* Add sample i to the totals of its key. */
static void
add(struct conv *c, size_t i)
{
	const struct pprof *p = c->p;
	const struct pprof_label *lb;
	struct tot *t;
	char err[256];
	const char *s;
	size_t k, n, id, off = p->smp[i].off;
	int64_t v, cn, per = 0;
	int hasper = 0, has = 0, isnew;

	if (pprof_sample(p, i, &c->s, err, sizeof(err)) == -1)
		errx(1, "%s: %s", c->name, err);
	if (c->s.nval != p->nst)
		errx(1, "%s: offset %zu: sample %zu: %zu value(s) for %zu "
		    "sample types", c->name, off, i + 1, c->s.nval, p->nst);
	v = c->s.val[c->ix];
	cn = c->cnt >= 0 ? c->s.val[c->cnt] : 1;
	if (cn < 0 || (cn == 0 && v != 0))
		errx(1, "%s: offset %zu: sample %zu: a count of %lld for a "
		    "value of %lld", c->name, off, i + 1, (long long)cn,
		    (long long)v);
	buf_reset(&c->key);
	s = "all";
	n = 3;
	for (k = 0; k < c->s.nlab; k++) {
		lb = &c->s.lab[k];
		if (streq(p, lb->key, "thread") && s != NULL &&
		    strcmp(s, "all") == 0 && n == 3)
			s = pprof_str(p, lb->str, &n);
		else if (streq(p, lb->key, "period") && !hasper &&
		    (lb->unit == 0 ||
		    lb->unit == p->st[c->ix].unit ||
		    streq(p, lb->unit, pprof_str(p, p->st[c->ix].unit, &id))))
			hasper = 1, per = lb->num;
	}
	esc_add(&c->key, s, n);
	buf_addc(&c->key, '\t');
	for (k = c->s.nloc; k > 0; k--) {
		id = c->s.loc[k - 1];
		if (k < c->s.nloc)
			buf_addc(&c->key, ';');
		buf_add(&c->key, c->lt.text.data + c->lt.stk[id],
		    c->lt.locs[id] - c->lt.stk[id]);
		has |= c->lt.has[id];
	}
	buf_addc(&c->key, '\t');
	for (k = c->s.nloc; has && k > 0; k--) {
		id = c->s.loc[k - 1];
		if (k < c->s.nloc)
			buf_addc(&c->key, ';');
		buf_add(&c->key, c->lt.text.data + c->lt.locs[id],
		    c->lt.end[id] - c->lt.locs[id]);
	}
	if (cn > 0 && !hasper && c->cnt == (long)c->ix)
		hasper = 1, per = 1;
	if (cn > 0 && !hasper && c->per != 0 && v % c->per == 0 &&
	    v / c->per == cn)
		hasper = 1, per = c->per;
	if (cn == 1 && !hasper)
		hasper = 1, per = v;
	id = ht_intern(c->keys, c->key.data, c->key.len, &isnew);
	if (id >= c->cap) {
		c->cap = c->cap ? c->cap * 2 : 1024;
		c->tot = xreallocarray(c->tot, c->cap, sizeof(*c->tot));
	}
	t = &c->tot[id];
	if (isnew)
		memset(t, 0, sizeof(*t));
	if (__builtin_add_overflow(t->n, (uint64_t)cn, &t->n) ||
	    __builtin_add_overflow(t->v, v, &t->v))
		errx(1, "%s: offset %zu: sample %zu: its stack's total "
		    "overflows", c->name, off, i + 1);
	if (cn == 0)
		return;
	if (t->pstate == 0 && hasper)
		t->pstate = 1, t->per = per;
	else if (!hasper || per != t->per)
		t->pstate = 2;
}

/* Write the record of key id. */
static void
put(const struct conv *c, size_t id, enum sst_unit u, double div)
{
	const struct tot *t = &c->tot[id];
	struct sst_rec r;
	const char *k, *a, *b;
	size_t n;

	memset(&r, 0, sizeof(r));
	k = ht_key(c->keys, id, &n);
	a = memchr(k, '\t', n);
	b = memchr(a + 1, '\t', (size_t)(k + n - a - 1));
	r.thread = k;
	r.threadlen = (size_t)(a - k);
	r.stack = a + 1;
	r.stacklen = (size_t)(b - a - 1);
	r.locs = b + 1;
	r.locslen = (size_t)(k + n - b - 1);
	r.samples = t->n;
	r.unit = u;
	r.weight = (double)t->v / div;
	if (t->pstate == 1 && t->per != 0 && t->v % t->per == 0 &&
	    (uint64_t)(t->v / t->per) == t->n) {
		r.hasperiod = 1;
		r.period = (double)t->per / div;
		r.weight = fmt_pysum(0, r.period, t->n);
	} else if (t->pstate == 1 && t->per == 0 && t->v == 0) {
		r.hasperiod = 1;
		r.period = 0;
	}
	rec_write(stdout, &r);
}

/* Convert one file ("-" or NULL: standard input). */
static void
convert(const char *path, const char *x)
{
	struct pprof p;
	struct conv c;
	struct buf data;
	enum sst_unit u;
	char err[256];
	double div;
	size_t i;

	memset(&c, 0, sizeof(c));
	c.name = path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path;
	buf_init(&data);
	xread(path, &data);
	if (data.len == 0 || pprof_decode(&p, (const uint8_t *)data.data,
	    data.len, err, sizeof(err)) == -1)
		bad(c.name, &data, err);
	if (p.nst == 0)
		bad(c.name, &data, "no sample_type: not a profile.proto");
	if (pick(&p, x, &c.ix) == -1)
		errx(1, "%s: -X %s: no such sample type (%zu types)", c.name,
		    x, p.nst);
	div = unitof(&p, p.st[c.ix].unit, &u);
	for (c.cnt = (long)c.ix; c.cnt >= 0; c.cnt--)
		if (streq(&p, p.st[c.cnt].unit, "count"))
			break;
	if (p.hasptype && p.period > 0 && p.ptype.type == p.st[c.ix].type &&
	    p.ptype.unit == p.st[c.ix].unit)
		c.per = p.period;
	c.p = &p;
	frames(&p, &c.lt);
	c.keys = ht_new();
	buf_init(&c.key);
	for (i = 0; i < p.nsmp; i++)
		add(&c, i);
	for (i = 0; i < ht_count(c.keys); i++)
		put(&c, i, u, div);
	ht_free(c.keys);
	free(c.tot);
	buf_free(&c.key);
	pprof_sample_free(&c.s);
	buf_free(&c.lt.text);
	free(c.lt.stk);
	free(c.lt.locs);
	free(c.lt.end);
	free(c.lt.has);
	pprof_free(&p);
	buf_free(&data);
}

static __dead void
usage(int help)
{
	sst_usage(help, "usage: pprof2sst [-h] [-X index] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	const char *x = NULL;
	int ch, i;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "hX:")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		case 'X':
			x = optarg;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		convert(NULL, x);
	for (i = 0; i < argc; i++)
		convert(argv[i], x);
	fshut(stdout, "stdout");
	return 0;
}
