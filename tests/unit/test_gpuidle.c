/*
 * test_gpuidle.c: Check suite for sst-gpu's idle view summarised as read
 * (common/reduce/gpuidle.c).  The trace of golden/sst-gpu/gaps as rows,
 * worked by hand there: five kernels on stream 7 at [100,110) [139,149)
 * [180,190) [310,320) [405,410) us, launched at 0, 1, 2, 300 and 400:
 * host_wait 120 + 85 = 205, kernel_wait 29, other 31 (ratios of 265:
 * 0.77, 0.11, 0.12).  The same rows with the calls first, the kernels
 * first (every event waits for its call), and shuffled within the
 * window; kernels that share a correlation (CUDA graphs), worked by
 * hand; then the cases that must send the rank to its rows (-1).
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

/* Row of a kernel [ts, end) of correlation c on stream 7, or a call. */
static struct grow
mk(int kernel, int64_t ts, int64_t end, int64_t c)
{
	struct grow w;

	memset(&w, 0, sizeof(w));
	w.ts = ts;
	w.end = end;
	w.corr = c;
	w.flags = kernel ? R_KEEP | R_GPU | R_GK : R_KEEP | R_LAUNCH;
	return w;
}

/* The table of rows w[0..n) (stream 7 as index 0), and gidle_end's. */
static char *
table(const struct grow *w, size_t n, int *rc)
{
	static int64_t streams[1] = { 7 };
	struct gidle *g = gidle_new(1);
	struct grank r;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *fp;

	memset(&r, 0, sizeof(r));
	r.label = "0";
	r.streams = streams;
	r.nstream = 1;
	for (i = 0; i < n; i++)
		gidle_row(g, &w[i]);
	fp = open_memstream(&buf, &len);
	*rc = gidle_end(g, &r, fp);
	fclose(fp);
	gidle_free(g);
	return buf;
}

/* The table of rows in order ("k2" kernel 2, "c2" its call). */
static char *
run(const char *const *order, int *rc)
{
	struct grow w[16];
	size_t n;

	for (n = 0; order[n] != NULL; n++)
		w[n] = row(order[n][1] - '0', order[n][0] == 'k');
	return table(w, n, rc);
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
 * Two kernels of correlation 1 (CUDA graphs' way), A [100,110) and B
 * [150,160), and C [200,210) of correlation 2; calls of 1 at 120 and of
 * 2 at 150.  The call goes to the last kernel of its correlation in the
 * trace, and a kernel to the last call.  B read after A: B has the call,
 * 120 after A's end 110: host_wait 40; C's gap 200 - 160 = 40, its call
 * at 150 before 160: other 40; 0.50 each.  The same with the calls read
 * after all kernels.  B read before A: A (the first on the stream: no
 * gap) has the call, B none: other 40 + 40 = 80, 1.00.  A second call of
 * 1 at 105, read after the first: the last, before 110: other 80 too.
 */
START_TEST(test_graphs)
{
	const struct grow ca = mk(0, 120, 121, 1), cb = mk(0, 105, 106, 1),
	    c2 = mk(0, 150, 151, 2), ka = mk(1, 100, 110, 1),
	    kb = mk(1, 150, 160, 1), kc = mk(1, 200, 210, 2);
	const struct grow o1[] = { ca, ka, kb, c2, kc };
	const struct grow o2[] = { ka, kb, kc, ca, c2 };
	const struct grow o3[] = { ca, kb, ka, c2, kc };
	const struct grow o4[] = { ca, ka, kb, cb, c2, kc };
	static const char half[] = "0\t7\thost_wait\t40\t0.50\n"
	    "0\t7\tother\t40\t0.50\n";
	static const char all[] = "0\t7\tother\t80\t1.00\n";
	const struct {
		const struct grow	*o;
		size_t			 n;
		const char		*want;
	} c[] = { { o1, 5, half }, { o2, 5, half }, { o3, 5, all },
	    { o4, 6, all } };
	char *out;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		out = table(c[i].o, c[i].n, &rc);
		ck_assert_int_eq(rc, 0);
		ck_assert_str_eq(out, c[i].want);
		free(out);
	}
}
END_TEST

/*
 * The rows: a GPU event with a correlation that is not HTA's kernel
 * (stream -1: the row path joins it as a call); 70,000 kernels of their
 * own correlations without calls, of which the window (4,096) lets out
 * 65,904, the first with no gap, so 65,903 wait for a later kernel or
 * call of their correlation, more than the 4,096 kept: the oldest, the
 * second kernel's, is let go (settled without a call); then a second
 * kernel of its correlation (which would have taken the call away from
 * it), or a call of it.
 */
START_TEST(test_fallback)
{
	struct grow *w;
	char *out;
	size_t i, n = 70001;
	int rc, k;

	w = calloc(n, sizeof(*w));
	w[0] = mk(1, 0, 1, 1);
	w[0].flags &= ~R_GK;
	out = table(w, 1, &rc);
	ck_assert_int_eq(rc, -1);
	free(out);
	for (k = 0; k < 2; k++) {
		for (i = 0; i < n - 1; i++)
			w[i] = mk(1, 10 * (int64_t)i, 10 * (int64_t)i + 1,
			    (int64_t)i + 1);
		w[n - 1] = mk(k, 10 * (int64_t)n, 10 * (int64_t)n + 1, 2);
		out = table(w, n, &rc);
		ck_assert_int_eq(rc, -1);
		free(out);
	}
	free(w);
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
	tcase_add_test(tc, test_graphs);
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
