/*
 * test_nest.c: Check suite for the span-nesting engine (common/formats/nest.c)
 * of trace2sst and nsys2sst: its parts (order, pop, clip, self time,
 * depth, unclosed spans, the uniform-period rule) driven span by span as
 * trace2sst's reader drives them, on cases of trace2sst's, then struct
 * nest as nsys2sst uses it, one rule per test, each on spans whose self
 * times are worked out by hand in the comments.
 */

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "rec.h"
#include "fmt.h"
#include "tutil.h"
#include "nest.h"

static void	 collect(const struct sst_rec *, void *);
static void	 add(struct nest *, int64_t, int64_t, const char *);
static const char *put(struct nest *, int, struct nest_stats *);
static const char *drive(struct nest_span *, size_t, uint64_t *);
static Suite	*nest_suite(void);

/*
 * Nest spans a[0..n) with the engine's parts as tracenest.c does:
 * sorted, each closing the open spans it starts at or after the end of,
 * then pushed; the spans' names are letters ('a' + name).  Returns
 * "name:parent:self" per span in the order they close; clipped spans
 * counted in *clipped.
 */
static const char *
drive(struct nest_span *a, size_t n, uint64_t *clipped)
{
	static struct buf b;
	static int init;
	struct nest_stack st;
	const struct nest_frame *f;
	struct nest_frame *p;
	size_t i;
	int64_t self;

	if (!init) {
		buf_init(&b);
		init = 1;
	}
	buf_reset(&b);
	memset(&st, 0, sizeof(st));
	nest_sort(a, n);
	for (i = 0; i <= n; i++) {
		while (st.n > 0 && (i == n || nest_closes(&st, a[i].start))) {
			f = nest_pop(&st, &self);
			buf_printf(&b, "%c:%c:%lld ", 'a' + f->node,
			    (int)f->tag, (long long)self);
		}
		if (i == n)
			break;
		p = nest_top(&st);
		self = p != NULL ? 'a' + p->node : '-';
		p = nest_push(&st, a[i].start, a[i].dur);
		ck_assert_ptr_nonnull(p);
		p->node = a[i].name;
		p->tag = (uint32_t)self;
	}
	*clipped = st.clipped;
	nest_stackfree(&st);
	buf_addc(&b, '\0');
	return b.data;
}

/* Taken by start, the longer first on equal starts, then input order. */
START_TEST(test_engine_order)
{
	struct nest_span a[] = {
		{ 10, 5, 0, 0 }, { 0, 10, 1, 1 }, { 0, 20, 2, 2 },
		{ 0, 10, 3, 3 }, { -5, 1, 4, 4 }
	};
	uint32_t want[] = { 4, 2, 1, 3, 0 };
	size_t i;

	nest_sort(a, 5);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(a[i].name, want[i]);
	ck_assert(nest_before(&a[0], &a[1]));
	ck_assert(!nest_before(&a[1], &a[1]));
}
END_TEST

/*
 * Pop, clip and self time on trace2sst's case (golden/nsys2sst/
 * same-as-trace, thread 7, in ns): a train_step [0, 1000), b matmul
 * [150, 250), c forward [100, 400), d backward [400, 900), e optimizer
 * [800, 1200), f train_step [1500, 1600).  Taken a, c, b, d, e, f.
 * b inside c; d starts at c's end: c closes, d is a's child; e starts
 * in d and ends past it: clipped to 900 (one); f starts after a's end.
 * Self: b 100, c 300 - 100 = 200, e 100, d 500 - 100 = 400,
 * a 1000 - 300 - 500 = 200, f 100.
 */
START_TEST(test_engine_nest)
{
	struct nest_span a[] = {
		{ 0, 1000, 0, 0 }, { 150, 100, 1, 1 }, { 100, 300, 2, 2 },
		{ 400, 500, 3, 3 }, { 800, 400, 4, 4 }, { 1500, 100, 5, 5 }
	};
	uint64_t clipped;

	ck_assert_str_eq(drive(a, 6, &clipped),
	    "b:c:100 c:a:200 e:d:100 d:a:400 a:-:200 f:-:100 ");
	ck_assert_uint_eq(clipped, 1);
}
END_TEST

/*
 * A span without an end ends at its thread's latest time, whatever
 * event set it (trace2sst: thread 8 of same-as-trace, worker [10, 40)
 * and a B event hang at 15 never closed; the latest time is worker's
 * end, 40, so hang lasts 25; worker's self is 30 - 25 = 5).  A later
 * time seen (an instant event at 60) moves it: hang lasts 45, clipped
 * to worker's end.
 */
START_TEST(test_engine_unclosed)
{
	struct nest_clock c;
	struct nest_span a[2] = { { 10, 30, 22, 0 }, { 15, 0, 7, 1 } };
	uint64_t clipped;
	int64_t d;

	memset(&c, 0, sizeof(c));
	nest_seen(&c, 10);
	nest_seen(&c, 40);
	nest_seen(&c, 15);
	ck_assert_int_eq(nest_unclosed(&c, 15, &d), 0);
	ck_assert_int_eq(d, 25);
	a[1].dur = d;
	ck_assert_str_eq(drive(a, 2, &clipped), "h:w:25 w:-:5 ");
	ck_assert_uint_eq(clipped, 0);
	nest_seen(&c, 60);
	ck_assert_int_eq(nest_unclosed(&c, 15, &d), 0);
	ck_assert_int_eq(d, 45);
	a[0] = (struct nest_span){ 10, 30, 22, 0 };
	a[1] = (struct nest_span){ 15, d, 7, 1 };
	ck_assert_str_eq(drive(a, 2, &clipped), "h:w:25 w:-:5 ");
	ck_assert_uint_eq(clipped, 1);
	/* Past 2^63 - 1: an error, never a wrapped duration. */
	nest_seen(&c, INT64_MAX);
	ck_assert_int_eq(nest_unclosed(&c, -2, &d), -1);
	ck_assert_int_eq(nest_dur(-1, INT64_MAX, &d), -1);
	ck_assert_int_eq(nest_dur(-1, INT64_MAX - 1, &d), 0);
	ck_assert_int_eq(d, INT64_MAX);
}
END_TEST

/* SST_MAXDEPTH spans open at once, not one more; nothing changes then. */
START_TEST(test_engine_depth)
{
	struct nest_stack st;
	int64_t i;

	memset(&st, 0, sizeof(st));
	for (i = 0; i < SST_MAXDEPTH; i++)
		ck_assert_ptr_nonnull(nest_push(&st, i, 10000 - 2 * i));
	ck_assert_ptr_null(nest_push(&st, SST_MAXDEPTH, 1));
	ck_assert_uint_eq(st.n, SST_MAXDEPTH);
	ck_assert_uint_eq(st.clipped, 0);
	nest_stackfree(&st);
}
END_TEST

/*
 * The uniform-period rule: three spans of self 1 (div 10: 0.1 s) have
 * the period 0.1 and the weight Python's sum([0.1] * 3),
 * 0.30000000000000004, as py-spy's records; 1, 2 and 3 have no period
 * and the exact sum 6 / 10 = 0.6.  A sum past 2^63 - 1 is an error.
 */
START_TEST(test_engine_uniform)
{
	struct nest_tot t;
	struct sst_rec r;

	memset(&t, 0, sizeof(t));
	memset(&r, 0, sizeof(r));
	ck_assert_int_eq(nest_tally(&t, 1), 0);
	ck_assert_int_eq(nest_tally(&t, 1), 0);
	ck_assert_int_eq(nest_tally(&t, 1), 0);
	nest_rec(&r, &t, 10);
	ck_assert_uint_eq(r.samples, 3);
	ck_assert_int_eq(r.hasperiod, 1);
	ck_assert(r.period == 0.1);
	ck_assert(r.weight == 0.30000000000000004);
	memset(&t, 0, sizeof(t));
	nest_tally(&t, 1);
	nest_tally(&t, 2);
	nest_tally(&t, 3);
	nest_rec(&r, &t, 10);
	ck_assert_uint_eq(r.samples, 3);
	ck_assert_int_eq(r.hasperiod, 0);
	ck_assert(r.weight == 0.6);
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(nest_tally(&t, INT64_MAX), 0);
	ck_assert_int_eq(nest_tally(&t, 1), -1);
}
END_TEST

/* Append "samples weight period stack" lines to the buffer. */
static void
collect(const struct sst_rec *r, void *arg)
{
	struct buf *b = arg;
	char w[FMTBUF], p[FMTBUF];

	fmt_double(w, sizeof(w), r->weight);
	if (r->hasperiod)
		fmt_double(p, sizeof(p), r->period);
	else
		strcpy(p, "-");
	buf_printf(b, "%llu %s %s ", (unsigned long long)r->samples, w, p);
	if (r->hasstart) {
		fmt_double(p, sizeof(p), r->start);
		buf_printf(b, "@%s ", p);
	}
	buf_add(b, r->stack, r->stacklen);
	buf_addc(b, '\n');
}

/* A span with an end, its id its place in input order from 1. */
static void
add(struct nest *ns, int64_t s, int64_t e, const char *name)
{
	nest_add(ns, s, e, 1, (int64_t)nest_count(ns) + 1, name,
	    strlen(name));
}

/* The records of the spans added, times in units of 1 (div 1). */
static const char *
put(struct nest *ns, int flags, struct nest_stats *st)
{
	static struct buf b;
	static int init;

	if (!init) {
		buf_init(&b);
		init = 1;
	}
	buf_reset(&b);
	if (nest_put(ns, "T", 1, 1, 0, flags, collect, &b, st) == -1) {
		ck_assert_str_eq(b.data, "");
		return NULL;
	}
	return b.data;
}

/* Sorted by start; a span starting at its parent's end closes it. */
START_TEST(test_order)
{
	struct nest *ns = nest_new();
	struct nest_stats st;

	memset(&st, 0, sizeof(st));
	add(ns, 10, 20, "c");	/* starts at b's end: b's sibling */
	add(ns, 0, 20, "a");
	add(ns, 0, 10, "b");	/* same start as a, shorter: inside a */
	/* a: 20 - 10 - 10 = 0; b 10; c 10 */
	ck_assert_str_eq(put(ns, NEST_PERSPAN, &st),
	    "1 0 0 @0 a\n1 10 10 @0 a;b\n1 10 10 @10 a;c\n");
	ck_assert_uint_eq(st.clipped, 0);
	ck_assert_uint_eq(nest_count(ns), 0);
	nest_free(ns);
}
END_TEST

/* Equal spans: input order, the first one outermost. */
START_TEST(test_equal)
{
	struct nest *ns = nest_new();
	struct nest_stats st;

	memset(&st, 0, sizeof(st));
	add(ns, 5, 9, "x");
	add(ns, 5, 9, "y");
	/* x: 4 - 4 = 0; y 4 */
	ck_assert_str_eq(put(ns, 0, &st), "1 0 0 x\n1 4 4 x;y\n");
	nest_free(ns);
}
END_TEST

/* A span ending after its parent is clipped and counted. */
START_TEST(test_clip)
{
	struct nest *ns = nest_new();
	struct nest_stats st;

	memset(&st, 0, sizeof(st));
	add(ns, 0, 10, "p");
	add(ns, 5, 30, "q");	/* clipped to 10: 5 */
	add(ns, 20, 25, "r");	/* after p: a root */
	/* p: 10 - 5 = 5; q 5; r 5: one stack each */
	ck_assert_str_eq(put(ns, 0, &st),
	    "1 5 5 p\n1 5 5 p;q\n1 5 5 r\n");
	ck_assert_uint_eq(st.clipped, 1);
	nest_free(ns);
}
END_TEST

/* Spans per stack: counts, summed self times, a period when equal. */
START_TEST(test_aggregate)
{
	struct nest *ns = nest_new();
	struct nest_stats st;

	memset(&st, 0, sizeof(st));
	add(ns, 0, 10, "f");
	add(ns, 2, 4, "g");
	add(ns, 20, 23, "f");
	add(ns, 30, 33, "f");
	add(ns, 40, 45, "f");
	add(ns, 41, 42, "g");
	/* f: 8, 3, 3, 4 (four spans, 18); f;g: 2, 1 */
	ck_assert_str_eq(put(ns, 0, &st), "4 18 - f\n2 3 - f;g\n");
	add(ns, 0, 3, "f");
	add(ns, 10, 13, "f");
	ck_assert_str_eq(put(ns, 0, &st), "2 6 3 f\n");
	nest_free(ns);
}
END_TEST

/* A span without an end ends at the thread's last timestamp. */
START_TEST(test_open)
{
	struct nest *ns = nest_new();
	struct nest_stats st;

	memset(&st, 0, sizeof(st));
	add(ns, 0, 50, "a");
	nest_add(ns, 10, 0, 0, 2, "b", 1);
	add(ns, 60, 70, "c");	/* the last timestamp is 70 */
	/*
	 * b ends at 70, after a's 50: clipped to 50.  a: 50 - 40 = 10,
	 * b 40, c 10.
	 */
	ck_assert_str_eq(put(ns, NEST_PERSPAN, &st),
	    "1 10 10 @0 a\n1 40 40 @10 a;b\n1 10 10 @60 c\n");
	ck_assert_uint_eq(st.open, 1);
	ck_assert_uint_eq(st.clipped, 1);
	nest_free(ns);
}
END_TEST

/* Flat: overlapping spans each at the root with their whole time. */
START_TEST(test_flat)
{
	struct nest *ns = nest_new();
	struct nest_stats st;

	memset(&st, 0, sizeof(st));
	add(ns, 0, 10, "a");
	add(ns, 5, 30, "b");
	add(ns, 6, 7, "a");
	ck_assert_str_eq(put(ns, NEST_FLAT | NEST_PERSPAN, &st),
	    "1 10 10 @0 a\n1 25 25 @5 b\n1 1 1 @6 a\n");
	ck_assert_uint_eq(st.clipped, 0);
	nest_free(ns);
}
END_TEST

/* Seconds from nanoseconds: divided, not multiplied. */
START_TEST(test_div)
{
	struct nest *ns = nest_new();
	struct nest_stats st;
	struct buf b;

	memset(&st, 0, sizeof(st));
	buf_init(&b);
	add(ns, 0, 300, "a");
	add(ns, 1000, 1100, "a");
	nest_put(ns, "T", 1, 1e9, 0, 0, collect, &b, &st);
	ck_assert_str_eq(b.data, "2 4e-07 - a\n");
	buf_free(&b);
	nest_free(ns);
}
END_TEST

/*
 * Issue 34: a duration that does not fit in 64 bits is an error naming
 * its span, never a negative weight, whether its end is given or the
 * thread's last timestamp; so is a stack's self time summed past it.
 */
START_TEST(test_overflow)
{
	struct nest *ns = nest_new();
	struct nest_stats st;

	memset(&st, 0, sizeof(st));
	add(ns, -INT64_MAX, INT64_MAX, "a");
	ck_assert_ptr_null(put(ns, 0, &st));
	ck_assert_int_eq(st.id, 1);
	ck_assert_str_eq(st.why, "a range of -9223372036854775807 to "
	    "9223372036854775807: its duration passes 2^63 - 1");
	nest_free(ns);
	ns = nest_new();
	add(ns, 0, INT64_MAX, "a");
	nest_add(ns, -2, 0, 0, 7, "b", 1);	/* open: ends at INT64_MAX */
	ck_assert_ptr_null(put(ns, 0, &st));
	ck_assert_int_eq(st.id, 7);
	ck_assert_str_eq(st.why, "a range of -2 to 9223372036854775807: "
	    "its duration passes 2^63 - 1");
	nest_free(ns);
	/* 2^62 + 1 twice: each fits, their sum does not. */
	ns = nest_new();
	add(ns, -(INT64_C(1) << 62) - 1, 0, "a");
	add(ns, 0, (INT64_C(1) << 62) + 1, "a");
	ck_assert_ptr_null(put(ns, 0, &st));
	ck_assert_int_eq(st.id, 2);
	ck_assert_str_eq(st.why, "the self times of its stack sum past "
	    "2^63 - 1");
	nest_free(ns);
}
END_TEST

/*
 * Issue 34: an end of INT64_MIN is data, not "no end": the span of
 * INT64_MIN to INT64_MIN lasts 0, and nothing is open.  Starts are
 * counted from the origin in 64 bits unsigned: 2^64 - 1 from the one
 * at INT64_MIN to the one at INT64_MAX (1.8446744073709552e+19 as a
 * double), not a wrapped negative.
 */
START_TEST(test_extremes)
{
	struct nest *ns = nest_new();
	struct nest_stats st;
	struct buf b;

	memset(&st, 0, sizeof(st));
	add(ns, INT64_MIN, INT64_MIN, "a");
	add(ns, INT64_MAX, INT64_MAX, "b");
	buf_init(&b);
	ck_assert_int_eq(nest_put(ns, "T", 1, 1, INT64_MIN, NEST_PERSPAN,
	    collect, &b, &st), 0);
	ck_assert_str_eq(b.data, "1 0 0 @0 a\n"
	    "1 0 0 @1.8446744073709552e+19 b\n");
	ck_assert_uint_eq(st.open, 0);
	buf_free(&b);
	nest_free(ns);
}
END_TEST

/*
 * Issue 34: spans nested SST_MAXDEPTH deep are fine, one more level is
 * an error naming the span (the 4097th, by its id); flat spans never
 * nest.
 */
START_TEST(test_depth)
{
	struct nest *ns = nest_new();
	struct nest_stats st;
	int64_t i;

	memset(&st, 0, sizeof(st));
	for (i = 0; i < SST_MAXDEPTH; i++)
		add(ns, i, 10000 - i, "f");
	ck_assert_ptr_nonnull(put(ns, 0, &st));
	for (i = 0; i <= SST_MAXDEPTH; i++)
		add(ns, i, 10000 - i, "f");
	ck_assert_ptr_null(put(ns, 0, &st));
	ck_assert_int_eq(st.id, SST_MAXDEPTH + 1);
	ck_assert_str_eq(st.why, "depth exceeds 4096 levels");
	for (i = 0; i <= SST_MAXDEPTH; i++)
		add(ns, i, 10000 - i, "f");
	ck_assert_ptr_nonnull(put(ns, NEST_FLAT, &st));
	nest_free(ns);
}
END_TEST

static Suite *
nest_suite(void)
{
	Suite *s = suite_create("nest");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_engine_order);
	tcase_add_test(tc, test_engine_nest);
	tcase_add_test(tc, test_engine_unclosed);
	tcase_add_test(tc, test_engine_depth);
	tcase_add_test(tc, test_engine_uniform);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_equal);
	tcase_add_test(tc, test_clip);
	tcase_add_test(tc, test_aggregate);
	tcase_add_test(tc, test_open);
	tcase_add_test(tc, test_flat);
	tcase_add_test(tc, test_div);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_extremes);
	tcase_add_test(tc, test_depth);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(nest_suite());
}
