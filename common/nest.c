/*
 * nest.c: the spans of one thread nested as trace2sst nests them (issue
 * 11, part 1).  Spans are taken by start time, longer first on equal
 * starts, then in input order.  A span that starts at or after the end
 * of the innermost open span closes it; a span that ends after its
 * parent is clipped to the parent's end (counted, for one warning).  A
 * span's self time is its duration minus the durations of its direct
 * children.  Times are integers (nanoseconds for nsys2sst), summed
 * exactly and divided into seconds at the end.  A duration, or a
 * stack's summed self time, past 2^63 - 1 and a span nested deeper
 * than SST_MAXDEPTH are errors naming the span (by the caller's id);
 * a span without an end is told by a flag, not by a value of its end.
 *
 * Memory: every span of the thread (64 bytes) and its name.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sst.h"
#include "nest.h"

#define NONE	((size_t)-1)

struct span {
	int64_t		 start, end;
	int64_t		 id;		/* the caller's, for messages */
	int		 hasend;
	size_t		 name;		/* id in names */
	size_t		 seq;		/* input order */
	size_t		 parent;	/* after nesting, in sorted order */
	int64_t		 self;
};

/* A distinct stack's totals. */
struct tot {
	uint64_t	 n;
	int64_t		 sum;
	int64_t		 first;
	int		 uniform;
};

struct nest {
	struct span	*s;
	size_t		 n, cap;
	struct htab	*names;		/* escaped */
	struct buf	 stack;
	size_t		*path;
	size_t		 pathcap;
	int		 nested;	/* nest_nest() done */
};

static int	 bystart(const void *, const void *);
static void	 stackof(struct nest *, size_t);
static int	 bad(struct nest_stats *, const struct span *, const char *,
		    ...) __attribute__((__format__(__printf__, 3, 4)));
static void	 record(struct sst_rec *, uint64_t, int64_t, int, int64_t,
		    double);

struct nest *
nest_new(void)
{
	struct nest *ns;

	ns = xcalloc(1, sizeof(*ns));
	ns->names = ht_new();
	buf_init(&ns->stack);
	return ns;
}

void
nest_add(struct nest *ns, int64_t start, int64_t end, int hasend,
    int64_t id, const char *name, size_t len)
{
	struct span *sp;
	int isnew;

	if (ns->n == ns->cap)
		ns->s = xgrow(ns->s, &ns->cap, ns->n + 1, 256, sizeof(*ns->s));
	sp = &ns->s[ns->n];
	sp->start = start;
	sp->end = hasend ? end : start;
	sp->hasend = hasend;
	sp->id = id;
	sp->name = ht_intern(ns->names, name, len, &isnew);
	sp->seq = ns->n++;
	ns->nested = 0;
}

size_t
nest_count(const struct nest *ns)
{
	return ns->n;
}

/* By start, longer first, then in input order. */
static int
bystart(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The stack of span i, root first, into ns->stack. */
static void
stackof(struct nest *ns, size_t i)
{
	const char *k;
	size_t n = 0, len;

	for (; i != NONE; i = ns->s[i].parent) {
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

/* Fill samples, weight and period of r from integer totals / div. */
static void
record(struct sst_rec *r, uint64_t n, int64_t sum, int uniform,
    int64_t first, double div)
{
	r->samples = n;
	r->hasperiod = uniform;
	if (uniform) {
		r->period = (double)first / div;
		r->weight = fmt_pysum(0, r->period, n);
	} else
		r->weight = (double)sum / div;
}

/* Record an error of span sp in *st; returns -1. */
static int
bad(struct nest_stats *st, const struct span *sp, const char *fmt, ...)
{
	va_list ap;

	st->id = sp->id;
	va_start(ap, fmt);
	vsnprintf(st->why, sizeof(st->why), fmt, ap);
	va_end(ap);
	return -1;
}

int
nest_nest(struct nest *ns, int flags, struct nest_stats *st)
{
	struct span *sp;
	size_t *open, nopen = 0, i;
	int64_t last = INT64_MIN;

	if (ns->nested)
		return 0;
	/* An open span's end is its start until it gets this. */
	for (i = 0; i < ns->n; i++) {
		if (ns->s[i].start > last)
			last = ns->s[i].start;
		if (ns->s[i].end > last)
			last = ns->s[i].end;
	}
	for (i = 0; i < ns->n; i++) {
		sp = &ns->s[i];
		if (!sp->hasend) {
			sp->end = last;
			st->open++;
		}
		if (__builtin_sub_overflow(sp->end, sp->start, &sp->self))
			return bad(st, sp, "a range of %lld to %lld: its "
			    "duration passes 2^63 - 1", (long long)sp->start,
			    (long long)sp->end);
	}
	qsort(ns->s, ns->n, sizeof(*ns->s), bystart);
	open = xreallocarray(NULL, ns->n ? ns->n : 1, sizeof(*open));
	for (i = 0; i < ns->n; i++) {
		sp = &ns->s[i];
		while (nopen > 0 && ((flags & NEST_FLAT) ||
		    sp->start >= ns->s[open[nopen - 1]].end))
			nopen--;
		if (nopen >= SST_MAXDEPTH) {
			free(open);
			return bad(st, sp, "depth exceeds %d levels",
			    SST_MAXDEPTH);
		}
		sp->parent = nopen > 0 ? open[nopen - 1] : NONE;
		if (nopen > 0 && sp->end > ns->s[open[nopen - 1]].end) {
			sp->end = ns->s[open[nopen - 1]].end;
			st->clipped++;
		}
		/* Within its parent: no overflow. */
		sp->self = sp->end - sp->start;
		if (sp->parent != NONE)
			ns->s[sp->parent].self -= sp->self;
		open[nopen++] = i;
	}
	free(open);
	ns->nested = 1;
	return 0;
}

int
nest_put(struct nest *ns, const char *thr, size_t thrlen, double div,
    int64_t origin, int flags, spd_emit emit, void *arg,
    struct nest_stats *st)
{
	struct sst_rec r;
	struct htab *stacks = NULL;
	struct tot *t = NULL, *tp;
	size_t i, id, len, tcap = 0;
	int isnew, persample = flags & NEST_PERSPAN, rv = 0;

	if (nest_nest(ns, flags, st) == -1)
		return -1;

	memset(&r, 0, sizeof(r));
	r.thread = thr;
	r.threadlen = thrlen;
	r.unit = U_SECONDS;
	r.locs = "";
	if (!persample)
		stacks = ht_new();
	for (i = 0; i < ns->n; i++) {
		stackof(ns, i);
		if (persample) {
			r.stack = ns->stack.data;
			r.stacklen = ns->stack.len;
			record(&r, 1, ns->s[i].self, 1, ns->s[i].self, div);
			r.hasstart = 1;
			/* start >= origin: exact in 64 bits unsigned. */
			r.start = (double)((uint64_t)ns->s[i].start -
			    (uint64_t)origin) / div;
			emit(&r, arg);
			continue;
		}
		id = ht_intern(stacks, ns->stack.data, ns->stack.len, &isnew);
		if (isnew) {
			if (id == tcap)
				t = xgrow(t, &tcap, id + 1, 64, sizeof(*t));
			t[id].n = 0;
			t[id].sum = 0;
			t[id].first = ns->s[i].self;
			t[id].uniform = 1;
		}
		tp = &t[id];
		tp->n++;
		if (__builtin_add_overflow(tp->sum, ns->s[i].self, &tp->sum)) {
			rv = bad(st, &ns->s[i], "the self times of its stack "
			    "sum past 2^63 - 1");
			break;
		}
		if (ns->s[i].self != tp->first)
			tp->uniform = 0;
	}
	if (!persample) {
		for (id = 0; rv == 0 && id < ht_count(stacks); id++) {
			r.stack = ht_key(stacks, id, &len);
			r.stacklen = len;
			record(&r, t[id].n, t[id].sum, t[id].uniform,
			    t[id].first, div);
			emit(&r, arg);
		}
		ht_free(stacks);
		free(t);
	}
	ns->n = 0;
	ns->nested = 0;
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
	free(ns->path);
	ht_free(ns->names);
	buf_free(&ns->stack);
	free(ns);
}
