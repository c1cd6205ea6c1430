/*
 * gpuwin.c: the union of GPU intervals merged in start order, as
 * HolisticTraceAnalysis merges them sorted (one that starts at or before
 * the end so far joins it), but as they are read, through a window.
 *
 * Each stream's intervals (of each tag) are merged into the stream's
 * open interval while they come in time order; an interval that closes
 * (or one that comes before its stream's open interval) waits, and once
 * more than LAG wait, the earliest is merged into its tag's union, after
 * every open interval that starts no later has been closed into the
 * waiting ones too.  Intervals are thus merged in start order as long as
 * none comes that starts before the last one merged (the front): such an
 * interval makes gw_add() fail, and the caller falls back on its rows.
 * So intervals out of order by fewer than LAG, or a stream quiet for
 * long, are merged exactly in bounded memory.  The waiting intervals are
 * a queue of those that came in start order (most of them: a push and a
 * pop each in constant time) and a min-heap by start of the others.
 *
 * With several tags (kernel types), one window holds them all, so that
 * the front is one for all tags: the time before it is final for every
 * tag, and each time the front moves on, the time from the old front to
 * the new is swept: each tag covers a prefix of it (its last merged
 * interval's, if that reaches so far), and the time covered by exactly
 * each set of tags adds to acc.  That is the edge sweep of the merged
 * intervals of every tag that the row-keeping path makes, in bounded
 * memory.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "gpu.h"
#include "gpuwin.h"

#define LAG	GPU_WIN		/* intervals waiting (96 KiB) */

void
gw_init(struct gwin *w, int ntag)
{
	memset(w, 0, sizeof(*w));
	w->ntag = ntag;
}

/* Room for stream st's open intervals. */
static void
streams(struct gwin *w, size_t st)
{
	size_t i, n = w->nst;

	if (st < n)
		return;
	w->nst = growcap(n, st + 1, 8);
	w->open = xreallocarray(w->open, w->nst * (size_t)w->ntag,
	    sizeof(*w->open));
	for (i = n * (size_t)w->ntag; i < w->nst * (size_t)w->ntag; i++) {
		w->open[i].s = 1;
		w->open[i].e = 0;
	}
}

/*
 * The front moves from w->front to f: the time between, covered by each
 * tag up to its last merged interval's end, into acc by set of tags.
 */
static void
sweep(struct gwin *w, int64_t f)
{
	int64_t end[GW_NTAG], prev = w->front, x;
	int ord[GW_NTAG], i, j, t, mask;

	for (t = 0; t < w->ntag; t++) {
		x = w->m[t].gon && w->m[t].ge > prev ? w->m[t].ge : prev;
		end[t] = x < f ? x : f;
		for (j = t; j > 0 && end[ord[j - 1]] > end[t]; j--)
			ord[j] = ord[j - 1];
		ord[j] = t;
	}
	for (i = 0; i < w->ntag; i++) {
		if (end[ord[i]] <= prev)
			continue;
		for (mask = 0, j = i; j < w->ntag; j++)
			mask |= 1 << ord[j];
		w->acc[mask] += end[ord[i]] - prev;
		prev = end[ord[i]];
	}
}

/* Merge v into its tag's union: v starts no earlier than any before. */
static void
gmerge(struct gwin *w, struct ivl v)
{
	struct gmst *m = &w->m[v.t];

	if (w->ntag > 1 && w->popped)
		sweep(w, v.s);
	w->front = v.s;
	w->popped = 1;
	if (m->gon && v.s <= m->ge) {
		if (v.e > m->ge)
			m->ge = v.e;
		return;
	}
	if (m->gon)
		m->busy += m->ge - m->gs;
	m->gs = v.s;
	m->ge = v.e;
	m->gon = 1;
}

/* Interval a before b: by start. */
#define BYSTART(a, b)	((a)->s < (b)->s)
OWIN_FUNCS(ivwin, struct ivl, BYSTART)

/* Put v in w's waiting intervals. */
static void
wpush(struct gwin *w, struct ivl v)
{
	ivwin_push(&w->wait, &v);
}

/* Take w's earliest waiting interval (one waits). */
static struct ivl
wpop(struct gwin *w)
{
	struct ivl v;

	ivwin_pop(&w->wait, &v);
	return v;
}

/* Close open interval i into the waiting ones. */
static void
wclose(struct gwin *w, size_t i)
{
	wpush(w, w->open[i]);
	w->open[i].s = 1;
	w->open[i].e = 0;
}

/*
 * Merge the earliest waiting interval of w, the open intervals that
 * start no later closed into the waiting ones first.
 */
static void
popone(struct gwin *w)
{
	size_t i, n = w->nst * (size_t)w->ntag;

	for (i = 0; i < n; i++)
		if (w->open[i].s <= w->open[i].e &&
		    w->open[i].s <= ivwin_first(&w->wait)->s)
			wclose(w, i);
	gmerge(w, wpop(w));
}

int
gw_add(struct gwin *w, size_t st, int t, int64_t s, int64_t e)
{
	struct ivl *o, v;

	if (w->popped && s < w->front)
		return -1;
	streams(w, st);
	o = &w->open[st * (size_t)w->ntag + (size_t)t];
	if (o->s <= o->e && s >= o->s && s <= o->e) {
		if (e > o->e)
			o->e = e;
		return 0;
	}
	v.s = s;
	v.e = e;
	v.t = t;
	if (o->s > o->e)
		*o = v;
	else if (s > o->e) {
		wpush(w, *o);
		*o = v;
	} else
		wpush(w, v);	/* before its stream's open interval */
	while (w->wait.n > LAG)
		popone(w);
	return 0;
}

int64_t
gw_end(struct gwin *w)
{
	size_t i, n = w->nst * (size_t)w->ntag;
	int64_t busy = 0;
	int t;

	for (i = 0; i < n; i++)
		if (w->open[i].s <= w->open[i].e)
			wclose(w, i);
	while (w->wait.n > 0)
		gmerge(w, wpop(w));
	if (w->ntag > 1 && w->popped)
		sweep(w, INT64_MAX);
	for (t = 0; t < w->ntag; t++) {
		if (w->m[t].gon)
			w->m[t].busy += w->m[t].ge - w->m[t].gs;
		w->m[t].gon = 0;
		busy += w->m[t].busy;
	}
	return busy;
}

void
gw_reset(struct gwin *w)
{
	size_t i, n = w->nst * (size_t)w->ntag;

	for (i = 0; i < n; i++) {
		w->open[i].s = 1;
		w->open[i].e = 0;
	}
	ivwin_clear(&w->wait);
	memset(w->m, 0, sizeof(w->m));
	memset(w->acc, 0, sizeof(w->acc));
	w->popped = 0;
}

void
gw_free(struct gwin *w)
{
	free(w->open);
	ivwin_free(&w->wait);
}
