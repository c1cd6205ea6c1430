/*
 * nest.h: the span-nesting engine of trace2sst and nsys2sst: the order
 * spans are taken in, the stack of open spans (a span closes those it
 * starts at or after the end of, is clipped to its parent, and leaves
 * as self time its duration less its direct children's), the depth
 * limit, the end of a span without one, and the totals of a stack with
 * the uniform-period rule.  Times are integers in the caller's unit.
 *
 * The engine's parts are used one span at a time by trace2sst's reader
 * (common/formats/tracenest.c), which nests as the input goes; struct nest on
 * top of them holds the spans of one thread and hands out records
 * (nsys2sst).
 */
#ifndef NEST_H
#define NEST_H

#include <stddef.h>
#include <stdint.h>

#include "json.h"
#include "rec.h"
#include "spd.h"

/* A span: [start, start + dur). */
struct nest_span {
	int64_t		 start;
	int64_t		 dur;
	uint32_t	 name;		/* the caller's */
	uint32_t	 seq;		/* input order, the last tie-break */
};

/* An open span. */
struct nest_frame {
	int64_t		 start;
	int64_t		 end;		/* clipped to its parent's */
	int64_t		 kids;		/* durations of direct children */
	uint64_t	 order;		/* the caller's */
	uint32_t	 node;		/* the caller's */
	uint32_t	 tag;		/* the caller's */
};

/* The open spans of a thread, outermost first. */
struct nest_stack {
	struct nest_frame *f;
	uint32_t	 n, cap;
	uint64_t	 clipped;	/* spans clipped to their parent */
};

/* The latest time seen on a thread: where unclosed spans end. */
struct nest_clock {
	int64_t		 last;
	int		 has;
};

/* A stack's spans: count, summed self time, whether all are equal. */
struct nest_tot {
	uint64_t	 n;
	int64_t		 sum;
	int64_t		 first;		/* the first span's self time */
	int		 mixed;		/* a self time differs from first */
};

/*
 * The order spans are taken in: by start, longer first, then seq; -1 if
 * x comes before y, 1 after, 0 for the same span.  (Inline: the sorts'.)
 */
static inline int
nest_cmp(const struct nest_span *x, const struct nest_span *y)
{
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}
/* Whether span x is taken before y (nest_cmp()). */
static inline int
nest_before(const struct nest_span *x, const struct nest_span *y)
{
	return nest_cmp(x, y) < 0;
}
/* Sort spans in place in nest_before() order (no copy of the array). */
void	 nest_sort(struct nest_span *, size_t);

/* Whether a span starting at start closes the innermost open span. */
static inline int
nest_closes(const struct nest_stack *s, int64_t start)
{
	return s->n > 0 && start >= s->f[s->n - 1].end;
}
/* The innermost open span, or NULL. */
static inline struct nest_frame *
nest_top(const struct nest_stack *s)
{
	return s->n > 0 ? &s->f[s->n - 1] : NULL;
}
/*
 * Close the innermost open span (there must be one): its self time in
 * *self, its duration added to its parent's children.  The frame stays
 * valid until the next nest_push().  (Inline: once per span.)
 */
static inline const struct nest_frame *
nest_pop(struct nest_stack *s, int64_t *self)
{
	struct nest_frame *c = &s->f[--s->n];
	int64_t dur = c->end - c->start;

	*self = dur - c->kids;
	if (s->n > 0)
		s->f[s->n - 1].kids += dur;
	return c;
}
/* Room for one more open span in s (nest_push()'s). */
void	 nest_grow(struct nest_stack *);
/*
 * Open the span [start, start + dur) inside the innermost open span (the
 * caller closed those it does not start in), its end clipped to that
 * span's (counted in clipped); node, tag and order are the caller's to
 * fill (set to 0 here only for start, end and kids).  NULL, with
 * nothing changed, when SST_MAXDEPTH spans are open.
 */
static inline struct nest_frame *
nest_push(struct nest_stack *s, int64_t start, int64_t dur)
{
	struct nest_frame *f;
	int64_t end = start + dur;

	if (s->n >= SST_MAXDEPTH)
		return NULL;
	if (s->n > 0 && end > s->f[s->n - 1].end) {
		end = s->f[s->n - 1].end;
		s->clipped++;
	}
	if (s->n == s->cap)
		nest_grow(s);
	f = &s->f[s->n++];
	f->start = start;
	f->end = end;
	f->kids = 0;
	return f;
}
void	 nest_stackfree(struct nest_stack *);

/* Time t was seen on the thread of clock c. */
static inline void
nest_seen(struct nest_clock *c, int64_t t)
{
	if (!c->has || t > c->last)
		c->last = t;
	c->has = 1;
}
/*
 * The rule for a span without an end: it ends at its thread's latest
 * time, the latest start or end of any event of the thread seen by c;
 * its duration from start into *dur.  -1 if it passes 2^63 - 1.
 */
int	 nest_unclosed(const struct nest_clock *, int64_t, int64_t *);
/* The duration of [start, end) into *dur; -1 if it passes 2^63 - 1. */
int	 nest_dur(int64_t, int64_t, int64_t *);

/* Count a span of self time self in t; -1 if the sum passes 2^63 - 1. */
static inline int
nest_tally(struct nest_tot *t, int64_t self)
{
	if (t->n == 0)
		t->first = self;
	else if (self != t->first)
		t->mixed = 1;
	t->n++;
	return __builtin_add_overflow(t->sum, self, &t->sum) ? -1 : 0;
}
/*
 * The samples, weight and period of a record of t, times divided by
 * div: with equal self times the period is that time and the weight the
 * sum of the period (fmt_pysum()), else the weight the exact sum / div
 * and no period.
 */
void	 nest_rec(struct sst_rec *, const struct nest_tot *, double);

/* Flags of nest_put(). */
#define NEST_PERSPAN	0x01	/* one record per span, in start order */
#define NEST_FLAT	0x02	/* no nesting: every span at the root */

/* What nest_put() found, for warnings, or the error it stopped at. */
struct nest_stats {
	size_t		 clipped;	/* spans clipped to their parent */
	size_t		 open;		/* spans without an end */
	int64_t		 id;		/* the span of the error */
	char		 why[160];	/* the error */
};

/* The spans of one thread (nsys2sst). */
struct nest;
struct nest *nest_new(void);
/*
 * A span [start, end) named by escaped name n[0..len), in input order,
 * called id in messages; without an end (hasend 0), nest_unclosed()'s:
 * the latest start or end of the thread's spans.  -1 when the thread
 * has 2^32 - 1 spans already.
 */
int	 nest_add(struct nest *, int64_t, int64_t, int, int64_t,
	    const char *, size_t);
/* How many spans were added since the last nest_put(). */
size_t	 nest_count(const struct nest *);
/*
 * Nest the spans added (nest_put() does if it was not done): 0, or -1
 * with st->why and st->id saying which span is in error: a duration
 * past 2^63 - 1 or a span nested deeper than SST_MAXDEPTH.
 */
int	 nest_nest(struct nest *, int, struct nest_stats *);
/*
 * Nest the spans added and hand out their records, thread thr[0..len)
 * (escaped), weights in seconds (times divided by div): one record
 * per distinct stack with the spans ending there and their summed self
 * time, or with NEST_PERSPAN one per span in start order, with its start
 * (sst(5)'s eighth field) counted from origin.  Forgets the spans; adds
 * what it found to *st.  0, or -1 with nothing handed out, as
 * nest_nest(), or when a stack's summed self time passes 2^63 - 1.
 */
int	 nest_put(struct nest *, const char *, size_t, double, int64_t, int,
	    spd_emit, void *, struct nest_stats *);
void	 nest_free(struct nest *);

#endif
