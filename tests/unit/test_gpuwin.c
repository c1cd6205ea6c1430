/*
 * test_gpuwin.c: Check suite for the window merge of GPU intervals
 * (common/reduce/gpuwin.c): one union's busy time, the time by set of
 * tags, intervals out of order within the window, and one too late.
 * Every expected figure is worked by hand in the comments.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutil.h"
#include "gpuwin.h"

static Suite	*gpuwin_suite(void);

/*
 * One tag: [0,10) and [5,20) on stream 0 (merged in the open interval),
 * [20,25) on stream 1 (touches: joins), [30,31) and, out of order,
 * [26,27) on stream 0: busy 25 + 1 + 1 = 27.
 */
START_TEST(test_busy)
{
	struct gwin w;

	gw_init(&w, 1);
	ck_assert_int_eq(gw_add(&w, 0, 0, 0, 10), 0);
	ck_assert_int_eq(gw_add(&w, 0, 0, 5, 20), 0);
	ck_assert_int_eq(gw_add(&w, 1, 0, 20, 25), 0);
	ck_assert_int_eq(gw_add(&w, 0, 0, 30, 31), 0);
	ck_assert_int_eq(gw_add(&w, 0, 0, 26, 27), 0);
	ck_assert_int_eq(gw_end(&w), 27);
	gw_reset(&w);
	ck_assert_int_eq(gw_add(&w, 3, 0, 100, 101), 0);
	ck_assert_int_eq(gw_end(&w), 1);
	gw_free(&w);
}
END_TEST

/*
 * Three tags (bits 1, 2, 4): tag 0 [0,10) [20,30), tag 1 [5,25), tag 2
 * [8,9) and [40,50), read in reverse.  Exactly tag 0: [0,5) = 5; tags
 * 0 and 1: [5,8) [9,10) [20,25) = 9; all three: [8,9) = 1; tag 1:
 * [10,20) = 10; tag 0 alone again [25,30) = 5 (10 in all); tag 2 alone
 * [40,50) = 10.  Busy: 20 + 20 + 11 = 51.
 */
START_TEST(test_sets)
{
	struct gwin w;

	gw_init(&w, 3);
	ck_assert_int_eq(gw_add(&w, 1, 2, 40, 50), 0);
	ck_assert_int_eq(gw_add(&w, 0, 0, 20, 30), 0);
	ck_assert_int_eq(gw_add(&w, 1, 2, 8, 9), 0);
	ck_assert_int_eq(gw_add(&w, 2, 1, 5, 25), 0);
	ck_assert_int_eq(gw_add(&w, 0, 0, 0, 10), 0);
	ck_assert_int_eq(gw_end(&w), 51);
	ck_assert_int_eq(w.acc[1], 10);
	ck_assert_int_eq(w.acc[3], 9);
	ck_assert_int_eq(w.acc[7], 1);
	ck_assert_int_eq(w.acc[2], 10);
	ck_assert_int_eq(w.acc[4], 10);
	ck_assert_int_eq(w.acc[5] + w.acc[6], 0);
	gw_free(&w);
}
END_TEST

/*
 * 5,000 intervals [2i, 2i + 1) of tag 1: more than the 4,096 the window
 * holds, so the first are merged as the later come; then [1,2) is too
 * late (-1); [9999, 10000) (after the last merged) is not.
 */
START_TEST(test_late)
{
	struct gwin w;
	int64_t i;

	gw_init(&w, 3);
	for (i = 0; i < 5000; i++)
		ck_assert_int_eq(gw_add(&w, 0, 1, 2 * i, 2 * i + 1), 0);
	ck_assert_int_eq(gw_add(&w, 1, 1, 1, 2), -1);
	ck_assert_int_eq(gw_add(&w, 1, 1, 9999, 10000), 0);
	ck_assert_int_eq(gw_end(&w), 5001);
	ck_assert_int_eq(w.acc[2], 5001);
	gw_free(&w);
}
END_TEST

static Suite *
gpuwin_suite(void)
{
	Suite *s = suite_create("gpuwin");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_busy);
	tcase_add_test(tc, test_sets);
	tcase_add_test(tc, test_late);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(gpuwin_suite());
}
