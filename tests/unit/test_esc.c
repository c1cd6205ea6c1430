/*
 * test_esc.c: Check suite for the stream's escaping (common/base/esc.c):
 * what esc_add writes for each byte, that esc_decode undoes it for all
 * 256 byte values, and what esc_valid and esc_scan accept.
 */

#include <check.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "esc.h"

static char	*esc(const char *, size_t);
static char	*dec(const char *, size_t *);
static int	 valid(const char *);
static int	 model(const char *, size_t, size_t *);
static Suite	*esc_suite(void);

/* esc_add of s[0..n) into a fresh string. */
static char *
esc(const char *s, size_t n)
{
	struct buf b;

	buf_init(&b);
	esc_add(&b, s, n);
	return b.data;
}

/* esc_decode of the string s into a fresh buffer; length in *n. */
static char *
dec(const char *s, size_t *n)
{
	char *d;

	d = xmalloc(strlen(s) + 1);
	*n = esc_decode(d, s, strlen(s));
	return d;
}

static int
valid(const char *s)
{
	return esc_valid(s, strlen(s));
}

START_TEST(test_add_specials)
{
	static const struct {
		const char	*in;
		size_t		 n;
		const char	*out;
	} t[] = {
		{ "\\", 1, "\\\\" },
		{ "\t", 1, "\\t" },
		{ "\n", 1, "\\n" },
		{ "\r", 1, "\\r" },
		{ ";", 1, "\\x3b" },
		{ "\x01", 1, "\\x01" },
		{ "\x1f", 1, "\\x1f" },
		{ "\x7f", 1, "\\x7f" },
		{ "\0", 1, "\\x00" },
		{ "\x1b[0m", 4, "\\x1b[0m" },
		{ " ", 1, " " },
		{ "~", 1, "~" },
		{ "", 0, "" },
		{ "plain name", 10, "plain name" },
		{ "a;b\\c\td\ne\rf", 11, "a\\x3bb\\\\c\\td\\ne\\rf" },
		{ "f(x: int) -> None", 17, "f(x: int) -> None" },
		/* UTF-8 and bytes that are not UTF-8 stay as they are. */
		{ "\xc3\xa9t\xc3\xa9", 5, "\xc3\xa9t\xc3\xa9" },
		{ "\xe2\x86\x92", 3, "\xe2\x86\x92" },
		{ "\xf0\x9f\x98\x80", 4, "\xf0\x9f\x98\x80" },
		{ "\x80\xff\xfe\xc3", 4, "\x80\xff\xfe\xc3" },
		{ "\xc3;\xa9", 3, "\xc3\\x3b\xa9" },
	};
	size_t i;
	char *s;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		s = esc(t[i].in, t[i].n);
		ck_assert_msg(strcmp(s, t[i].out) == 0, "case %zu: got \"%s\"",
		    i, s);
		free(s);
	}
}
END_TEST

START_TEST(test_add_appends)
{
	struct buf b;

	buf_init(&b);
	buf_adds(&b, "x;");
	esc_add(&b, "a;b", 3);
	buf_addc(&b, ';');
	esc_add(&b, "c", 1);
	ck_assert_str_eq(b.data, "x;a\\x3bb;c");
	ck_assert_uint_eq(b.len, 10);
	buf_free(&b);
}
END_TEST

/* Every byte value alone and all of them in a row. */
START_TEST(test_add_every_byte)
{
	char in[1], *s, want[8];
	int c;

	for (c = 0; c < 256; c++) {
		in[0] = (char)c;
		s = esc(in, 1);
		if (c == '\\')
			strcpy(want, "\\\\");
		else if (c == '\t')
			strcpy(want, "\\t");
		else if (c == '\n')
			strcpy(want, "\\n");
		else if (c == '\r')
			strcpy(want, "\\r");
		else if (c < 0x20 || c == ';' || c == 0x7f)
			snprintf(want, sizeof(want), "\\x%02x", c);
		else {
			want[0] = (char)c;
			want[1] = '\0';
		}
		ck_assert_msg(strcmp(s, want) == 0, "byte %d: got \"%s\"",
		    c, s);
		ck_assert_int_eq(valid(s), 0);
		free(s);
	}
}
END_TEST

START_TEST(test_roundtrip_all)
{
	char in[256], *e, *d;
	size_t n, i;
	struct buf b;

	for (i = 0; i < 256; i++)
		in[i] = (char)i;
	buf_init(&b);
	esc_add(&b, in, sizeof(in));
	ck_assert_ptr_null(memchr(b.data, '\t', b.len));
	ck_assert_ptr_null(memchr(b.data, '\n', b.len));
	ck_assert_ptr_null(memchr(b.data, ';', b.len));
	ck_assert_int_eq(esc_valid(b.data, b.len), 0);
	d = xmalloc(b.len);
	n = esc_decode(d, b.data, b.len);
	ck_assert_uint_eq(n, 256);
	ck_assert_mem_eq(d, in, 256);
	/* Decoding in place works too. */
	e = xmemdup(b.data, b.len);
	n = esc_decode(e, e, b.len);
	ck_assert_uint_eq(n, 256);
	ck_assert_mem_eq(e, in, 256);
	free(d);
	free(e);
	/* And each pair of bytes, so escapes next to escapes decode. */
	for (i = 0; i < 256 * 256; i += 251) {
		char two[2] = { (char)(i >> 8), (char)(i & 255) };

		buf_reset(&b);
		esc_add(&b, two, 2);
		d = xmalloc(b.len + 1);
		ck_assert_uint_eq(esc_decode(d, b.data, b.len), 2);
		ck_assert_mem_eq(d, two, 2);
		free(d);
	}
	buf_free(&b);
}
END_TEST

START_TEST(test_name)
{
	struct buf b;

	buf_init(&b);
	esc_name(&b, "", 0);
	ck_assert_uint_eq(b.len, 2);
	ck_assert_str_eq(b.data, "\\e");
	buf_addc(&b, ';');
	esc_name(&b, "a;b\t", 4);
	ck_assert_str_eq(b.data, "\\e;a\\x3bb\\t");
	buf_addc(&b, ';');
	esc_name(&b, "xyz", 0);
	ck_assert_str_eq(b.data, "\\e;a\\x3bb\\t;\\e");
	buf_free(&b);
}
END_TEST

START_TEST(test_decode)
{
	static const struct {
		const char	*in;
		const char	*out;
		size_t		 n;
	} t[] = {
		{ "\\e", "", 0 },
		{ "a\\eb", "ab", 2 },
		{ "\\x3b", ";", 1 },
		{ "\\x3B", ";", 1 },
		{ "\\x00", "\0", 1 },
		{ "\\xff\\xFe", "\xff\xfe", 2 },
		{ "\\\\x41", "\\x41", 4 },
		{ "\\t\\n\\r\\\\", "\t\n\r\\", 4 },
		{ "no escapes", "no escapes", 10 },
		{ "", "", 0 },
	};
	size_t i, n;
	char *d;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		d = dec(t[i].in, &n);
		ck_assert_msg(n == t[i].n, "case %zu: length %zu", i, n);
		ck_assert_msg(memcmp(d, t[i].out, n) == 0, "case %zu", i);
		free(d);
	}
}
END_TEST

START_TEST(test_valid)
{
	static const char *ok[] = {
		"", "abc", "\\\\", "\\t", "\\n", "\\r", "\\e", "\\x3b",
		"\\x3B", "\\xff", "\\x00", "a\\x3bb\\\\c", "\xc3\xa9\xff",
		"file.py:12:null:3", "\\e;\\e",
	};
	static const char *bad[] = {
		"\\q", "a\\qb", "\\", "abc\\", "\\x", "\\x4", "\\x4g",
		"\\xg4", "\\x 4", "\\E", "\\T", "\\0", "a\nb", "\r", "\x01",
		"\\\\\\",
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		ck_assert_msg(valid(ok[i]) == 0, "should accept \"%s\"", ok[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(valid(bad[i]) == -1, "should reject case %zu",
		    i);
	/* The length bounds the check: "\x4" cut out of "\x41". */
	ck_assert_int_eq(esc_valid("\\x41", 3), -1);
	ck_assert_int_eq(esc_valid("\\x41", 4), 0);
	ck_assert_int_eq(esc_valid("ab\\t", 3), -1);
	ck_assert_int_eq(esc_valid("\0", 1), -1);
}
END_TEST

/* The plain model of esc_scan(): one byte at a time. */
static int
model(const char *s, size_t n, size_t *semis)
{
	size_t i;

	*semis = 0;
	for (i = 0; i < n; i++) {
		if (s[i] == ';')
			++*semis;
		else if ((unsigned char)s[i] < 0x20)
			return -1;
		else if (s[i] == '\\') {
			if (i + 1 == n)
				return -1;
			if (strchr("\\tnre", s[i + 1]) != NULL)
				i++;
			else if (s[i + 1] == 'x' && i + 3 < n &&
			    isxdigit((unsigned char)s[i + 2]) &&
			    isxdigit((unsigned char)s[i + 3]))
				i += 3;
			else
				return -1;
		}
	}
	return 0;
}

/*
 * esc_scan() against the model, on strings long enough for its 16-byte
 * steps: an odd byte (control, TAB, backslash, ';', a byte of 0x80 or
 * more) at every place of a 40-byte text of letters, digits and ';'.
 */
START_TEST(test_scan)
{
	static const char odd[] = { '\x01', '\t', '\x1f', '\\', ';', ' ',
	    '\x7f', (char)0x80, (char)0xff };
	static const char text[] = "abcdefg;tnrex4f;0123456;\\\\abcde;xyzzyqq;";
	char s[41];
	size_t i, j, want, got;
	int bad;

	ck_assert_uint_eq(sizeof(text), 41);
	for (i = 0; i < sizeof(odd); i++)
		for (j = 0; j < 40; j++) {
			memcpy(s, text, 41);
			s[j] = odd[i];
			bad = model(s, 40, &want);
			got = 999;
			ck_assert_int_eq(esc_scan(s, 40, &got), bad);
			ck_assert_int_eq(esc_valid(s, 40), bad);
			if (bad == 0)
				ck_assert_uint_eq(got, want);
		}
	/* Valid escapes among long plain text keep the count. */
	ck_assert_int_eq(esc_scan("abcdefghijklmnop;\\x3b;\\\\;abcdefghijklm"
	    "nopqrstuvwxyz;", 52, &got), 0);
	ck_assert_uint_eq(got, 4);
	ck_assert_int_eq(esc_scan("", 0, &got), 0);
	ck_assert_uint_eq(got, 0);
	ck_assert_int_eq(esc_scan(";;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;", 33,
	    &got), 0);
	ck_assert_uint_eq(got, 33);
	ck_assert_int_eq(esc_scan("abcdefghijklmnopqrstuvwxyz\\t", 28, NULL),
	    0);
}
END_TEST

static Suite *
esc_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("esc");
	tc = tcase_create("core");
	tcase_add_test(tc, test_add_specials);
	tcase_add_test(tc, test_add_appends);
	tcase_add_test(tc, test_add_every_byte);
	tcase_add_test(tc, test_roundtrip_all);
	tcase_add_test(tc, test_name);
	tcase_add_test(tc, test_decode);
	tcase_add_test(tc, test_valid);
	tcase_add_test(tc, test_scan);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(esc_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
