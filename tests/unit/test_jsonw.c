/*
 * test_jsonw.c: Check suite for the JSON writer (common/json/jsonw.c):
 * strings as Python's json.dump() escapes them (ensure_ascii), WTF-8
 * surrogates and invalid UTF-8, a round trip of every code point
 * through the reader (common/json/json.c), floats, and the JSON number check.
 */

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "json.h"
#include "jsonw.h"

static char	*str(const char *, size_t);
static char	*flt(const double *, size_t);
static size_t	 put8(char *, long);
static int	 isnum(const char *);
static Suite	*jsonw_suite(void);

/* jsonw_str of s[0..n) into a fresh string. */
static char *
str(const char *s, size_t n)
{
	FILE *fp;
	char *out;
	size_t len;

	ck_assert_ptr_nonnull(fp = open_memstream(&out, &len));
	jsonw_str(fp, s, n);
	ck_assert_int_eq(fclose(fp), 0);
	return out;
}

/* jsonw_float of d[0..n), joined by spaces, into a fresh string. */
static char *
flt(const double *d, size_t n)
{
	FILE *fp;
	char *out;
	size_t i, len;

	ck_assert_ptr_nonnull(fp = open_memstream(&out, &len));
	for (i = 0; i < n; i++) {
		if (i > 0)
			putc(' ', fp);
		jsonw_float(fp, d[i]);
	}
	ck_assert_int_eq(fclose(fp), 0);
	return out;
}

/* Code point cp as UTF-8 (surrogates as WTF-8) at s; returns its length. */
static size_t
put8(char *s, long cp)
{
	unsigned char *p = (unsigned char *)s;

	if (cp < 0x80) {
		p[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		p[0] = (unsigned char)(0xc0 | cp >> 6);
		p[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		p[0] = (unsigned char)(0xe0 | cp >> 12);
		p[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		p[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	p[0] = (unsigned char)(0xf0 | cp >> 18);
	p[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	p[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	p[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

static int
isnum(const char *s)
{
	return jsonw_isnum(s, strlen(s));
}

/* What json.dump() writes for ASCII, control characters included. */
START_TEST(test_str_ascii)
{
	static const struct {
		const char	*in;
		size_t		 n;
		const char	*out;
	} t[] = {
		{ "", 0, "\"\"" },
		{ "abc", 3, "\"abc\"" },
		{ "main (app.py:12)", 16, "\"main (app.py:12)\"" },
		{ "a\"b", 3, "\"a\\\"b\"" },
		{ "a\\b", 3, "\"a\\\\b\"" },
		{ "/", 1, "\"/\"" },
		{ " ~", 2, "\" ~\"" },
		{ "\b\f\n\r\t", 5, "\"\\b\\f\\n\\r\\t\"" },
		{ "\0", 1, "\"\\u0000\"" },
		{ "a\0b", 3, "\"a\\u0000b\"" },
		{ "\001\a\v\033\037", 5,
		    "\"\\u0001\\u0007\\u000b\\u001b\\u001f\"" },
		{ "\177", 1, "\"\\u007f\"" },
		/* Only n bytes count. */
		{ "abcdef", 2, "\"ab\"" },
	};
	size_t i;
	char *s;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		s = str(t[i].in, t[i].n);
		ck_assert_msg(strcmp(s, t[i].out) == 0, "case %zu: got %s, "
		    "want %s", i, s, t[i].out);
		free(s);
	}
}
END_TEST

/*
 * UTF-8 as \u escapes, astral planes as surrogate pairs; WTF-8 lone
 * surrogates as their own escapes; invalid bytes as U+FFFD, one for
 * each maximal start of a sequence (Python's "replace" decoder).
 */
START_TEST(test_str_utf8)
{
	static const struct {
		const char	*in;
		const char	*out;
	} t[] = {
		{ "\xc2\x80", "\\u0080" },
		{ "\xc3\xa9t\xc3\xa9", "\\u00e9t\\u00e9" },
		{ "\xdf\xbf", "\\u07ff" },
		{ "\xe0\xa0\x80", "\\u0800" },
		{ "\xe2\x82\xac", "\\u20ac" },
		{ "\xed\x9f\xbf", "\\ud7ff" },
		{ "\xee\x80\x80", "\\ue000" },
		{ "\xef\xbf\xbd", "\\ufffd" },
		{ "\xef\xbf\xbf", "\\uffff" },
		{ "\xf0\x90\x80\x80", "\\ud800\\udc00" },
		{ "\xf0\x9f\x98\x80", "\\ud83d\\ude00" },
		{ "\xf4\x8f\xbf\xbf", "\\udbff\\udfff" },
		/* WTF-8 surrogates */
		{ "\xed\xa0\x80", "\\ud800" },
		{ "\xed\xaf\xbf", "\\udbff" },
		{ "\xed\xb0\x80", "\\udc00" },
		{ "\xed\xbf\xbf", "\\udfff" },
		{ "\xed\xa0\xbd\xed\xb8\x80", "\\ud83d\\ude00" },
		{ "a\xed\xa0\x80z", "a\\ud800z" },
		/* invalid */
		{ "\x80", "\\ufffd" },
		{ "\xbf", "\\ufffd" },
		{ "a\x80z", "a\\ufffdz" },
		{ "\xc0\x80", "\\ufffd\\ufffd" },
		{ "\xc1\xbf", "\\ufffd\\ufffd" },
		{ "\xc2", "\\ufffd" },
		{ "\xc2z", "\\ufffdz" },
		{ "\xe2\x82", "\\ufffd" },
		{ "\xe2\x82z", "\\ufffdz" },
		{ "\xe0\x80\x80", "\\ufffd\\ufffd\\ufffd" },
		{ "\xe0\x9f\xbf", "\\ufffd\\ufffd\\ufffd" },
		{ "\xed\xa0", "\\ufffd\\ufffd" },
		{ "\xed\xa0z", "\\ufffd\\ufffdz" },
		{ "\xed\xa0\xc3\xa9", "\\ufffd\\ufffd\\u00e9" },
		{ "\xf0\x8f\xbf\xbf", "\\ufffd\\ufffd\\ufffd\\ufffd" },
		{ "\xf0\x9f\x98", "\\ufffd" },
		{ "\xf0\x9f\x98z", "\\ufffdz" },
		{ "\xf4\x90\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd" },
		{ "\xf5\x80", "\\ufffd\\ufffd" },
		{ "\xfe\xff", "\\ufffd\\ufffd" },
	};
	char want[64], *s;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(want, sizeof(want), "\"%s\"", t[i].out);
		s = str(t[i].in, strlen(t[i].in));
		ck_assert_msg(strcmp(s, want) == 0, "case %zu: got %s, want %s",
		    i, s, want);
		free(s);
	}
}
END_TEST

/*
 * Every code point, lone surrogates too (each followed by a space so
 * that none pairs with the next), is written as ASCII and reads back
 * through the JSON reader as the bytes written.
 */
START_TEST(test_str_roundtrip)
{
	struct json *j;
	const char *t;
	char *in, *out;
	size_t n, len, i;
	long cp;

	in = xmalloc(0x110000 * 5);
	for (n = 0, cp = 0; cp < 0x110000; cp++) {
		n += put8(in + n, cp);
		in[n++] = ' ';
	}
	out = str(in, n);
	len = strlen(out);
	for (i = 0; i < len; i++)
		ck_assert_msg(out[i] >= 0x20 && out[i] < 0x7f, "byte %zu: %#x",
		    i, (unsigned char)out[i]);
	j = json_open_mem(out, len, "out");
	ck_assert_int_eq(json_next(j), JT_STR);
	t = json_text(j, &len);
	ck_assert_uint_eq(len, n);
	ck_assert(memcmp(t, in, n) == 0);
	ck_assert_int_eq(json_next(j), JT_EOF);
	json_close(j);
	free(in);
	free(out);
}
END_TEST

START_TEST(test_float)
{
	static const double d[] = { 0.0, 1.0, 0.1, 1e16, 1.0 / 3, -2.5,
	    5e-324 };
	char *s;

	s = flt(d, sizeof(d) / sizeof(d[0]));
	ck_assert_str_eq(s, "0.0 1.0 0.1 1e+16 0.3333333333333333 -2.5 "
	    "5e-324");
	free(s);
	s = flt((const double[]){ NAN, INFINITY, -INFINITY }, 3);
	ck_assert_str_eq(s, "NaN Infinity -Infinity");
	free(s);
}
END_TEST

/* The text kept for a repeated value tells -0.0 from 0.0. */
START_TEST(test_float_repeat)
{
	static const double d[] = { 0.0, 0.0, -0.0, -0.0, 0.0, 0.5, 0.5,
	    INFINITY, 0.5, 1.0, 1.0, -1.0 };
	char *s;

	s = flt(d, sizeof(d) / sizeof(d[0]));
	ck_assert_str_eq(s, "0.0 0.0 -0.0 -0.0 0.0 0.5 0.5 Infinity 0.5 1.0 "
	    "1.0 -1.0");
	free(s);
}
END_TEST

START_TEST(test_isnum)
{
	static const char *ok[] = {
		"0", "-0", "7", "-7", "10", "1234567890", "0.5", "-0.0",
		"1.25", "1e5", "1E5", "1e+5", "1e-05", "-1.5E-300", "0e0",
	};
	static const char *bad[] = {
		"", "-", "+1", "01", "-01", "00", "1.", ".5", "-.5", "1e",
		"1e+", "1E-", "1.e5", "1.5.2", "1e5.0", "--1", " 1", "1 ",
		"0x1", "nan", "NaN", "Infinity", "-Infinity", "null", "1,5",
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		ck_assert_msg(isnum(ok[i]), "rejected \"%s\"", ok[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!isnum(bad[i]), "accepted \"%s\"", bad[i]);
	/* Only n bytes count. */
	ck_assert(jsonw_isnum("12x", 2));
	ck_assert(!jsonw_isnum("12x", 3));
	ck_assert(!jsonw_isnum("1", 0));
}
END_TEST

static Suite *
jsonw_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("jsonw");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_str_ascii);
	tcase_add_test(tc, test_str_utf8);
	tcase_add_test(tc, test_str_roundtrip);
	tcase_add_test(tc, test_float);
	tcase_add_test(tc, test_float_repeat);
	tcase_add_test(tc, test_isnum);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(jsonw_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
