/*
 * tracenest.c: the nesting of a thread's spans (trace.c's rules): the
 * stack nodes (node(), account()), the order spans are taken in
 * (sortspans()), the stack of open spans (enter(), close1(),
 * nestspans()), and the streaming state of a thread: a sorted thread's
 * batches nested early and spilled (flush()), a tainted one read back
 * and nested again (reset(), readback()), and the end (finish()).
 */
#define _GNU_SOURCE		/* memmem */
#include <err.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "sst.h"
#include "trace.h"
#include "traceint.h"

static uint32_t	 node(struct trace *, uint32_t, uint32_t, uint32_t);
static int	 before(const struct span *, const struct span *);
static void	 swap(struct span *, struct span *);
static void	 sortspans(struct span *, size_t);
static void	 close1(struct trace *, struct thread *);
static void	 nestspans(struct trace *, uint32_t, const struct span *,
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
	if (id >= NONE) {
		progress_hide();
		errx(1, "too many stacks");
	}
	if (id >= t->ncap) {
		cap = xgrowcap(t->ncap, id + 1, 256);
		t->nthread = xreallocarray(t->nthread, cap, sizeof(uint32_t));
		t->nparent = xreallocarray(t->nparent, cap, sizeof(uint32_t));
		t->nname = xreallocarray(t->nname, cap, sizeof(uint32_t));
		t->nsamples = xreallocarray(t->nsamples, cap,
		    sizeof(uint64_t));
		t->nns = xreallocarray(t->nns, cap, sizeof(int64_t));
		t->nfirst = xreallocarray(t->nfirst, cap, sizeof(int64_t));
		t->nmixed = xreallocarray(t->nmixed, cap, 1);
		t->nrank = xreallocarray(t->nrank, cap, sizeof(uint64_t));
		t->ncap = cap;
	}
	t->nthread[id] = th;
	t->nparent[id] = parent;
	t->nname[id] = name;
	t->nsamples[id] = 0;
	t->nns[id] = 0;
	t->nmixed[id] = 0;
	t->nrank[id] = UINT64_MAX;
	return (uint32_t)id;
}

/* A span of self time self ns ended at node n; with -s a record. */
void
tr_account(struct trace *t, uint32_t n, int64_t start, int64_t self,
    uint64_t order)
{
	struct one *o;

	if (t->nsamples[n] == 0)
		t->nfirst[n] = self;
	else if (t->nfirst[n] != self)
		t->nmixed[n] = 1;
	t->nsamples[n]++;
	t->nns[n] += self;
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

/* Whether span x is taken before y: by start, longer first, then input. */
static int
before(const struct span *x, const struct span *y)
{
	if (x->start != y->start)
		return x->start < y->start;
	if (x->dur != y->dur)
		return x->dur > y->dur;
	return x->seq < y->seq;
}

/* Swap two spans. */
static void
swap(struct span *x, struct span *y)
{
	struct span tmp = *x;

	*x = *y;
	*y = tmp;
}

/*
 * Sort spans in place (qsort(3) may take a copy as large as the array):
 * quicksort on the median of three, the smaller part first, insertion
 * sort for short runs.  The order is total, so stability is moot.
 */
static void
sortspans(struct span *a, size_t n)
{
	size_t i, j, m;
	struct span p;

	while (n > 16) {
		m = n / 2;
		if (before(&a[m], &a[0]))
			swap(&a[m], &a[0]);
		if (before(&a[n - 1], &a[0]))
			swap(&a[n - 1], &a[0]);
		if (before(&a[n - 1], &a[m]))
			swap(&a[n - 1], &a[m]);
		p = a[m];
		i = 0;
		j = n - 1;
		for (;;) {
			while (before(&a[i], &p))
				i++;
			while (before(&p, &a[j]))
				j--;
			if (i >= j)
				break;
			swap(&a[i++], &a[j--]);
		}
		/* a[0..j] <= p <= a[j+1..n) */
		if (j + 1 < n - j - 1) {
			sortspans(a, j + 1);
			a += j + 1;
			n -= j + 1;
		} else {
			sortspans(a + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (i = 1; i < n; i++) {
		p = a[i];
		for (j = i; j > 0 && before(&p, &a[j - 1]); j--)
			a[j] = a[j - 1];
		a[j] = p;
	}
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
	struct frame *c = &th->f[--th->nf];
	int64_t dur = c->end - c->start;

	if (c->gs != NONE) {
		/* A GPU span: accounted where tr_attach() puts it. */
		t->gs[c->gs].self = dur - c->kids;
		t->gs[c->gs].order = c->order;
	} else
		tr_account(t, c->node, c->start, dur - c->kids, c->order);
	if (th->nf > 0)
		th->f[th->nf - 1].kids += dur;
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
nestspans(struct trace *t, uint32_t id, const struct span *sp, size_t n)
{
	struct thread *th = &t->th[id];
	struct frame *f;
	const struct span *s;
	size_t i;
	int64_t end;
	uint32_t nd;

	for (i = 0; i < n; i++) {
		s = &sp[i];
		while (th->nf > 0 && s->start >= th->f[th->nf - 1].end)
			close1(t, th);
		end = s->start + s->dur;
		if (th->nf > 0 && end > th->f[th->nf - 1].end) {
			end = th->f[th->nf - 1].end;
			if (th->clipped < UINT32_MAX)
				th->clipped++;	/* the count saturates */
		}
		nd = tr_enter(t, id, th->nf > 0 ? th->f[th->nf - 1].node : NONE,
		    s->name & NAMEMASK);
		if (th->nf == SST_MAXDEPTH) {
			progress_hide();
			errx(1, "%s: event %llu: spans nested deeper than %d "
			    "levels", json_name(t->j),
			    (unsigned long long)s->seq + 1, SST_MAXDEPTH);
		}
		if (th->nf == th->capf) {
			th->capf = (uint32_t)xgrowcap(th->capf, th->nf + 1, 4);
			th->f = xreallocarray(th->f, th->capf, sizeof(*th->f));
		}
		f = &th->f[th->nf++];
		f->start = s->start;
		f->end = end;
		f->kids = 0;
		f->node = nd;
		f->order = t->order++;
		f->gs = NONE;
		if (s->name >> KINDSHIFT != K_CPU)
			f->gs = tr_gpuspan(t, id, s, end, nd);
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

	sortspans(th->sp, th->n);
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
			t->nsamples[i] = 0;
			t->nns[i] = 0;
			t->nmixed[i] = 0;
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
	th->nf = 0;
	th->clipped = 0;
}

/* Read the spans of tainted threads back from the spill. */
void
tr_readback(struct trace *t)
{
	struct thread *th;
	struct span sp;
	uint32_t hd[2], i;

	xspill_rewind(t->spill);
	while (xspill_read(t->spill, hd, sizeof(hd)) == 0) {
		th = &t->th[hd[0]];
		for (i = 0; i < hd[1]; i++) {
			if (xspill_read(t->spill, &sp, sizeof(sp)) == -1) {
				progress_hide();
				errx(1, "spill: short read");
			}
			if (th->state != TH_TAINTED)
				continue;
			if (th->n == th->cap) {
				if (th->cap > UINT32_MAX / 2) {
					progress_hide();
					errx(1, "too many spans in a thread");
				}
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

	/* B events never closed end at the thread's last time. */
	while (th->nb > 0) {
		b = &th->b[--th->nb];
		t->st->unclosed++;
		if (b->kept)
			tr_addspan(t, id, b->start, th->last - b->start,
			    b->name, b->seq, b->kind, b->corr);
	}
	if (th->state == TH_TAINTED)
		reset(t, id);
	sortspans(th->sp, th->n);
	nestspans(t, id, th->sp, th->n);
	while (th->nf > 0)
		close1(t, th);
	t->st->clipped += th->clipped;
	free(th->sp);
	th->sp = NULL;
	th->n = th->cap = 0;
	free(th->f);
	th->f = NULL;
	th->capf = 0;
	free(th->b);
	th->b = NULL;
	th->capb = 0;
}
