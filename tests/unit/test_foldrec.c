/*
 * test_foldrec.c: Check suite for folded-stack records
 * (common/formats/foldrec.c): what a line reads as (blank, malformed, a bad
 * weight, a stack and a weight that may be a count), the record of a
 * line alone, the sums per stack at each scale, the scale the median
 * weight picks, what overflows, and the lines kept one by one.  Every
 * expected number is worked out by hand in the comments.
 */

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutil.h"
#include "foldrec.h"

static enum foldrec_kind parse(struct foldrecs *, const char *,
		    struct foldrec_line *);
static int	 add(struct foldrecs *, const char *);
static const char *get(const struct foldrecs *, size_t, int, int,
		    struct foldrec_rec *);
static double	 repeat(double, int);
static Suite	*foldrec_suite(void);

/* foldrec_parse of a string. */
static enum foldrec_kind
parse(struct foldrecs *fr, const char *s, struct foldrec_line *l)
{
	return foldrec_parse(fr, l, s, strlen(s));
}

/* Parse the line s, which must be well formed, and add it. */
static int
add(struct foldrecs *fr, const char *s)
{
	struct foldrec_line l;

	ck_assert_int_eq(parse(fr, s, &l), FOLDREC_OK);
	return foldrec_add(fr, &l);
}

/* Record i by foldrec_get; its stack in a static buffer. */
static const char *
get(const struct foldrecs *fr, size_t i, int sel, int counting,
    struct foldrec_rec *r)
{
	static char b[256];
	const char *k;
	size_t n;

	k = foldrec_get(fr, i, sel, counting, r, &n);
	ck_assert_uint_lt(n, sizeof(b));
	memcpy(b, k, n);
	b[n] = '\0';
	return b;
}

/* x added to 0 n times, left to right. */
static double
repeat(double x, int n)
{
	double s = 0;

	while (n-- > 0)
		s += x;
	return s;
}

START_TEST(test_parse)
{
	static const double sc[] = { 1 };
	struct foldrecs *fr;
	struct foldrec_line l;
	const char *s;

	fr = foldrec_new(sc, 1, 0);
	ck_assert_int_eq(parse(fr, "", &l), FOLDREC_BLANK);
	ck_assert_int_eq(parse(fr, " \t\r\x1c", &l), FOLDREC_BLANK);
	ck_assert_int_eq(parse(fr, "nospace", &l), FOLDREC_NOSPACE);
	ck_assert_int_eq(parse(fr, "a;b\t5", &l), FOLDREC_NOSPACE);
	/* The trailing space goes before the weight is looked for. */
	ck_assert_int_eq(parse(fr, "a;b ", &l), FOLDREC_NOSPACE);
	ck_assert_int_eq(parse(fr, "a;b x", &l), FOLDREC_BADWEIGHT);
	ck_assert_int_eq(parse(fr, "a;b 1e400", &l), FOLDREC_BADWEIGHT);

	/* A count: offsets go, trailing white space goes. */
	ck_assert_int_eq(parse(fr, "main;f+0x1a;g 42 \r", &l), FOLDREC_OK);
	ck_assert_uint_eq(l.stackn, 8);
	ck_assert_int_eq(memcmp(l.stack, "main;f;g", 8), 0);
	ck_assert(l.w == 42);
	ck_assert_int_eq(l.isint, 1);
	ck_assert_int_eq(l.iscnt, 1);
	ck_assert_uint_eq(l.cnt, 42);
	/* No offset: the stack is the line itself; the last space splits. */
	s = "a b;c 2.5";
	ck_assert_int_eq(parse(fr, s, &l), FOLDREC_OK);
	ck_assert_ptr_eq(l.stack, s);
	ck_assert_uint_eq(l.stackn, 5);
	ck_assert(l.w == 2.5);
	ck_assert_int_eq(l.isint, 0);
	ck_assert_int_eq(l.iscnt, 0);
	ck_assert_uint_eq(l.cnt, 1);
	s = "a  7";
	ck_assert_int_eq(parse(fr, s, &l), FOLDREC_OK);
	ck_assert_uint_eq(l.stackn, 2);
	ck_assert(l.w == 7);
	ck_assert_int_eq(parse(fr, " 5", &l), FOLDREC_OK);
	ck_assert_uint_eq(l.stackn, 0);
	ck_assert(l.w == 5);
	/* An int, but negative: a weight, not a count. */
	ck_assert_int_eq(parse(fr, "a -3", &l), FOLDREC_OK);
	ck_assert(l.w == -3);
	ck_assert_int_eq(l.isint, 1);
	ck_assert_int_eq(l.iscnt, 0);
	ck_assert_uint_eq(l.cnt, 1);
	ck_assert_int_eq(parse(fr, "a +1_000", &l), FOLDREC_OK);
	ck_assert_int_eq(l.iscnt, 1);
	ck_assert_uint_eq(l.cnt, 1000);
	/* 2^64 - 1 is a count, 2^64 passes it. */
	ck_assert_int_eq(parse(fr, "a 18446744073709551615", &l), FOLDREC_OK);
	ck_assert_int_eq(l.iscnt, 1);
	ck_assert_uint_eq(l.cnt, UINT64_MAX);
	ck_assert(l.w == 18446744073709551616.0);
	ck_assert_int_eq(parse(fr, "a 18446744073709551616", &l), FOLDREC_OK);
	ck_assert_int_eq(l.iscnt, -1);
	ck_assert_uint_eq(l.cnt, 1);
	ck_assert_int_eq(l.isint, 1);
	foldrec_free(fr);
}
END_TEST

START_TEST(test_linerec)
{
	struct foldrec_line l = { .w = 10, .isint = 1, .iscnt = 1, .cnt = 10 };
	struct foldrec_rec r;

	/* Ten samples of 0.1 s, summed as Python sums: 0.9999999999999999. */
	foldrec_linerec(&l, 0.1, 1, &r);
	ck_assert_uint_eq(r.samples, 10);
	ck_assert(r.weight == 0.9999999999999999);
	ck_assert_int_eq(r.hasper, 1);
	ck_assert(r.per == 0.1);
	/* Not counting: one sample of 10 * 0.1 = 1. */
	foldrec_linerec(&l, 0.1, 0, &r);
	ck_assert_uint_eq(r.samples, 1);
	ck_assert(r.weight == 1);
	ck_assert_int_eq(r.hasper, 1);
	ck_assert(r.per == 1);
	/* Not a count: one sample, counting or not. */
	l = (struct foldrec_line){ .w = 2.5, .iscnt = 0, .cnt = 1 };
	foldrec_linerec(&l, 0.1, 1, &r);
	ck_assert_uint_eq(r.samples, 1);
	ck_assert(r.weight == 0.25);
	ck_assert_int_eq(r.hasper, 1);
	ck_assert(r.per == 0.25);
}
END_TEST

/* Lines summed per stack, in first-seen order, at both scales. */
START_TEST(test_sums)
{
	static const double sc[] = { 1e-9, 0.1 };
	struct foldrecs *fr;
	struct foldrec_rec r;

	fr = foldrec_new(sc, 2, 0);
	ck_assert_uint_eq(foldrec_count(fr), 0);
	ck_assert_int_eq(add(fr, "a;b 10"), 0);
	ck_assert_int_eq(add(fr, "c 2.5"), 0);
	ck_assert_int_eq(add(fr, "a;b 10"), 0);
	ck_assert_int_eq(add(fr, "m 2"), 0);
	ck_assert_int_eq(add(fr, "a;b+0x10 4"), 0);
	ck_assert_int_eq(add(fr, "m 0.5"), 0);
	ck_assert_uint_eq(foldrec_count(fr), 3);

	/* a;b: 3 lines, counts 10 + 10 + 4 = 24 samples. */
	ck_assert_str_eq(get(fr, 0, 1, 1, &r), "a;b");
	ck_assert_uint_eq(r.samples, 24);
	ck_assert(r.weight == repeat(0.1, 24));
	ck_assert_int_eq(r.hasper, 1);
	ck_assert(r.per == 0.1);
	/* Not counting: 3 samples, 1 + 1 + 0.4, not all equal. */
	ck_assert_str_eq(get(fr, 0, 1, 0, &r), "a;b");
	ck_assert_uint_eq(r.samples, 3);
	ck_assert(r.weight == 10 * 0.1 + 10 * 0.1 + 4 * 0.1);
	ck_assert_int_eq(r.hasper, 0);
	ck_assert(r.per == 1);
	/* In nanoseconds. */
	get(fr, 0, 0, 0, &r);
	ck_assert_uint_eq(r.samples, 3);
	ck_assert(r.weight == 10 * 1e-9 + 10 * 1e-9 + 4 * 1e-9);
	ck_assert_int_eq(r.hasper, 0);
	ck_assert(r.per == 10 * 1e-9);

	/* c: 2.5 is no count, so one sample of 0.25 either way. */
	ck_assert_str_eq(get(fr, 1, 1, 1, &r), "c");
	ck_assert_uint_eq(r.samples, 1);
	ck_assert(r.weight == 0.25);
	ck_assert_int_eq(r.hasper, 1);
	ck_assert(r.per == 0.25);

	/* m: a count of 2 and a float, 3 samples in 2 lines; no period. */
	ck_assert_str_eq(get(fr, 2, 1, 1, &r), "m");
	ck_assert_uint_eq(r.samples, 3);
	ck_assert(r.weight == 2 * 0.1 + 0.5 * 0.1);
	ck_assert_int_eq(r.hasper, 0);
	ck_assert(r.per == 2 * 0.1);
	get(fr, 2, 1, 0, &r);
	ck_assert_uint_eq(r.samples, 2);
	foldrec_free(fr);
	foldrec_free(NULL);
}
END_TEST

/* sorted(weights)[n // 2] > 100000: nanoseconds (0), else counts (1). */
START_TEST(test_pick)
{
	static const double sc[] = { 1e-9, 0.01 };
	struct foldrecs *fr, *one;

	fr = foldrec_new(sc, 2, 0);
	ck_assert_int_eq(foldrec_pick(fr), 0);
	add(fr, "a 200000");
	add(fr, "a 100000");
	add(fr, "b 100001");
	/* [100000, 100001, 200000][1] = 100001 */
	ck_assert_int_eq(foldrec_pick(fr), 0);
	add(fr, "c 5");
	/* [5, 100000, 100001, 200000][2] = 100001 */
	ck_assert_int_eq(foldrec_pick(fr), 0);
	add(fr, "c 1");
	/* [1, 5, 100000, 100001, 200000][2] = 100000 */
	ck_assert_int_eq(foldrec_pick(fr), 1);
	foldrec_free(fr);

	/* One scale: that one, whatever the weights. */
	one = foldrec_new(sc + 1, 1, 0);
	add(one, "a 1");
	ck_assert_int_eq(foldrec_pick(one), 0);
	foldrec_free(one);
}
END_TEST

/* Counts past 2^64 - 1 and sums past the largest double. */
START_TEST(test_overflow)
{
	static const double sc[] = { 1e-9, 1 };
	struct foldrecs *fr;
	struct foldrec_rec r;

	fr = foldrec_new(sc, 2, 0);
	ck_assert_int_eq(add(fr, "a 18446744073709551615"), 0);
	/* The sum of the counts passes 2^64 - 1 and stays as it was. */
	ck_assert_int_eq(add(fr, "a 1"), FOLDREC_BIGCNT);
	get(fr, 0, 1, 1, &r);
	ck_assert_uint_eq(r.samples, UINT64_MAX);
	/* Ones summed as Python sums them stop at 2^53 (2^53 + 1 ties). */
	ck_assert(r.weight == 9007199254740992.0);
	/* A count too big for a line. */
	ck_assert_int_eq(add(fr, "b 18446744073709551616"), FOLDREC_BIGCNT);
	/* 2 * 1e308 is inf at scale 1, not at scale 1e-9. */
	ck_assert_int_eq(add(fr, "c 1e308"), 0);
	ck_assert_int_eq(add(fr, "c 1e308"), FOLDREC_INF(1));
	ck_assert_int_eq(add(fr, "c 1e308"), FOLDREC_INF(1));
	get(fr, 2, 0, 0, &r);
	ck_assert(r.weight == 1e308 * 1e-9 + 1e308 * 1e-9 + 1e308 * 1e-9);
	foldrec_free(fr);
}
END_TEST

/* With each, every line is a record of its own, in line order. */
START_TEST(test_each)
{
	static const double sc[] = { 1e-9, 0.5 };
	struct foldrecs *fr;
	struct foldrec_rec r;

	fr = foldrec_new(sc, 2, 1);
	ck_assert_int_eq(add(fr, "a;b 3"), 0);
	ck_assert_int_eq(add(fr, "c 0.5"), 0);
	ck_assert_int_eq(add(fr, "a;b+0xff 3"), 0);
	ck_assert_int_eq(add(fr, "d 18446744073709551616"), FOLDREC_BIGCNT);
	ck_assert_uint_eq(foldrec_count(fr), 4);
	/* Weights 3, 0.5, 3, 1.8e19: the median, [2] of them, is 3. */
	ck_assert_int_eq(foldrec_pick(fr), 1);
	ck_assert_str_eq(get(fr, 0, 1, 1, &r), "a;b");
	ck_assert_uint_eq(r.samples, 3);
	ck_assert(r.weight == 1.5);
	ck_assert(r.per == 0.5);
	ck_assert_int_eq(r.hasper, 1);
	ck_assert_str_eq(get(fr, 1, 1, 1, &r), "c");
	ck_assert_uint_eq(r.samples, 1);
	ck_assert(r.weight == 0.25);
	ck_assert(r.per == 0.25);
	ck_assert_str_eq(get(fr, 2, 0, 0, &r), "a;b");
	ck_assert_uint_eq(r.samples, 1);
	ck_assert(r.weight == 3 * 1e-9);
	ck_assert(r.per == 3 * 1e-9);
	ck_assert_str_eq(get(fr, 3, 1, 1, &r), "d");
	ck_assert_uint_eq(r.samples, 1);
	ck_assert(r.weight == 18446744073709551616.0 * 0.5);
	foldrec_free(fr);
}
END_TEST

/* The scales: ns and 1/99 s by default, one for -u, none for a typo. */
START_TEST(test_scales)
{
	double sc[FOLDREC_NSMAX];
	enum sst_unit u;
	int uc;

	ck_assert_int_eq(foldrec_scales(NULL, 99, sc, &uc, &u), 2);
	ck_assert(sc[0] == 1e-9 && sc[1] == 1.0 / 99);
	ck_assert_int_eq(uc, 0);
	ck_assert_int_eq(u, U_SECONDS);
	ck_assert_int_eq(foldrec_scales("count", 100, sc, &uc, &u), 1);
	ck_assert_int_eq(uc, 1);
	ck_assert_int_eq(foldrec_scales("ns", 100, sc, &uc, &u), 1);
	ck_assert_int_eq(uc, 0);
	ck_assert(sc[0] == 1e-9);
	ck_assert_int_eq(foldrec_scales("parsecs", 100, sc, &uc, &u), -1);
}
END_TEST

/* The thread is the first frame, or the buffer as given (-L). */
START_TEST(test_put)
{
	struct foldrec_rec r = { 3, 0.5, 0, 0 };
	struct buf th, st;
	char *out;
	size_t len;
	FILE *fp;

	buf_init(&th);
	buf_init(&st);
	fp = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(fp);
	foldrec_put(fp, &th, &st, 1, "main;f;g", 8, &r, U_NONE);
	buf_reset(&th);
	buf_add(&th, "L", 1);
	foldrec_put(fp, &th, &st, 0, "x", 1, &r, U_NONE);
	fclose(fp);
	ck_assert_str_eq(out, "main\t3\t0.5\tnone\t-\tmain;f;g\t\n"
	    "L\t3\t0.5\tnone\t-\tx\t\n");
	free(out);
	buf_free(&th);
	buf_free(&st);
}
END_TEST

/*
 * foldrec_make: the record foldrec_put writes, as fields; foldrec_note:
 * lines counted for the pick alone (2 of 3 weigh at most 100000, so
 * the median picks counts), the table holding no record of them.
 */
START_TEST(test_make_note)
{
	static const double sc[] = { 1e-9, 0.01 };
	struct foldrec_rec r = { 1, 0.25, 1, 0.25 };
	struct foldrec_line l;
	struct foldrecs *fr;
	struct sst_rec s;
	struct buf th, st;

	buf_init(&th);
	buf_init(&st);
	foldrec_make(&th, &st, 1, "t;a b", 5, &r, U_SECONDS, &s);
	ck_assert_mem_eq(s.thread, "t", 1);
	ck_assert_uint_eq(s.threadlen, 1);
	ck_assert_mem_eq(s.stack, "t;a b", 5);
	ck_assert_uint_eq(s.stacklen, 5);
	ck_assert_uint_eq(s.samples, 1);
	ck_assert(s.weight == 0.25 && s.hasperiod && s.period == 0.25);
	ck_assert_str_eq(s.locs, "");
	fr = foldrec_new(sc, 2, 1);
	ck_assert_int_eq(parse(fr, "a 5", &l), FOLDREC_OK);
	foldrec_note(fr, &l);
	ck_assert_int_eq(parse(fr, "a 200000", &l), FOLDREC_OK);
	foldrec_note(fr, &l);
	ck_assert_int_eq(parse(fr, "a 100000", &l), FOLDREC_OK);
	foldrec_note(fr, &l);
	ck_assert_int_eq(foldrec_pick(fr), 1);
	foldrec_free(fr);
	buf_free(&th);
	buf_free(&st);
}
END_TEST

static Suite *
foldrec_suite(void)
{
	Suite *s = suite_create("foldrec");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_linerec);
	tcase_add_test(tc, test_sums);
	tcase_add_test(tc, test_pick);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_each);
	tcase_add_test(tc, test_scales);
	tcase_add_test(tc, test_put);
	tcase_add_test(tc, test_make_note);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(foldrec_suite());
}
