/*
 * test_gpuqlive.c: Check suite for sst-gpu's queue summarised as read
 * (common/reduce/gpuqlive.c): the histogram's values, quartiles and
 * moments, the window of steps (in order, out of order within it, too
 * late), the joins of calls to GPU events, the correlations forgotten,
 * and the rows left to the row path.  Every expected figure is worked
 * by hand in the comments.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutil.h"
#include "gpu.h"
#include "gpuqlive.h"

static Suite	*gpuqlive_suite(void);

/*
 * 3 -1 0 3 3 1 (growing down from 3, then up): sorted -1 0 1 3 3 3.
 * 25% at 1.25: 0 + (1 - 0) * .25 = 0.25; 50% at 2.5: 1 + 2 * .5 = 2;
 * 75% at 3.75: 3; sum 9, mean 1.5, squares 6.25 + 2.25 + 0.25 + 3 *
 * 2.25 = 15.5 (all exact in binary).
 */
START_TEST(test_hist)
{
	struct qhist h;
	double mean, m2;

	memset(&h, 0, sizeof(h));
	qh_add(&h, 3);
	qh_add(&h, -1);
	qh_add(&h, 0);
	qh_add(&h, 3);
	qh_add(&h, 3);
	qh_add(&h, 1);
	ck_assert_uint_eq(h.n, 6);
	ck_assert_int_eq(qh_at(&h, 0), -1);
	ck_assert_int_eq(qh_at(&h, 2), 1);
	ck_assert_int_eq(qh_at(&h, 3), 3);
	ck_assert_int_eq(qh_at(&h, 5), 3);
	ck_assert(qh_quant(&h, .25) == 0.25);
	ck_assert(qh_quant(&h, .5) == 2);
	ck_assert(qh_quant(&h, .75) == 3);
	qh_moments(&h, &mean, &m2);
	ck_assert(mean == 1.5);
	ck_assert(m2 == 15.5);
	/* Far both ways: -100000 0 ... 100000 */
	qh_add(&h, 100000);
	qh_add(&h, -100000);
	ck_assert_int_eq(qh_at(&h, 0), -100000);
	ck_assert_int_eq(qh_at(&h, 1), -1);
	ck_assert_int_eq(qh_at(&h, 7), 100000);
	qh_free(&h);
	/* One value: every quartile is it. */
	qh_add(&h, -4);
	ck_assert(qh_quant(&h, .25) == -4);
	ck_assert(qh_quant(&h, .75) == -4);
	qh_free(&h);
}
END_TEST

/*
 * A window of 2 steps.  Stream 0: start at 10, launch at 5, launch at 7
 * (three waiting: the launch at 5 is applied, length 1), launch at 6
 * (the 6 applied: 2), then a start at 4: older than the 6 applied, too
 * late.  Stream 1 is not affected by stream 0's front: a start at 1
 * after it is fine, but the rank is already lost.
 */
START_TEST(test_window)
{
	struct gqlive *q = gql_new(2, 100);
	const struct qhist *h;

	ck_assert_int_eq(gql_step(q, 10, 1, 0), 0);
	ck_assert_int_eq(gql_step(q, 5, 0, 0), 0);
	ck_assert_int_eq(gql_step(q, 7, 0, 0), 0);
	h = gql_hist(q, 0);
	ck_assert_uint_eq(h->n, 1);
	ck_assert_int_eq(qh_at(h, 0), 1);
	ck_assert_int_eq(gql_step(q, 6, 0, 0), 0);
	ck_assert_uint_eq(h->n, 2);
	ck_assert_int_eq(qh_at(h, 1), 2);
	ck_assert_int_eq(gql_step(q, 4, 1, 0), -1);
	ck_assert_int_eq(gql_drain(q), -1);
	gql_reset(q);
	/*
	 * Stream 0 applied up to 9, then stream 1's start at 1: its own
	 * front is empty, so it is taken.  At one time a launch comes
	 * before a start whatever the order read: start at 20, launch at
	 * 20 on stream 2: lengths 1 0, not -1 0.
	 */
	ck_assert_int_eq(gql_step(q, 8, 0, 0), 0);
	ck_assert_int_eq(gql_step(q, 9, 0, 0), 0);
	ck_assert_int_eq(gql_step(q, 30, 1, 0), 0);
	ck_assert_int_eq(gql_step(q, 1, 1, 1), 0);
	ck_assert_int_eq(gql_step(q, 20, 1, 2), 0);
	ck_assert_int_eq(gql_step(q, 20, 0, 2), 0);
	ck_assert_int_eq(gql_drain(q), 0);
	h = gql_hist(q, 2);
	ck_assert_uint_eq(h->n, 2);
	ck_assert_int_eq(qh_at(h, 0), 0);
	ck_assert_int_eq(qh_at(h, 1), 1);
	h = gql_hist(q, 1);
	ck_assert_uint_eq(h->n, 1);
	ck_assert_int_eq(qh_at(h, 0), -1);
	gql_free(q);
}
END_TEST

/* Row w: [ts, ts + 1), correlation c, flags f, stream index st. */
static void
row(struct gqlive *q, int64_t ts, int64_t c, unsigned f, unsigned st)
{
	struct grow w;

	memset(&w, 0, sizeof(w));
	w.ts = ts;
	w.end = ts + 1;
	w.corr = c;
	w.flags = (uint16_t)(f | R_KEEP);
	w.stream = (uint16_t)st;
	gql_row(q, &w);
}

#define CALL	R_LAUNCH
#define KERN	(R_GPU | R_GK)

/*
 * Call 1 at 0; its kernel at 3 on stream 0; a second kernel of 1 at 4
 * on stream 1 (a start there only); a second call of 1 at 5 (stream 0,
 * the first kernel's); a kernel with no correlation at 6 on stream 0; a
 * kernel of 2 at 10 on stream 0 read before its call at 8; a sync event
 * of 3 at 2 (no step); a call of 9 with no kernel (no step).  Stream 0:
 * +1@0 -1@3 +1@5 -1@6 +1@8 -1@10: lengths 1 0 1 0 1 0; stream 1: -1.
 */
START_TEST(test_join)
{
	struct gqlive *q = gql_new(4096, 100);
	const struct qhist *h;

	row(q, 0, 1, CALL, 0);
	row(q, 3, 1, KERN, 0);
	row(q, 4, 1, KERN, 1);
	row(q, 5, 1, CALL, 0);
	row(q, 6, -1, R_GPU, 0);
	row(q, 10, 2, KERN, 0);
	row(q, 8, 2, CALL, 0);
	row(q, 2, 3, KERN | R_SYNC, 0);
	row(q, 1, 9, CALL, 0);
	ck_assert_int_eq(gql_drain(q), 0);
	h = gql_hist(q, 0);
	ck_assert_uint_eq(h->n, 6);
	ck_assert_int_eq(qh_at(h, 2), 0);
	ck_assert_int_eq(qh_at(h, 3), 1);
	ck_assert_int_eq(qh_at(h, 5), 1);
	h = gql_hist(q, 1);
	ck_assert_uint_eq(h->n, 1);
	ck_assert_int_eq(qh_at(h, 0), -1);
	gql_free(q);
}
END_TEST

/*
 * Keep 2: correlations 1, 2, 3 joined; at the third the older half goes
 * (sorted 1 2 3, the floor the middle one, 2: 1 and 2 forgotten).  A
 * call of 3 still finds its stream, one of 4 (new, above the floor)
 * waits, one of 2 could be a forgotten one's: the rows.
 */
START_TEST(test_forget)
{
	struct gqlive *q = gql_new(4096, 2);
	int64_t c;

	for (c = 1; c <= 3; c++) {
		row(q, 10 * c, c, CALL, 0);
		row(q, 10 * c + 5, c, KERN, 0);
	}
	row(q, 40, 3, CALL, 0);
	row(q, 41, 4, CALL, 0);
	ck_assert_int_eq(gql_drain(q), 0);
	ck_assert_uint_eq(gql_hist(q, 0)->n, 7);
	row(q, 50, 2, CALL, 0);
	ck_assert_int_eq(gql_drain(q), -1);
	gql_reset(q);
	/* After a reset nothing is forgotten: a call of 2 waits. */
	row(q, 50, 2, CALL, 0);
	row(q, 51, 2, KERN, 0);
	ck_assert_int_eq(gql_drain(q), 0);
	ck_assert_uint_eq(gql_hist(q, 0)->n, 2);
	gql_free(q);
}
END_TEST

/*
 * Rows left to the row path: a launch call on a stream (both a launch
 * and a start), a GPU event with a correlation that is no HTA kernel
 * (a negative stream).  A launch that is an HTA kernel is a start only.
 */
START_TEST(test_rows)
{
	struct gqlive *q = gql_new(4096, 100);

	row(q, 0, 1, CALL | R_GPU, 0);
	ck_assert_int_eq(gql_drain(q), -1);
	gql_reset(q);
	row(q, 0, 1, R_GPU, 0);
	ck_assert_int_eq(gql_drain(q), -1);
	gql_reset(q);
	row(q, 0, 1, CALL | KERN, 0);
	ck_assert_int_eq(gql_drain(q), 0);
	ck_assert_int_eq(qh_at(gql_hist(q, 0), 0), -1);
	gql_free(q);
}
END_TEST

static Suite *
gpuqlive_suite(void)
{
	Suite *s = suite_create("gpuqlive");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_hist);
	tcase_add_test(tc, test_window);
	tcase_add_test(tc, test_join);
	tcase_add_test(tc, test_forget);
	tcase_add_test(tc, test_rows);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(gpuqlive_suite());
}
