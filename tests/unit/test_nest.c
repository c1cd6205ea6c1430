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

static void
add(struct nest *ns, int64_t s, int64_t e, const char *name)
{
	nest_add(ns, s, e, name, strlen(name));
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
	nest_put(ns, "T", 1, 1, 0, flags, collect, &b, st);
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
	nest_add(ns, 10, NEST_OPEN, "b", 1);
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
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(nest_suite());
}
