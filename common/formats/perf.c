/*
 * perf.c: the text that perf script prints, piece by piece (perf2sst).
 * Sample headers give a thread, an event and a period; frame lines give
 * frame names, by the rules of Ray's perf.py or of stackcollapse-perf.pl
 * (-F).  A frame table parses each distinct frame line once and keeps
 * its escaped frames, interned, under an id; a record table sums the
 * samples by thread, frames ids and unit.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perf.h"
#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"

#define LCMAX	(1 << 18)	/* frame lines cached before a reset */
#define PLWS(c)	((c) == ' ' || ((c) >= '\t' && (c) <= '\r'))
#define PYWS(c)	(PLWS(c) || ((c) >= 0x1c && (c) <= 0x1f))
#define DIGIT(c) ((c) >= '0' && (c) <= '9')

struct cache {
	struct htab	*ht;		/* frame line texts */
	uint32_t	*id;		/* by line: names id, or PERF_NO* */
	size_t		 cap;
};

struct perf_frames {
	int		 fg;		/* stackcollapse-perf.pl's rules */
	int		 flags;		/* PERF_* */
	struct htab	*names;		/* escaped frames joined by ';' */
	struct cache	 lc[2];		/* for other threads, for java */
	struct buf	 chunk, tmp;
};

/* The samples of a record so far. */
struct acc {
	uint64_t	 n;
	double		 sum, per;
	int		 same;		/* every sample weighs per */
};

struct perf_recs {
	const struct perf_frames *pf;
	int		 each;		/* write each sample at once */
	struct htab	*recs;		/* thread TAB names ids, unit */
	struct acc	*acc;
	size_t		 accap;
	uint32_t	*ids;
	size_t		 idcap;
	struct buf	 key;
};

static void	addname(struct buf *, const char *, size_t);
static void	fgpiece(struct buf *, struct buf *, const char *, const char *,
		    int, int, const char *, const char *, const char *,
		    const char *);

/* The last "ab" in [s, e), or NULL. */
const char *
perf_lastpair(const char *s, const char *e, char a, char b)
{
	const char *p;

	while (e - s >= 2 && (p = memrchr(s + 1, b, (size_t)(e - s - 1)))) {
		if (p[-1] == a)
			return p - 1;
		e = p;
	}
	return NULL;
}

/* The end of [s, e) without a trailing "+0x" and lower-case hex digits. */
const char *
perf_stripoff(const char *s, const char *e)
{
	const char *q = e;

	while (q > s && (DIGIT(q[-1]) || (q[-1] >= 'a' && q[-1] <= 'f')))
		q--;
	if (q < e && q - s >= 3 && memcmp(q - 3, "+0x", 3) == 0)
		return q - 3;
	return e;
}

/* The event and period that end a header, "...: [period] event:". */
int
perf_event(const char *s, size_t n, const char **ev, size_t *evn,
    double *per)
{
	const char *e = s + n, *t, *w, *d;

	while (e > s && PLWS(e[-1]))
		e--;
	for (t = e; t > s && !PLWS(t[-1]); t--)
		;
	if (e - t < 2 || e[-1] != ':' || t == s)
		return 0;
	for (w = t; w > s && PLWS(w[-1]); w--)
		;
	for (d = w; d > s && DIGIT(d[-1]); d--)
		;
	*ev = t;
	*evn = (size_t)(e - 1 - t);
	if (d == w)
		return w > s && w[-1] == ':';
	for (t = d; t > s && PLWS(t[-1]); t--)
		;
	if (t == s || t[-1] != ':')
		return 0;
	if (w - d <= 15) {
		for (; d < w; d++)
			*per = *per * 10 + (*d - '0');
	} else {
		/* Rounded once, as strtod(3) does (inf when too big). */
		t = xmemdup(d, (size_t)(w - d));
		*per += strtod(t, NULL);
		free((char *)t);
	}
	return 1;
}

/* The weight of a sample of event ev with period per (0: none). */
double
perf_weight(const char *ev, size_t evn, double per, enum sst_unit *unit)
{
	const char *p;

	*unit = U_NONE;
	if (per == 0)
		return 1;
	if ((p = memchr(ev, ':', evn)) != NULL)
		evn = (size_t)(p - ev);
	if ((evn == 9 && memcmp(ev, "cpu-clock", 9) == 0) ||
	    (evn == 10 && memcmp(ev, "task-clock", 10) == 0)) {
		*unit = U_SECONDS;
		return per * 1e-9;
	}
	return per;
}

/* Apply a comma-separated list of -F keywords to v; -1 if one is bad. */
int
perf_view(struct perf_view *v, char *arg, const char **bad)
{
	static const char *kw[] = { "addrs", "all", "comm", "jit", "kernel",
	    "period", "pid", "ray", "tid" };
	char *k;
	size_t i;

	while ((k = strsep(&arg, ",")) != NULL) {
		for (i = 0; i < 9 && strcmp(k, kw[i]) != 0; i++)
			;
		if (i == 9) {
			*bad = k;
			return -1;
		}
		v->flags |= i == 0 ? PERF_ADDRS : 0;
		v->flags |= i == 1 || i == 4 ? PERF_KERNEL : 0;
		v->flags |= i == 1 || i == 3 ? PERF_JIT : 0;
		v->period |= i == 5;
		v->ray |= i == 7;
		v->fg |= i != 5 && i != 7;
		if (i == 8 || (i == 6 && v->id == PERF_COMM))
			v->id = i == 8 ? PERF_TID : PERF_PID;
	}
	return 0;
}

/* A header by perf.py's rules: its thread is s[*a, *b); 0 if not one. */
int
perf_rayhead(const char *s, size_t n, size_t *a, size_t *b)
{
	size_t i, j, k;

	for (i = 0; i < n && PYWS((unsigned char)s[i]); i++)
		;
	for (j = i; j < n && !PYWS((unsigned char)s[j]); j++)
		;
	for (k = j; k < n && PYWS((unsigned char)s[k]); k++)
		;
	*a = i;
	*b = j;
	return k > j && k < n && DIGIT(s[k]);
}

/* A header "comm pid[/tid] ..." by -F rules into h; 0 if not one. */
int
perf_fghead(const char *s, size_t n, struct perf_head *h)
{
	const char *d1 = NULL, *d2 = NULL;
	size_t e, j = 0, k = 0;

	for (e = 2; e < n; e++) {
		if (!PLWS(s[e]))
			continue;
		for (j = e; j < n && PLWS(s[j]); j++)
			;
		for (d1 = s + j; j < n && DIGIT(s[j]); j++)
			;
		if (s + j == d1)
			continue;
		for (k = j; k < n && s[k] == '/'; k++)
			;
		for (d2 = s + k; k < n && DIGIT(s[k]); k++)
			;
		if (k < n && PLWS(s[k]))
			break;
	}
	if (e >= n)
		return 0;
	h->comm = e;
	h->pid = d1;
	h->pidn = (size_t)(s + j - d1);
	h->tid = d2;
	h->tidn = (size_t)(s + k - d2);
	if (h->tidn == 0 || (h->tidn == 1 && *h->tid == '0')) {
		h->tid = h->pid;
		h->tidn = h->pidn;
		h->pid = "?";
		h->pidn = 1;
	}
	return 1;
}

/*
 * The thread of header s into b, not escaped: "comm", "comm-pid" or
 * "comm-pid/tid" as id says, each space made '_'.
 */
void
perf_fgthread(struct buf *b, const char *s, const struct perf_head *h,
    enum perf_id id)
{
	size_t i;

	buf_reset(b);
	buf_add(b, s, h->comm);
	if (id != PERF_COMM) {
		buf_addc(b, '-');
		buf_add(b, h->pid, h->pidn);
	}
	if (id == PERF_TID) {
		buf_addc(b, '/');
		buf_add(b, h->tid, h->tidn);
	}
	for (i = 0; i < b->len; i++)
		if (b->data[i] == ' ')
			b->data[i] = '_';
}

/* Add a frame name to b, each ';' made ':', escaped. */
static void
addname(struct buf *b, const char *s, size_t n)
{
	const char *p, *e = s + n;

	if (b->len > 0)
		buf_addc(b, ';');
	if (n == 0)
		buf_add(b, "\\e", 2);
	while ((p = memchr(s, ';', (size_t)(e - s))) != NULL) {
		esc_add(b, s, (size_t)(p - s));
		buf_addc(b, ':');
		s = p + 1;
	}
	esc_add(b, s, (size_t)(e - s));
}

/* The frame of a frame line "addr func (dso)" by perf.py's rules. */
int
perf_rayframe(struct buf *out, struct buf *tmp, const char *t,
    const char *e)
{
	const char *sp, *r, *re, *d = NULL, *de = NULL, *b;

	if ((sp = memchr(t, ' ', (size_t)(e - t))) == NULL)
		return -1;
	r = sp + 1;
	re = e;
	if (re[-1] == ')' && (d = perf_lastpair(r, re, ' ', '(')) != NULL) {
		re = d;
		for (d += 2, de = e - 1; d < de && PYWS((unsigned char)*d); d++)
			;
		while (de > d && PYWS((unsigned char)de[-1]))
			de--;
	}
	re = perf_stripoff(r, re);
	if (re - r != 9 || memcmp(r, "[unknown]", 9) != 0) {
		addname(out, r, (size_t)(re - r));
		return 0;
	}
	buf_reset(tmp);
	if (de != NULL && d < de && !(de - d == 7 &&
	    memcmp(d, "unknown", 7) == 0) && !(de - d == 9 &&
	    memcmp(d, "[unknown]", 9) == 0)) {
		b = memrchr(d, '/', (size_t)(de - d));
		b = b != NULL ? b + 1 : d;
		buf_adds(tmp, "unk_");
		buf_add(tmp, b, (size_t)(de - b));
		buf_adds(tmp, "@0x");
	} else
		buf_adds(tmp, "unk_0x");
	buf_add(tmp, t, (size_t)(sp - t));
	addname(out, tmp->data, tmp->len);
	return 0;
}

/* One piece of a frame split at "->": tidied, annotated, added to out. */
static void
fgpiece(struct buf *out, struct buf *t, const char *p, const char *e,
    int first, int flags, const char *pc, const char *pce, const char *mod,
    const char *me)
{
	const char *b, *q, *x;
	size_t i, j, mn = (size_t)(me - mod);

	buf_reset(t);
	if (e - p == 9 && memcmp(p, "[unknown]", 9) == 0) {
		buf_addc(t, '[');
		if (mn == 9 && memcmp(mod, "[unknown]", 9) == 0)
			buf_adds(t, "unknown");
		else {
			b = memrchr(mod, '/', mn);
			b = b != NULL ? b + 1 : mod;
			buf_add(t, b, (size_t)(me - b));
		}
		if (flags & PERF_ADDRS) {
			buf_adds(t, " <");
			buf_add(t, pc, (size_t)(pce - pc));
			buf_addc(t, '>');
		}
		buf_addc(t, ']');
	} else
		buf_add(t, p, (size_t)(e - p));
	/* Go's "pkg.(*T).M" keeps its parentheses, others lose them. */
	q = memmem(t->data, t->len, ".(", 2);
	x = perf_lastpair(t->data, t->data + t->len, ')', '.');
	for (i = 0; (q == NULL || x == NULL || x < q + 2) && i < t->len; i++)
		if (t->data[i] == '(' && strncmp(t->data + i + 1,
		    "anonymous namespace)", 20) != 0)
			t->len = i;
	for (i = j = 0; i < t->len; i++)
		if (t->data[i] != '"' && t->data[i] != '\'')
			t->data[j++] = t->data[i];
	t->len = j;
	t->data[j] = '\0';
	if ((flags & PERF_JAVA) && t->len > 0 && t->data[0] == 'L' &&
	    memchr(t->data, '/', t->len) != NULL)
		memmove(t->data, t->data + 1, t->len--);
	if (!first) {
		if (strstr(t->data, "_[i]") == NULL)
			buf_adds(t, "_[i]");
	} else if ((flags & PERF_KERNEL) && mn > 0 && (*mod == '[' ||
	    (mn >= 7 && memcmp(me - 7, "vmlinux", 7) == 0)) &&
	    memmem(mod, mn, "unknown", 7) == NULL)
		buf_adds(t, "_[k]");
	else if ((flags & PERF_JIT) && strstr(t->data, "_[j]") == NULL)
		for (q = mod; (q = memmem(q, (size_t)(me - q), "/tmp/perf-",
		    10)) != NULL;) {
			for (x = q += 10; x < me && DIGIT(*x); x++)
				;
			if (x > q && me - x >= 4 && memcmp(x, ".map", 4) == 0) {
				buf_adds(t, "_[j]");
				break;
			}
		}
	addname(out, t->data, t->len);
}

/*
 * The frames of a frame line "pc func (mod)" by stackcollapse-perf.pl's
 * rules, its regular expression's backtracking included; -1 if none.
 */
int
perf_fgframe(struct buf *out, struct buf *tmp, const char *s, const char *e,
    int flags)
{
	const char *a, *b, *w, *k, *r, *f, *fe, *p;
	int first;

	for (a = s; a < e && PLWS(*a); a++)
		;
	for (b = a; b < e && (DIGIT(*b) || *b == '_' ||
	    ((*b | 0x20) >= 'a' && (*b | 0x20) <= 'z')); b++)
		;
	for (w = b; w < e && PLWS(*w); w++)
		;
	if (b == a || (r = memrchr(s, ')', (size_t)(e - s))) == NULL ||
	    (k = perf_lastpair(s, r, ' ', '(')) == NULL)
		return -1;
	if (k == b)
		b--;
	if (k < b || b == a)
		return -1;
	f = k > w ? w : k - 1;
	fe = perf_stripoff(f, k);
	if (fe > f && *f == '(')
		return 0;
	while (fe - f >= 2 && fe[-2] == '-' && fe[-1] == '>')
		fe -= 2;
	for (first = 1; fe > f; first = 0) {
		p = memmem(f, (size_t)(fe - f), "->", 2);
		fgpiece(out, tmp, f, p ? p : fe, first, flags, a, b, k + 2, r);
		if (p == NULL)
			break;
		f = p + 2;
	}
	return 0;
}

/* A frame table: -F rules if fg, with the PERF_* flags given. */
struct perf_frames *
perf_frames_new(int fg, int flags)
{
	struct perf_frames *pf;

	pf = xcalloc(1, sizeof(*pf));
	pf->fg = fg;
	pf->flags = flags;
	pf->names = ht_new();
	pf->lc[0].ht = ht_new();
	pf->lc[1].ht = ht_new();
	buf_init(&pf->chunk);
	buf_init(&pf->tmp);
	return pf;
}

/* The names id of the frame line [t, e), parsed once, then cached. */
uint32_t
perf_frames_id(struct perf_frames *pf, const char *t, const char *e,
    int java)
{
	struct cache *lc = &pf->lc[java];
	size_t id;
	int isnew, r;

	if (ht_count(lc->ht) >= LCMAX) {
		ht_free(lc->ht);
		lc->ht = ht_new();
	}
	id = ht_intern(lc->ht, t, (size_t)(e - t), &isnew);
	if (!isnew)
		return lc->id[id];
	if (id == lc->cap)
		lc->id = xgrow(lc->id, &lc->cap, id + 1, 1024, sizeof(*lc->id));
	buf_reset(&pf->chunk);
	if (pf->fg)
		r = perf_fgframe(&pf->chunk, &pf->tmp, t, e, pf->flags |
		    (java ? PERF_JAVA : 0));
	else
		r = perf_rayframe(&pf->chunk, &pf->tmp, t, e);
	if (r == -1)
		lc->id[id] = PERF_BADLINE;
	else if (pf->chunk.len == 0)
		lc->id[id] = PERF_NOFRAME;
	else
		lc->id[id] = (uint32_t)ht_intern(pf->names, pf->chunk.data,
		    pf->chunk.len, NULL);
	return lc->id[id];
}

/* Append the stack of names ids (leaf first) to b, root first. */
void
perf_frames_stack(const struct perf_frames *pf, const uint32_t *ids,
    size_t n, struct buf *b)
{
	const char *k;
	size_t len;

	while (n-- > 0) {
		k = ht_key(pf->names, ids[n], &len);
		buf_add(b, k, len);
		if (n > 0)
			buf_addc(b, ';');
	}
}

/* Free the table and all it holds. */
void
perf_frames_free(struct perf_frames *pf)
{
	int i;

	for (i = 0; i < 2; i++) {
		ht_free(pf->lc[i].ht);
		free(pf->lc[i].id);
	}
	ht_free(pf->names);
	buf_free(&pf->chunk);
	buf_free(&pf->tmp);
	free(pf);
}

/* A record table for the frames of pf; each: write samples at once. */
struct perf_recs *
perf_recs_new(const struct perf_frames *pf, int each)
{
	struct perf_recs *pr;

	pr = xcalloc(1, sizeof(*pr));
	pr->pf = pf;
	pr->each = each;
	pr->recs = ht_new();
	buf_init(&pr->key);
	return pr;
}

/*
 * A sample of thread (escaped) and frames ids[0..n) (leaf first); -1
 * if its weight or its record's summed weight is not finite.
 */
int
perf_recs_add(struct perf_recs *pr, const char *thread, size_t threadlen,
    const uint32_t *ids, size_t n, double w, enum sst_unit unit)
{
	struct acc *a;
	size_t id, ks;
	int isnew;

	if (!isfinite(w))
		return -1;
	buf_reset(&pr->key);
	buf_add(&pr->key, thread, threadlen);
	buf_addc(&pr->key, '\t');
	ks = pr->key.len;
	if (pr->each) {
		perf_frames_stack(pr->pf, ids, n, &pr->key);
		rec_write(stdout, &(struct sst_rec){ .thread = pr->key.data,
		    .threadlen = ks - 1, .samples = 1, .weight = w,
		    .unit = unit, .hasperiod = 1, .period = w,
		    .stack = pr->key.data + ks, .stacklen = pr->key.len - ks,
		    .locs = "" });
		return 0;
	}
	buf_add(&pr->key, ids, n * sizeof(*ids));
	buf_addc(&pr->key, '0' + (int)unit);
	id = ht_intern(pr->recs, pr->key.data, pr->key.len, &isnew);
	if (isnew && id == pr->accap)
		pr->acc = xgrow(pr->acc, &pr->accap, id + 1, 1024,
		    sizeof(*pr->acc));
	a = &pr->acc[id];
	if (isnew)
		*a = (struct acc){ .per = w, .same = 1 };
	else if (a->per != w)
		a->same = 0;
	a->n++;
	a->sum += w;
	return isfinite(a->sum) ? 0 : -1;
}

/* Write the records to standard output in first-seen order. */
void
perf_recs_put(struct perf_recs *pr)
{
	const char *k, *t;
	struct acc *a;
	size_t i, n, nids;

	for (i = 0; i < ht_count(pr->recs); i++) {
		k = ht_key(pr->recs, i, &n);
		t = memchr(k, '\t', n);
		nids = (size_t)(k + n - t - 2) / sizeof(*pr->ids);
		if (nids > pr->idcap) {
			pr->idcap = nids;
			pr->ids = xreallocarray(pr->ids, pr->idcap,
			    sizeof(*pr->ids));
		}
		if (nids > 0)		/* pr->ids may still be NULL */
			memcpy(pr->ids, t + 1, nids * sizeof(*pr->ids));
		buf_reset(&pr->key);
		perf_frames_stack(pr->pf, pr->ids, nids, &pr->key);
		a = &pr->acc[i];
		rec_write(stdout, &(struct sst_rec){ .thread = k,
		    .threadlen = (size_t)(t - k), .samples = a->n,
		    .weight = a->sum, .unit = (enum sst_unit)(k[n - 1] - '0'),
		    .hasperiod = a->same, .period = a->per,
		    .stack = pr->key.data, .stacklen = pr->key.len,
		    .locs = "" });
	}
}

/* Free the table and all it holds (not its frame table). */
void
perf_recs_free(struct perf_recs *pr)
{
	ht_free(pr->recs);
	free(pr->acc);
	free(pr->ids);
	buf_free(&pr->key);
	free(pr);
}
