/*
 * test_timeline.c: Check suite for the bars of a timeline
 * (common/timeline.c): consecutive samples joined into one bar per
 * frame, a gap or another caller starting a new bar, nested spans,
 * threads apart, records added out of order, and the span.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sst.h"
#include "timeline.h"

static void	 add(struct timeline *, const char *);
static const char *show(struct timeline *);
static Suite	*timeline_suite(void);

/* Add record line s (8 fields). */
static void
add(struct timeline *t, const char *s)
{
	struct sst_rec r;
	const char *why;
	char line[512];

	ck_assert_uint_lt(strlen(s), sizeof(line));
	strcpy(line, s);
	ck_assert_msg(rec_parse(line, strlen(line), &r, &why) == 0, "%s", why);
	ck_assert(r.hasstart);
	tl_add(t, &r);
}

/* The bars as "thread/depth name x0-x1 samples" joined by ", ". */
static const char *
show(struct timeline *t)
{
	static char out[1024];
	const struct tl_bar *b;
	size_t i, n, len = 0;

	b = tl_bars(t, &n);
	out[0] = '\0';
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(out + len, sizeof(out) - len,
		    "%s%zu/%zu %.*s %g-%g %llu", i ? ", " : "", b[i].thread,
		    b[i].depth, (int)b[i].namelen, b[i].name, b[i].x0, b[i].x1,
		    (unsigned long long)b[i].samples);
	return out;
}

START_TEST(test_samples)
{
	struct timeline *t = tl_new();
	double t0, t1;

	add(t, "T\t1\t1\tseconds\t1\tm;a\t\t0");
	add(t, "T\t1\t1\tseconds\t1\tm;a\t\t1");
	add(t, "T\t1\t1\tseconds\t1\tm;b\t\t2");
	add(t, "T\t1\t1\tseconds\t1\tm\t\t3");
	add(t, "T\t1\t1\tseconds\t1\tm;a\t\t4");
	/* A gap: m ends at 5, this starts at 6. */
	add(t, "T\t1\t1\tseconds\t1\tm;a\t\t6");
	ck_assert_str_eq(show(t), "0/0 m 0-5 5, 0/1 a 0-2 2, 0/1 b 2-3 1, "
	    "0/1 a 4-5 1, 0/0 m 6-7 1, 0/1 a 6-7 1");
	ck_assert_uint_eq(tl_nthreads(t), 1);
	ck_assert_uint_eq(tl_depth(t, 0), 2);
	tl_span(t, &t0, &t1);
	ck_assert(t0 == 0 && t1 == 7);
	tl_free(t);
}
END_TEST

START_TEST(test_callers)
{
	struct timeline *t = tl_new();

	/* The same leaf under another caller is another bar. */
	add(t, "T\t1\t1\tseconds\t1\tm;x;a\t\t0");
	add(t, "T\t1\t1\tseconds\t1\tm;y;a\t\t1");
	ck_assert_str_eq(show(t), "0/0 m 0-2 2, 0/1 x 0-1 1, 0/2 a 0-1 1, "
	    "0/1 y 1-2 1, 0/2 a 1-2 1");
	tl_free(t);
}
END_TEST

START_TEST(test_spans)
{
	struct timeline *t = tl_new();

	/* Added child first: sorting puts the outer span first. */
	add(t, "T\t1\t0.5\tseconds\t0.5\tstep;fwd\t\t2");
	add(t, "T\t1\t3\tseconds\t3\tstep\t\t2");
	add(t, "U\t1\t1\tseconds\t1\tio\t\t0");
	add(t, "T\t1\t1\tseconds\t1\tstep;bwd\t\t3");
	ck_assert_str_eq(show(t), "0/0 step 2-5 3, 0/1 fwd 2-2.5 1, "
	    "0/1 bwd 3-4 1, 1/0 io 0-1 1");
	ck_assert_uint_eq(tl_nthreads(t), 2);
	ck_assert_uint_eq(tl_depth(t, 1), 1);
	tl_free(t);
}
END_TEST

START_TEST(test_locations)
{
	struct timeline *t = tl_new();
	const struct tl_bar *b;
	size_t n;

	add(t, "T\t1\t1\tseconds\t1\tm;f\tm.py:1::0;lib.c:2::1\t0");
	add(t, "T\t1\t1\tseconds\t1\tm\t\t1");
	b = tl_bars(t, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq((int)b[0].filelen, 9);
	ck_assert(memcmp(b[0].file, "m.py:1::0", 9) == 0);
	ck_assert_int_eq((int)b[1].filelen, 10);
	ck_assert(memcmp(b[1].file, "lib.c:2::1", 10) == 0);
	tl_free(t);
}
END_TEST

START_TEST(test_skip)
{
	struct timeline *t = tl_new();

	add(t, "T\t0\t0\tseconds\t-\tm\t\t0");
	add(t, "T\t1\t1\tseconds\t1\t\t\t0");
	ck_assert_uint_eq(tl_count(t), 0);
	tl_free(t);
}
END_TEST

static Suite *
timeline_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("timeline");
	tc = tcase_create("core");
	tcase_add_test(tc, test_samples);
	tcase_add_test(tc, test_callers);
	tcase_add_test(tc, test_spans);
	tcase_add_test(tc, test_locations);
	tcase_add_test(tc, test_skip);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(timeline_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
