/*
 * gpuidle.c: sst-gpu's idle view (HolisticTraceAnalysis's idle time
 * breakdown): summarised as the rows are read (without hta or a step
 * range), or from the rank's rows (with them, and as the fallback).
 *
 * The row path (gidle_rows()) sorts each rank's GPU events (no sync events)
 * by start, stably, and for each stream classifies the gap before each
 * event from the end of the one before: host_wait when the event's
 * runtime call (joined by correlation: gputrim.c) started after that
 * end, else kernel_wait when the gap is under 30 us, else other; the
 * first event of a stream only marks other.
 *
 * Here the events go through a window of the LAG latest, in start
 * order (a queue of those that came in order, a min-heap of the others),
 * and each event leaving it is classified; one that starts before the
 * last event its stream let out sends the rank back to its rows.
 *
 * The row path joins a call to the last HTA kernel of its correlation in
 * the trace (sync events included) and that kernel to the last call: an
 * event that leaves the window when a later kernel of its correlation
 * has been read has no call (the usual case of CUDA graphs, whose
 * kernels share their launch's correlation) and is classified at once;
 * the last so far waits (pending) for a later kernel of its correlation,
 * which leaves it without a call, or for the end, when it takes the last
 * call of its correlation.  Calls are kept by correlation, the last one
 * read.  For the events in the window and the pending ones, the place of
 * the latest kernel of their correlation is kept, so that memory follows
 * what is in flight.  What waits is bounded: beyond MAXWAIT calls
 * (runtime calls without a GPU event, cudaStreamSynchronize and the
 * like, never leave otherwise) or MAXPEND pending events (a kernel of a
 * CUDA graph comes soon after the others of its launch; more pending
 * cost time: each is a few lookups), the oldest is let go:
 * a pending event classified with the call it has then, a call forgotten
 * (its pending event, if any, classified first).  Should a row come that
 * would change what was decided (a kernel or a call of a correlation
 * whose pending event was let go, or a pending event whose call was
 * forgotten), the rank goes back to its rows.  Exact either way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "i64map.h"
#include "owin.h"
#include "gpu.h"
#include "gpulive.h"
#include "gpuidle.h"

#define LAG	GPU_WIN		/* events in the window */
#define MAXWAIT	GPU_WAIT	/* calls waiting */
#define MAXPEND	GPU_WIN		/* events pending */

/* A GPU event in the window. */
struct iev {
	int64_t		 ts, end, corr;
	uint64_t	 seq;		/* its place in the trace */
	size_t		 st;
	int		 gk;		/* an HTA kernel: may have a call */
};

/* A stream: the last event let out. */
struct ist {
	int64_t		 prev;		/* its end */
	int64_t		 last;		/* its start */
	unsigned char	 seen, listed;
};

/* Whether a comes before b: by start, then in trace order. */
#define BEFORE(a, b)	((a)->ts < (b)->ts || ((a)->ts == (b)->ts && \
			    (a)->seq < (b)->seq))
/* Correlations in the order they began to wait: no order, a ring. */
#define FIFO(a, b)	((void)(a), (void)(b), 0)

OWIN_HEAD(evwin, struct iev);
OWIN_FUNCS(evwin, struct iev, BEFORE)
OWIN_HEAD(cring, int64_t);
OWIN_FUNCS(cring, int64_t, FIFO)

struct gidle {
	int64_t		 scale;
	int		 bad;
	uint64_t	 seq;
	struct evwin	 w;		/* the window */
	struct ist	*st;
	struct gidlest	*tot;		/* by stream, as st */
	size_t		 nst;
	size_t		*ord;		/* streams in first-seen order */
	size_t		 nord;
	struct i64map	 calls;		/* correlation: its last call's start */
	struct i64map	 pend;		/* correlation: stream, gap, prev */
	struct i64map	 kc;		/* correlation: its latest kernel's
					   place, events and pending of it */
	struct cring	 cq, pq;	/* calls', pending's waiting order */
	struct i64map	 cgone, kgone;	/* bits: calls, pending let go */
};

void
gidle_print(FILE *fp, const struct grank *r, const size_t *ord, size_t n,
    const struct gidlest *st, int64_t scale)
{
	static const char *cat[IC_N] = { "host_wait", "kernel_wait", "other" };
	char b[32];
	size_t i;
	int64_t tot;
	int c;

	for (i = 0; i < n; i++) {
		const struct gidlest *s = &st[ord[i]];

		tot = s->acc[IC_HOST] + s->acc[IC_KERNEL] + s->acc[IC_OTHER];
		for (c = 0; c < IC_N; c++) {
			if (!s->has[c])
				continue;
			fprintf(fp, "%s\t%lld\t%s\t", r->label,
			    (long long)r->streams[ord[i]], cat[c]);
			fwrite(b, 1, gpu_fmtus(b, s->acc[c], scale), fp);
			fputc('\t', fp);
			if (tot != 0)
				fprintf(fp, "%.2f", (double)s->acc[c] /
				    (double)tot);
			fputc('\n', fp);
		}
	}
}

void
gidle_rows(FILE *fp, const struct grank *r, int64_t scale)
{
	size_t *ix, n, i, ns = r->nstream, *order, no = 0;
	int64_t *prev, gap;
	struct gidlest *t;
	unsigned char *seen;
	int c;

	prev = xcalloc(ns + 1, sizeof(*prev));
	t = xcalloc(ns + 1, sizeof(*t));
	seen = xcalloc(ns + 1, 1);
	order = xcalloc(ns + 1, sizeof(*order));
	ix = gpu_pick(r, R_GPU, R_SYNC, 0, &n);	/* GPU events, no sync */
	for (i = 0; i < n; i++)
		if (!seen[ROW(r, ix[i])->stream]) {
			seen[ROW(r, ix[i])->stream] = 1;
			order[no++] = ROW(r, ix[i])->stream;
		}
	memset(seen, 0, ns + 1);
	gpu_sortts(r, ix, n);
	for (i = 0; i < n; i++) {
		const struct grow *w = ROW(r, ix[i]), *rt;
		size_t st = w->stream;

		if (!seen[st]) {
			seen[st] = 1;
			t[st].has[IC_OTHER] = 1;
			prev[st] = w->end;
			continue;
		}
		gap = w->ts - prev[st];
		rt = (w->flags & R_IC) ? ROW(r, r->ic[ix[i]]) : NULL;
		if (rt != NULL && (rt->flags & R_KEEP) && rt->ts > prev[st])
			c = IC_HOST;
		else if (gap < 30 * scale)
			c = IC_KERNEL;
		else
			c = IC_OTHER;
		t[st].acc[c] += gap;
		t[st].has[c] = 1;
		prev[st] = w->end;
	}
	gidle_print(fp, r, order, no, t, scale);
	free(ix);
	free(order);
	free(seen);
	free(t);
	free(prev);
}

struct gidle *
gidle_new(int64_t scale)
{
	struct gidle *g = xcalloc(1, sizeof(*g));

	g->scale = scale;
	im_init(&g->calls);
	im_init(&g->pend);
	im_init(&g->kc);
	im_init(&g->cgone);
	im_init(&g->kgone);
	return g;
}

/* The first correlation of ring r, taken out. */
static int64_t
cpop(struct cring *r)
{
	int64_t c;

	cring_pop(r, &c);
	return c;
}

/* Add gap to stream st's category c. */
static inline void
add(struct gidle *g, size_t st, int c, int64_t gap)
{
	g->tot[st].acc[c] += gap;
	g->tot[st].has[c] = 1;
}

/* The category of a gap whose event has no call. */
static inline int
bygap(const struct gidle *g, int64_t gap)
{
	return gap < 30 * g->scale ? IC_KERNEL : IC_OTHER;
}

/* One event of correlation c less in the window or pending. */
static void
unref(struct gidle *g, int64_t c)
{
	int64_t *v = im_find(&g->kc, (uint64_t)c);

	if (--v[1] == 0)
		im_del(&g->kc, (uint64_t)c);
}

/*
 * Classify the pending event of correlation c: with the last call of
 * its correlation if withcall (it is the last kernel of it), else
 * without a call.
 */
static void
settle(struct gidle *g, int64_t c, int withcall)
{
	int64_t *u, *v, st, gap, prev;
	int cat;

	u = im_find(&g->pend, (uint64_t)c);
	st = u[0];
	gap = u[1];
	prev = u[2];
	im_del(&g->pend, (uint64_t)c);
	cat = bygap(g, gap);
	if (withcall && (v = im_find(&g->calls, (uint64_t)c)) != NULL) {
		if (v[0] > prev)
			cat = IC_HOST;
		im_del(&g->calls, (uint64_t)c);
	} else if (withcall && im_bittest(&g->cgone, c))
		g->bad = 1;		/* its call was let go */
	add(g, (size_t)st, cat, gap);
	unref(g, c);
}

/* Let the pending event of correlation c go, settled as it stands. */
static void
letgo(struct gidle *g, int64_t c)
{
	if (im_find(&g->pend, (uint64_t)c) == NULL)
		return;
	settle(g, c, 1);
	im_bitset(&g->kgone, c);
}

/* A runtime call (a row with a correlation, not a kernel). */
static void
call(struct gidle *g, const struct grow *w)
{
	int64_t c;
	int isnew;

	if (im_bittest(&g->kgone, w->corr)) {
		g->bad = 1;		/* its kernel was settled */
		return;
	}
	im_put(&g->calls, (uint64_t)w->corr, &isnew)[0] = w->ts;
	if (!isnew)
		return;
	cring_push(&g->cq, &w->corr);
	while (g->cq.n > MAXWAIT) {
		c = cpop(&g->cq);
		if (im_find(&g->calls, (uint64_t)c) == NULL)
			continue;
		letgo(g, c);
		im_del(&g->calls, (uint64_t)c);
		im_bitset(&g->cgone, c);
	}
}

/*
 * A kernel of correlation c read at place seq: the latest of it, and a
 * pending event of c has no call.
 */
static void
kernel(struct gidle *g, int64_t c, uint64_t seq)
{
	int64_t *v;

	if (im_bittest(&g->kgone, c)) {
		g->bad = 1;		/* a settled event was not the last */
		return;
	}
	if ((v = im_find(&g->kc, (uint64_t)c)) == NULL)
		return;
	v[0] = (int64_t)seq;
	if (im_find(&g->pend, (uint64_t)c) != NULL)
		settle(g, c, 0);
}

/* Event e leaves the window: classify the gap before it. */
static void
emit(struct gidle *g, const struct iev *e)
{
	struct ist *s = &g->st[e->st];
	int64_t gap, *v;
	int haskc = e->gk && e->corr != -1;

	gap = e->ts - s->prev;
	if (!s->seen) {
		s->seen = 1;
		g->tot[e->st].has[IC_OTHER] = 1;
	} else if (!haskc)
		add(g, e->st, bygap(g, gap), gap);
	else if (im_find(&g->kc, (uint64_t)e->corr)[0] != (int64_t)e->seq)
		add(g, e->st, bygap(g, gap), gap);	/* not the last */
	else {
		v = im_put(&g->pend, (uint64_t)e->corr, NULL);
		v[0] = (int64_t)e->st;
		v[1] = gap;
		v[2] = s->prev;
		cring_push(&g->pq, &e->corr);
		while (g->pq.n > MAXPEND)
			letgo(g, cpop(&g->pq));
		haskc = 0;		/* pending keeps its reference */
	}
	if (haskc)
		unref(g, e->corr);
	s->prev = e->end;
	s->last = e->ts;
}

/* Let the window's first event out. */
static void
letout(struct gidle *g)
{
	struct iev e;

	evwin_pop(&g->w, &e);
	emit(g, &e);
}

/* Room for stream st, listed in first-seen order. */
static struct ist *
stream(struct gidle *g, size_t st)
{
	size_t n = g->nst;

	if (st >= n) {
		g->st = xgrow(g->st, &g->nst, st + 1, 8, sizeof(*g->st));
		memset(g->st + n, 0, (g->nst - n) * sizeof(*g->st));
		g->tot = xreallocarray(g->tot, g->nst, sizeof(*g->tot));
		memset(g->tot + n, 0, (g->nst - n) * sizeof(*g->tot));
		g->ord = xreallocarray(g->ord, g->nst, sizeof(*g->ord));
	}
	if (!g->st[st].listed) {
		g->st[st].listed = 1;
		g->ord[g->nord++] = st;
	}
	return &g->st[st];
}

void
gidle_row(struct gidle *g, const struct grow *w)
{
	struct iev e;
	struct ist *s;
	int gpu = (w->flags & (R_GPU | R_SYNC)) == R_GPU;
	int haskc = (w->flags & R_GK) && w->corr != -1;
	int64_t *v;

	if (g->bad || !(w->flags & R_KEEP))
		return;
	g->seq++;
	if (!(w->flags & R_GK) && w->corr != -1) {
		if (gpu)	/* a GPU event joined as a call: rare */
			g->bad = 1;
		else
			call(g, w);
		return;
	}
	if (haskc)
		kernel(g, w->corr, g->seq);
	if (!gpu || g->bad)
		return;
	s = stream(g, w->stream);
	if (s->seen && w->ts < s->last) {
		g->bad = 1;	/* too late for the window */
		return;
	}
	if (haskc) {
		v = im_put(&g->kc, (uint64_t)w->corr, NULL);
		v[0] = (int64_t)g->seq;
		v[1]++;
	}
	e.ts = w->ts;
	e.end = w->end;
	e.corr = w->corr;
	e.seq = g->seq;
	e.st = w->stream;
	e.gk = (w->flags & R_GK) != 0;
	evwin_push(&g->w, &e);
	while (g->w.n > LAG && !g->bad)
		letout(g);
}

int
gidle_end(struct gidle *g, const struct grank *r, FILE *fp)
{
	while (g->w.n > 0 && !g->bad)
		letout(g);
	while (g->pq.n > 0 && !g->bad)	/* the pending, with their calls */
		letgo(g, cpop(&g->pq));
	if (g->bad)
		return -1;
	gidle_print(fp, r, g->ord, g->nord, g->tot, g->scale);
	return 0;
}

void
gidle_reset(struct gidle *g)
{
	g->bad = 0;
	g->seq = 0;
	evwin_clear(&g->w);
	if (g->nst > 0) {
		memset(g->st, 0, g->nst * sizeof(*g->st));
		memset(g->tot, 0, g->nst * sizeof(*g->tot));
	}
	g->nord = 0;
	im_clear(&g->calls);
	im_clear(&g->pend);
	im_clear(&g->kc);
	im_clear(&g->cgone);
	im_clear(&g->kgone);
	cring_clear(&g->cq);
	cring_clear(&g->pq);
}

void
gidle_free(struct gidle *g)
{
	if (g == NULL)
		return;
	evwin_free(&g->w);
	free(g->st);
	free(g->tot);
	free(g->ord);
	im_free(&g->calls);
	im_free(&g->pend);
	im_free(&g->kc);
	im_free(&g->cgone);
	im_free(&g->kgone);
	cring_free(&g->cq);
	cring_free(&g->pq);
	free(g);
}
