/*
 * tracenest.c: the nesting of a thread's spans by the engine's rules
 * (nest.c): the stack nodes (node(), tr_account()), the spans taken in
 * order onto the engine's stack of open spans (tr_enter(), close1(),
 * nestspans()), and the streaming state of a thread: a sorted thread's
 * batches nested early and spilled (tr_flush()), a tainted one read
 * back and nested again (reset(), tr_readback()), and the end
 * (tr_finish()).
 */
#define _GNU_SOURCE		/* memmem */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "util.h"
#include "json.h"
#include "htab.h"
#include "spill.h"
#include "trace.h"
#include "traceint.h"

static uint32_t	 node(struct trace *, uint32_t, uint32_t, uint32_t);
static void	 close1(struct trace *, struct thread *);
static void	 nestspans(struct trace *, uint32_t, const struct nest_span *,
		    size_t);
static void	 reset(struct trace *, uint32_t);

/* The node of name under parent (NONE: the root) on thread th. */
static uint32_t
node(struct trace *t, uint32_t th, uint32_t parent, uint32_t name)
{
	uint32_t key[3] = { th, parent, name };
	size_t id, cap;
	int isnew;

	id = ht_intern(t->nodes, key, sizeof(key), &isnew);
	if (!isnew)
		return (uint32_t)id;
	if (id >= NONE)
		tr_failx(t, "too many stacks");
	if (id >= t->ncap) {
		cap = xgrowcap(t->ncap, id + 1, 256);
		t->nthread = xreallocarray(t->nthread, cap, sizeof(uint32_t));
		t->nparent = xreallocarray(t->nparent, cap, sizeof(uint32_t));
		t->nname = xreallocarray(t->nname, cap, sizeof(uint32_t));
		t->ntot = xreallocarray(t->ntot, cap, sizeof(*t->ntot));
		t->nrank = xreallocarray(t->nrank, cap, sizeof(uint64_t));
		t->ncap = cap;
	}
	t->nthread[id] = th;
	t->nparent[id] = parent;
	t->nname[id] = name;
	memset(&t->ntot[id], 0, sizeof(t->ntot[id]));
	t->nrank[id] = UINT64_MAX;
	return (uint32_t)id;
}

/* A span of self time self ns ended at node n; with -s a record. */
void
tr_account(struct trace *t, uint32_t n, int64_t start, int64_t self,
    uint64_t order)
{
	struct one *o;

	if (nest_tally(&t->ntot[n], self) == -1)
		tr_failx(t, "%s: the self times of a stack sum past 2^63 - 1 "
		    "ns", json_name(t->j));
	if (!t->opt->persample)
		return;
	if (t->nones == t->capones)
		t->ones = xgrow(t->ones, &t->capones, t->nones + 1, 256,
		    sizeof(*t->ones));
	o = &t->ones[t->nones++];
	o->start = start;
	o->self = self;
	o->thread = t->nthread[n];
	o->node = n;
	o->order = order;
}

/* By thread, start, then the order the spans were taken. */
int
tr_onecmp(const void *a, const void *b)
{
	const struct one *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Close the innermost open span of thread th. */
static void
close1(struct trace *t, struct thread *th)
{
	const struct nest_frame *c;
	int64_t self;

	c = nest_pop(&th->stk, &self);
	if (c->tag != NONE) {
		/* A GPU span: accounted where tr_attach() puts it. */
		t->gs[c->tag].self = self;
		t->gs[c->tag].order = c->order;
	} else
		tr_account(t, c->node, c->start, self, c->order);
}

/* The node of name under parent on thread id, entered now. */
uint32_t
tr_enter(struct trace *t, uint32_t id, uint32_t parent, uint32_t name)
{
	uint32_t n = node(t, id, parent, name);

	if (t->nrank[n] == UINT64_MAX)
		t->nrank[n] = t->rank++;
	return n;
}

/* Nest the n sorted spans sp of thread id, after those nested before. */
static void
nestspans(struct trace *t, uint32_t id, const struct nest_span *sp,
    size_t n)
{
	struct thread *th = &t->th[id];
	struct nest_frame *f;
	const struct nest_span *s;
	size_t i;
	uint32_t parent;

	for (i = 0; i < n; i++) {
		s = &sp[i];
		while (nest_closes(&th->stk, s->start))
			close1(t, th);
		parent = (f = nest_top(&th->stk)) != NULL ? f->node : NONE;
		if ((f = nest_push(&th->stk, s->start, s->dur)) == NULL)
			tr_failx(t, "%s: event %llu: spans nested deeper than "
			    "%d levels", json_name(t->j),
			    (unsigned long long)s->seq + 1, SST_MAXDEPTH);
		f->node = tr_enter(t, id, parent, s->name & NAMEMASK);
		f->order = t->order++;
		f->tag = NONE;
		if (s->name >> KINDSHIFT != K_CPU)
			f->tag = tr_gpuspan(t, id, s, f->end, f->node);
	}
}

/*
 * Thread id is sorted and has no open B: nest its pending spans that
 * start before ts, which no later event can precede, and keep them in
 * the spill in case the thread turns out not to be sorted after all.
 */
void
tr_flush(struct trace *t, uint32_t id, int64_t ts)
{
	struct thread *th = &t->th[id];
	uint32_t hd[2];
	size_t k;

	nest_sort(th->sp, th->n);
	for (k = 0; k < th->n && th->sp[k].start < ts && k < NONE; k++)
		;
	if (k == 0)
		return;
	nestspans(t, id, th->sp, k);
	/* A block: the thread, the count, the spans. */
	hd[0] = id;
	hd[1] = (uint32_t)k;
	xspill_write(t->spill, hd, sizeof(hd));
	xspill_write(t->spill, th->sp, k * sizeof(*th->sp));
	memmove(th->sp, th->sp + k, (th->n - k) * sizeof(*th->sp));
	th->n -= k;
	th->state = TH_FLUSHED;
}

/* Forget what was made of the tainted thread id: it is nested again. */
static void
reset(struct trace *t, uint32_t id)
{
	struct thread *th = &t->th[id];
	size_t i, k;

	for (i = 0; i < ht_count(t->nodes); i++)
		if (t->nthread[i] == id) {
			memset(&t->ntot[i], 0, sizeof(t->ntot[i]));
			t->nrank[i] = UINT64_MAX;
		}
	for (i = k = 0; i < t->nones; i++)
		if (t->ones[i].thread != id)
			t->ones[k++] = t->ones[i];
	t->nones = k;
	for (i = 0; i < t->ngs; i++)
		if (t->gs[i].thread == id)
			t->gs[i].dead = 1;	/* open frames index gs */
	for (i = k = 0; i < t->nln; i++)
		if (t->nthread[t->ln[i].node] != id)
			t->ln[k++] = t->ln[i];
	t->nln = k;
	th->stk.n = 0;
	th->stk.clipped = 0;
}

/* Read the spans of tainted threads back from the spill. */
void
tr_readback(struct trace *t)
{
	struct thread *th;
	struct nest_span sp;
	uint32_t hd[2], i;

	xspill_rewind(t->spill);
	while (xspill_read(t->spill, hd, sizeof(hd)) == 0) {
		th = &t->th[hd[0]];
		for (i = 0; i < hd[1]; i++) {
			if (xspill_read(t->spill, &sp, sizeof(sp)) == -1)
				tr_failx(t, "spill: short read");
			if (th->state != TH_TAINTED)
				continue;
			if (th->n == th->cap) {
				if (th->cap > UINT32_MAX / 2)
					tr_failx(t, "too many spans in a "
					    "thread");
				th->cap = (uint32_t)xgrowcap(th->cap, th->n + 1,
				    1);
				th->sp = xreallocarray(th->sp, th->cap,
				    sizeof(*th->sp));
			}
			th->sp[th->n++] = sp;
		}
	}
}

/* At the end of the input: nest what is left of thread id. */
void
tr_finish(struct trace *t, uint32_t id)
{
	struct thread *th = &t->th[id];
	struct bopen *b;
	int64_t dur;

	/* B events never closed end by the engine's rule. */
	while (th->nb > 0) {
		b = &th->b[--th->nb];
		t->st->unclosed++;
		if (nest_unclosed(&th->clock, b->start, &dur) == -1)
			tr_failx(t, "%s: event %llu: a B event without E "
			    "lasting past 2^63 - 1 ns", json_name(t->j),
			    (unsigned long long)b->seq + 1);
		if (b->kept)
			tr_addspan(t, id, b->start, dur, b->name, b->seq,
			    b->kind, b->corr);
	}
	if (th->state == TH_TAINTED)
		reset(t, id);
	nest_sort(th->sp, th->n);
	nestspans(t, id, th->sp, th->n);
	while (th->stk.n > 0)
		close1(t, th);
	t->st->clipped += th->stk.clipped;
	free(th->sp);
	th->sp = NULL;
	th->n = th->cap = 0;
	nest_stackfree(&th->stk);
	free(th->b);
	th->b = NULL;
	th->capb = 0;
}
