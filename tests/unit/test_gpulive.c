/*
 * test_gpulive.c: Check suite for the views of sst-gpu summarised as the
 * rows are read (common/reduce/gpulive.c), fed rows directly: kernels'
 * per-name statistics.  Every expected figure is worked by hand in the
 * comments.
 */

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutil.h"
#include "gpu.h"
#include "gpulive.h"

static struct glive *live(unsigned);
static void	 row(struct glive *, int64_t, int64_t, uint32_t, unsigned,
		    unsigned);
static Suite	*gpulive_suite(void);

/* A live state for the views v (a mask of 1 << gpu_view). */
static struct glive *
live(unsigned v)
{
	struct gpu_opt o;

	memset(&o, 0, sizeof(o));
	o.views = v;
	o.scale = 1000;
	return glive_new(&o);
}

/* Feed g a row [ts, end) named id, of flags f and kernel type t. */
static void
row(struct glive *g, int64_t ts, int64_t end, uint32_t id, unsigned f,
    unsigned t)
{
	struct grow w;

	memset(&w, 0, sizeof(w));
	w.ts = ts;
	w.end = end;
	w.corr = -1;
	w.name = id;
	w.flags = (uint16_t)(f | R_KEEP | (t << R_TYPE));
	glive_row(g, &w);
}

/*
 * Name 3 (computation) 10, 20, 30 ticks: n 3, sum 60, max 30, min 10,
 * mean 20, m2 100 + 0 + 100 = 200.  Name 1 (communication) 4 then 6:
 * mean 5, m2 2.  A sync event and a CPU row of name 3 do not count.
 * First-seen order: 3, then 1.  After a reset, nothing; then name 1
 * alone is first.
 */
START_TEST(test_kernels)
{
	struct glive *g = live(1u << GV_KERNELS);
	const struct agg *a;
	const uint32_t *nm;
	const uint8_t *ty;

	row(g, 100, 110, 3, R_GPU, KT_COMP);
	row(g, 0, 50, 3, R_GPU | R_SYNC, KT_SYNC);
	row(g, 105, 109, 1, R_GPU, KT_COMM);
	row(g, 120, 140, 3, R_GPU, KT_COMP);
	row(g, 0, 99, 3, R_LAUNCH, 0);
	row(g, 130, 136, 1, R_GPU, KT_COMM);
	row(g, 150, 180, 3, R_GPU, KT_COMP);
	ck_assert_uint_eq(glive_kernels(g, &a, &nm, &ty), 2);
	ck_assert_uint_eq(nm[0], 3);
	ck_assert_uint_eq(ty[0], KT_COMP);
	ck_assert_uint_eq(a[0].n, 3);
	ck_assert_int_eq(a[0].sum, 60);
	ck_assert_int_eq(a[0].max, 30);
	ck_assert_int_eq(a[0].min, 10);
	ck_assert_double_eq(a[0].mean, 20);
	ck_assert_double_eq(a[0].m2, 200);
	ck_assert_uint_eq(nm[1], 1);
	ck_assert_uint_eq(ty[1], KT_COMM);
	ck_assert_uint_eq(a[1].n, 2);
	ck_assert_int_eq(a[1].sum, 10);
	ck_assert_double_eq(a[1].mean, 5);
	ck_assert_double_eq(a[1].m2, 2);
	glive_reset(g);
	ck_assert_uint_eq(glive_kernels(g, &a, &nm, &ty), 0);
	row(g, 0, 7, 1, R_GPU, KT_COMM);
	ck_assert_uint_eq(glive_kernels(g, &a, &nm, &ty), 1);
	ck_assert_uint_eq(nm[0], 1);
	ck_assert_int_eq(a[0].sum, 7);
	ck_assert_double_eq(a[0].m2, 0);
	glive_free(g);
}
END_TEST

/* Without kernels asked for, no statistics are kept. */
START_TEST(test_kernels_off)
{
	struct glive *g = live(1u << GV_TEMPORAL);
	const struct agg *a;
	const uint32_t *nm;
	const uint8_t *ty;

	row(g, 100, 110, 3, R_GPU, KT_COMP);
	ck_assert_uint_eq(glive_kernels(g, &a, &nm, &ty), 0);
	glive_free(g);
}
END_TEST

static Suite *
gpulive_suite(void)
{
	Suite *s = suite_create("gpulive");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_kernels);
	tcase_add_test(tc, test_kernels_off);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(gpulive_suite());
}
