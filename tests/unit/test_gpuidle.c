/*
 * test_gpuidle.c: Check suite for sst-gpu's idle view summarised as read
 * (common/reduce/gpuidle.c).  The trace of golden/sst-gpu/gaps as rows,
 * worked by hand there: five kernels on stream 7 at [100,110) [139,149)
 * [180,190) [310,320) [405,410) us, launched at 0, 1, 2, 300 and 400:
 * host_wait 120 + 85 = 205, kernel_wait 29, other 31 (ratios of 265:
 * 0.77, 0.11, 0.12).  The same rows with the calls first, the kernels
 * first (every event waits for its call), and shuffled within the
 * window; then the cases that must send the rank to its rows (-1).
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutil.h"
#include "gpu.h"
#include "gpuidle.h"

static Suite	*gpuidle_suite(void);

static const int64_t kts[5] = { 100, 139, 180, 310, 405 };
static const int64_t kend[5] = { 110, 149, 190, 320, 410 };
static const int64_t cts[5] = { 0, 1, 2, 300, 400 };

static const char want[] =
    "0\t7\thost_wait\t205\t0.77\n"
    "0\t7\tkernel_wait\t29\t0.11\n"
    "0\t7\tother\t31\t0.12\n";

/* Kernel i (0-4) or its call as a row. */
static struct grow
row(int i, int kernel)
{
	struct grow w;

	memset(&w, 0, sizeof(w));
	w.corr = i + 1;
	if (kernel) {
		w.ts = kts[i];
		w.end = kend[i];
		w.flags = R_KEEP | R_GPU | R_GK;
	} else {
		w.ts = cts[i];
		w.end = cts[i] + (i == 4 ? 20 : 1);
		w.flags = R_KEEP | R_LAUNCH;
	}
	return w;
}

/* Feed rows of order ("k2" kernel 2, "c2" its call), return the table. */
static char *
run(const char *const *order, int *rc)
{
	static int64_t streams[1] = { 7 };
	struct grank r;
	struct gidle *g = gidle_new(1);
	struct grow w;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *fp;

	memset(&r, 0, sizeof(r));
	r.label = "0";
	r.streams = streams;
	r.nstream = 1;
	for (i = 0; order[i] != NULL; i++) {
		w = row(order[i][1] - '0', order[i][0] == 'k');
		gidle_row(g, &w);
	}
	fp = open_memstream(&buf, &len);
	*rc = gidle_end(g, &r, fp);
	fclose(fp);
	gidle_free(g);
	return buf;
}

START_TEST(test_orders)
{
	static const char *const calls[] = { "c0", "k0", "c1", "k1", "c2",
	    "k2", "c3", "k3", "c4", "k4", NULL };
	static const char *const kfirst[] = { "k0", "k1", "k2", "k3", "k4",
	    "c0", "c1", "c2", "c3", "c4", NULL };
	static const char *const shuf[] = { "c1", "k1", "c0", "k3", "k0",
	    "c4", "c3", "k2", "k4", "c2", NULL };
	const char *const *o[3] = { calls, kfirst, shuf };
	char *out;
	int i, rc;

	for (i = 0; i < 3; i++) {
		out = run(o[i], &rc);
		ck_assert_int_eq(rc, 0);
		ck_assert_str_eq(out, want);
		free(out);
	}
}
END_TEST

/*
 * The rows: a second kernel or a second call of correlation 1 (the row
 * path joins the last, known at the end), a GPU event with a
 * correlation that is not HTA's kernel (stream -1: the row path joins
 * it as a call).
 */
START_TEST(test_fallback)
{
	static const char *const k2[] = { "c0", "k0", "k0", NULL };
	static const char *const c2[] = { "c0", "k0", "c0", NULL };
	const char *const *o[2] = { k2, c2 };
	struct gidle *g;
	struct grow w;
	char *out;
	int i, rc;

	for (i = 0; i < 2; i++) {
		out = run(o[i], &rc);
		ck_assert_int_eq(rc, -1);
		free(out);
	}
	g = gidle_new(1);
	w = row(0, 1);
	w.flags &= ~R_GK;	/* stream -1: not HTA's kernel, a call */
	gidle_row(g, &w);
	ck_assert_int_eq(gidle_end(g, NULL, NULL), -1);
	gidle_free(g);
}
END_TEST

/*
 * An event more than the window (4,096) later than its stream's: the
 * stream's events at 10, 20, ... 50,000 (5,000) let out up to the
 * 904th before the last; one at 5 is too late.  After gidle_reset()
 * the same state takes the hand-worked trace.
 */
START_TEST(test_late)
{
	static int64_t streams[1] = { 7 };
	struct grank r;
	struct gidle *g = gidle_new(1);
	struct grow w;
	char *buf = NULL;
	size_t len = 0;
	int64_t t;
	FILE *fp;
	int i;

	memset(&w, 0, sizeof(w));
	w.corr = -1;
	w.flags = R_KEEP | R_GPU;
	for (t = 10; t <= 50000; t += 10) {
		w.ts = t;
		w.end = t + 1;
		gidle_row(g, &w);
	}
	w.ts = 5;
	gidle_row(g, &w);
	ck_assert_int_eq(gidle_end(g, NULL, NULL), -1);
	gidle_reset(g);
	memset(&r, 0, sizeof(r));
	r.label = "0";
	r.streams = streams;
	r.nstream = 1;
	for (i = 0; i < 5; i++) {
		w = row(i, 0);
		gidle_row(g, &w);
		w = row(i, 1);
		gidle_row(g, &w);
	}
	fp = open_memstream(&buf, &len);
	ck_assert_int_eq(gidle_end(g, &r, fp), 0);
	fclose(fp);
	ck_assert_str_eq(buf, want);
	free(buf);
	gidle_free(g);
}
END_TEST

static Suite *
gpuidle_suite(void)
{
	Suite *s = suite_create("gpuidle");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_orders);
	tcase_add_test(tc, test_fallback);
	tcase_add_test(tc, test_late);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(gpuidle_suite());
}
