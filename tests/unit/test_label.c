/*
 * test_label.c: Check suite for the prefixes of threads
 * (common/label.c): a label, a base name up to the first '.', standard
 * input, escaping, and none.
 */

#include <check.h>
#include <stdlib.h>

#include "sst.h"
#include "tutil.h"
#include "label.h"

static const char *prefix(const char *, const char *, int);
static Suite	*label_suite(void);

/* label_prefix into a static buffer. */
static const char *
prefix(const char *path, const char *label, int force)
{
	static struct buf b;
	static int init;

	if (!init) {
		buf_init(&b);
		init = 1;
	}
	buf_reset(&b);
	label_prefix(&b, path, label, force);
	return b.data;
}

START_TEST(test_prefix)
{
	ck_assert_str_eq(prefix("a/b.c/host_12.34.pt.trace.json", NULL, 1),
	    "host_12: ");
	ck_assert_str_eq(prefix("a/b.c/host_12.34.pt.trace.json", NULL, 0),
	    "");
	ck_assert_str_eq(prefix("x.json", "rank 0", 0), "rank 0: ");
	ck_assert_str_eq(prefix("x.json", "r;0", 1), "r\\x3b0: ");
	ck_assert_str_eq(prefix("-", NULL, 1), "stdin: ");
	ck_assert_str_eq(prefix(NULL, NULL, 1), "stdin: ");
	ck_assert_str_eq(prefix("plain", NULL, 1), "plain: ");
	ck_assert_str_eq(prefix("d/x;y\tz.cpuprofile", NULL, 1),
	    "x\\x3by\\tz: ");
	ck_assert_str_eq(prefix(".hidden", NULL, 1), ": ");
}
END_TEST

static Suite *
label_suite(void)
{
	Suite *s = suite_create("label");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_prefix);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(label_suite());
}
