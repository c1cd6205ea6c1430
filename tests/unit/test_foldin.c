/*
 * test_foldin.c: Check suite for the reading of an input of folded
 * stacks (common/formats/foldin.c): its lines given one by one with
 * their numbers, a lone CR ending a line as in Python text files (a CR
 * LF one line end), what each was counted, and an input of text with no
 * stack, whose message names it and says what it is not.  Expected
 * lines and counts are worked out by hand from each input.
 */

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "foldin.h"
#include "tutil.h"

static enum foldin_kind line(void *, const char *, unsigned long long,
		    const char *, size_t);
static Suite	*foldin_suite(void);

/*
 * Keep "N:text|" of each line in the buffer; a line beginning with 'r'
 * is read, with 's' skipped, anything else blank.
 */
static enum foldin_kind
line(void *arg, const char *name, unsigned long long lineno,
    const char *s, size_t n)
{
	struct buf *b = arg;

	(void)name;
	buf_printf(b, "%llu:%.*s|", lineno, (int)n, s);
	if (n > 0 && s[0] == 'r')
		return FOLDIN_READ;
	if (n > 0 && s[0] == 's')
		return FOLDIN_SKIPPED;
	return FOLDIN_BLANK;
}

/* Lines ended by LF, CR LF and a lone CR; the last with no end. */
START_TEST(test_lines)
{
	struct foldin_count c;
	struct buf got, msg;
	char *path;

	buf_init(&got);
	buf_init(&msg);
	path = tu_tmpfile("r1\rs2\r\n\nr4\r\rs6");
	ck_assert_int_eq(foldin_read(path, 0, 1, 1, line, &got, &c, &msg),
	    0);
	ck_assert_str_eq(got.data, "1:r1|2:s2|3:|4:r4|5:|6:s6|");
	ck_assert_uint_eq(c.text, 4);
	ck_assert_uint_eq(c.read, 2);
	ck_assert_uint_eq(c.skipped, 2);
	unlink(path);
	free(path);
	buf_free(&got);
	buf_free(&msg);
}
END_TEST

/* Text and no stack: -1, the message; blank lines alone are no text. */
START_TEST(test_nostack)
{
	struct foldin_count c;
	struct buf got, msg, want;
	char *path;

	buf_init(&got);
	buf_init(&msg);
	buf_init(&want);
	path = tu_tmpfile("s1\ns2\n");
	ck_assert_int_eq(foldin_read(path, 0, 1, 1, line, &got, &c, &msg),
	    -1);
	buf_printf(&want, "%s: no folded stack read: not folded stacks",
	    path);
	ck_assert_str_eq(msg.data, want.data);
	ck_assert_uint_eq(c.text, 2);
	ck_assert_uint_eq(c.read, 0);
	unlink(path);
	free(path);
	path = tu_tmpfile("\n\n");
	ck_assert_int_eq(foldin_read(path, 0, 1, 1, line, &got, &c, &msg),
	    0);
	ck_assert_uint_eq(c.text, 0);
	unlink(path);
	free(path);
	buf_free(&got);
	buf_free(&msg);
	buf_free(&want);
}
END_TEST

static Suite *
foldin_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("foldin");
	tc = tcase_create("core");
	tcase_add_test(tc, test_lines);
	tcase_add_test(tc, test_nostack);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(foldin_suite());
}
