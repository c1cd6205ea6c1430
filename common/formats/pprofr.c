/*
 * pprofr.c: the samples of a decoded profile.proto (pprof.c) as sst
 * records (pprof2sst): one record per distinct (thread, stack), in the
 * order in which each was first seen.  The thread is the sample's
 * label "thread", or "all"; the weight is one value of the samples (a
 * sample type named or numbered, else the default sample type, else
 * the last, as pprof picks it), its unit told by the sample type's;
 * samples are the value of the nearest sample type of unit "count" at
 * or before it, else one per Sample.  Frames come from Location.Line,
 * the inlined ones expanded, innermost last; a location without lines,
 * or a line without a function name, is "0xADDR" in the mapping's
 * file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "pprof.h"

/* The totals of a (thread, stack, locations) key. */
struct tot {
	uint64_t	 n;
	int64_t		 v;
	int64_t		 per;
	int		 pstate;	/* 0: none yet, 1: per, 2: none */
};

/*
 * Each location's frames as stack and locations field text; locations
 * of the same text share one canonical id, so that a record's key is
 * its thread's id and its locations' canonical ids, 4 bytes a frame.
 */
struct lt {
	struct buf	 text;
	size_t		*stk, *locs, *end;	/* offsets in text */
	int		*has;		/* some frame has a location */
	struct htab	*canon;		/* "stack TAB locations" */
	uint32_t	*cid;		/* by location: its canonical id */
	size_t		*rep;		/* by canonical id: a location */
};

/* What a conversion reads and adds up. */
struct pprofr {
	const struct pprof	*p;
	struct lt		 lt;
	size_t			 ix;	/* the value read */
	long			 cnt;	/* the count's, or -1 */
	int64_t			 per;	/* the profile's period, or 0 */
	struct htab		*keys;		/* thread id, canonical ids */
	struct htab		*threads;	/* escaped names */
	struct tot		*tot;
	size_t			 cap;
	struct buf		 key, out;
	struct pprof_sample	 s;
	enum sst_unit		 unit;
	double			 div;
};

static int	frameof(const struct pprof *, const struct pprof_loc *,
		    size_t, struct buf *, struct buf *);
static void	frames(const struct pprof *, struct lt *);
static int	streq(const struct pprof *, int64_t, const char *);
static int	pick(const struct pprof *, const char *, size_t *);
static double	unitof(const struct pprof *, int64_t, enum sst_unit *);
static int	addparts(struct buf *, const struct lt *, const char *, size_t,
		    const size_t *, const size_t *);
static void	put(struct pprofr *, size_t, FILE *);
static int	labels(const struct pprofr *, const char **, size_t *,
		    int64_t *);
static void	mkkey(struct pprofr *, const char *, size_t);
static int	msg(char *, size_t, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));

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
	size_t i, k, nf, id;
	int isnew;

	buf_init(&t->text);
	buf_init(&nm);
	buf_init(&lc);
	t->stk = xcalloc(p->nloc + 1, sizeof(*t->stk));
	t->locs = xcalloc(p->nloc + 1, sizeof(*t->locs));
	t->end = xcalloc(p->nloc + 1, sizeof(*t->end));
	t->has = xcalloc(p->nloc + 1, sizeof(*t->has));
	t->cid = xcalloc(p->nloc + 1, sizeof(*t->cid));
	t->rep = xcalloc(p->nloc + 1, sizeof(*t->rep));
	t->canon = ht_new();
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
		buf_addc(&nm, '\t');
		buf_add(&nm, lc.data, lc.len);
		id = ht_intern(t->canon, nm.data, nm.len, &isnew);
		t->cid[i] = (uint32_t)id;
		if (isnew)
			t->rep[id] = i;
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


/* Add sample i to the totals of its key. */
/*
 * The sample's thread (its label "thread", else "all") into *s, *n, and
 * its period (its label "period" in the value's unit) into *per; 1 if
 * it has one.
 */
static int
labels(const struct pprofr *c, const char **s, size_t *n, int64_t *per)
{
	const struct pprof *p = c->p;
	const struct pprof_label *lb;
	int hasper = 0, thr = 0;
	size_t k, un;

	*s = "all";
	*n = 3;
	for (k = 0; k < c->s.nlab; k++) {
		lb = &c->s.lab[k];
		if (!thr && streq(p, lb->key, "thread")) {
			*s = pprof_str(p, lb->str, n);
			thr = 1;
		} else if (!hasper && streq(p, lb->key, "period") &&
		    (lb->unit == 0 || lb->unit == p->st[c->ix].unit ||
		    streq(p, lb->unit, pprof_str(p, p->st[c->ix].unit,
		    &un)))) {
			*per = lb->num;
			hasper = 1;
		}
	}
	return hasper;
}

/* Into c->key: the sample's thread id, its locations' canonical ids. */
static void
mkkey(struct pprofr *c, const char *s, size_t n)
{
	uint32_t id;
	size_t k;

	buf_reset(&c->out);
	esc_add(&c->out, s, n);
	id = (uint32_t)ht_intern(c->threads, c->out.data, c->out.len, NULL);
	buf_reset(&c->key);
	buf_add(&c->key, &id, sizeof(id));
	for (k = 0; k < c->s.nloc; k++)
		buf_add(&c->key, &c->lt.cid[c->s.loc[k]], sizeof(id));
}

int
pprofr_add(struct pprofr *c, size_t i, char *err, size_t errlen)
{
	const struct pprof *p = c->p;
	struct tot *t;
	const char *s;
	size_t n, id, off = p->smp[i].off;
	int64_t v, cn, per = 0;
	int hasper, isnew;

	if (pprof_sample(p, i, &c->s, err, errlen) == -1)
		return -1;
	if (c->s.nval != p->nst)
		return msg(err, errlen, "offset %zu: sample %zu: %zu "
		    "value(s) for %zu sample types", off, i + 1, c->s.nval,
		    p->nst);
	v = c->s.val[c->ix];
	cn = c->cnt >= 0 ? c->s.val[c->cnt] : 1;
	if (cn < 0 || (cn == 0 && v != 0))
		return msg(err, errlen, "offset %zu: sample %zu: a count "
		    "of %lld for a value of %lld", off, i + 1, (long long)cn,
		    (long long)v);
	hasper = labels(c, &s, &n, &per);
	mkkey(c, s, n);
	if (cn > 0 && !hasper && c->cnt == (long)c->ix) {
		hasper = 1;
		per = 1;
	}
	if (cn > 0 && !hasper && c->per != 0 && v % c->per == 0 &&
	    v / c->per == cn) {
		hasper = 1;
		per = c->per;
	}
	if (cn == 1 && !hasper) {
		hasper = 1;
		per = v;
	}
	id = ht_intern(c->keys, c->key.data, c->key.len, &isnew);
	c->tot = xgrow(c->tot, &c->cap, id + 1, 1024, sizeof(*c->tot));
	t = &c->tot[id];
	if (isnew)
		memset(t, 0, sizeof(*t));
	if (__builtin_add_overflow(t->n, (uint64_t)cn, &t->n) ||
	    __builtin_add_overflow(t->v, v, &t->v))
		return msg(err, errlen, "offset %zu: sample %zu: its "
		    "stack's total overflows", off, i + 1);
	if (cn == 0)
		return 0;
	if (t->pstate == 0 && hasper) {
		t->pstate = 1;
		t->per = per;
	} else if (!hasper || per != t->per)
		t->pstate = 2;
	return 0;
}

/*
 * Append to b, ';' between them, part [from[loc], to[loc]) of the text
 * of the frames of key k (its nf canonical ids after the thread, leaf
 * first), root first; whether one of them has a location.
 */
static int
addparts(struct buf *b, const struct lt *lt, const char *k, size_t nf,
    const size_t *from, const size_t *to)
{
	size_t j, loc;
	uint32_t x;
	int has = 0;

	for (j = nf; j > 0; j--) {
		memcpy(&x, k + j * sizeof(x), sizeof(x));
		loc = lt->rep[x];
		if (j < nf)
			buf_addc(b, ';');
		buf_add(b, lt->text.data + from[loc], to[loc] - from[loc]);
		has |= lt->has[loc];
	}
	return has;
}

/* Write the record of key id. */
static void
put(struct pprofr *c, size_t id, FILE *fp)
{
	const struct tot *t = &c->tot[id];
	const struct lt *lt = &c->lt;
	struct sst_rec r;
	const char *k;
	size_t n, nf, s0;
	uint32_t x;
	int has;

	memset(&r, 0, sizeof(r));
	/* The key's ids, read with memcpy: keys are not aligned. */
	k = ht_key(c->keys, id, &n);
	nf = n / sizeof(x) - 1;
	memcpy(&x, k, sizeof(x));
	r.thread = ht_key(c->threads, x, &r.threadlen);
	buf_reset(&c->out);
	has = addparts(&c->out, lt, k, nf, lt->stk, lt->locs);
	s0 = c->out.len;
	if (has)
		addparts(&c->out, lt, k, nf, lt->locs, lt->end);
	r.stack = c->out.data;
	r.stacklen = s0;
	r.locs = c->out.data + s0;
	r.locslen = c->out.len - s0;
	r.samples = t->n;
	r.unit = c->unit;
	r.weight = (double)t->v / c->div;
	if (t->pstate == 1 && t->per != 0 &&
	    (t->per != -1 || t->v != INT64_MIN) && t->v % t->per == 0 &&
	    (uint64_t)(t->v / t->per) == t->n) {
		r.hasperiod = 1;
		r.period = (double)t->per / c->div;
		r.weight = fmt_pysum(0, r.period, t->n);
	} else if (t->pstate == 1 && t->per == 0 && t->v == 0) {
		r.hasperiod = 1;
		r.period = 0;
	}
	rec_write(fp, &r);
}


/* "message" into err[0..n); returns -1. */
static int
msg(char *err, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	return -1;
}

struct pprofr *
pprofr_new(const struct pprof *p, const char *x, char *err, size_t errlen)
{
	struct pprofr *c;

	if (p->nst == 0) {
		msg(err, errlen, "no sample_type");
		return NULL;
	}
	c = xcalloc(1, sizeof(*c));
	c->p = p;
	if (pick(p, x, &c->ix) == -1) {
		msg(err, errlen, "-X %s: no such sample type (%zu types)", x,
		    p->nst);
		free(c);
		return NULL;
	}
	c->div = unitof(p, p->st[c->ix].unit, &c->unit);
	for (c->cnt = (long)c->ix; c->cnt >= 0; c->cnt--)
		if (streq(p, p->st[c->cnt].unit, "count"))
			break;
	if (p->hasptype && p->period > 0 &&
	    p->ptype.type == p->st[c->ix].type &&
	    p->ptype.unit == p->st[c->ix].unit)
		c->per = p->period;
	frames(p, &c->lt);
	c->keys = ht_new();
	c->threads = ht_new();
	buf_init(&c->key);
	buf_init(&c->out);
	return c;
}

void
pprofr_put(struct pprofr *c, FILE *fp)
{
	size_t i;

	for (i = 0; i < ht_count(c->keys); i++)
		put(c, i, fp);
}

void
pprofr_free(struct pprofr *c)
{
	if (c == NULL)
		return;
	ht_free(c->keys);
	ht_free(c->threads);
	ht_free(c->lt.canon);
	free(c->lt.cid);
	free(c->lt.rep);
	free(c->tot);
	buf_free(&c->key);
	buf_free(&c->out);
	pprof_sample_free(&c->s);
	buf_free(&c->lt.text);
	free(c->lt.stk);
	free(c->lt.locs);
	free(c->lt.end);
	free(c->lt.has);
	free(c);
}
