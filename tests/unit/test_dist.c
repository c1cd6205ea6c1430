/*
 * test_dist.c: Check suite for distributions (common/reduce/dist.c): totals in
 * the order added, medians of odd and even counts, sample standard
 * deviations worked out by hand, a single value, and many equal values
 * whose rounded total must not make them deviate; counted instances
 * (dist_addn): 10^12 of one value in constant memory, the same
 * statistics as one by one, a count past 2^64-1 refused, and memory
 * that follows the distinct values, not the instances; the columns
 * of summaries (dist_col) and the median of a column's nonzero
 * magnitudes over chosen rows (dist_colmedian), hand-worked.
 */

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tutil.h"
#include "dist.h"

static Suite	*dist_suite(void);

START_TEST(test_one)
{
	struct dist d;
	struct dist_sum s;

	dist_init(&d);
	dist_add(&d, 3.5);
	dist_summary(&d, &s);
	ck_assert_uint_eq(s.n, 1);
	ck_assert(s.total == 3.5 && s.avg == 3.5 && s.med == 3.5);
	ck_assert(s.min == 3.5 && s.max == 3.5 && s.sd == 0);
	dist_free(&d);
}
END_TEST

START_TEST(test_odd_even)
{
	struct dist d;
	struct dist_sum s;
	static const double v[] = { 9, 2, 5, 4, 4, 7, 4, 5 };
	size_t i;

	dist_init(&d);
	for (i = 0; i < 7; i++)
		dist_add(&d, v[i]);
	dist_summary(&d, &s);
	/* 2 4 4 4 5 7 9: total 35, mean 5, median 4 */
	ck_assert(s.total == 35 && s.avg == 5 && s.med == 4);
	ck_assert(s.min == 2 && s.max == 9);
	/* deviations 9 1 1 1 0 4 16 = 32, over 6 */
	ck_assert(s.sd == sqrt(32.0 / 6));
	dist_add(&d, v[7]);
	dist_summary(&d, &s);
	/* 2 4 4 4 5 5 7 9: total 40, mean 5, median (4 + 5) / 2 */
	ck_assert(s.total == 40 && s.avg == 5 && s.med == 4.5);
	/* deviations 9 1 1 1 0 0 4 16 = 32, over 7 */
	ck_assert(s.sd == sqrt(32.0 / 7));
	dist_free(&d);
}
END_TEST

START_TEST(test_order)
{
	struct dist d;
	struct dist_sum s;

	dist_init(&d);
	dist_add(&d, 0.1);
	dist_add(&d, 0.2);
	dist_add(&d, 0.3);
	dist_summary(&d, &s);
	/* Python: 0.1 + 0.2 + 0.3 == 0.6000000000000001 */
	ck_assert(s.total == (0.1 + 0.2) + 0.3);
	ck_assert(s.med == 0.2);
	dist_free(&d);
}
END_TEST

/* Equal values deviate by nothing, whatever their sum's rounding. */
START_TEST(test_equal)
{
	struct dist d;
	struct dist_sum s;
	size_t i;

	dist_init(&d);
	for (i = 0; i < 848; i++)
		dist_add(&d, 0.01);
	dist_summary(&d, &s);
	/* The total is rounded on the way: 8.479999999999864. */
	ck_assert(s.total != 8.48 && s.avg != 0.01);
	ck_assert(s.med == 0.01 && s.sd == 0);
	dist_add(&d, 0.02);
	dist_add(&d, 0.0);
	dist_summary(&d, &s);
	/* Deviations 0.01 twice about a mean of 0.01: sqrt(2e-4 / 849). */
	ck_assert(fabs(s.sd - sqrt(2e-4 / 849)) < 1e-18);
	dist_free(&d);
}
END_TEST

/* The instances of test_odd_even, counted and out of order. */
START_TEST(test_counted)
{
	struct dist d;
	struct dist_sum s;

	dist_init(&d);
	ck_assert_int_eq(dist_addn(&d, 4, 2), 0);
	ck_assert_int_eq(dist_addn(&d, 9, 1), 0);
	ck_assert_int_eq(dist_addn(&d, 0, 0), 0);
	ck_assert_int_eq(dist_addn(&d, 5, 2), 0);
	ck_assert_int_eq(dist_addn(&d, 2, 1), 0);
	ck_assert_int_eq(dist_addn(&d, 4, 1), 0);
	ck_assert_int_eq(dist_addn(&d, 7, 1), 0);
	dist_summary(&d, &s);
	/* 2 4 4 4 5 5 7 9 (the 0 was no instance) */
	ck_assert_uint_eq(s.n, 8);
	ck_assert(s.total == 40 && s.avg == 5 && s.med == 4.5);
	ck_assert(s.min == 2 && s.max == 9);
	ck_assert(s.sd == sqrt(32.0 / 7));
	dist_free(&d);
}
END_TEST

/* 10^12 + 2 instances: three entries, the statistics by hand. */
START_TEST(test_huge)
{
	struct dist d;
	struct dist_sum s;
	double mean;

	dist_init(&d);
	ck_assert_int_eq(dist_addn(&d, 5, 1000000000000ULL), 0);
	ck_assert_int_eq(dist_addn(&d, 1, 1), 0);
	ck_assert_int_eq(dist_addn(&d, 9, 1), 0);
	ck_assert(d.cap <= 16);
	dist_summary(&d, &s);
	ck_assert_uint_eq(s.n, 1000000000002ULL);
	/* 5e12 + 1 + 9, every partial sum an exact integer */
	ck_assert(s.total == 5000000000010.0);
	ck_assert(s.med == 5 && s.min == 1 && s.max == 9);
	/* the mean is 5 exactly; squares 16 + 16 over 10^12 + 1 */
	mean = 5000000000010.0 / 1000000000002.0;
	ck_assert(s.avg == mean);
	ck_assert(fabs(s.sd - sqrt(32 / 1000000000001.0)) <
	    1e-12 * sqrt(32 / 1000000000001.0));
	dist_free(&d);
}
END_TEST

/* A count that would pass 2^64-1 is refused and nothing added. */
START_TEST(test_overflow)
{
	struct dist d;

	dist_init(&d);
	ck_assert_int_eq(dist_addn(&d, 1, UINT64_MAX), 0);
	ck_assert_int_eq(dist_addn(&d, 2, 1), -1);
	ck_assert(d.n == UINT64_MAX && d.ne == 1);
	dist_free(&d);
}
END_TEST

/*
 * Two values alternating 100,000 times: 200,000 instances, two
 * distinct values, so the entries never need more than 16 places.
 */
START_TEST(test_memory)
{
	struct dist d;
	struct dist_sum s;
	size_t i;

	dist_init(&d);
	for (i = 0; i < 100000; i++) {
		dist_add(&d, 0.25);
		dist_add(&d, 0.75);
	}
	ck_assert(d.cap == 16);
	dist_summary(&d, &s);
	ck_assert_uint_eq(s.n, 200000);
	/* every partial sum is a multiple of 0.25 below 2^53: exact */
	ck_assert(s.total == 100000 && s.avg == 0.5 && s.med == 0.5);
	/* squares 0.0625 each, 200,000 of them, over 199,999 */
	ck_assert(fabs(s.sd - sqrt(12500 / 199999.0)) < 1e-15);
	dist_free(&d);
}
END_TEST

/* Each column of a summary, by its number. */
START_TEST(test_col)
{
	struct dist_sum s = { 4, 10, 2.5, 2, 1, 5, 0.75 };

	ck_assert(dist_col(&s, DIST_TOTAL) == 10);
	ck_assert(dist_col(&s, DIST_AVG) == 2.5);
	ck_assert(dist_col(&s, DIST_MED) == 2);
	ck_assert(dist_col(&s, DIST_MIN) == 1);
	ck_assert(dist_col(&s, DIST_MAX) == 5);
	ck_assert(dist_col(&s, DIST_SD) == 0.75);
	ck_assert_int_eq(DIST_NCOLS, 6);
}
END_TEST

/*
 * The median of the nonzero magnitudes of a column over the rows ix:
 * totals 3, -7, 0, 5, 1 over rows {0, 1, 2, 3}: magnitudes 3 7 5 (the
 * zero left out), sorted 3 5 7, median 5; over rows {0, 3, 4, 1}: 3 5
 * 1 7, sorted 1 3 5 7, the lower middle 3; over row {2}: all zero, 0.
 */
START_TEST(test_colmedian)
{
	static const double tot[] = { 3, -7, 0, 5, 1 };
	static const size_t a[] = { 0, 1, 2, 3 }, b[] = { 0, 3, 4, 1 },
	    c[] = { 2 };
	struct dist_sum s[5];
	double tmp[5];
	size_t i;

	memset(s, 0, sizeof(s));
	for (i = 0; i < 5; i++) {
		s[i].total = tot[i];
		s[i].max = 1;
	}
	ck_assert(dist_colmedian(s, a, 4, DIST_TOTAL, tmp) == 5);
	ck_assert(dist_colmedian(s, b, 4, DIST_TOTAL, tmp) == 3);
	ck_assert(dist_colmedian(s, c, 1, DIST_TOTAL, tmp) == 0);
	ck_assert(dist_colmedian(s, a, 0, DIST_TOTAL, tmp) == 0);
	/* another column: the maxima, all 1 */
	ck_assert(dist_colmedian(s, b, 4, DIST_MAX, tmp) == 1);
	ck_assert(dist_colmedian(s, b, 4, DIST_MIN, tmp) == 0);
}
END_TEST

static Suite *
dist_suite(void)
{
	Suite *s = suite_create("dist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_one);
	tcase_add_test(tc, test_odd_even);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_equal);
	tcase_add_test(tc, test_counted);
	tcase_add_test(tc, test_huge);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_memory);
	tcase_add_test(tc, test_col);
	tcase_add_test(tc, test_colmedian);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(dist_suite());
}
