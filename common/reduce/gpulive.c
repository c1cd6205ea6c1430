/*
 * gpulive.c: sst-gpu's temporal and launch tables summarised as the rows
 * are read (without hta or a step range), so that a trace in time order
 * needs memory only for what is in flight.
 *
 * temporal: HTA merges the GPU intervals sorted by start; so does this,
 * with a window.  Each stream's events are merged into the stream's open
 * interval while they come in time order; an interval that closes (or
 * an event that comes before its stream's open interval) waits, and
 * once more than LAG wait, the earliest is merged
 * into the rank's busy time, after every open interval that starts no
 * later has been closed into the heap too.  Intervals are thus merged in
 * start order as long as none comes that starts before the last one
 * merged (the front): such an event sends the rank back to its rows.  So
 * a trace out of order by fewer than LAG intervals, or with a stream
 * quiet for long, is summarised exactly in bounded memory.  Computation
 * kernels the same, apart.  The waiting intervals are a queue of those
 * that came in start order (most of them: a push and a pop each in
 * constant time) and a min-heap by start of the others.
 *
 * kernels: each kernel name's statistics (struct agg) are added to as
 * its events are read, in trace order as the rows would be: the same
 * arithmetic in the same order, so the same numbers; in memory a few
 * words per name.
 *
 * launch: a runtime call and a GPU event of one correlation are joined
 * when the second of them is read; what waits for its other half is
 * kept by correlation, and the joined pairs go to a spill until the
 * rank's name is known.  Calls or events still waiting at the end are
 * orphans, or a correlation's further events after its first join:
 * those are joined from the rank's rows (gpu_nextrow()), after the
 * others.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "spill.h"
#include "gpu.h"
#include "gpulive.h"

#define LAG	4096		/* intervals waiting (64 KiB a class) */
#define NONE	UINT32_MAX

struct ivl {
	int64_t		 s, e;
};

/* The union of one class of intervals (all GPU events, or computation). */
struct uni {
	struct ivl	*open;		/* per stream; s > e: none */
	struct ivl	*h;		/* waiting out of order: a min-heap */
	size_t		 nh, caph;	/* by s */
	struct ivl	*q;		/* waiting in order of s: a ring */
	size_t		 q0, nq, capq;	/* capq a power of 2 */
	int64_t		 gs, ge, busy;
	int64_t		 front;		/* the start merged last */
	int		 gon;
};

/* A call or GPU event waiting for its other half. */
struct item {
	int64_t		 ts, end;
	uint32_t	 next;
	int		 gpu;
};

struct slot {
	int64_t		 corr;
	uint32_t	 head, tail;	/* head NONE: empty */
};

/* A joined pair, as printed. */
struct pair {
	int64_t		 corr, cdur, gdur, delay;
};

struct glive {
	unsigned	 views;
	int64_t		 scale;
	/* temporal */
	int		 bad;
	size_t		 nst;
	struct uni	 all, comp;
	int64_t		 first, lastend;
	size_t		 ngpu;
	/* launch */
	struct slot	*tab;
	size_t		 ntab, nused;	/* ntab a power of 2 */
	struct item	*it;
	size_t		 nit, capit;
	uint32_t	 freeit;
	struct spill	*pairs;
	/* kernels */
	uint32_t	*kix;		/* by name id: place in ka + 1, or 0 */
	size_t		 nkix;
	struct agg	*ka;		/* by first-seen order */
	uint32_t	*knm;
	uint8_t		*kty;
	size_t		 nk, capk;
};

struct glive *
glive_new(const struct gpu_opt *o)
{
	struct glive *g = xcalloc(1, sizeof(*g));

	g->views = o->views;
	g->scale = o->scale;
	g->pairs = spill_new(1 << 20);
	glive_reset(g);
	return g;
}

/* Room for stream st in the temporal state. */
static void
streams(struct glive *g, size_t st)
{
	size_t i, n = g->nst;

	if (st < n)
		return;
	g->nst = growcap(n, st + 1, 8);
	g->all.open = xreallocarray(g->all.open, g->nst, sizeof(struct ivl));
	g->comp.open = xreallocarray(g->comp.open, g->nst,
	    sizeof(struct ivl));
	for (i = n; i < g->nst; i++) {
		g->all.open[i].s = g->comp.open[i].s = 1;
		g->all.open[i].e = g->comp.open[i].e = 0;
	}
}

/* Merge v into u's busy time: v starts no earlier than any before. */
static void
gmerge(struct uni *u, struct ivl v)
{
	u->front = v.s;
	if (u->gon && v.s <= u->ge) {
		if (v.e > u->ge)
			u->ge = v.e;
		return;
	}
	if (u->gon)
		u->busy += u->ge - u->gs;
	u->gs = v.s;
	u->ge = v.e;
	u->gon = 1;
}

static void
hpush(struct uni *u, struct ivl v)
{
	size_t i, p;

	if (u->nh == u->caph) {
		u->caph = growcap(u->caph, u->nh + 1, 64);
		u->h = xreallocarray(u->h, u->caph, sizeof(*u->h));
	}
	for (i = u->nh++; i > 0 && u->h[p = (i - 1) / 2].s > v.s; i = p)
		u->h[i] = u->h[p];
	u->h[i] = v;
}

static struct ivl
hpop(struct uni *u)
{
	struct ivl top = u->h[0], v = u->h[--u->nh];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < u->nh) {
		if (c + 1 < u->nh && u->h[c + 1].s < u->h[c].s)
			c++;
		if (u->h[c].s >= v.s)
			break;
		u->h[i] = u->h[c];
		i = c;
	}
	if (u->nh > 0)
		u->h[i] = v;
	return top;
}

/* Put v in u's waiting intervals: at the end of the queue if in order. */
static void
wpush(struct uni *u, struct ivl v)
{
	struct ivl *nq;
	size_t i, m = u->capq - 1;

	if (u->nq > 0 && v.s < u->q[(u->q0 + u->nq - 1) & m].s) {
		hpush(u, v);
		return;
	}
	if (u->nq == u->capq) {
		u->capq = u->capq == 0 ? 64 : 2 * u->capq;
		nq = xreallocarray(NULL, u->capq, sizeof(*nq));
		for (i = 0; i < u->nq; i++)
			nq[i] = u->q[(u->q0 + i) & m];
		free(u->q);
		u->q = nq;
		u->q0 = 0;
		m = u->capq - 1;
	}
	u->q[(u->q0 + u->nq++) & m] = v;
}

/* The start of u's earliest waiting interval (one waits). */
static int64_t
wfirst(const struct uni *u)
{
	if (u->nq == 0 || (u->nh > 0 && u->h[0].s < u->q[u->q0].s))
		return u->h[0].s;
	return u->q[u->q0].s;
}

/*
 * Take u's earliest waiting interval (one waits).  Of equal starts the
 * heap's or the queue's may come first: their union is the same.
 */
static struct ivl
wpop(struct uni *u)
{
	struct ivl v;

	if (u->nq == 0 || (u->nh > 0 && u->h[0].s < u->q[u->q0].s))
		return hpop(u);
	v = u->q[u->q0];
	u->q0 = (u->q0 + 1) & (u->capq - 1);
	u->nq--;
	return v;
}

/*
 * Merge the earliest waiting interval of u, the open intervals that start
 * no later closed into the heap first (n streams).
 */
static void
popone(struct uni *u, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (u->open[i].s <= u->open[i].e &&
		    u->open[i].s <= wfirst(u)) {
			wpush(u, u->open[i]);
			u->open[i].s = 1;
			u->open[i].e = 0;
		}
	gmerge(u, wpop(u));
}

/* Event [s, e) on stream st into u; -1 if it comes too late. */
static int
uadd(struct glive *g, struct uni *u, size_t st, int64_t s, int64_t e)
{
	struct ivl *o = &u->open[st], v;

	if (u->gon && s < u->front)
		return -1;
	if (o->s <= o->e && s >= o->s && s <= o->e) {
		if (e > o->e)
			o->e = e;
		return 0;
	}
	v.s = s;
	v.e = e;
	if (o->s > o->e)
		*o = v;
	else if (s > o->e) {
		wpush(u, *o);
		*o = v;
	} else
		wpush(u, v);	/* before its stream's open interval */
	while (u->nh + u->nq > LAG)
		popone(u, g->nst);
	return 0;
}

/* A GPU event for temporal. */
static void
trow(struct glive *g, const struct grow *w)
{
	if (g->bad)
		return;
	streams(g, w->stream);
	if (g->ngpu++ == 0 || w->ts < g->first)
		g->first = w->ts;
	if (g->ngpu == 1 || w->end > g->lastend)
		g->lastend = w->end;
	if (uadd(g, &g->all, w->stream, w->ts, w->end) == -1 ||
	    (TYPE(w) == KT_COMP && uadd(g, &g->comp, w->stream, w->ts,
	    w->end) == -1))
		g->bad = 1;
}

/* The busy time of u once every interval is in. */
static int64_t
ubusy(struct glive *g, struct uni *u)
{
	size_t i;

	for (i = 0; i < g->nst; i++)
		if (u->open[i].s <= u->open[i].e) {
			wpush(u, u->open[i]);
			u->open[i].s = 1;
			u->open[i].e = 0;
		}
	while (u->nh + u->nq > 0)
		gmerge(u, wpop(u));
	if (u->gon)
		u->busy += u->ge - u->gs;
	return u->busy;
}

/* The slot of correlation c: its own, or the empty one it would take. */
static struct slot *
lookup(const struct glive *g, int64_t c)
{
	size_t m = g->ntab - 1, i;

	i = (size_t)(((uint64_t)c * 0x9e3779b97f4a7c15ULL) >> 32) & m;
	while (g->tab[i].head != NONE && g->tab[i].corr != c)
		i = (i + 1) & m;
	return &g->tab[i];
}

/* Twice the slots, the entries moved over. */
static void
regrow(struct glive *g)
{
	struct slot *old = g->tab, *s;
	size_t n = g->ntab, i;

	g->ntab = n ? 2 * n : 1024;
	g->tab = xreallocarray(NULL, g->ntab, sizeof(*g->tab));
	for (i = 0; i < g->ntab; i++)
		g->tab[i].head = NONE;
	for (i = 0; i < n; i++)
		if (old[i].head != NONE) {
			s = lookup(g, old[i].corr);
			*s = old[i];
		}
	free(old);
}

/* Empty slot s, moving back the entries after it (linear probing). */
static void
unslot(struct glive *g, struct slot *s)
{
	size_t m = g->ntab - 1, i = (size_t)(s - g->tab), j = i, k;

	g->tab[i].head = NONE;
	for (;;) {
		j = (j + 1) & m;
		if (g->tab[j].head == NONE)
			break;
		k = (size_t)(((uint64_t)g->tab[j].corr *
		    0x9e3779b97f4a7c15ULL) >> 32) & m;
		if ((j > i && (k <= i || k > j)) || (j < i && k <= i &&
		    k > j)) {
			g->tab[i] = g->tab[j];
			g->tab[j].head = NONE;
			i = j;
		}
	}
	g->nused--;
}

/* A new item, from the free list or the pool. */
static uint32_t
newitem(struct glive *g, const struct grow *w, int gpu)
{
	uint32_t k;

	if (g->freeit != NONE) {
		k = g->freeit;
		g->freeit = g->it[k].next;
	} else {
		if (g->nit == g->capit) {
			g->capit = growcap(g->capit, g->nit + 1, 256);
			g->it = xreallocarray(g->it, g->capit, sizeof(*g->it));
		}
		k = (uint32_t)g->nit++;
	}
	g->it[k].ts = w->ts;
	g->it[k].end = w->end;
	g->it[k].gpu = gpu;
	g->it[k].next = NONE;
	return k;
}

static struct pair mkpair(int64_t, int64_t, int64_t, int64_t, int64_t);

/* Spill the pair of a call [cts, cend) and a GPU event [gts, gend). */
static void
pairout(struct glive *g, int64_t corr, int64_t cts, int64_t cend,
    int64_t gts, int64_t gend)
{
	struct pair p = mkpair(corr, cts, cend, gts, gend);

	xspill_write(g->pairs, &p, sizeof(p));
}

/* A launch call (gpu 0) or GPU event (1) for launch. */
static void
lrow(struct glive *g, const struct grow *w, int gpu)
{
	struct slot *s;
	uint32_t k, nx;

	if (2 * (g->nused + 1) > g->ntab)
		regrow(g);
	s = lookup(g, w->corr);
	if (s->head != NONE && g->it[s->head].gpu != gpu) {
		for (k = s->head; k != NONE; k = nx) {
			const struct item *x = &g->it[k];

			if (gpu)
				pairout(g, w->corr, x->ts, x->end, w->ts,
				    w->end);
			else
				pairout(g, w->corr, w->ts, w->end, x->ts,
				    x->end);
			nx = x->next;
			g->it[k].next = g->freeit;
			g->freeit = k;
		}
		unslot(g, s);
		return;
	}
	k = newitem(g, w, gpu);
	if (s->head == NONE) {
		s->corr = w->corr;
		s->head = k;
		g->nused++;
	} else
		g->it[s->tail].next = k;
	s->tail = k;
}

void
gpu_aggadd(struct agg *a, int64_t v)
{
	double d;

	if (a->n == 0 || v > a->max)
		a->max = v;
	if (a->n == 0 || v < a->min)
		a->min = v;
	a->n++;
	a->sum += v;
	d = (double)v - a->mean;
	a->mean += d / (double)a->n;
	a->m2 += d * ((double)v - a->mean);
}

/* A GPU event (not a sync) for kernels: its name's statistics. */
static void
krow(struct glive *g, const struct grow *w)
{
	size_t old = g->nkix, k;

	if (w->name >= g->nkix) {
		g->nkix = growcap(g->nkix, (size_t)w->name + 1, 64);
		g->kix = xreallocarray(g->kix, g->nkix, sizeof(*g->kix));
		memset(g->kix + old, 0, (g->nkix - old) * sizeof(*g->kix));
	}
	if (g->kix[w->name] == 0) {
		if (g->nk == g->capk) {
			g->capk = growcap(g->capk, g->nk + 1, 64);
			g->ka = xreallocarray(g->ka, g->capk, sizeof(*g->ka));
			g->knm = xreallocarray(g->knm, g->capk,
			    sizeof(*g->knm));
			g->kty = xreallocarray(g->kty, g->capk,
			    sizeof(*g->kty));
		}
		memset(&g->ka[g->nk], 0, sizeof(g->ka[g->nk]));
		g->knm[g->nk] = w->name;
		g->kty[g->nk] = (uint8_t)TYPE(w);
		g->kix[w->name] = (uint32_t)++g->nk;
	}
	k = g->kix[w->name] - 1;
	gpu_aggadd(&g->ka[k], w->end - w->ts);
}

size_t
glive_kernels(struct glive *g, const struct agg **a, const uint32_t **nm,
    const uint8_t **ty)
{
	*a = g->ka;
	*nm = g->knm;
	*ty = g->kty;
	return g->nk;
}

void
glive_row(void *arg, const struct grow *w)
{
	struct glive *g = arg;

	if ((g->views & (1u << GV_KERNELS)) && (w->flags & (R_GPU |
	    R_SYNC)) == R_GPU)
		krow(g, w);

	if ((g->views & (1u << GV_TEMPORAL)) && (w->flags & R_GPU))
		trow(g, w);
	if (g->views & (1u << GV_LAUNCH)) {
		if (w->flags & R_GPU)
			lrow(g, w, 1);
		else if (w->flags & R_LAUNCH)
			lrow(g, w, 0);
	}
}

size_t
gpu_fmtus(char *buf, int64_t t, int64_t sc)
{
	char tmp[24];
	uint64_t u, f = 0;
	size_t n = 0, k = 0;
	int d;

	if (t < 0)
		buf[n++] = '-';
	u = t < 0 ? -(uint64_t)t : (uint64_t)t;
	if (sc > 1) {
		f = u % (uint64_t)sc;
		u /= (uint64_t)sc;
	}
	do
		tmp[k++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	while (k > 0)
		buf[n++] = tmp[--k];
	if (f != 0) {	/* sc is 1000: up to three decimals */
		buf[n++] = '.';
		for (d = 100; d > 0 && f != 0; d /= 10) {
			buf[n++] = (char)('0' + f / (uint64_t)d);
			f %= (uint64_t)d;
		}
	}
	buf[n] = '\0';
	return n;
}

int
glive_temporal(struct glive *g, struct grank *r, FILE *fp)
{
	int64_t busy, comp, kt, idle;
	char a[32], b[32], c[32], d[32];

	if (g->bad)
		return -1;
	busy = ubusy(g, &g->all);
	comp = ubusy(g, &g->comp);
	if (g->bad)
		return -1;
	if (g->ngpu == 0)
		return 0;
	kt = g->lastend - g->first;
	idle = kt - busy;
	gpu_fmtus(a, idle, g->scale);
	gpu_fmtus(b, comp, g->scale);
	gpu_fmtus(c, kt - comp - idle, g->scale);
	gpu_fmtus(d, kt, g->scale);
	fprintf(fp, "%s\t%s\t%s\t%s\t%s\t", r->label, a, b, c, d);
	if (kt != 0)
		fprintf(fp, "%.2f\t%.2f\t%.2f", 100 * (double)idle / (double)kt,
		    100 * (double)comp / (double)kt,
		    100 * (double)(kt - comp - idle) / (double)kt);
	else
		fputs("\t\t", fp);
	fputc('\n', fp);
	return 0;
}

/* One row of launch. */
static void
lprint(const struct glive *g, const char *label, const struct pair *p,
    FILE *fp)
{
	char line[128];
	size_t n = 0;

	fputs(label, fp);
	line[n++] = '\t';
	n += gpu_fmtus(line + n, p->corr, 1);
	line[n++] = '\t';
	n += gpu_fmtus(line + n, p->cdur, g->scale);
	line[n++] = '\t';
	n += gpu_fmtus(line + n, p->gdur, g->scale);
	line[n++] = '\t';
	n += gpu_fmtus(line + n, p->delay, g->scale);
	line[n++] = '\n';
	fwrite(line, 1, n, fp);
}

/* The pair of a call [cts, cend) and a GPU event [gts, gend). */
static struct pair
mkpair(int64_t corr, int64_t cts, int64_t cend, int64_t gts, int64_t gend)
{
	struct pair p;

	p.corr = corr;
	p.cdur = cend - cts;
	p.gdur = gend - gts;
	p.delay = gts > cend ? gts - cend : 0;
	return p;
}

/* The pairs of the rows of r that the calls and events left join. */
static void
leftover(struct glive *g, struct grank *r, FILE *fp)
{
	struct grow w;
	struct slot *s;
	struct pair p;
	size_t i = 0;
	uint32_t k;
	int gpu;

	while (gpu_nextrow(r, &i, &w)) {
		if (w.flags & R_GPU)
			gpu = 1;
		else if (w.flags & R_LAUNCH)
			gpu = 0;
		else
			continue;
		s = lookup(g, w.corr);
		if (s->head == NONE || g->it[s->head].gpu == gpu)
			continue;
		for (k = s->head; k != NONE; k = g->it[k].next) {
			const struct item *x = &g->it[k];

			if (gpu)	/* x is a call */
				p = mkpair(w.corr, x->ts, x->end, w.ts,
				    w.end);
			else
				p = mkpair(w.corr, w.ts, w.end, x->ts,
				    x->end);
			lprint(g, r->label, &p, fp);
		}
	}
}

void
glive_launch(struct glive *g, struct grank *r, FILE *fp)
{
	struct pair p;

	xspill_rewind(g->pairs);
	while (xspill_read(g->pairs, &p, sizeof(p)) == 0)
		lprint(g, r->label, &p, fp);
	if (g->nused > 0)
		leftover(g, r, fp);
}

void
glive_reset(struct glive *g)
{
	size_t i;

	g->bad = 0;
	g->ngpu = 0;
	for (i = 0; i < g->nst; i++) {
		g->all.open[i].s = g->comp.open[i].s = 1;
		g->all.open[i].e = g->comp.open[i].e = 0;
	}
	g->all.nh = g->comp.nh = g->all.nq = g->comp.nq = 0;
	g->all.gon = g->comp.gon = 0;
	g->all.busy = g->comp.busy = 0;
	free(g->tab);
	g->tab = NULL;
	g->ntab = g->nused = 0;
	regrow(g);
	g->nit = 0;
	g->freeit = NONE;
	spill_clear(g->pairs);
	if (g->nkix > 0)
		memset(g->kix, 0, g->nkix * sizeof(*g->kix));
	g->nk = 0;
}

void
glive_free(struct glive *g)
{
	if (g == NULL)
		return;
	free(g->all.open);
	free(g->all.h);
	free(g->all.q);
	free(g->comp.open);
	free(g->comp.h);
	free(g->comp.q);
	free(g->tab);
	free(g->it);
	spill_free(g->pairs);
	free(g->kix);
	free(g->ka);
	free(g->knm);
	free(g->kty);
	free(g);
}
