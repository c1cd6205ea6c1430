/*
 * gpuidle.c: sst-gpu's idle view (HolisticTraceAnalysis's idle time
 * breakdown) summarised as the rows are read, without hta or a step
 * range, and the table's printer.
 *
 * The row path (gpustat.c) sorts each rank's GPU events (no sync events)
 * by start, stably, and for each stream classifies the gap before each
 * event from the end of the one before: host_wait when the event's
 * runtime call (joined by correlation: gputrim.c) started after that
 * end, else kernel_wait when the gap is under 30 us, else other; the
 * first event of a stream only marks other.
 *
 * Here the events go through a window of the LAG latest, in start
 * order (a queue of those that came in order, a min-heap of the others),
 * and each event leaving it is classified; one that starts before the
 * last event its stream let out sends the rank back to its rows.  A
 * call is kept by correlation until its event leaves the window; an
 * event that leaves before its call was read waits for it (unresolved)
 * and is classified when it comes, or at the end as one without a call.
 *
 * The row path joins an event to the last call of its correlation in the
 * trace, and a call to the last event: known only at the end.  So the
 * correlations seen on each side are kept as bits (im_bitset(): about a
 * byte for six correlation numbers of a run), and a second call or a
 * second GPU kernel of one correlation sends the rank to its rows.  What
 * waits is bounded: beyond MAXWAIT calls (runtime calls without a GPU
 * event, cudaStreamSynchronize and the like, never leave otherwise) or
 * unresolved events, the oldest is let go (the call forgotten, the
 * event classified without one), and should its other half come after
 * all, the rank goes to its rows.  Exact either way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "i64map.h"
#include "gpu.h"
#include "gpulive.h"
#include "gpuidle.h"

#define LAG	GPU_WIN		/* events in the window */
#define MAXWAIT	GPU_WAIT	/* calls, or unresolved events, waiting */

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

/* Correlations in the order they began to wait (a ring). */
struct cring {
	int64_t		*c;
	size_t		 c0, n, cap;	/* cap a power of 2 */
};

struct gidle {
	int64_t		 scale;
	int		 bad;
	uint64_t	 seq;
	struct iev	*q;		/* in start order: a ring */
	size_t		 q0, nq, capq;
	struct iev	*h;		/* the others: a min-heap */
	size_t		 nh, caph;
	struct ist	*st;
	struct gidlest	*tot;		/* by stream, as st */
	size_t		 nst;
	size_t		*ord;		/* streams in first-seen order */
	size_t		 nord;
	struct i64map	 calls;		/* correlation: call's start */
	struct i64map	 unres;		/* correlation: stream, gap, prev */
	struct cring	 cq, uq;	/* their waiting order */
	struct i64map	 cseen, kseen, gone;	/* bit sets */
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

struct gidle *
gidle_new(int64_t scale)
{
	struct gidle *g = xcalloc(1, sizeof(*g));

	g->scale = scale;
	im_init(&g->calls);
	im_init(&g->unres);
	im_init(&g->cseen);
	im_init(&g->kseen);
	im_init(&g->gone);
	return g;
}

/*
 * Room for one more element in the ring of *n elements of size bytes
 * from *c0 in buf of *cap (a power of 2): when full, a ring twice as big
 * with the elements from 0 on.
 */
static void *
ringroom(void *buf, size_t *c0, size_t n, size_t *cap, size_t size)
{
	size_t i, oc = *cap;
	unsigned char *nb;

	if (n < oc)
		return buf;
	*cap = xgrowcap(oc, oc + 1, 64);
	nb = xreallocarray(NULL, *cap, size);
	for (i = 0; i < n; i++)
		memcpy(nb + i * size, (unsigned char *)buf +
		    ((*c0 + i) & (oc - 1)) * size, size);
	free(buf);
	*c0 = 0;
	return nb;
}

/* Correlation c to the end of ring r. */
static void
cpush(struct cring *r, int64_t c)
{
	r->c = ringroom(r->c, &r->c0, r->n, &r->cap, sizeof(*r->c));
	r->c[(r->c0 + r->n++) & (r->cap - 1)] = c;
}

/* The first correlation of ring r, taken out. */
static int64_t
cpop(struct cring *r)
{
	int64_t c = r->c[r->c0];

	r->c0 = (r->c0 + 1) & (r->cap - 1);
	r->n--;
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

/* Classify the unresolved event of correlation c: its call at cts. */
static void
resolve(struct gidle *g, int64_t c, const int64_t *u, int hascall,
    int64_t cts)
{
	size_t st = (size_t)u[0];
	int64_t gap = u[1], prev = u[2];

	add(g, st, hascall && cts > prev ? IC_HOST : bygap(g, gap), gap);
	im_del(&g->unres, (uint64_t)c);
}

/* A runtime call (a row with a correlation, not a kernel). */
static void
call(struct gidle *g, const struct grow *w)
{
	int64_t *v, c;

	if (im_bitset(&g->cseen, w->corr) || im_bittest(&g->gone, w->corr)) {
		g->bad = 1;		/* a second call, or one too late */
		return;
	}
	if ((v = im_find(&g->unres, (uint64_t)w->corr)) != NULL) {
		resolve(g, w->corr, v, 1, w->ts);
		return;
	}
	im_put(&g->calls, (uint64_t)w->corr, NULL)[0] = w->ts;
	cpush(&g->cq, w->corr);
	while (g->cq.n > MAXWAIT) {
		c = cpop(&g->cq);
		if (im_del(&g->calls, (uint64_t)c) == 0)
			im_bitset(&g->gone, c);
	}
}

/* Event e leaves the window: classify the gap before it. */
static void
emit(struct gidle *g, const struct iev *e)
{
	struct ist *s = &g->st[e->st];
	int64_t gap, *v, c;

	if (!s->seen) {
		s->seen = 1;
		g->tot[e->st].has[IC_OTHER] = 1;
	} else if (gap = e->ts - s->prev, !e->gk || e->corr == -1)
		add(g, e->st, bygap(g, gap), gap);
	else if ((v = im_find(&g->calls, (uint64_t)e->corr)) != NULL) {
		add(g, e->st, v[0] > s->prev ? IC_HOST : bygap(g, gap), gap);
		im_del(&g->calls, (uint64_t)e->corr);
	} else if (im_bittest(&g->gone, e->corr))
		g->bad = 1;		/* its call was let go */
	else {
		/* Its call is still to come, or never will. */
		v = im_put(&g->unres, (uint64_t)e->corr, NULL);
		v[0] = (int64_t)e->st;
		v[1] = gap;
		v[2] = s->prev;
		cpush(&g->uq, e->corr);
		while (g->uq.n > MAXWAIT) {
			c = cpop(&g->uq);
			if ((v = im_find(&g->unres, (uint64_t)c)) != NULL) {
				resolve(g, c, v, 0, 0);
				im_bitset(&g->gone, c);
			}
		}
	}
	s->prev = e->end;
	s->last = e->ts;
}

/* Whether a comes before b: by start, then in trace order. */
static inline int
before(const struct iev *a, const struct iev *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

/* Event e into the heap. */
static void
hpush(struct gidle *g, const struct iev *e)
{
	size_t i, p;

	g->h = xgrow(g->h, &g->caph, g->nh + 1, 64, sizeof(*g->h));
	for (i = g->nh++; i > 0 && before(e, &g->h[p = (i - 1) / 2]); i = p)
		g->h[i] = g->h[p];
	g->h[i] = *e;
}

/* The heap's first event, taken out into e. */
static void
hpop(struct gidle *g, struct iev *e)
{
	struct iev x;
	size_t i = 0, k;

	*e = g->h[0];
	x = g->h[--g->nh];
	while ((k = 2 * i + 1) < g->nh) {
		if (k + 1 < g->nh && before(&g->h[k + 1], &g->h[k]))
			k++;
		if (!before(&g->h[k], &x))
			break;
		g->h[i] = g->h[k];
		i = k;
	}
	g->h[i] = x;
}

/* Event e into the queue (it comes no earlier than the queue's last). */
static void
qpush(struct gidle *g, const struct iev *e)
{
	g->q = ringroom(g->q, &g->q0, g->nq, &g->capq, sizeof(*g->q));
	g->q[(g->q0 + g->nq++) & (g->capq - 1)] = *e;
}

/* Let the window's first event out. */
static void
letout(struct gidle *g)
{
	struct iev e;

	if (g->nq > 0 && (g->nh == 0 || before(&g->q[g->q0], &g->h[0]))) {
		e = g->q[g->q0];
		g->q0 = (g->q0 + 1) & (g->capq - 1);
		g->nq--;
	} else
		hpop(g, &e);
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
	if ((w->flags & R_GK) && w->corr != -1 && im_bitset(&g->kseen,
	    w->corr))
		g->bad = 1;	/* a second kernel of a correlation */
	if (!gpu || g->bad)
		return;
	s = stream(g, w->stream);
	if (s->seen && w->ts < s->last) {
		g->bad = 1;	/* too late for the window */
		return;
	}
	e.ts = w->ts;
	e.end = w->end;
	e.corr = w->corr;
	e.seq = g->seq;
	e.st = w->stream;
	e.gk = (w->flags & R_GK) != 0;
	if (g->nh == 0 && (g->nq == 0 || !before(&e,
	    &g->q[(g->q0 + g->nq - 1) & (g->capq - 1)])))
		qpush(g, &e);
	else
		hpush(g, &e);
	while (g->nq + g->nh > LAG && !g->bad)
		letout(g);
}

int
gidle_end(struct gidle *g, const struct grank *r, FILE *fp)
{
	size_t pos = 0;
	uint64_t c;
	int64_t *v;

	while (g->nq + g->nh > 0 && !g->bad)
		letout(g);
	if (g->bad)
		return -1;
	while ((v = im_next(&g->unres, &pos, &c)) != NULL)
		add(g, (size_t)v[0], bygap(g, v[1]), v[1]);
	gidle_print(fp, r, g->ord, g->nord, g->tot, g->scale);
	return 0;
}

void
gidle_reset(struct gidle *g)
{
	g->bad = 0;
	g->seq = 0;
	g->q0 = g->nq = g->nh = 0;
	if (g->nst > 0) {
		memset(g->st, 0, g->nst * sizeof(*g->st));
		memset(g->tot, 0, g->nst * sizeof(*g->tot));
	}
	g->nord = 0;
	im_clear(&g->calls);
	im_clear(&g->unres);
	im_clear(&g->cseen);
	im_clear(&g->kseen);
	im_clear(&g->gone);
	g->cq.c0 = g->cq.n = 0;
	g->uq.c0 = g->uq.n = 0;
}

void
gidle_free(struct gidle *g)
{
	if (g == NULL)
		return;
	free(g->q);
	free(g->h);
	free(g->st);
	free(g->tot);
	free(g->ord);
	im_free(&g->calls);
	im_free(&g->unres);
	im_free(&g->cseen);
	im_free(&g->kseen);
	im_free(&g->gone);
	free(g->cq.c);
	free(g->uq.c);
	free(g);
}
