/*
 * gpulive.c: sst-gpu's temporal, kernel-types, kernels, overlap,
 * launch, annotations, cpu-annotations and queue tables summarised as the
 * rows are read (without hta or a step range), so that a trace in time
 * order needs memory only for what is in flight; queue's state is
 * gpuqlive.c's, fed from here.
 *
 * temporal: the union of the GPU intervals, and of the computation
 * kernels', merged in start order through a window (gpuwin.c); an event
 * that comes too late for it sends the rank back to its rows.
 *
 * kernel-types and overlap: the kernels (no sync events) of each type
 * merged through one window of three tags, which also sweeps the time
 * covered by each set of types (gpuwin.c): kernel-types' sums are that
 * time, overlap's the time of computation and communication together
 * over that of communication.  Too late an event: the rows, as temporal.
 *
 * kernels, annotations, cpu-annotations: each kernel (gpu_user_annotation
 * or user_annotation span not on a stream) name's statistics (struct agg)
 * are added to as its events are read, in trace order as the rows would
 * be: the same arithmetic in the same order, so the same numbers; in
 * memory a few words per name.
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
#include "i64map.h"
#include "gpu.h"
#include "gpuwin.h"
#include "gpulive.h"
#include "gpuqlive.h"

#define QLAG	GPU_WIN		/* queue steps waiting (64 KiB) */
#define QKEEP	GPU_WIN		/* joined correlations kept */

#define NONE	UINT32_MAX

/* A call or GPU event waiting for its other half. */
struct item {
	int64_t		 ts, end;
	uint32_t	 next;
	int		 gpu;
};

/* A joined pair, as printed. */
struct pair {
	int64_t		 corr, cdur, gdur, delay;
};

/* Statistics by name id, in first-seen order. */
struct ggrp {
	uint32_t	*ix;		/* by name id: place in a + 1, or 0 */
	size_t		 nix;
	struct agg	*a;
	uint32_t	*nm;
	uint8_t		*ty;
	size_t		 n, cap;
};

struct glive {
	unsigned	 views;
	int64_t		 scale;
	/* temporal */
	int		 bad;
	struct gwin	 all, comp;
	int64_t		 first, lastend;
	size_t		 ngpu;
	/* kernel-types and overlap */
	int		 tbad, tdone;
	struct gwin	 typ;
	size_t		 ncomm;
	/* launch */
	struct i64map	 wait;		/* correlation: head, tail items */
	struct i64map	 joined;	/* bits: correlations joined */
	int		 lbad;		/* launch: use the rows */
	struct item	*it;
	size_t		 nit, capit;
	uint32_t	 freeit;
	struct spill	*pairs;
	/* kernels, annotations, cpu-annotations */
	struct ggrp	 kern, ann, cann;
	struct gqlive	*q;		/* queue */
};

struct glive *
glive_new(const struct gpu_opt *o)
{
	struct glive *g = xcalloc(1, sizeof(*g));

	g->views = o->views;
	g->scale = o->scale;
	g->pairs = spill_new(1 << 20);
	gw_init(&g->all, 1);
	gw_init(&g->comp, 1);
	gw_init(&g->typ, 3);
	if (o->views & (1u << GV_QUEUE))
		g->q = gql_new(QLAG, QKEEP);
	glive_reset(g);
	return g;
}

/* A GPU event for temporal. */
static void
trow(struct glive *g, const struct grow *w)
{
	if (g->bad)
		return;
	if (g->ngpu++ == 0 || w->ts < g->first)
		g->first = w->ts;
	if (g->ngpu == 1 || w->end > g->lastend)
		g->lastend = w->end;
	if (gw_add(&g->all, w->stream, 0, w->ts, w->end) == -1 ||
	    (TYPE(w) == KT_COMP && gw_add(&g->comp, w->stream, 0, w->ts,
	    w->end) == -1))
		g->bad = 1;
}

/* A kernel (no sync event) for kernel-types and overlap. */
static void
yrow(struct glive *g, const struct grow *w)
{
	if (g->tbad)
		return;
	if (TYPE(w) == KT_COMM)
		g->ncomm++;
	if (gw_add(&g->typ, w->stream, (int)TYPE(w), w->ts, w->end) == -1)
		g->tbad = 1;
}

/* The window of kernel types merged to the end; -1 if it could not. */
static int
types(struct glive *g)
{
	if (g->tbad)
		return -1;
	if (!g->tdone) {
		gw_end(&g->typ);
		g->tdone = 1;
	}
	return 0;
}

int
glive_ktypes(struct glive *g, int64_t acc[8])
{
	int i;

	if (types(g) == -1)
		return -1;
	for (i = 1; i < 8; i++)
		acc[i] += g->typ.acc[i];
	return 0;
}

int
glive_overlap(struct glive *g, const char *label, FILE *fp)
{
	const int64_t *a = g->typ.acc;
	int64_t ov, comm;

	if (types(g) == -1)
		return -1;
	ov = a[1 << KT_COMP | 1 << KT_COMM] + a[7];
	comm = a[1 << KT_COMM] + a[1 << KT_COMM | 1 << KT_MEM] + ov;
	fprintf(fp, "%s\t", label);
	if (g->ncomm > 0 && comm != 0)
		fprintf(fp, "%.2f", 100 * (double)ov / (double)comm);
	fputc('\n', fp);
	return 0;
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
	int64_t *v;
	uint32_t k, nx;
	int isnew;

	v = im_put(&g->wait, (uint64_t)w->corr, &isnew);
	if (!isnew && g->it[v[0]].gpu != gpu) {
		/*
		 * Joined before, and now a second of each side: the pairs
		 * across the two joins would be missed.
		 */
		if (im_bitset(&g->joined, w->corr))
			g->lbad = 1;
		for (k = (uint32_t)v[0]; k != NONE; k = nx) {
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
		im_del(&g->wait, (uint64_t)w->corr);
		return;
	}
	k = newitem(g, w, gpu);
	if (isnew)
		v[0] = k;
	else
		g->it[v[1]].next = k;
	v[1] = k;
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

/* Add row w (of type t) to its name's statistics in p. */
static void
grpadd(struct ggrp *p, const struct grow *w, unsigned t)
{
	size_t old = p->nix, k;

	if (w->name >= p->nix) {
		p->nix = growcap(p->nix, (size_t)w->name + 1, 64);
		p->ix = xreallocarray(p->ix, p->nix, sizeof(*p->ix));
		memset(p->ix + old, 0, (p->nix - old) * sizeof(*p->ix));
	}
	if (p->ix[w->name] == 0) {
		if (p->n == p->cap) {
			p->cap = growcap(p->cap, p->n + 1, 64);
			p->a = xreallocarray(p->a, p->cap, sizeof(*p->a));
			p->nm = xreallocarray(p->nm, p->cap, sizeof(*p->nm));
			p->ty = xreallocarray(p->ty, p->cap, sizeof(*p->ty));
		}
		memset(&p->a[p->n], 0, sizeof(p->a[p->n]));
		p->nm[p->n] = w->name;
		p->ty[p->n] = (uint8_t)t;
		p->ix[w->name] = (uint32_t)++p->n;
	}
	k = p->ix[w->name] - 1;
	gpu_aggadd(&p->a[k], w->end - w->ts);
}

/* Empty p for the next rank. */
static void
grpreset(struct ggrp *p)
{
	if (p->nix > 0)
		memset(p->ix, 0, p->nix * sizeof(*p->ix));
	p->n = 0;
}

static void
grpfree(struct ggrp *p)
{
	free(p->ix);
	free(p->a);
	free(p->nm);
	free(p->ty);
}

size_t
glive_kernels(struct glive *g, const struct agg **a, const uint32_t **nm,
    const uint8_t **ty)
{
	*a = g->kern.a;
	*nm = g->kern.nm;
	*ty = g->kern.ty;
	return g->kern.n;
}

size_t
glive_ann(struct glive *g, int cpu, const struct agg **a,
    const uint32_t **nm)
{
	const struct ggrp *p = cpu ? &g->cann : &g->ann;

	*a = p->a;
	*nm = p->nm;
	return p->n;
}

int
glive_queue(struct glive *g, const struct grank *r, FILE *fp)
{
	return gql_end(g->q, r, fp);
}

void
glive_row(void *arg, const struct grow *w)
{
	struct glive *g = arg;

	if ((g->views & (1u << GV_KERNELS)) && (w->flags & (R_GPU |
	    R_SYNC)) == R_GPU)
		grpadd(&g->kern, w, TYPE(w));
	if ((g->views & (1u << GV_ANN)) && (w->flags & (R_GANN | R_GPU)) ==
	    R_GANN)
		grpadd(&g->ann, w, 0);
	if ((g->views & (1u << GV_CPUANN)) && (w->flags & (R_ANN |
	    R_GPU)) == R_ANN)
		grpadd(&g->cann, w, 0);
	if (g->q != NULL)
		gql_row(g->q, w);

	if ((g->views & (1u << GV_TEMPORAL)) && (w->flags & R_GPU))
		trow(g, w);
	if ((g->views & ((1u << GV_KTYPES) | (1u << GV_OVERLAP))) &&
	    (w->flags & (R_GPU | R_SYNC)) == R_GPU)
		yrow(g, w);
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
	busy = gw_end(&g->all);
	comp = gw_end(&g->comp);
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
	struct pair p;
	size_t i = 0;
	int64_t *v;
	uint32_t k;
	int gpu;

	while (gpu_nextrow(r, &i, &w)) {
		if (w.flags & R_GPU)
			gpu = 1;
		else if (w.flags & R_LAUNCH)
			gpu = 0;
		else
			continue;
		v = im_find(&g->wait, (uint64_t)w.corr);
		if (v == NULL || g->it[v[0]].gpu == gpu)
			continue;
		for (k = (uint32_t)v[0]; k != NONE; k = g->it[k].next) {
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

int
glive_launch(struct glive *g, struct grank *r, FILE *fp)
{
	struct pair p;

	if (g->lbad)
		return -1;
	xspill_rewind(g->pairs);
	while (xspill_read(g->pairs, &p, sizeof(p)) == 0)
		lprint(g, r->label, &p, fp);
	if (im_count(&g->wait) > 0)
		leftover(g, r, fp);
	return 0;
}

void
glive_reset(struct glive *g)
{
	g->bad = g->tbad = g->tdone = 0;
	g->ngpu = g->ncomm = 0;
	gw_reset(&g->all);
	gw_reset(&g->comp);
	gw_reset(&g->typ);
	im_clear(&g->wait);
	im_clear(&g->joined);
	g->lbad = 0;
	g->nit = 0;
	g->freeit = NONE;
	spill_clear(g->pairs);
	grpreset(&g->kern);
	grpreset(&g->ann);
	grpreset(&g->cann);
	if (g->q != NULL)
		gql_reset(g->q);
}

void
glive_free(struct glive *g)
{
	if (g == NULL)
		return;
	gw_free(&g->all);
	gw_free(&g->comp);
	gw_free(&g->typ);
	im_free(&g->wait);
	im_free(&g->joined);
	free(g->it);
	spill_free(g->pairs);
	grpfree(&g->kern);
	grpfree(&g->ann);
	grpfree(&g->cann);
	gql_free(g->q);
	free(g);
}
