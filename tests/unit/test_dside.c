/*
 * test_dside.c: Check suite for one side of a comparison
 * (common/reduce/dside.c): totals, self and inclusive weights per function
 * (a recursive function counted once per record), folded lines with
 * decoded names, and mixed units.
 */

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "htab.h"
#include "fmt.h"
#include "tally.h"
#include "dside.h"
#include "tutil.h"

static int	 readtext(struct dside *, const char *, int, char *, size_t);
static Suite	*dside_suite(void);

#define S1 \
	"T\t2\t1\tnone\t0.5\tf;g;f\t\n" \
	"T\t1\t4\tnone\t-\tf;x\\x3by\t\n" \
	"U\t0\t0\tnone\t-\t\t\n" \
	"U\t3\t1.5\tnone\t0.5\tg\t\n"

/* dside_read of a temporary file holding s. */
static int
readtext(struct dside *s, const char *text, int incl, char *err, size_t n)
{
	char *path;
	int ret;

	path = tu_tmpfile(text);
	dside_init(s, path);
	ret = dside_read(s, incl, err, n);
	unlink(path);
	free(path);
	return ret;
}

START_TEST(test_leaf)
{
	struct dside s;
	char err[128];

	ck_assert_int_eq(readtext(&s, S1, 0, err, sizeof(err)), 0);
	ck_assert(s.total == 6.5);
	ck_assert_int_eq(s.unit, U_NONE);
	ck_assert_uint_eq(tally_count(&s.fn), 3);
	ck_assert(dside_value(&s.fn, "f", 1) == 1);
	ck_assert(dside_value(&s.fn, "x\\x3by", 6) == 4);
	ck_assert(dside_value(&s.fn, "g", 1) == 1.5);
	ck_assert(dside_value(&s.fn, "q", 1) == 0);
	dside_free(&s);
}
END_TEST

START_TEST(test_inclusive)
{
	struct dside s;
	char err[128];

	ck_assert_int_eq(readtext(&s, S1, 1, err, sizeof(err)), 0);
	/* f is twice on the first stack: its weight counts once. */
	ck_assert(dside_value(&s.fn, "f", 1) == 5);
	ck_assert(dside_value(&s.fn, "g", 1) == 2.5);
	ck_assert(dside_value(&s.fn, "x\\x3by", 6) == 4);
	ck_assert_uint_eq(s.fn.samples[ht_find(s.fn.keys, "f", 1)], 3);
	dside_free(&s);
}
END_TEST

START_TEST(test_fold)
{
	struct dside s;
	char err[128];
	const char *k;
	size_t n;

	ck_assert_int_eq(readtext(&s, S1, 0, err, sizeof(err)), 0);
	ck_assert_uint_eq(tally_count(&s.fold), 3);
	k = ht_key(s.fold.keys, 0, &n);
	ck_assert_str_eq(k, "T;f;g;f");
	k = ht_key(s.fold.keys, 1, &n);
	ck_assert_str_eq(k, "T;f;x:y");
	k = ht_key(s.fold.keys, 2, &n);
	ck_assert_str_eq(k, "U;g");
	ck_assert_uint_eq(s.fold.samples[2], 3);
	dside_free(&s);
}
END_TEST

START_TEST(test_units)
{
	struct dside s;
	char err[256];

	ck_assert_int_eq(readtext(&s, "T\t1\t1\tseconds\t1\ta\t\n"
	    "T\t1\t1\tbytes\t1\ta\t\n", 0, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, ":2: unit bytes, the records "
	    "before are in seconds"));
	dside_free(&s);
}
END_TEST

/* Two sides written as difffolded.pl would, B scaled by 0.5 by hand. */
START_TEST(test_putfolded)
{
	struct dside a, b;
	char err[128], *out;
	size_t len;
	FILE *fp;

	ck_assert_int_eq(readtext(&a, S1, 0, err, sizeof(err)), 0);
	ck_assert_int_eq(readtext(&b, "T\t5\t1\tnone\t-\tf;g;f\t\n"
	    "V\t3\t1\tnone\t-\th\t\n", 0, err, sizeof(err)), 0);
	fp = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(fp);
	dside_putfolded(fp, &a, &b, 0.5);
	fclose(fp);
	ck_assert_str_eq(out, "T;f;g;f 2 2.5\nT;f;x:y 1 0\nU;g 3 0\n"
	    "V;h 0 1.5\n");
	free(out);
	dside_free(&a);
	dside_free(&b);
}
END_TEST

/* Values in their units; -0 prints as 0; the checks' messages. */
START_TEST(test_putval_check)
{
	struct dside s;
	char err[128], *out;
	size_t len;
	FILE *fp;

	fp = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(fp);
	dside_putval(fp, 2.5, U_SECONDS, 1);
	fputc('|', fp);
	dside_putval(fp, -0.0, U_SECONDS, 1);
	fputc('|', fp);
	dside_putval(fp, 1024, U_BYTES, 0);
	fputc('|', fp);
	dside_putval(fp, -3, U_NONE, 1);
	fclose(fp);
	ck_assert_str_eq(out, "+2.500s|+0.000s|1024 B|-3");
	free(out);
	dside_init(&s, "-");
	ck_assert_int_eq(dside_check(&s, "-", 0, err, sizeof(err)), 0);
	ck_assert_int_eq(dside_check(&s, "-", 1, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "--fail-above: <stdin> is empty (a total "
	    "weight of 0): the gate cannot compare it");
	s.total = HUGE_VAL;
	ck_assert_int_eq(dside_check(&s, "a", 0, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "a: the total weight overflows to infinity");
	dside_free(&s);
}
END_TEST

static Suite *
dside_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("dside");
	tc = tcase_create("core");
	tcase_add_test(tc, test_leaf);
	tcase_add_test(tc, test_inclusive);
	tcase_add_test(tc, test_fold);
	tcase_add_test(tc, test_units);
	tcase_add_test(tc, test_putfolded);
	tcase_add_test(tc, test_putval_check);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(dside_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
