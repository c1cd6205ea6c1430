/*
 * test_nest.c: Check suite for span nesting (common/nest.c), one rule of
 * trace2sst's (issue 11, part 1) per test, each on spans whose self
 * times are worked out by hand in the comments.
 */

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sst.h"
#include "tutil.h"
#include "nest.h"

static void	 collect(const struct sst_rec *, void *);
static void	 add(struct nest *, int64_t, int64_t, const char *);
static const char *put(struct nest *, int, struct nest_stats *);
static Suite	*nest_suite(void);

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
	ck_assert_str_eq(b.data, "1 0 0 @0 a\n1 0 0 @1.8446744073709552e+19 b\n");
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
