/*
 * test_kind.c: Check suite for the kind of a stream (common/formats/kind.c):
 * the records that make a stream timed and those that do not, and times
 * for people in s, ms, µs and ns, three significant digits, worked out
 * by hand.
 */

#include <check.h>
#include <string.h>

#include "rec.h"
#include "fmt.h"
#include "tutil.h"
#include "kind.h"

static struct sst_rec rec(uint64_t, double, int, int);
static const char *tm(double);
static Suite	*kind_suite(void);

/* A record of samples, weight, a period (the weight over the samples)
 * or none, and a start or none. */
static struct sst_rec
rec(uint64_t samples, double weight, int hasperiod, int hasstart)
{
	struct sst_rec r;

	memset(&r, 0, sizeof(r));
	r.samples = samples;
	r.weight = weight;
	r.unit = U_SECONDS;
	r.hasperiod = hasperiod;
	r.period = hasperiod && samples ? weight / (double)samples : 0;
	r.hasstart = hasstart;
	return r;
}

/* fmt_time(w) in a static buffer. */
static const char *
tm(double w)
{
	static char b[FMTBUF];

	return fmt_time(b, sizeof(b), w);
}

/* Samples of several periods are still samples; so is no record. */
START_TEST(test_sampled)
{
	struct kind k;
	struct sst_rec r;

	kind_init(&k);
	ck_assert(!kind_timed(&k, U_SECONDS));
	r = rec(3, 0.03, 1, 0);
	kind_add(&k, &r);
	r = rec(1, 0.004, 1, 0);
	kind_add(&k, &r);
	/* A declared thread: 0 samples, no period. */
	r = rec(0, 0, 0, 0);
	kind_add(&k, &r);
	/* Per-sample records of one weight. */
	r = rec(1, 0.01, 1, 1);
	kind_add(&k, &r);
	kind_add(&k, &r);
	ck_assert(!kind_timed(&k, U_SECONDS));
}
END_TEST

/* Each of the three signs of a timed stream, alone. */
START_TEST(test_timed)
{
	struct kind k;
	struct sst_rec r;

	/* Several samples without a period. */
	kind_init(&k);
	r = rec(3, 0.51, 0, 0);
	kind_add(&k, &r);
	ck_assert(kind_timed(&k, U_SECONDS));
	/* Samples that weigh 0. */
	kind_init(&k);
	r = rec(2, 0, 1, 0);
	kind_add(&k, &r);
	ck_assert(kind_timed(&k, U_SECONDS));
	/* Per-sample records of two weights. */
	kind_init(&k);
	r = rec(1, 0.01, 1, 1);
	kind_add(&k, &r);
	r = rec(1, 0.02, 1, 1);
	kind_add(&k, &r);
	ck_assert(kind_timed(&k, U_SECONDS));
	/* Counts and bytes are never timed. */
	ck_assert(!kind_timed(&k, U_NONE) && !kind_timed(&k, U_BYTES));
	r.unit = U_NONE;
	r.weight = 0;
	kind_init(&k);
	kind_add(&k, &r);
	ck_assert(!k.timed);
}
END_TEST

START_TEST(test_time)
{
	ck_assert_str_eq(tm(0), "0s");
	ck_assert_str_eq(tm(2.948), "2.95s");
	ck_assert_str_eq(tm(1234.5), "1234.50s");
	ck_assert_str_eq(tm(1), "1.00s");
	/* 0.9996 has three digits 1.00: seconds, not "1000ms". */
	ck_assert_str_eq(tm(0.9996), "1.00s");
	ck_assert_str_eq(tm(0.23), "230ms");
	ck_assert_str_eq(tm(0.0223), "22.3ms");
	ck_assert_str_eq(tm(0.001), "1.00ms");
	ck_assert_str_eq(tm(0.00099996), "1.00ms");
	ck_assert_str_eq(tm(0.000205785), "206\xc2\xb5s");
	ck_assert_str_eq(tm(0.0000121), "12.1\xc2\xb5s");
	ck_assert_str_eq(tm(1.5e-6), "1.50\xc2\xb5s");
	ck_assert_str_eq(tm(5e-7), "500ns");
	ck_assert_str_eq(tm(1e-9), "1.00ns");
	ck_assert_str_eq(tm(5e-10), "0.50ns");
	ck_assert_str_eq(tm(-0.005), "-5.00ms");
	ck_assert_str_eq(tm(1.0 / 0.0), "inf");
}
END_TEST

static Suite *
kind_suite(void)
{
	Suite *s = suite_create("kind");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sampled);
	tcase_add_test(tc, test_timed);
	tcase_add_test(tc, test_time);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(kind_suite());
}
