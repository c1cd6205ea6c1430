/*
 * test_eisel.c: Check suite for common/base/eisel.c (the double nearest a
 * decimal of up to 19 digits, Eisel-Lemire), through fmt_strtod, which
 * reads with it: random texts, numbers and not, against strtod(3).
 * The hand-picked cases (half way between doubles, the ends of the
 * table, past 19 digits, subnormals) are test_fmt's test_strtod.
 */

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eisel.h"
#include "fmt.h"
#include "tutil.h"

static uint64_t	 rnd(void);
static int	 sd_model(const char *, double *);
static void	 sd_text(char *, size_t, int);
static Suite	*eisel_suite(void);

static uint64_t	 seed = 0x9e3779b97f4a7c15ULL;

/* xorshift64. */
static uint64_t
rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

/*
 * fmt_strtod as it was before eisel.c, all of it strtod(3): the model
 * of test_strtod_random.
 */
static int
sd_model(const char *s, double *d)
{
	char *end;

	if (*s == '\0' || strlen(s) >= 128 ||
	    strspn(s, "0123456789+-.eE") != strlen(s))
		return -1;
	*d = strtod(s, &end);
	return *end != '\0' || !isfinite(*d) ? -1 : 0;
}

/* A random text for test_strtod_random, of kind k (0 to 7), at s. */
static void
sd_text(char *s, size_t sz, int k)
{
	static const char *al[] = { "0123456789", "0123456789.e-+E00" };
	uint64_t b, m;
	double d;
	size_t j = 0, n, q, p;
	int sh;

	b = rnd();
	memcpy(&d, &b, sizeof(d));
	switch (k) {
	case 0:	/* a double to 1-19 digits */
		snprintf(s, sz, "%.*g", (int)(rnd() % 19) + 1, d);
		return;
	case 1:	/* a weight of 17 digits */
		snprintf(s, sz, "%.17g", (double)(rnd() >> 11) * 0x1p-53 *
		    20000);
		return;
	case 2:
		fmt_pyfloat(s, sz, d);
		return;
	case 3:	/* half way between two doubles of 2^53 to 2^63, or next
		 * to it */
		sh = (int)(rnd() % 11);
		m = (rnd() >> 12 | 1ULL << 52) << sh;
		m += sh > 0 ? 1ULL << (sh - 1) : 0;
		snprintf(s, sz, "%llu", (unsigned long long)(m + rnd() % 3 -
		    1));
		return;
	case 4:	/* 1-19 digits, any power of ten */
		snprintf(s, sz, "%llue%d", (unsigned long long)(rnd() %
		    10000000000000000000ULL), (int)(rnd() % 700) - 350);
		return;
	}
	/* Digits with a point and an exponent, or any of "0-9.e-+E". */
	if (rnd() % 3 == 0)
		s[j++] = "+-"[rnd() % 2];
	n = rnd() % 26 + 1;
	for (q = 0; q < n; q++)
		s[j++] = al[k == 5][rnd() % strlen(al[k == 5])];
	s[j] = '\0';
	if (k == 5 && rnd() % 2) {
		p = rnd() % (j + 1);
		memmove(s + p + 1, s + p, j - p + 1);
		s[p] = '.';
		j++;
	}
	if (k == 5 && rnd() % 2)
		snprintf(s + j, sz - j, "e%d", (int)(rnd() % 900) - 450);
}

/*
 * Random texts, numbers and not: fmt_strtod accepts what strtod(3)
 * reads whole and finite, and reads the same bits.
 */
START_TEST(test_strtod_random)
{
	char s[128];
	double d, m;
	int i, r, rm;

	for (i = 0; i < 400000; i++) {
		sd_text(s, sizeof(s), i % 7);
		d = m = 0;
		r = fmt_strtod(s, strlen(s), &d);
		rm = sd_model(s, &m);
		if (r != rm || (r == 0 && memcmp(&d, &m, sizeof(d)) != 0))
			ck_abort_msg("\"%s\": %d %a, strtod %d %a", s, r, d,
			    rm, m);
	}
}
END_TEST

/*
 * eisel() by itself: zero keeps its sign, and what no double holds is
 * declined (subnormal, past the largest, beyond the table).
 */
START_TEST(test_direct)
{
	double d;

	ck_assert_int_eq(eisel(0, 5, 1, &d), 0);
	ck_assert(d == 0 && signbit(d));
	ck_assert_int_eq(eisel(3, -1, 0, &d), 0);
	ck_assert(d == 0.3);
	ck_assert_int_eq(eisel(17976931348623157ULL, 292, 0, &d), 0);
	ck_assert(d == 0x1.fffffffffffffp1023);
	ck_assert_int_eq(eisel(2, 308, 0, &d), -1);
	ck_assert_int_eq(eisel(5, -324, 0, &d), -1);
	ck_assert_int_eq(eisel(1, -400, 0, &d), -1);
	ck_assert_int_eq(eisel(1, 400, 0, &d), -1);
}
END_TEST

static Suite *
eisel_suite(void)
{
	Suite *s = suite_create("eisel");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_direct);
	tcase_add_test(tc, test_strtod_random);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(eisel_suite());
}
