/*
 * test_label.c: Check suite for the prefixes of threads
 * (common/reduce/label.c): a label, a base name up to the first '.' after its
 * first character, standard input, escaping, and none; the one rule of
 * trace2sst, cpuprofile2sst and nsys2sst; and the loop over the files.
 */

#include <check.h>
#include <stdlib.h>

#include "buf.h"
#include "tutil.h"
#include "label.h"

static const char *prefix(const char *, const char *, int);
static const char *base(const char *);
static void	 conv(const char *, const char *, int, int,
		    const struct label_run *);
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

/* label_base into a static buffer, as a string. */
static const char *
base(const char *path)
{
	static struct buf b;
	static int init;

	if (!init) {
		buf_init(&b);
		init = 1;
	}
	buf_reset(&b);
	label_base(&b, path);
	buf_addc(&b, '\0');
	return b.data;
}

/* The calls label_each() makes, one line each. */
static struct buf calls;

static void
conv(const char *path, const char *label, int force, int s,
    const struct label_run *run)
{
	buf_printf(&calls, "%s %s %d %d %d %zu/%zu\n", path,
	    label != NULL ? label : "-", force, s, run->progress, run->nth,
	    run->nfiles);
}

/*
 * The edge cases of the one rule: directories go, the name stops at the
 * first '.' after its first character, so that a name starting with
 * '.' keeps it and one that is only "." stays; standard input is
 * "stdin"; an empty name (a path ending in '/') stays empty.
 */
START_TEST(test_base)
{
	ck_assert_str_eq(base("a/b.c/host_12.34.pt.trace.json"), "host_12");
	ck_assert_str_eq(base("plain"), "plain");
	ck_assert_str_eq(base("x."), "x");
	ck_assert_str_eq(base(".hidden"), ".hidden");
	ck_assert_str_eq(base("d/.x.json"), ".x");
	ck_assert_str_eq(base("."), ".");
	ck_assert_str_eq(base(".."), ".");
	ck_assert_str_eq(base("dir/"), "");
	ck_assert_str_eq(base("/"), "");
	ck_assert_str_eq(base("-"), "stdin");
	ck_assert_str_eq(base(NULL), "stdin");
	ck_assert_str_eq(base("./-"), "-");	/* a file named "-" */
	ck_assert_str_eq(base("x;y.json"), "x;y");	/* raw: not escaped */
}
END_TEST

/*
 * label_each(): standard input alone when no file is given, force from
 * two files up, the files counted from 1.
 */
START_TEST(test_each)
{
	struct label_run run = { 1, 0, 0 };
	char *two[] = { "a.json", "b.json" }, *one[] = { "c" };

	buf_init(&calls);
	label_each(0, NULL, NULL, 0, 1, &run, conv);
	ck_assert_str_eq(calls.data, "- - 0 1 1 0/0\n");
	buf_reset(&calls);
	run.nth = 0;
	label_each(1, one, "L", 0, 0, &run, conv);
	ck_assert_str_eq(calls.data, "c L 0 0 1 1/1\n");
	buf_reset(&calls);
	run.nth = 0;
	label_each(2, two, NULL, 0, 0, &run, conv);
	ck_assert_str_eq(calls.data, "a.json - 1 0 1 1/2\n"
	    "b.json - 1 0 1 2/2\n");
	buf_free(&calls);
}
END_TEST

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
	/* No longer ": ", an empty base name (issue 36, item 6). */
	ck_assert_str_eq(prefix(".hidden", NULL, 1), ".hidden: ");
}
END_TEST

static Suite *
label_suite(void)
{
	Suite *s = suite_create("label");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_base);
	tcase_add_test(tc, test_each);
	tcase_add_test(tc, test_prefix);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(label_suite());
}
