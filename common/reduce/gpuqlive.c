/*
 * gpuqlive.c: sst-gpu -F queue summarised as the rows are read (without
 * hta or a step range), with the same numbers as the rows' way (gpuq.c).
 *
 * The rows' way: a launch (a runtime launch call, not itself an HTA GPU
 * kernel, whose correlation an HTA GPU kernel has) adds one to the queue
 * of the stream of the first GPU event (no sync) of its correlation in
 * the trace; each GPU event's start takes one away; the steps are
 * sorted stably by time from the launches (in trace order) followed by
 * the starts, so at one time a stream's launches come before its starts.
 * Per stream the lengths after each step are summarised.
 *
 * Here a call waits, by correlation, for its GPU event (or the event for
 * its call); when both are read the launch's step is known.  Each step
 * goes to a min-heap by (time, launch before start) of lag steps; when
 * it is full the smallest is taken out and applied to its stream, whose
 * length goes into a histogram (a count per length).  The histogram
 * gives count, min, quartiles and max exactly, and the mean and the
 * deviation with the very additions gpuq.c makes over its sorted values
 * (value by value, smallest first), so the same bits.  A joined
 * correlation keeps its stream, for more calls of it; past keep of them
 * the older half is forgotten, and a call or event of a correlation at
 * or below the ones forgotten (it could be one of them) sends the rank
 * back to its rows, as does a step older than one already applied to
 * its stream, or a row the rules above do not cover (a launch call that
 * is on a stream itself, a GPU event with a correlation that is no HTA
 * GPU kernel).  Memory: lag steps, the correlations in flight and keep
 * joined ones, and a count per distinct queue length of each stream.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "i64map.h"
#include "owin.h"
#include "sort.h"
#include "gpu.h"
#include "gpuqlive.h"

#define NONE	UINT32_MAX

/* A step: launch (kind 0) or start (1) on stream st at ts. */
struct qstep {
	int64_t		 ts;
	uint32_t	 st;
	uint32_t	 kind;
};

OWIN_HEAD(stwin, struct qstep);

/* A stream: its length, the last step applied (if on), the lengths. */
struct qstream {
	int		 len, on;
	int64_t		 fts;
	uint32_t	 fkind;
	struct qhist	 h;
};

/* A call waiting: its start. */
struct qit {
	int64_t		 ts;
	uint32_t	 next;
};

struct gqlive {
	size_t		 lag, keep;
	int		 bad;
	struct stwin	 w;		/* the window (owin.h) */
	struct qstream	*s;
	size_t		 ns;
	struct i64map	 tab;		/* correlation: its stream, or
					   (-1) the head of its calls */
	size_t		 ndone;		/* correlations with a stream */
	struct qit	*it;
	size_t		 nit, capit;
	uint32_t	 freeit;
	int		 hasfloor;	/* correlations <= floor forgotten */
	int64_t		 floor;
};

void
qh_add(struct qhist *h, int v)
{
	int64_t lo, hi, nlo, nhi;
	uint64_t *c;

	if (h->nc == 0) {
		h->lo = v;
		h->nc = 16;
		h->c = xcalloc(h->nc, sizeof(*h->c));
	}
	lo = h->lo;
	hi = lo + (int64_t)h->nc - 1;
	if (v < lo || v > hi) {
		nlo = v < lo ? (v < lo - (int64_t)h->nc ? v : lo -
		    (int64_t)h->nc) : lo;
		nhi = v > hi ? (v > hi + (int64_t)h->nc ? v : hi +
		    (int64_t)h->nc) : hi;
		c = xcalloc((size_t)(nhi - nlo + 1), sizeof(*c));
		memcpy(c + (lo - nlo), h->c, h->nc * sizeof(*c));
		free(h->c);
		h->c = c;
		h->lo = (int)nlo;
		h->nc = (size_t)(nhi - nlo + 1);
	}
	h->c[v - h->lo]++;
	h->n++;
}

int
qh_at(const struct qhist *h, uint64_t k)
{
	size_t i;

	for (i = 0; i < h->nc; i++) {
		if (k < h->c[i])
			break;
		k -= h->c[i];
	}
	return h->lo + (int)i;
}

double
qh_quant(const struct qhist *h, double p)
{
	double x = p * (double)(h->n - 1), lo = floor(x);
	uint64_t i = (uint64_t)lo;
	int a, b;

	if (i + 1 >= h->n)
		return qh_at(h, h->n - 1);
	a = qh_at(h, i);
	b = qh_at(h, i + 1);
	return a + (b - a) * (x - lo);
}

void
qh_moments(const struct qhist *h, double *meanp, double *m2p)
{
	double sum = 0, mean, m2 = 0;
	uint64_t k;
	size_t i;
	int v;

	for (i = 0; i < h->nc; i++)
		for (v = h->lo + (int)i, k = 0; k < h->c[i]; k++)
			sum += v;
	mean = sum / (double)h->n;
	for (i = 0; i < h->nc; i++)
		for (v = h->lo + (int)i, k = 0; k < h->c[i]; k++)
			m2 += (v - mean) * (v - mean);
	*meanp = mean;
	*m2p = m2;
}

void
qh_free(struct qhist *h)
{
	free(h->c);
	memset(h, 0, sizeof(*h));
}

struct gqlive *
gql_new(size_t lag, size_t keep)
{
	struct gqlive *q = xcalloc(1, sizeof(*q));

	q->lag = lag;
	q->keep = keep;
	gql_reset(q);
	return q;
}

/* Whether step a comes before step b. */
static int
before(const struct qstep *a, const struct qstep *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->kind < b->kind);
}

OWIN_FUNCS(stwin, struct qstep, before)

/* Apply step p to its stream. */
static void
apply(struct gqlive *q, const struct qstep *p)
{
	struct qstream *s = &q->s[p->st];

	s->on = 1;
	s->fts = p->ts;
	s->fkind = p->kind;
	s->len += p->kind ? -1 : 1;
	qh_add(&s->h, s->len);
}

/* Take the smallest step out of the window and apply it. */
static void
pop(struct gqlive *q)
{
	struct qstep top;

	stwin_pop(&q->w, &top);
	apply(q, &top);
}

int
gql_step(struct gqlive *q, int64_t ts, int kind, size_t st)
{
	struct qstep p;
	struct qstream *s;
	size_t old = q->ns;

	if (q->bad)
		return -1;
	if (st >= q->ns) {
		q->ns = st + 1;
		q->s = xreallocarray(q->s, q->ns, sizeof(*q->s));
		memset(q->s + old, 0, (q->ns - old) * sizeof(*q->s));
	}
	p.ts = ts;
	p.kind = (uint32_t)kind;
	p.st = (uint32_t)st;
	s = &q->s[st];
	if (s->on && (ts < s->fts || (ts == s->fts && p.kind < s->fkind))) {
		q->bad = 1;
		return -1;
	}
	stwin_push(&q->w, &p);
	if (q->w.n > q->lag)
		pop(q);
	return 0;
}

const struct qhist *
gql_hist(const struct gqlive *q, size_t st)
{
	return st < q->ns ? &q->s[st].h : NULL;
}

int
gql_drain(struct gqlive *q)
{
	while (!q->bad && q->w.n > 0)
		pop(q);
	return q->bad ? -1 : 0;
}

/* Past keep joined correlations, forget the older half. */
static void
forget(struct gqlive *q)
{
	int64_t *v, *c;
	size_t i, n = 0, pos = 0;
	uint64_t k;

	if (q->ndone <= q->keep)
		return;
	c = xreallocarray(NULL, q->ndone, sizeof(*c));
	while ((v = im_next(&q->tab, &pos, &k)) != NULL)
		if (v[0] >= 0)
			c[n++] = (int64_t)k;
	qsort(c, n, sizeof(*c), sst_cmpi64);
	if (!q->hasfloor || c[n / 2] > q->floor)
		q->floor = c[n / 2];
	q->hasfloor = 1;
	for (i = 0; i < n && c[i] <= q->floor; i++)
		im_del(&q->tab, (uint64_t)c[i]);
	q->ndone -= i;
	free(c);
}

/*
 * The values (stream, head) of correlation c, added if new (-1 in
 * *isnew if c may be one forgotten: the rank goes back to its rows).
 */
static int64_t *
entry(struct gqlive *q, int64_t c, int *isnew)
{
	int64_t *v;

	if ((v = im_find(&q->tab, (uint64_t)c)) != NULL) {
		*isnew = 0;
		return v;
	}
	if (q->hasfloor && c <= q->floor) {
		q->bad = 1;
		*isnew = -1;
		return NULL;
	}
	v = im_put(&q->tab, (uint64_t)c, isnew);
	v[0] = -1;
	v[1] = NONE;
	return v;
}

/* A launch call of correlation c at ts. */
static void
launch(struct gqlive *q, int64_t c, int64_t ts)
{
	int64_t *e;
	uint32_t k;
	int isnew;

	if ((e = entry(q, c, &isnew)) == NULL)
		return;
	if (e[0] >= 0) {
		gql_step(q, ts, 0, (size_t)e[0]);
		return;
	}
	if (q->freeit != NONE) {
		k = q->freeit;
		q->freeit = q->it[k].next;
	} else {
		if (q->nit == q->capit) {
			q->capit = growcap(q->capit, q->nit + 1, 256);
			q->it = xreallocarray(q->it, q->capit, sizeof(*q->it));
		}
		k = (uint32_t)q->nit++;
	}
	q->it[k].ts = ts;
	q->it[k].next = (uint32_t)e[1];
	e[1] = k;
}

/* A GPU event of correlation c on stream st: the calls waiting go. */
static void
giver(struct gqlive *q, int64_t c, size_t st)
{
	int64_t *e;
	uint32_t k, nx;
	int isnew;

	if ((e = entry(q, c, &isnew)) == NULL || e[0] >= 0)
		return;
	for (k = (uint32_t)e[1]; k != NONE; k = nx) {
		nx = q->it[k].next;
		gql_step(q, q->it[k].ts, 0, st);
		q->it[k].next = q->freeit;
		q->freeit = k;
	}
	e[1] = NONE;
	e[0] = (int64_t)st;
	q->ndone++;
	forget(q);
}

void
gql_row(struct gqlive *q, const struct grow *w)
{
	if (q->bad)
		return;
	if ((w->flags & (R_LAUNCH | R_GK)) == R_LAUNCH) {
		if (w->flags & R_GPU)	/* a launch and a start: rows */
			q->bad = 1;
		else if (w->corr != -1)
			launch(q, w->corr, w->ts);
		return;
	}
	if ((w->flags & (R_GPU | R_SYNC)) != R_GPU)
		return;
	if (w->corr != -1) {
		if (!(w->flags & R_GK)) {
			q->bad = 1;
			return;
		}
		giver(q, w->corr, w->stream);
	}
	gql_step(q, w->ts, 1, w->stream);
}

/* Stream st's row of the table. */
static void
qrow(const struct qhist *h, const char *label, int64_t st, FILE *fp)
{
	double mean, m2;

	qh_moments(h, &mean, &m2);
	fprintf(fp, "%s\t%lld\t%zu\t%.10g\t", label, (long long)st,
	    (size_t)h->n, mean);
	if (h->n > 1)
		fprintf(fp, "%.10g", sqrt(m2 / (double)(h->n - 1)));
	fprintf(fp, "\t%d\t%.10g\t%.10g\t%.10g\t%d\n", qh_at(h, 0),
	    qh_quant(h, .25), qh_quant(h, .5), qh_quant(h, .75),
	    qh_at(h, h->n - 1));
}

/* Streams a and b (indexes in the rank's streams) by number. */
static int
bynumber(size_t a, size_t b, void *arg)
{
	const int64_t *num = arg;

	return (num[a] > num[b]) - (num[a] < num[b]);
}

int
gql_end(struct gqlive *q, const struct grank *r, FILE *fp)
{
	size_t i, n = 0, *ix;

	if (gql_drain(q) == -1)
		return -1;
	ix = xreallocarray(NULL, q->ns + 1, sizeof(*ix));
	for (i = 0; i < q->ns; i++)
		if (q->s[i].h.n > 0)
			ix[n++] = i;
	sst_sort(ix, n, bynumber, r->streams);
	for (i = 0; i < n; i++)
		qrow(&q->s[ix[i]].h, r->label, r->streams[ix[i]], fp);
	free(ix);
	return 0;
}

void
gql_reset(struct gqlive *q)
{
	size_t i;

	q->bad = 0;
	stwin_clear(&q->w);
	for (i = 0; i < q->ns; i++)
		qh_free(&q->s[i].h);
	q->ns = 0;
	im_clear(&q->tab);
	q->ndone = 0;
	q->nit = 0;
	q->freeit = NONE;
	q->hasfloor = 0;
	q->floor = 0;
}

void
gql_free(struct gqlive *q)
{
	size_t i;

	if (q == NULL)
		return;
	for (i = 0; i < q->ns; i++)
		qh_free(&q->s[i].h);
	free(q->s);
	stwin_free(&q->w);
	im_free(&q->tab);
	free(q->it);
	free(q);
}
