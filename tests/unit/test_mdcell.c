/*
 * test_mdcell.c: Check suite for the cells of Markdown tables
 * (common/base/mdcell.c), hand-worked: code points counted in ASCII,
 * two-, three- and four-byte UTF-8; the shapes that look like numbers
 * (thousands groups of three, a decimal part, the suffixes %, s, ms,
 * ns, µs and " B") and near misses that do not; cells made safe: '|'
 * escaped, the backslashes before it doubled, controls and DEL as
 * spaces, other bytes as they are.
 */

#include <check.h>
#include <string.h>

#include "tutil.h"
#include "buf.h"
#include "mdcell.h"

static Suite	*mdcell_suite(void);

/* md_isnumeric of a NUL-terminated string. */
static int
num(const char *s)
{
	return md_isnumeric(s, strlen(s));
}

START_TEST(test_cplen)
{
	ck_assert_uint_eq(md_cplen("", 0), 0);
	ck_assert_uint_eq(md_cplen("abc", 3), 3);
	/* é is c3 a9: one code point of two bytes */
	ck_assert_uint_eq(md_cplen("caf\xc3\xa9", 5), 4);
	/* µ (c2 b5) s, € (e2 82 ac), 😀 (f0 9f 98 80) */
	ck_assert_uint_eq(md_cplen("\xc2\xb5s", 3), 2);
	ck_assert_uint_eq(md_cplen("\xe2\x82\xac", 3), 1);
	ck_assert_uint_eq(md_cplen("a\xf0\x9f\x98\x80" "b", 6), 3);
	/* only the first n bytes count */
	ck_assert_uint_eq(md_cplen("abcdef", 2), 2);
}
END_TEST

START_TEST(test_numeric)
{
	ck_assert(num("0"));
	ck_assert(num("1,234"));
	ck_assert(num("1,234,567.89"));
	ck_assert(num("-12.5%"));
	ck_assert(num("0.37s"));
	ck_assert(num("12.0ms"));
	ck_assert(num("7ns"));
	ck_assert(num("3\xc2\xb5s"));
	ck_assert(num("4,096 B"));
	ck_assert(num("123"));
	ck_assert(num("1234"));		/* no groups at all is fine */
}
END_TEST

START_TEST(test_notnumeric)
{
	ck_assert(!num(""));
	ck_assert(!num("-"));
	ck_assert(!num("abc"));
	ck_assert(!num("1234,567"));	/* a first group over three */
	ck_assert(!num("1,23"));	/* a group of two */
	ck_assert(!num("1,2345"));	/* a group of four */
	ck_assert(!num("1."));		/* no digits after the point */
	ck_assert(!num(".5"));		/* none before it */
	ck_assert(!num("+1"));
	ck_assert(!num("1e3"));
	ck_assert(!num("12 s"));	/* a space only before B */
	ck_assert(!num("12B"));
	ck_assert(!num("%"));
	ck_assert(!num("ms"));
	ck_assert(!num("1%%"));
	ck_assert(!num("1.2.3"));
}
END_TEST

/* md_cell of s as a NUL-terminated string in b. */
static const char *
cell(struct buf *b, const char *s, size_t n)
{
	buf_reset(b);
	md_cell(b, s, n);
	buf_addc(b, '\0');
	return b->data;
}

START_TEST(test_cell)
{
	struct buf b;

	buf_init(&b);
	ck_assert_str_eq(cell(&b, "plain", 5), "plain");
	ck_assert_str_eq(cell(&b, "a|b", 3), "a\\|b");
	/* a\|b: the backslash before '|' doubled, then \| */
	ck_assert_str_eq(cell(&b, "a\\|b", 4), "a\\\\\\|b");
	/* a backslash not before '|' stays one */
	ck_assert_str_eq(cell(&b, "a\\b|", 4), "a\\b\\|");
	/* TAB, newline, CR, 0x01 and DEL as spaces; a NUL too */
	ck_assert_str_eq(cell(&b, "a\tb\nc\rd\x01" "e\x7f", 10),
	    "a b c d e ");
	ck_assert_uint_eq(strlen(cell(&b, "x\0y", 3)), 3);
	ck_assert_str_eq(cell(&b, "x\0y", 3), "x y");
	/* bytes of 0x80 and up as they are */
	ck_assert_str_eq(cell(&b, "caf\xc3\xa9", 5), "caf\xc3\xa9");
	buf_free(&b);
}
END_TEST

static Suite *
mdcell_suite(void)
{
	Suite *s = suite_create("mdcell");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_cplen);
	tcase_add_test(tc, test_numeric);
	tcase_add_test(tc, test_notnumeric);
	tcase_add_test(tc, test_cell);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(mdcell_suite());
}
