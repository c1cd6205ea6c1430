/*
 * nest.c: the span-nesting engine of trace2sst and nsys2sst (issue 36,
 * item 3): one place for the rules both programs nest by.
 *
 * Order: spans are taken by start time, longer first on equal starts,
 * then in input order (nest_before(), nest_sort()).
 * Pop: a span that starts at or after the end of the innermost open span
 * closes it (nest_closes(), nest_pop()).
 * Clip: a span that ends after its parent is cut to the parent's end,
 * and counted, for one warning (nest_push()).
 * Self time: a span's duration less the durations of its direct
 * children (nest_pop()).
 * Depth: at most SST_MAXDEPTH spans open at once (nest_push()).
 * Unclosed: a span without an end ends at its thread's latest time, the
 * latest start or end of any event of the thread (nest_seen(),
 * nest_unclosed()): for trace2sst every event with a time, for nsys2sst
 * the thread's ranges.
 * Uniform period: a stack's spans all of one self time give a period,
 * that time, and a weight summed from it as sst(5) says; else the exact
 * sum and no period (nest_tally(), nest_rec()).
 * Times are integers (nanoseconds for both programs), summed exactly
 * and divided into seconds at the end; a duration or a stack's sum past
 * 2^63 - 1 is an error where it is made.
 *
 * On these, struct nest holds the spans of one thread and hands out
 * their records (nsys2sst); trace2sst's reader nests as it goes
 * (tracenest.c).  Memory of struct nest: every span of the thread
 * (64 bytes) and its name.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "json.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "spd.h"
#include "nest.h"

#define NONE	((size_t)-1)

/* What struct nest keeps of a span besides its struct nest_span. */
struct side {
	int64_t		 end;
	int64_t		 id;		/* the caller's, for messages */
	int		 hasend;
};

struct nest {
	struct nest_span *s;		/* sorted once nested */
	struct side	*sd;		/* by seq */
	size_t		*parent;	/* by sorted index, or NONE */
	int64_t		*self;		/* by sorted index */
	size_t		 n, cap;
	struct nest_clock clock;
	struct nest_stack stk;
	struct htab	*names;		/* escaped */
	struct buf	 stack;
	size_t		*path;
	size_t		 pathcap;
	int		 nested;	/* nest_nest() done */
};

static void	 swap(struct nest_span *, struct nest_span *);
static void	 stackof(struct nest *, size_t);
static int	 bad(struct nest_stats *, int64_t, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));
static int	 durs(struct nest *, struct nest_stats *);
static int	 tally(struct nest *, struct htab *, struct nest_tot **,
		    size_t *, size_t, struct nest_stats *);

/* Swap two spans. */
static void
swap(struct nest_span *x, struct nest_span *y)
{
	struct nest_span tmp = *x;

	*x = *y;
	*y = tmp;
}

/*
 * Quicksort on the median of three, the smaller part first, insertion
 * sort for short runs (qsort(3) may take a copy as large as the array).
 * The order is total, so stability is moot.
 */
void
nest_sort(struct nest_span *a, size_t n)
{
	size_t i, j, m;
	struct nest_span p;

	while (n > 16) {
		m = n / 2;
		if (nest_before(&a[m], &a[0]))
			swap(&a[m], &a[0]);
		if (nest_before(&a[n - 1], &a[0]))
			swap(&a[n - 1], &a[0]);
		if (nest_before(&a[n - 1], &a[m]))
			swap(&a[n - 1], &a[m]);
		p = a[m];
		i = 0;
		j = n - 1;
		for (;;) {
			while (nest_before(&a[i], &p))
				i++;
			while (nest_before(&p, &a[j]))
				j--;
			if (i >= j)
				break;
			swap(&a[i++], &a[j--]);
		}
		/* a[0..j] <= p <= a[j+1..n) */
		if (j + 1 < n - j - 1) {
			nest_sort(a, j + 1);
			a += j + 1;
			n -= j + 1;
		} else {
			nest_sort(a + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (i = 1; i < n; i++) {
		p = a[i];
		for (j = i; j > 0 && nest_before(&p, &a[j - 1]); j--)
			a[j] = a[j - 1];
		a[j] = p;
	}
}

void
nest_grow(struct nest_stack *s)
{
	size_t cap = s->cap;

	s->f = xgrow(s->f, &cap, s->n + 1, 4, sizeof(*s->f));
	s->cap = (uint32_t)cap;
}

void
nest_stackfree(struct nest_stack *s)
{
	free(s->f);
	s->f = NULL;
	s->n = s->cap = 0;
}

int
nest_dur(int64_t start, int64_t end, int64_t *dur)
{
	return __builtin_sub_overflow(end, start, dur) ? -1 : 0;
}

int
nest_unclosed(const struct nest_clock *c, int64_t start, int64_t *dur)
{
	return nest_dur(start, c->has && c->last > start ? c->last : start,
	    dur);
}

void
nest_rec(struct sst_rec *r, const struct nest_tot *t, double div)
{
	r->samples = t->n;
	r->hasperiod = !t->mixed;
	if (!t->mixed) {
		r->period = (double)t->first / div;
		/* fmt_pysum(0, p, 1) is p: spare the call per span of -s. */
		r->weight = t->n == 1 ? r->period :
		    fmt_pysum(0, r->period, t->n);
	} else
		r->weight = (double)t->sum / div;
}

struct nest *
nest_new(void)
{
	struct nest *ns;

	ns = xcalloc(1, sizeof(*ns));
	ns->names = ht_new();
	buf_init(&ns->stack);
	return ns;
}

int
nest_add(struct nest *ns, int64_t start, int64_t end, int hasend,
    int64_t id, const char *name, size_t len)
{
	struct nest_span *sp;
	size_t cap;

	if (ns->n >= UINT32_MAX)
		return -1;
	if (ns->n == ns->cap) {
		cap = ns->cap;
		ns->s = xgrow(ns->s, &cap, ns->n + 1, 256, sizeof(*ns->s));
		ns->sd = xreallocarray(ns->sd, cap, sizeof(*ns->sd));
		ns->cap = cap;
	}
	sp = &ns->s[ns->n];
	sp->start = start;
	sp->dur = 0;
	sp->name = (uint32_t)ht_intern(ns->names, name, len, NULL);
	sp->seq = (uint32_t)ns->n;
	ns->sd[ns->n].end = end;
	ns->sd[ns->n].id = id;
	ns->sd[ns->n].hasend = hasend;
	nest_seen(&ns->clock, start);
	if (hasend)
		nest_seen(&ns->clock, end);
	ns->n++;
	ns->nested = 0;
	return 0;
}

size_t
nest_count(const struct nest *ns)
{
	return ns->n;
}

/* The stack of span i, root first, into ns->stack. */
static void
stackof(struct nest *ns, size_t i)
{
	const char *k;
	size_t n = 0, len;

	for (; i != NONE; i = ns->parent[i]) {
		if (n == ns->pathcap)
			ns->path = xgrow(ns->path, &ns->pathcap, n + 1, 64,
			    sizeof(*ns->path));
		ns->path[n++] = i;
	}
	buf_reset(&ns->stack);
	while (n-- > 0) {
		k = ht_key(ns->names, ns->s[ns->path[n]].name, &len);
		buf_add(&ns->stack, k, len);
		if (n > 0)
			buf_addc(&ns->stack, ';');
	}
}

/* Record an error of span id in *st; returns -1. */
static int
bad(struct nest_stats *st, int64_t id, const char *fmt, ...)
{
	va_list ap;

	st->id = id;
	va_start(ap, fmt);
	vsnprintf(st->why, sizeof(st->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* The duration of every span, by its end or nest_unclosed()'s rule. */
static int
durs(struct nest *ns, struct nest_stats *st)
{
	struct nest_span *sp;
	struct side *sd;
	size_t i;
	int rv;

	for (i = 0; i < ns->n; i++) {
		sp = &ns->s[i];
		sd = &ns->sd[sp->seq];
		if (sd->hasend)
			rv = nest_dur(sp->start, sd->end, &sp->dur);
		else {
			rv = nest_unclosed(&ns->clock, sp->start, &sp->dur);
			st->open++;
		}
		if (rv == -1)
			return bad(st, sd->id, "a range of %lld to %lld: its "
			    "duration passes 2^63 - 1", (long long)sp->start,
			    (long long)(sd->hasend ? sd->end :
			    ns->clock.last));
	}
	return 0;
}

int
nest_nest(struct nest *ns, int flags, struct nest_stats *st)
{
	const struct nest_frame *c;
	struct nest_frame *f, *top;
	struct nest_stack *stk = &ns->stk;
	size_t i;
	int64_t self;

	if (ns->nested)
		return 0;
	if (durs(ns, st) == -1)
		return -1;
	nest_sort(ns->s, ns->n);
	ns->parent = xreallocarray(ns->parent, ns->n ? ns->n : 1,
	    sizeof(*ns->parent));
	ns->self = xreallocarray(ns->self, ns->n ? ns->n : 1,
	    sizeof(*ns->self));
	stk->n = 0;
	stk->clipped = 0;
	for (i = 0; i <= ns->n; i++) {
		/* Past the last span, close all. */
		while (stk->n > 0 && (i == ns->n || (flags & NEST_FLAT) ||
		    nest_closes(stk, ns->s[i].start))) {
			c = nest_pop(stk, &self);
			ns->self[c->node] = self;
		}
		if (i == ns->n)
			break;
		top = nest_top(stk);
		ns->parent[i] = top != NULL ? top->node : NONE;
		if ((f = nest_push(stk, ns->s[i].start, ns->s[i].dur)) ==
		    NULL) {
			stk->n = 0;
			return bad(st, ns->sd[ns->s[i].seq].id, "depth exceeds "
			    "%d levels", SST_MAXDEPTH);
		}
		f->node = (uint32_t)i;
	}
	st->clipped += stk->clipped;
	ns->nested = 1;
	return 0;
}

/*
 * Count span i in the totals *t (*tcap of them) of its stack, interned
 * in stacks: -1 (in *st) when the stack's sum passes 2^63 - 1.
 */
static int
tally(struct nest *ns, struct htab *stacks, struct nest_tot **t,
    size_t *tcap, size_t i, struct nest_stats *st)
{
	size_t id;
	int isnew;

	id = ht_intern(stacks, ns->stack.data, ns->stack.len, &isnew);
	if (isnew) {
		*t = xgrow(*t, tcap, id + 1, 64, sizeof(**t));
		memset(&(*t)[id], 0, sizeof(**t));
	}
	if (nest_tally(&(*t)[id], ns->self[i]) == -1)
		return bad(st, ns->sd[ns->s[i].seq].id, "the self times of "
		    "its stack sum past 2^63 - 1");
	return 0;
}

int
nest_put(struct nest *ns, const char *thr, size_t thrlen, double div,
    int64_t origin, int flags, spd_emit emit, void *arg,
    struct nest_stats *st)
{
	struct sst_rec r;
	struct htab *stacks = NULL;
	struct nest_tot *t = NULL, one;
	size_t i, len, tcap = 0;
	int rv = 0;

	if (nest_nest(ns, flags, st) == -1)
		return -1;
	memset(&r, 0, sizeof(r));
	r.thread = thr;
	r.threadlen = thrlen;
	r.unit = U_SECONDS;
	r.locs = "";
	if (!(flags & NEST_PERSPAN))
		stacks = ht_new();
	for (i = 0; i < ns->n && rv == 0; i++) {
		stackof(ns, i);
		if (stacks != NULL) {
			rv = tally(ns, stacks, &t, &tcap, i, st);
			continue;
		}
		r.stack = ns->stack.data;
		r.stacklen = ns->stack.len;
		memset(&one, 0, sizeof(one));
		nest_tally(&one, ns->self[i]);
		nest_rec(&r, &one, div);
		r.hasstart = 1;
		/* start >= origin: exact in 64 bits unsigned. */
		r.start = (double)((uint64_t)ns->s[i].start -
		    (uint64_t)origin) / div;
		emit(&r, arg);
	}
	if (stacks != NULL) {
		for (i = 0; rv == 0 && i < ht_count(stacks); i++) {
			r.stack = ht_key(stacks, i, &len);
			r.stacklen = len;
			nest_rec(&r, &t[i], div);
			emit(&r, arg);
		}
		ht_free(stacks);
		free(t);
	}
	ns->n = 0;
	ns->nested = 0;
	memset(&ns->clock, 0, sizeof(ns->clock));
	ht_free(ns->names);
	ns->names = ht_new();
	return rv;
}

void
nest_free(struct nest *ns)
{
	if (ns == NULL)
		return;
	free(ns->s);
	free(ns->sd);
	free(ns->parent);
	free(ns->self);
	free(ns->path);
	nest_stackfree(&ns->stk);
	ht_free(ns->names);
	buf_free(&ns->stack);
	free(ns);
}
