/*
 * test_fmt.c: Check suite for number formatting and parsing
 * (common/base/fmt.c): shortest round-trip doubles (as %g and as Python's
 * repr()), thousands separators, Python-exact repeated sums and strict
 * whole-field parsing.
 */

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

static const char *dbl(double);
static const char *pyf(double);
static int	 sigdigits(const char *);
static uint64_t	 rnd(void);
static int	 sd(const char *, double *);
static int	 su(const char *, uint64_t *);
static Suite	*fmt_suite(void);

static uint64_t	 seed = 0x2545f4914f6cdd1dULL;

/* fmt_double into a static buffer. */
static const char *
dbl(double d)
{
	static char b[FMTBUF];

	return fmt_double(b, sizeof(b), d);
}

/* fmt_pyfloat into a static buffer. */
static const char *
pyf(double d)
{
	static char b[FMTBUF];

	return fmt_pyfloat(b, sizeof(b), d);
}

/* How many significant digits the mantissa of s has. */
static int
sigdigits(const char *s)
{
	int n = 0, zeros = 0, lead = 1;

	for (; *s != '\0' && *s != 'e'; s++) {
		if (*s < '0' || *s > '9')
			continue;
		if (*s == '0' && lead)
			continue;
		lead = 0;
		n++;
		zeros = *s == '0' ? zeros + 1 : 0;
	}
	/* Trailing zeros of an integer written out in full don't count. */
	return n - zeros;
}

static uint64_t
rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

static int
sd(const char *s, double *d)
{
	return fmt_strtod(s, strlen(s), d);
}

static int
su(const char *s, uint64_t *v)
{
	return fmt_strtou64(s, strlen(s), v);
}

START_TEST(test_double_values)
{
	static const struct {
		double		 d;
		const char	*s;
	} t[] = {
		{ 0.1, "0.1" },
		{ 0.01, "0.01" },
		{ 0.3, "0.3" },
		{ 0.1 + 0.2, "0.30000000000000004" },
		{ 1e-9, "1e-09" },
		{ 1e-5, "1e-05" },
		{ 1e-4, "0.0001" },
		{ 1e300, "1e+300" },
		{ 5e-324, "5e-324" },
		{ 1e-310, "1e-310" },
		{ 2.5e-323, "2.5e-323" },
		{ 37, "37" },
		{ -2.5, "-2.5" },
		{ 0, "0" },
		{ -0.0, "0" },
		{ 1, "1" },
		{ 100, "100" },
		{ 123456789, "123456789" },
		{ 1e16, "1e+16" },
		{ 0.037, "0.037" },
		{ 1.0 / 3, "0.3333333333333333" },
		{ 2.0 / 3, "0.6666666666666666" },
		{ 0.1 * 3, "0.30000000000000004" },
		{ 0.9999999999999999, "0.9999999999999999" },
		{ 4.35, "4.35" },
		{ 123.456, "123.456" },
		{ DBL_MAX, "1.7976931348623157e+308" },
		{ DBL_MIN, "2.2250738585072014e-308" },
		{ -DBL_MIN, "-2.2250738585072014e-308" },
		{ 9007199254740993.0, "9007199254740992" },
		/*
		 * From here on, expectations from Python 3.11's model of
		 * fmt_double (tests/tools/pyrepr.py): the first of
		 * "%.15g" .. "%.16g" (from "%.1g" for a subnormal) that
		 * reads back, else "%.17g".  Powers of two whose correctly
		 * rounded 16 digits do not read back take 17 (the path
		 * that still searches).
		 */
		{ 0x1p-24, "5.9604644775390625e-08" },
		{ 0x1p-44, "5.6843418860808015e-14" },
		{ 0x1p89, "6.1897001964269014e+26" },
		{ 0x1p976, "6.3866889905111034e+293" },
		{ -0x1p-1017, "-7.1202363472230444e-307" },
		{ 0x1p63, "9.223372036854776e+18" },
		{ 0x1p-20, "9.5367431640625e-07" },
		{ 1e14, "100000000000000" },
		{ 1e15, "1e+15" },
		{ 123456789012345.0, "123456789012345" },
		{ 1234567890123456.0, "1234567890123456" },
		{ 12345678901234567.0, "12345678901234568" },
		{ 1e16 + 2, "10000000000000002" },
		{ 1e15 + 0.5, "1000000000000000.5" },
		{ 9007199254740995.0, "9007199254740996" },
		{ 1e22, "1e+22" },
		{ 1e23, "1e+23" },
		{ 0x3p-1074, "1.5e-323" },
		{ 0x0.fffffffffffffp-1022, "2.225073858507201e-308" },
		{ INFINITY, "inf" },
		{ -INFINITY, "-inf" },
	};
	size_t i;
	const char *s;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		s = dbl(t[i].d);
		ck_assert_msg(strcmp(s, t[i].s) == 0, "%.17g: got \"%s\", "
		    "want \"%s\"", t[i].d, s, t[i].s);
	}
}
END_TEST

/*
 * Random doubles, normal and subnormal: the text reads back as the
 * same double and one digit fewer would not.
 */
START_TEST(test_double_random)
{
	char shorter[400];
	const char *s;
	double d, e;
	uint64_t bits;
	int i, k;

	for (i = 0; i < 200000; i++) {
		bits = rnd();
		if (i % 4 == 0)	/* subnormal */
			bits &= 0x800fffffffffffffULL;
		else if (i % 4 == 1)	/* few mantissa bits */
			bits &= 0xfff0000000000000ULL | (rnd() & 0xff);
		memcpy(&d, &bits, sizeof(d));
		if (!isfinite(d))
			continue;
		s = dbl(d);
		e = strtod(s, NULL);
		if (e != d)
			ck_abort_msg("%a: \"%s\" reads back as %a", d, s, e);
		k = sigdigits(s);
		if (k > 1 && d != 0) {
			snprintf(shorter, sizeof(shorter), "%.*g", k - 1, d);
			if (strtod(shorter, NULL) == d)
				ck_abort_msg("%a: \"%s\" is not the shortest: "
				    "\"%s\"", d, s, shorter);
		}
	}
}
END_TEST

/* What Python's repr() writes (checked against Python 3.11). */
START_TEST(test_pyfloat_values)
{
	static const struct {
		double		 d;
		const char	*s;
	} t[] = {
		{ 0.0, "0.0" },
		{ -0.0, "-0.0" },
		/*
		 * Powers of two whose correctly rounded 16 digits do not
		 * read back, but the next 16-digit number does: Python
		 * writes that, not 17 digits.
		 */
		{ 0x1p-24, "5.960464477539063e-08" },
		{ 0x1p-44, "5.684341886080802e-14" },
		{ -0x1p-1017, "-7.120236347223045e-307" },
		{ 0x1p976, "6.386688990511104e+293" },
		{ 0x1p89, "6.189700196426902e+26" },
		{ 1.0, "1.0" },
		{ -1.0, "-1.0" },
		{ 0.1, "0.1" },
		{ 0.5, "0.5" },
		{ -2.5, "-2.5" },
		{ 37, "37.0" },
		{ 100, "100.0" },
		{ 123.456, "123.456" },
		{ 0.1 + 0.2, "0.30000000000000004" },
		{ 1.0 / 3, "0.3333333333333333" },
		{ 1e-4, "0.0001" },
		{ 0.00012345, "0.00012345" },
		{ -1e-4, "-0.0001" },
		{ 1e-05, "1e-05" },
		{ 1.5e-05, "1.5e-05" },
		{ -1e-05, "-1e-05" },
		{ 1e-9, "1e-09" },
		{ 9999999999999998.0, "9999999999999998.0" },
		{ 1e15, "1000000000000000.0" },
		{ 1e16, "1e+16" },
		{ 1.5e+16, "1.5e+16" },
		{ -1e16, "-1e+16" },
		{ 123456789012345680.0, "1.2345678901234568e+17" },
		{ 1e22, "1e+22" },
		{ 1e300, "1e+300" },
		{ 5e-324, "5e-324" },
		{ 1e-310, "1e-310" },
		{ DBL_MAX, "1.7976931348623157e+308" },
		{ DBL_MIN, "2.2250738585072014e-308" },
		/* Subnormals: the least, twice and thrice it, the most. */
		{ 0x1p-1074, "5e-324" },
		{ -0x1p-1074, "-5e-324" },
		{ 0x2p-1074, "1e-323" },
		{ 0x3p-1074, "1.5e-323" },
		{ 0x0.fffffffffffffp-1022, "2.225073858507201e-308" },
		{ 5e-310, "5e-310" },
		/* Either side of 1e16, where the notation changes. */
		{ 9999999999999998.0, "9999999999999998.0" },
		{ 9999999999999999.0, "1e+16" },
		{ 1e16 - 2, "9999999999999998.0" },
		{ 1e16 + 2, "1.0000000000000002e+16" },
		{ 1e15 + 0.5, "1000000000000000.5" },
		{ 9.999999999999999e-05, "9.999999999999999e-05" },
		{ 9.999999999999999e-06, "9.999999999999999e-06" },
		/* 2^53 and its neighbours; ties go to the even one. */
		{ 9007199254740991.0, "9007199254740991.0" },
		{ 9007199254740992.0, "9007199254740992.0" },
		{ 9007199254740993.0, "9007199254740992.0" },
		{ 9007199254740994.0, "9007199254740994.0" },
		{ 9007199254740995.0, "9007199254740996.0" },
		/* Powers of ten and of two. */
		{ 1e21, "1e+21" },
		{ 1e23, "1e+23" },
		{ 1e100, "1e+100" },
		{ 1e-100, "1e-100" },
		{ 0x1p-1, "0.5" },
		{ 0x1p-20, "9.5367431640625e-07" },
		{ 0x1p53, "9007199254740992.0" },
		{ 0x1p63, "9.223372036854776e+18" },
		{ 0x1p64, "1.8446744073709552e+19" },
		{ 0x1p1023, "8.98846567431158e+307" },
		{ -DBL_MAX, "-1.7976931348623157e+308" },
		/* Rounding on the way. */
		{ 0.1 + 0.7, "0.7999999999999999" },
		{ 1.1 * 1.1, "1.2100000000000002" },
		{ 10111.121212121214, "10111.121212121214" },
		{ 0.01 / 99, "0.00010101010101010101" },
		{ 1.0 / 99, "0.010101010101010102" },
		{ INFINITY, "inf" },
		{ -INFINITY, "-inf" },
		{ NAN, "nan" },
	};
	size_t i;
	const char *s;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		s = pyf(t[i].d);
		ck_assert_msg(strcmp(s, t[i].s) == 0, "%.17g: got \"%s\", "
		    "want \"%s\"", t[i].d, s, t[i].s);
	}
}
END_TEST

/*
 * Random doubles: the text reads back as the same double, has as many
 * significant digits as fmt_double's (or one fewer, next to a power of
 * two, where fmt_double tries only the correctly rounded digits), and
 * always a '.' or an exponent.
 */
START_TEST(test_pyfloat_random)
{
	const char *s;
	char g[FMTBUF];
	double d;
	uint64_t bits;
	int i;

	for (i = 0; i < 200000; i++) {
		bits = rnd();
		if (i % 4 == 0)	/* subnormal */
			bits &= 0x800fffffffffffffULL;
		else if (i % 4 == 1)	/* few mantissa bits */
			bits &= 0xfff0000000000000ULL | (rnd() & 0xff);
		memcpy(&d, &bits, sizeof(d));
		if (!isfinite(d))
			continue;
		s = pyf(d);
		if (strtod(s, NULL) != d)
			ck_abort_msg("%a: \"%s\" reads back as %a", d, s,
			    strtod(s, NULL));
		fmt_double(g, sizeof(g), d);
		if (sigdigits(s) != sigdigits(g) &&
		    sigdigits(s) + 1 != sigdigits(g))
			ck_abort_msg("%a: \"%s\", but fmt_double \"%s\"", d, s,
			    g);
		if (strpbrk(s, ".e") == NULL)
			ck_abort_msg("%a: \"%s\" reads as an int", d, s);
	}
}
END_TEST

/* fmt_u64 against printf("%llu") at every power of ten and its
 * neighbours, and at the ends. */
START_TEST(test_u64)
{
	char want[32], got[32];
	uint64_t p = 1, v[3];
	size_t i, n;

	for (;;) {
		v[0] = p - 1;
		v[1] = p;
		v[2] = p + 1;
		for (i = 0; i < 3; i++) {
			snprintf(want, sizeof(want), "%llu",
			    (unsigned long long)v[i]);
			memset(got, 'x', sizeof(got));
			n = fmt_u64(got, v[i]);
			ck_assert_uint_eq(n, strlen(want));
			ck_assert_mem_eq(got, want, n);
			ck_assert_int_eq(got[n], 'x');
		}
		if (p > UINT64_MAX / 10)
			break;
		p *= 10;
	}
	n = fmt_u64(got, UINT64_MAX);
	ck_assert_uint_eq(n, 20);
	ck_assert_mem_eq(got, "18446744073709551615", 20);
	/* Every value below a million, and a spread of bigger ones. */
	for (p = 0; p < 1300000; p++) {
		v[0] = p < 1000000 ? p : (p * 0x9e3779b97f4a7c15ULL) >>
		    (p % 60);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)v[0]);
		n = fmt_u64(got, v[0]);
		if (n != strlen(want) || memcmp(got, want, n) != 0)
			ck_abort_msg("%s: %.*s", want, (int)n, got);
	}
}
END_TEST

START_TEST(test_commas)
{
	static const struct {
		uint64_t	 v;
		const char	*s;
	} t[] = {
		{ 0, "0" },
		{ 7, "7" },
		{ 999, "999" },
		{ 1000, "1,000" },
		{ 9999, "9,999" },
		{ 10000, "10,000" },
		{ 100000, "100,000" },
		{ 999999, "999,999" },
		{ 1000000, "1,000,000" },
		{ 1234567, "1,234,567" },
		{ 1000000000000ULL, "1,000,000,000,000" },
		{ UINT64_MAX, "18,446,744,073,709,551,615" },
	};
	char b[FMTBUF];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ck_assert_str_eq(fmt_commas(b, sizeof(b), t[i].v), t[i].s);
}
END_TEST

/* A buffer just big enough is enough; one byte less gives "". */
START_TEST(test_commas_tight)
{
	static const uint64_t v[] = { 0, 9, 99, 999, 1000, 12345, 123456,
	    1234567, UINT64_MAX };
	char want[FMTBUF], b[FMTBUF];
	size_t i, n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		fmt_commas(want, sizeof(want), v[i]);
		n = strlen(want) + 1;
		memset(b, 'X', sizeof(b));
		ck_assert_str_eq(fmt_commas(b, n, v[i]), want);
		memset(b, 'X', sizeof(b));
		ck_assert_str_eq(fmt_commas(b, n - 1, v[i]), "");
		ck_assert_int_eq(b[n - 1], 'X');
	}
}
END_TEST

START_TEST(test_pysum)
{
	static const double w[] = { 0.1, 0.01, 0.7, 1.1, 0.3, 1e-3,
	    0.037, 1, 0 };
	double acc, want;
	uint64_t n, k;
	size_t i;

	/* Equal to a manual left-to-right loop. */
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		for (n = 0; n < 200; n++) {
			want = 0.5;
			for (k = 0; k < n; k++)
				want += w[i];
			ck_assert(fmt_pysum(0.5, w[i], n) == want);
		}
	/* And not the same as w * n. */
	ck_assert(fmt_pysum(0, 0.1, 10) == 0.9999999999999999);
	ck_assert(0.1 * 10 == 1.0);
	ck_assert_str_eq(dbl(fmt_pysum(0, 0.1, 10)), "0.9999999999999999");
	ck_assert_str_eq(dbl(fmt_pysum(0, 0.01, 6)), "0.060000000000000005");
	ck_assert_str_eq(dbl(0.01 * 6), "0.06");
	ck_assert_str_eq(dbl(fmt_pysum(0, 0.7, 10)), "7.000000000000001");
	ck_assert_str_eq(dbl(fmt_pysum(0, 0.1, 3)), "0.30000000000000004");
	/* Continuing from a running total. */
	acc = fmt_pysum(0, 0.1, 3);
	acc = fmt_pysum(acc, 0.2, 2);
	ck_assert(acc == 0.1 + 0.1 + 0.1 + 0.2 + 0.2);
	ck_assert(fmt_pysum(1.25, 0.1, 0) == 1.25);
}
END_TEST

/*
 * Sums that reach the last binade, whose top 2^1024 is infinite, and
 * overflow (the quotient of the shortcut was once cast to uint64_t
 * while infinite, undefined behaviour that UBSan stops on).  Values
 * from Python: a += w, n times.
 */
START_TEST(test_pysum_huge)
{
	ck_assert(fmt_pysum(0, 1e307, 17) == 1.6999999999999995e+308);
	ck_assert(fmt_pysum(0, 1e305, 1000) == 9.999999999999992e+307);
	ck_assert(isinf(fmt_pysum(0, 1e307, 100)));
	ck_assert(isinf(fmt_pysum(0, 1.5e307, UINT64_MAX)));
	ck_assert(isinf(fmt_pysum(1e308, 1e307, UINT64_MAX)));
	ck_assert(fmt_pysum(0, -1e307, 100) < 0 &&
	    isinf(fmt_pysum(0, -1e307, 100)));
	/* 2^1023 and a step too small to move it. */
	ck_assert(fmt_pysum(0x1p1023, 1, UINT64_MAX) == 0x1p1023);
}
END_TEST

/* A weight in its unit. */
START_TEST(test_weight)
{
	static const struct {
		double		 w;
		enum sst_unit	 u;
		const char	*s;
	} t[] = {
		{ 12994, U_SECONDS, "12994.00s" },
		{ 0.005, U_SECONDS, "0.01s" },
		{ 0, U_SECONDS, "0.00s" },
		{ 12994, U_NONE, "12,994" },
		{ 0, U_NONE, "0" },
		{ -0.0, U_NONE, "0" },
		{ 999, U_NONE, "999" },
		{ 1000, U_NONE, "1,000" },
		{ -1234567, U_NONE, "-1,234,567" },
		{ 1234.5, U_NONE, "1,234.50" },
		{ 0.25, U_NONE, "0.25" },
		{ -0.001, U_NONE, "-0.00" },
		{ 999999999999999999.0, U_NONE, "1e+18" },
		{ 123456789012345678.0, U_NONE, "123,456,789,012,345,680" },
		{ 1e300, U_NONE, "1e+300" },
		{ 4096, U_BYTES, "4,096 B" },
		{ 1.5, U_BYTES, "1.50 B" },
		{ 1e20, U_BYTES, "1e+20 B" },
		{ 1.0 / 0.0, U_NONE, "inf" },
	};
	char buf[FMTBUF];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		fmt_weight(buf, sizeof(buf), t[i].w, t[i].u);
		ck_assert_msg(strcmp(buf, t[i].s) == 0, "case %zu: %s, want %s",
		    i, buf, t[i].s);
	}
	ck_assert_str_eq(fmt_unitnoun(U_SECONDS), "time");
	ck_assert_str_eq(fmt_unitnoun(U_NONE), "count");
	ck_assert_str_eq(fmt_unitnoun(U_BYTES), "bytes");
	/* Too small a buffer gives an empty string. */
	ck_assert_str_eq(fmt_weight(buf, 4, 12994, U_NONE), "");
}
END_TEST

START_TEST(test_strtod)
{
	static const struct {
		const char	*s;
		double		 d;
	} ok[] = {
		{ "1e-5", 1e-5 },
		{ "-0.5", -0.5 },
		{ "0", 0 },
		{ "37", 37 },
		{ "0.037", 0.037 },
		{ "0.30000000000000004", 0.1 + 0.2 },
		{ "1E3", 1000 },
		{ ".5", 0.5 },
		{ "5.", 5 },
		{ "1e+300", 1e300 },
		{ "1.7976931348623157e+308", DBL_MAX },
		/* What fmt_double writes for subnormals reads back. */
		{ "5e-324", 5e-324 },
		{ "1e-310", 1e-310 },
		/*
		 * Read by eisel.c or declined to strtod(3): half way
		 * between two doubles (2^53 + 1 and + 3, to even), the
		 * first and last of its table, past 19 digits, under and
		 * next to the least normal, 10^23 (not the double nearest
		 * 1e22 * 10).
		 */
		{ "9007199254740993", 0x1p53 },
		{ "9007199254740995", 0x1p53 + 4 },
		{ "9007199254740993e0", 0x1p53 },
		{ "1e-348", 0 },
		{ "1e-400", 0 },
		{ "1e347", -1 },
		{ "18446744073709551615", 0x1p64 },
		{ "1.00000000000000011102230246251565404236316680908203125",
		    1 },
		{ "2.2250738585072011e-308", 0x0.fffffffffffffp-1022 },
		{ "2.2250738585072014e-308", 0x1p-1022 },
		{ "4.9406564584124654e-324", 0x1p-1074 },
		{ "1e23", 1e23 },
		{ "0.000000000000000000000000000001", 1e-30 },
		{ "-0", -0.0 },
		{ "0e999999", 0 },
		{ "00012.50", 12.5 },
	};
	static const char *bad[] = {
		"", " 1", "\t1", "\n1", "\r1", "\v1", "\f1", "1 ", "1x", "x1",
		"inf", "-inf", "+inf", "infinity", "nan", "-nan", "NaN",
		"1e999", "-1e999", "0x10", "0x1p3", "1e", "-", ".", "1,5",
		"1..2", "--1", "1e+", "1e-", "+", "+.", ".e1", "1e5e", "1e5.",
		"1.2.3", "1-", "e5", "1e--5",
	};
	double d;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		d = -12345;
		if (ok[i].d == -1) {	/* too big */
			ck_assert_int_eq(sd(ok[i].s, &d), -1);
			continue;
		}
		ck_assert_msg(sd(ok[i].s, &d) == 0, "rejected \"%s\"",
		    ok[i].s);
		ck_assert_int_eq(!!signbit(d), !!signbit(ok[i].d));
		ck_assert_msg(d == ok[i].d, "\"%s\" read as %.17g", ok[i].s,
		    d);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(sd(bad[i], &d) == -1, "accepted case %zu \"%s\"",
		    i, bad[i]);
	/* Only the given length counts; the rest may be anything. */
	ck_assert_int_eq(fmt_strtod("12.5\tseconds", 4, &d), 0);
	ck_assert(d == 12.5);
	ck_assert_int_eq(fmt_strtod("12.5x", 4, &d), 0);
	ck_assert(d == 12.5);
	ck_assert_int_eq(fmt_strtod("12.5x", 0, &d), -1);
}
END_TEST

/* fmt_double text always reads back through fmt_strtod. */
START_TEST(test_strtod_roundtrip)
{
	uint64_t bits;
	double d, e;
	const char *s;
	int i;

	for (i = 0; i < 100000; i++) {
		bits = rnd();
		if (i % 3 == 0)
			bits &= 0x800fffffffffffffULL;
		memcpy(&d, &bits, sizeof(d));
		if (!isfinite(d))
			continue;
		s = dbl(d);
		if (fmt_strtod(s, strlen(s), &e) != 0)
			ck_abort_msg("rejected \"%s\"", s);
		if (e != d)
			ck_abort_msg("\"%s\" read as %a, want %a", s, e, d);
	}
}
END_TEST

START_TEST(test_strtou64)
{
	static const struct {
		const char	*s;
		uint64_t	 v;
	} ok[] = {
		{ "0", 0 },
		{ "1", 1 },
		{ "007", 7 },
		{ "37", 37 },
		{ "4294967296", 4294967296ULL },
		{ "1844674407370955161", 1844674407370955161ULL },
		{ "18446744073709551614", UINT64_MAX - 1 },
		{ "18446744073709551615", UINT64_MAX },
	};
	static const char *bad[] = {
		"", "-1", "+1", " 1", "1 ", "1.0", "1e3", "0x1", "abc",
		"18446744073709551616", "18446744073709551620",
		"18446744073709551700", "19000000000000000000",
		"99999999999999999999", "184467440737095516150",
		"100000000000000000000",
	};
	uint64_t v;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = 12345;
		ck_assert_msg(su(ok[i].s, &v) == 0, "rejected \"%s\"",
		    ok[i].s);
		ck_assert_msg(v == ok[i].v, "\"%s\" read as %llu", ok[i].s,
		    (unsigned long long)v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 12345;
		ck_assert_msg(su(bad[i], &v) == -1, "accepted \"%s\"",
		    bad[i]);
		ck_assert_uint_eq(v, 12345);
	}
	ck_assert_int_eq(fmt_strtou64("123\t", 3, &v), 0);
	ck_assert_uint_eq(v, 123);
	ck_assert_int_eq(fmt_strtou64("123", 2, &v), 0);
	ck_assert_uint_eq(v, 12);
}
END_TEST

/* fmt_dshort: fmt_double's text, also for doubles that share a slot. */
START_TEST(test_dshort)
{
	static const struct {
		double	 d;
		const char *s;
	} t[] = {
		{ 0.01, "0.01" }, { 1.340000000000001, "1.340000000000001" },
		{ 0.1 + 0.2, "0.30000000000000004" }, { 0, "0" },
		{ 1e300, "1e+300" }, { -2.5, "-2.5" }, { 0.01, "0.01" },
	};
	const char *p;
	char b[FMTBUF];
	size_t i, k, n;

	for (k = 0; k < 3; k++)
		for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			p = fmt_dshort(t[i].d, &n);
			ck_assert_uint_eq(n, strlen(t[i].s));
			ck_assert_int_eq(memcmp(p, t[i].s, n), 0);
		}
	/* Many doubles: slots are taken over, the text stays right. */
	for (i = 1; i < 20000; i++) {
		p = fmt_dshort((double)i * 0.01, &n);
		fmt_double(b, sizeof(b), (double)i * 0.01);
		ck_assert_uint_eq(n, strlen(b));
		ck_assert_int_eq(memcmp(p, b, n), 0);
	}
}
END_TEST

static Suite *
fmt_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("fmt");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_u64);
	tcase_add_test(tc, test_dshort);
	tcase_add_test(tc, test_double_values);
	tcase_add_test(tc, test_double_random);
	tcase_add_test(tc, test_pyfloat_values);
	tcase_add_test(tc, test_pyfloat_random);
	tcase_add_test(tc, test_commas);
	tcase_add_test(tc, test_commas_tight);
	tcase_add_test(tc, test_pysum);
	tcase_add_test(tc, test_pysum_huge);
	tcase_add_test(tc, test_weight);
	tcase_add_test(tc, test_strtod);
	tcase_add_test(tc, test_strtod_roundtrip);
	tcase_add_test(tc, test_strtou64);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(fmt_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
