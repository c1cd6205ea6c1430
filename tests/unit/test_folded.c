/*
 * test_folded.c: Check suite for folded stacks (common/formats/folded.c): the
 * white space stripped, which weights parse and to what as Python's
 * int() and float() read them, which are counts of samples and of how
 * many, the offsets stripped from frames, the
 * stack fields made, the units of -u, and the median weight as Python
 * prints it, ties and all.
 */

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "fmt.h"
#include "folded.h"

static int	 weight(const char *, double *, int *);
static int	 count(const char *, uint64_t *);
static char	*strip(const char *, int *);
static char	*stack(const char *);
static const char *median(const double *, const int *, size_t);
static Suite	*folded_suite(void);

/* fold_weight of a string. */
static int
weight(const char *s, double *w, int *isint)
{
	struct buf tmp;
	int r;

	buf_init(&tmp);
	*w = -999;
	r = fold_weight(s, strlen(s), w, isint, &tmp);
	buf_free(&tmp);
	return r;
}

/* fold_count of a string; *v is 77 unless it set it. */
static int
count(const char *s, uint64_t *v)
{
	*v = 77;
	return fold_count(s, strlen(s), v);
}

/* fold_strip of a string; *same: s was handed back.  free() it. */
static char *
strip(const char *s, int *same)
{
	struct buf b;
	const char *p;
	char *r;
	size_t n;

	buf_init(&b);
	p = fold_strip(&b, s, strlen(s), &n);
	*same = p == s;
	r = xmalloc(n + 1);
	memcpy(r, p, n);
	r[n] = '\0';
	buf_free(&b);
	return r;
}

/* fold_stack of a string; free() it. */
static char *
stack(const char *s)
{
	struct buf b;

	buf_init(&b);
	buf_adds(&b, "junk");
	fold_stack(&b, s, strlen(s));
	return b.data;
}

/* The median of n weights, as fold_median prints it. */
static const char *
median(const double *w, const int *isint, size_t n)
{
	static char buf[FMTBUF];
	struct fold_meds m = { NULL, 0, 0 };
	const char *r;
	size_t i;

	for (i = 0; i < n; i++)
		fold_medadd(&m, w[i], isint[i]);
	r = fold_median(&m, buf, sizeof(buf));
	free(m.m);
	return r;
}

START_TEST(test_rstrip)
{
	ck_assert_uint_eq(fold_rstrip("a b \t\x1c\r\n\v\f", 10), 3);
	ck_assert_uint_eq(fold_rstrip("   ", 3), 0);
	ck_assert_uint_eq(fold_rstrip("", 0), 0);
	/* Not white space: NUL, 0x1b, 0x20 + 0x80, non-ASCII. */
	ck_assert_uint_eq(fold_rstrip("a\0", 2), 2);
	ck_assert_uint_eq(fold_rstrip("a\x1b", 2), 2);
	ck_assert_uint_eq(fold_rstrip("a\xa0", 2), 2);
}
END_TEST

START_TEST(test_weight)
{
	double w;
	int isint;

	ck_assert_int_eq(weight("42", &w, &isint), 0);
	ck_assert(w == 42);
	ck_assert_int_eq(isint, 1);
	ck_assert_int_eq(weight(" \t+7", &w, &isint), 0);
	ck_assert(w == 7);
	ck_assert_int_eq(weight("-3", &w, &isint), 0);
	ck_assert(w == -3);
	ck_assert_int_eq(weight("-0", &w, &isint), 0);
	ck_assert(w == 0 && signbit(w));
	ck_assert_int_eq(weight("1_000_0", &w, &isint), 0);
	ck_assert(w == 10000);
	ck_assert_int_eq(isint, 1);
	/* Rounded to nearest, as a cast and as strtod do. */
	ck_assert_int_eq(weight("9007199254740993", &w, &isint), 0);
	ck_assert(w == 9007199254740992.0);
	ck_assert_int_eq(weight("12345678901234567891", &w, &isint), 0);
	ck_assert(w == 12345678901234567891.0);
	ck_assert_int_eq(isint, 1);
	/* Floats. */
	ck_assert_int_eq(weight("2.5", &w, &isint), 0);
	ck_assert(w == 2.5);
	ck_assert_int_eq(isint, 0);
	ck_assert_int_eq(weight(".5", &w, &isint), 0);
	ck_assert(w == 0.5);
	ck_assert_int_eq(isint, 0);
	ck_assert_int_eq(weight("5.", &w, &isint), 0);
	ck_assert(w == 5);
	ck_assert_int_eq(isint, 0);
	ck_assert_int_eq(weight("1e3", &w, &isint), 0);
	ck_assert(w == 1000);
	ck_assert_int_eq(isint, 0);
	ck_assert_int_eq(weight("-1_0.2_5E+0_1", &w, &isint), 0);
	ck_assert(w == -102.5);
	ck_assert_int_eq(weight("0.1", &w, &isint), 0);
	ck_assert(w == 0.1);
	/* Not numbers, or not finite ones. */
	ck_assert_int_eq(weight("", &w, &isint), -1);
	ck_assert_int_eq(weight("   ", &w, &isint), -1);
	ck_assert_int_eq(weight("+", &w, &isint), -1);
	ck_assert_int_eq(weight(".", &w, &isint), -1);
	ck_assert_int_eq(weight("e5", &w, &isint), -1);
	ck_assert_int_eq(weight("1e", &w, &isint), -1);
	ck_assert_int_eq(weight("1e+", &w, &isint), -1);
	ck_assert_int_eq(weight("1__0", &w, &isint), -1);
	ck_assert_int_eq(weight("_1", &w, &isint), -1);
	ck_assert_int_eq(weight("1_", &w, &isint), -1);
	ck_assert_int_eq(weight("1._5", &w, &isint), -1);
	ck_assert_int_eq(weight("1 ", &w, &isint), -1);
	ck_assert_int_eq(weight("1 2", &w, &isint), -1);
	ck_assert_int_eq(weight("0x10", &w, &isint), -1);
	ck_assert_int_eq(weight("inf", &w, &isint), -1);
	ck_assert_int_eq(weight("nan", &w, &isint), -1);
	ck_assert_int_eq(weight("1e400", &w, &isint), -1);
	ck_assert_int_eq(weight("--1", &w, &isint), -1);
}
END_TEST

START_TEST(test_count)
{
	uint64_t v;

	ck_assert_int_eq(count("42", &v), 1);
	ck_assert_uint_eq(v, 42);
	ck_assert_int_eq(count("0", &v), 1);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(count(" \t+7", &v), 1);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(count("1_000_0", &v), 1);
	ck_assert_uint_eq(v, 10000);
	ck_assert_int_eq(count("007", &v), 1);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(count("18446744073709551615", &v), 1);
	ck_assert_uint_eq(v, UINT64_MAX);
	/* Past 2^64 - 1, by one or by far: -1, v untouched. */
	ck_assert_int_eq(count("18446744073709551616", &v), -1);
	ck_assert_uint_eq(v, 77);
	ck_assert_int_eq(count("18446744073709551620", &v), -1);
	ck_assert_int_eq(count("99999999999999999999", &v), -1);
	ck_assert_int_eq(count("1_8446_7440_7370_9551_616", &v), -1);
	/* Weights that are no counts: negative ones and floats. */
	ck_assert_int_eq(count("-3", &v), 0);
	ck_assert_uint_eq(v, 77);
	ck_assert_int_eq(count("-0", &v), 0);
	ck_assert_int_eq(count("2.5", &v), 0);
	ck_assert_int_eq(count("1e3", &v), 0);
	ck_assert_uint_eq(v, 77);
}
END_TEST

START_TEST(test_strip)
{
	char *s;
	int same;

	s = strip("a+0x1f;b;c+0x0", &same);
	ck_assert_str_eq(s, "a;b;c");
	ck_assert_int_eq(same, 0);
	free(s);
	s = strip("+0x12;x+0xab+0xcd", &same);
	ck_assert_str_eq(s, ";x+0xab");
	free(s);
	/* Upper-case or no hex digits: the frame is kept. */
	s = strip("f+0xAB;g+0x;h+0x1", &same);
	ck_assert_str_eq(s, "f+0xAB;g+0x;h");
	ck_assert_int_eq(same, 0);
	free(s);
	/* No "+0x" with a byte after it: the stack itself. */
	s = strip("a;b+0x", &same);
	ck_assert_str_eq(s, "a;b+0x");
	ck_assert_int_eq(same, 1);
	free(s);
	s = strip("a;b", &same);
	ck_assert_str_eq(s, "a;b");
	ck_assert_int_eq(same, 1);
	free(s);
	s = strip("", &same);
	ck_assert_str_eq(s, "");
	ck_assert_int_eq(same, 1);
	free(s);
}
END_TEST

START_TEST(test_stack)
{
	char *s;

	s = stack("main;f;g");
	ck_assert_str_eq(s, "main;f;g");
	free(s);
	/* Empty frames are "\e"; frames are escaped. */
	s = stack(";a;;");
	ck_assert_str_eq(s, "\\e;a;\\e;\\e");
	free(s);
	s = stack("");
	ck_assert_str_eq(s, "\\e");
	free(s);
	s = stack("a\tb;c\\d");
	ck_assert_str_eq(s, "a\\tb;c\\\\d");
	free(s);
}
END_TEST

START_TEST(test_unit)
{
	static const char *names[] = { "ns", "us", "ms", "s", "count" };
	static const double want[] = { 1e-9, 1e-6, 1e-3, 1, 0.01 };
	enum sst_unit u;
	double sc;
	size_t i;

	for (i = 0; i < 5; i++) {
		u = U_BYTES;
		ck_assert_int_eq(fold_unit(names[i], 0.01, &sc, &u), 0);
		ck_assert(sc == want[i]);
		ck_assert_int_eq(u, U_SECONDS);
	}
	ck_assert_int_eq(fold_unit("none", 0.01, &sc, &u), 0);
	ck_assert(sc == 1);
	ck_assert_int_eq(u, U_NONE);
	/* Unknown: nothing changed. */
	sc = 5;
	u = U_BYTES;
	ck_assert_int_eq(fold_unit("NS", 0.01, &sc, &u), -1);
	ck_assert_int_eq(fold_unit("", 0.01, &sc, &u), -1);
	ck_assert_int_eq(fold_unit("sec", 0.01, &sc, &u), -1);
	ck_assert_int_eq(fold_unit("seconds", 0.01, &sc, &u), -1);
	ck_assert(sc == 5);
	ck_assert_int_eq(u, U_BYTES);
}
END_TEST

START_TEST(test_median)
{
	static const double w1[] = { 3, 1.5, 2 }, w2[] = { 5, 5 };
	static const double w3[] = { -0.0 }, w4[] = { 1e20, 1e16, 1e16 };
	static const double w5[] = { 0.1, 7, 0.2, 9 };
	static const int i1[] = { 1, 0, 1 }, i2[] = { 1, 0 }, i3[] = { 0, 1 };
	static const int i4[] = { 1, 0, 1 }, i5[] = { 0, 1, 0, 1 };

	ck_assert_ptr_null(median(NULL, NULL, 0));
	ck_assert_str_eq(median(w1, i1, 3), "2");
	ck_assert_str_eq(median(w1, i3, 1), "3.0");
	/* Equal weights keep their order: the later line is the median. */
	ck_assert_str_eq(median(w2, i2, 2), "5.0");
	ck_assert_str_eq(median(w2, i3, 2), "5");
	/* int("-0") is 0; large ints in full; floats as repr(). */
	ck_assert_str_eq(median(w3, i1, 1), "0");
	ck_assert_str_eq(median(w3, i3, 1), "-0.0");
	ck_assert_str_eq(median(w4, i4, 3), "10000000000000000");
	ck_assert_str_eq(median(w4, i4, 1), "100000000000000000000");
	ck_assert_str_eq(median(w4 + 1, i4 + 1, 1), "1e+16");
	ck_assert_str_eq(median(w5, i5, 4), "7");
	ck_assert_str_eq(median(w5, i5, 3), "0.2");
}
END_TEST

/*
 * Many weights, in reverse: the arrays grow, the median is by value,
 * the smaller ones before it and the larger after.
 */
START_TEST(test_median_many)
{
	struct fold_meds m = { NULL, 0, 0 };
	char buf[FMTBUF];
	size_t i;

	for (i = 3000; i-- > 0; )
		fold_medadd(&m, (double)i, 1);
	ck_assert_uint_eq(m.n, 3000);
	for (i = 0; i < 3000; i++) {
		ck_assert_uint_eq(m.m[i].i, i);
		ck_assert(m.m[i].w == 2999 - i);
	}
	ck_assert_str_eq(fold_median(&m, buf, sizeof(buf)), "1500");
	for (i = 0; i < 3000; i++)
		ck_assert(i < 1500 ? m.m[i].w < 1500 : m.m[i].w >= 1500);
	free(m.m);
}
END_TEST

/*
 * Many equal weights: Python's sorted() is stable, so the median is
 * the line that an enumeration by value, then by line, puts at n // 2;
 * whether it was an int literal decides "2" or "2.0".  The weights are
 * 1, 2 or 3 by a fixed pseudo-random rule, the int literals every
 * third line, for n from 1 to 400.
 */
START_TEST(test_median_ties)
{
	struct fold_meds m;
	char buf[FMTBUF], want[8];
	size_t n, i, pos;
	double w[400], v;
	int isint[400];

	for (i = 0; i < 400; i++) {
		w[i] = (double)((i * 7919 + i / 5) % 3 + 1);
		isint[i] = i % 3 == 0;
	}
	for (n = 1; n <= 400; n++) {
		memset(&m, 0, sizeof(m));
		for (i = 0; i < n; i++)
			fold_medadd(&m, w[i], isint[i]);
		/* The line at n // 2 of the order by value, then line. */
		pos = 0;
		want[0] = '\0';
		for (v = 1; v <= 3 && want[0] == '\0'; v++)
			for (i = 0; i < n; i++)
				if (w[i] == v && pos++ == n / 2) {
					snprintf(want, sizeof(want), "%d%s",
					    (int)v, isint[i] ? "" : ".0");
					break;
				}
		ck_assert_str_eq(fold_median(&m, buf, sizeof(buf)), want);
		free(m.m);
	}
}
END_TEST

/*
 * Plain text and binary data (a NUL byte: no reader for it, so no
 * sniff_says() message) get the fixed texts; -V's line by hand.
 */
START_TEST(test_notfolded_summary)
{
	struct fold_meds m;
	char msg[256], b[256];
	const char bin[] = { 'a', 'b', '\0', 'c' };

	ck_assert_str_eq(fold_notfolded("hello world\n", 12, msg,
	    sizeof(msg)), "not folded stacks");
	ck_assert_str_eq(fold_notfolded(bin, 4, msg, sizeof(msg)),
	    "this looks like binary data");
	memset(&m, 0, sizeof(m));
	ck_assert_str_eq(fold_summary(&m, "ns", b, sizeof(b)), "0 lines");
	fold_medadd(&m, 7, 1);
	ck_assert_str_eq(fold_summary(&m, "count", b, sizeof(b)),
	    "1 line, median weight 7, unit count");
	fold_medadd(&m, 2.5, 0);
	fold_medadd(&m, 1000, 1);
	ck_assert_str_eq(fold_summary(&m, "ns", b, sizeof(b)),
	    "3 lines, median weight 7, unit ns");
	free(m.m);
}
END_TEST

/*
 * fold_field: a stack that is its own field is itself (no copy), every
 * other one fold_stack's text; the bytes escaped checked at each place
 * of a word of eight bytes and after it, empty frames at either end and
 * inside.  Expected fields written by hand (sst(5) ESCAPES).
 */
START_TEST(test_field)
{
	static const char *plain[] = { "a", "main;run;work_1;leaf_2",
	    "0123456789abcdef;\xc3\xa9t\xc3\xa9", "x;\x80\xff" };
	static const char *esc[][2] = {
		{ "", "\\e" }, { ";a", "\\e;a" }, { "a;", "a;\\e" },
		{ "abcdefgh;;x", "abcdefgh;\\e;x" },
		{ "abcdefg\\h", "abcdefg\\\\h" },
		{ "abcdefgh\tij", "abcdefgh\\tij" },
		{ "abcdefghijklmno\x7f", "abcdefghijklmno\\x7f" },
		{ "\x1f", "\\x1f" }
	};
	struct buf b;
	const char *f;
	size_t i, n;

	buf_init(&b);
	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		f = fold_field(&b, plain[i], strlen(plain[i]), &n);
		ck_assert_ptr_eq(f, plain[i]);
		ck_assert_uint_eq(n, strlen(plain[i]));
	}
	for (i = 0; i < sizeof(esc) / sizeof(esc[0]); i++) {
		f = fold_field(&b, esc[i][0], strlen(esc[i][0]), &n);
		ck_assert_ptr_ne(f, esc[i][0]);
		ck_assert_uint_eq(n, strlen(esc[i][1]));
		ck_assert_mem_eq(f, esc[i][1], n);
	}
	buf_free(&b);
}
END_TEST

/* The first place noted stays. */
START_TEST(test_placeat)
{
	struct fold_place p = { NULL, 0 };

	fold_placeat(&p, "a", 3);
	fold_placeat(&p, "b", 5);
	ck_assert_str_eq(p.name, "a");
	ck_assert_uint_eq(p.line, 3);
}
END_TEST

static Suite *
folded_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("folded");
	tc = tcase_create("core");
	tcase_add_test(tc, test_rstrip);
	tcase_add_test(tc, test_weight);
	tcase_add_test(tc, test_count);
	tcase_add_test(tc, test_strip);
	tcase_add_test(tc, test_stack);
	tcase_add_test(tc, test_unit);
	tcase_add_test(tc, test_median);
	tcase_add_test(tc, test_median_many);
	tcase_add_test(tc, test_median_ties);
	tcase_add_test(tc, test_notfolded_summary);
	tcase_add_test(tc, test_placeat);
	tcase_add_test(tc, test_field);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(folded_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
