/*
 * test_focus.c: Check suite for pprof's frame filters (common/reduce/focus.c):
 * each operation on records made by hand, names decoded before they are
 * matched, -l on location entries, -v, and a bad expression.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec.h"
#include "buf.h"
#include "focus.h"

static const char *apply(enum focus_op, int, const char *, const char *);
static Suite	*focus_suite(void);

/*
 * The record line s after the filter (op, flags, ere): its stack and
 * locations as "stack|locs", or "drop".
 */
static const char *
apply(enum focus_op op, int flags, const char *ere, const char *s)
{
	static char line[1024], out[1024];
	struct focus *f;
	struct sst_rec r;
	const char *why;
	char msg[128];

	ck_assert_uint_lt(strlen(s), sizeof(line));
	strcpy(line, s);
	ck_assert_int_eq(rec_parse(line, strlen(line), &r, &why), 0);
	ck_assert_ptr_nonnull(f = focus_new(op, ere, flags, msg,
	    sizeof(msg)));
	if (focus_apply(f, &r))
		snprintf(out, sizeof(out), "%.*s|%.*s", (int)r.stacklen,
		    r.stack, (int)r.locslen, r.locs);
	else
		strcpy(out, "drop");
	focus_free(f);
	return out;
}

#define R1	"t\t1\t1\tnone\t1\ta;b;c;b\tA:1::0;B:2::1;C:3::2;B:2::1"
#define R2	"t\t1\t1\tnone\t1\tx\\x3by;\\e;z\t"
#define R0	"t\t0\t0\tnone\t-\t\t"

START_TEST(test_keep_drop)
{
	ck_assert_str_eq(apply(FOCUS_KEEP, 0, "^c$", R1),
	    "a;b;c;b|A:1::0;B:2::1;C:3::2;B:2::1");
	ck_assert_str_eq(apply(FOCUS_KEEP, 0, "^q$", R1), "drop");
	ck_assert_str_eq(apply(FOCUS_KEEP, FOCUS_INV, "^q$", R1),
	    "a;b;c;b|A:1::0;B:2::1;C:3::2;B:2::1");
	ck_assert_str_eq(apply(FOCUS_DROP, 0, "b", R1), "drop");
	ck_assert_str_eq(apply(FOCUS_DROP, FOCUS_INV, "b", R1),
	    "a;b;c;b|A:1::0;B:2::1;C:3::2;B:2::1");
	/* No frame: nothing matches, not even the empty expression. */
	ck_assert_str_eq(apply(FOCUS_KEEP, 0, "", R0), "drop");
	ck_assert_str_eq(apply(FOCUS_DROP, 0, "", R0), "|");
}
END_TEST

START_TEST(test_decoded)
{
	/* x\x3by is "x;y"; \e is the empty name, which ^$ matches. */
	ck_assert_str_eq(apply(FOCUS_KEEP, 0, "^x;y$", R2),
	    "x\\x3by;\\e;z|");
	ck_assert_str_eq(apply(FOCUS_KEEP, 0, "x3b", R2), "drop");
	ck_assert_str_eq(apply(FOCUS_HIDE, 0, "^$", R2), "x\\x3by;z|");
}
END_TEST

START_TEST(test_hide)
{
	ck_assert_str_eq(apply(FOCUS_HIDE, 0, "^b$", R1), "a;c|A:1::0;C:3::2");
	ck_assert_str_eq(apply(FOCUS_HIDE, FOCUS_INV, "^b$", R1),
	    "b;b|B:2::1;B:2::1");
	ck_assert_str_eq(apply(FOCUS_HIDE, 0, ".", R1), "drop");
	ck_assert_str_eq(apply(FOCUS_HIDE, 0, "q", R1),
	    "a;b;c;b|A:1::0;B:2::1;C:3::2;B:2::1");
	ck_assert_str_eq(apply(FOCUS_HIDE, 0, ".", R0), "|");
}
END_TEST

START_TEST(test_prune_from)
{
	ck_assert_str_eq(apply(FOCUS_PRUNE, 0, "^b$", R1),
	    "a;b;c;b|A:1::0;B:2::1;C:3::2;B:2::1");
	ck_assert_str_eq(apply(FOCUS_PRUNE, 0, "^[bc]$|^a$", R1),
	    "a;b;c;b|A:1::0;B:2::1;C:3::2;B:2::1");
	ck_assert_str_eq(apply(FOCUS_PRUNE, 0, "^c$", R1),
	    "a;b;c|A:1::0;B:2::1;C:3::2");
	ck_assert_str_eq(apply(FOCUS_PRUNE, 0, "^a$", R1), "a|A:1::0");
	ck_assert_str_eq(apply(FOCUS_PRUNE, 0, "q", R1),
	    "a;b;c;b|A:1::0;B:2::1;C:3::2;B:2::1");
	ck_assert_str_eq(apply(FOCUS_FROM, 0, "^b$", R1),
	    "b;c;b|B:2::1;C:3::2;B:2::1");
	ck_assert_str_eq(apply(FOCUS_FROM, 0, "^c$", R1), "c;b|C:3::2;B:2::1");
	ck_assert_str_eq(apply(FOCUS_FROM, 0, "q", R1), "drop");
	ck_assert_str_eq(apply(FOCUS_FROM, 0, "z", R2), "z|");
}
END_TEST

START_TEST(test_locations)
{
	ck_assert_str_eq(apply(FOCUS_HIDE, FOCUS_LOC, "^B:", R1),
	    "a;c|A:1::0;C:3::2");
	ck_assert_str_eq(apply(FOCUS_FROM, FOCUS_LOC, ":3:", R1),
	    "c;b|C:3::2;B:2::1");
	/* No locations: every frame's entry is empty. */
	ck_assert_str_eq(apply(FOCUS_KEEP, FOCUS_LOC, "^$", R2),
	    "x\\x3by;\\e;z|");
	ck_assert_str_eq(apply(FOCUS_KEEP, FOCUS_LOC, ".", R2), "drop");
}
END_TEST

START_TEST(test_bad)
{
	char msg[128];

	msg[0] = '\0';
	ck_assert_ptr_null(focus_new(FOCUS_KEEP, "a(", 0, msg, sizeof(msg)));
	ck_assert_str_ne(msg, "");
}
END_TEST

/* focus_run(): a bad expression is status 2, a missing file status 1. */
START_TEST(test_run_errors)
{
	char re[] = "a(", ok[] = "a", nofile[] = "/nonexistent/x.sst";
	char *bad[] = { re }, *missing[] = { ok, nofile };
	struct buf err;
	int st = 0;

	buf_init(&err);
	ck_assert_int_eq(focus_run(FOCUS_KEEP, 0, 1, bad, &err, &st), -1);
	ck_assert_int_eq(st, 2);
	ck_assert(strncmp(err.data, "a(: ", 4) == 0);
	ck_assert_int_eq(focus_run(FOCUS_KEEP, 0, 2, missing, &err, &st),
	    -1);
	ck_assert_int_eq(st, 1);
	ck_assert_str_eq(err.data,
	    "/nonexistent/x.sst: No such file or directory");
	buf_free(&err);
}
END_TEST

static Suite *
focus_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("focus");
	tc = tcase_create("core");
	tcase_add_test(tc, test_keep_drop);
	tcase_add_test(tc, test_decoded);
	tcase_add_test(tc, test_hide);
	tcase_add_test(tc, test_prune_from);
	tcase_add_test(tc, test_locations);
	tcase_add_test(tc, test_bad);
	tcase_add_test(tc, test_run_errors);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(focus_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
