/*
 * test_tally.c: Check suite for totals per key (common/reduce/tally.c) and
 * rec_addw() (common/stream/rec.c), which sums their weights: dense ids in
 * first-seen order, zero totals for new keys, Python-exact sums, growth
 * of the arrays, the heaviest-first sorts with ties kept in order
 * (compared with a plain stable insertion sort), and the totals per
 * leaf read from a stream.
 */

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "tally.h"

static struct sst_rec rec(uint64_t, double, int, double);
static size_t	 add(struct tally *, const char *, const struct sst_rec *);
static size_t	 intern(struct tally *, const char *, int *);
static void	 isortw(size_t *, size_t, const double *);
static uint64_t	 rnd(void);
static char	*tmpstream(const char *);
static Suite	*tally_suite(void);

static uint64_t	 seed = 88172645463325252ULL;

/* A record with only what rec_addw and tally_add read. */
static struct sst_rec
rec(uint64_t samples, double weight, int hasperiod, double period)
{
	struct sst_rec r;

	memset(&r, 0, sizeof(r));
	r.samples = samples;
	r.weight = weight;
	r.unit = U_SECONDS;
	r.hasperiod = hasperiod;
	r.period = hasperiod ? period : 0;
	return r;
}

/* tally_add with a NUL-terminated key. */
static size_t
add(struct tally *t, const char *key, const struct sst_rec *r)
{
	return tally_add(t, key, strlen(key), r);
}

/* tally_intern with a NUL-terminated key. */
static size_t
intern(struct tally *t, const char *key, int *isnew)
{
	return tally_intern(t, key, strlen(key), isnew);
}

/* The reference: a stable insertion sort, heaviest first. */
static void
isortw(size_t *a, size_t n, const double *w)
{
	size_t i, j, v;

	for (i = 1; i < n; i++) {
		v = a[i];
		for (j = i; j > 0 && w[a[j - 1]] < w[v]; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

/* xorshift64: reproducible pseudo-random numbers. */
static uint64_t
rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

/* A temporary file holding s; free() the returned path. */
static char *
tmpstream(const char *s)
{
	char *path;
	int fd;

	path = xstrdup("/tmp/test_tally.XXXXXX");
	ck_assert_int_ne(fd = mkstemp(path), -1);
	ck_assert_int_eq(write(fd, s, strlen(s)), (ssize_t)strlen(s));
	close(fd);
	return path;
}

START_TEST(test_addw)
{
	struct sst_rec r;

	/* Without a period the weight is added once. */
	r = rec(3, 0.5, 0, 0);
	ck_assert(rec_addw(0, &r) == 0.5);
	ck_assert(rec_addw(0.25, &r) == 0.75);
	/* With one, the period sample by sample: 0.1 * 10 is not 1. */
	r = rec(10, 1, 1, 0.1);
	ck_assert(rec_addw(0, &r) == 0.9999999999999999);
	r = rec(1000, 1, 1, 0.001);
	ck_assert(rec_addw(0, &r) == 1.0000000000000007);
	/* Left to right from acc: (0.7 + 0.1) + 0.1 + 0.1. */
	r = rec(3, 0.3, 1, 0.1);
	ck_assert(rec_addw(0.7, &r) == ((0.7 + 0.1) + 0.1) + 0.1);
	/* No samples: nothing added, whatever the weight says. */
	r = rec(0, 5, 1, 0.1);
	ck_assert(rec_addw(2, &r) == 2);
}
END_TEST

START_TEST(test_empty)
{
	struct tally t;
	size_t *ix;

	tally_init(&t);
	ck_assert_ptr_nonnull(t.keys);
	ck_assert_uint_eq(tally_count(&t), 0);
	ix = tally_sort(&t);
	ck_assert_ptr_nonnull(ix);
	free(ix);
	tally_free(&t);
	ck_assert_ptr_null(t.keys);
	ck_assert_ptr_null(t.samples);
	ck_assert_ptr_null(t.weight);
	/* A freed tally may be freed again. */
	tally_free(&t);
}
END_TEST

/* Ids are dense and first-seen; a new key starts at zero. */
START_TEST(test_intern)
{
	struct tally t;
	struct sst_rec r;
	int isnew = -1;

	tally_init(&t);
	ck_assert_uint_eq(intern(&t, "b", &isnew), 0);
	ck_assert_int_eq(isnew, 1);
	ck_assert_uint_eq(t.samples[0], 0);
	ck_assert(t.weight[0] == 0);
	ck_assert_uint_eq(intern(&t, "a", &isnew), 1);
	ck_assert_int_eq(isnew, 1);
	ck_assert_uint_eq(intern(&t, "b", &isnew), 0);
	ck_assert_int_eq(isnew, 0);
	/* isnew may be NULL. */
	ck_assert_uint_eq(intern(&t, "c", NULL), 2);
	ck_assert_uint_eq(intern(&t, "a", NULL), 1);
	ck_assert_uint_eq(tally_count(&t), 3);
	/* Interning a known key keeps its totals. */
	r = rec(2, 0.5, 0, 0);
	tally_addid(&t, 1, &r);
	ck_assert_uint_eq(intern(&t, "a", &isnew), 1);
	ck_assert_int_eq(isnew, 0);
	ck_assert_uint_eq(t.samples[1], 2);
	ck_assert(t.weight[1] == 0.5);
	ck_assert_uint_eq(t.samples[0], 0);
	ck_assert_uint_eq(t.samples[2], 0);
	/* Keys are byte strings of the length given, NULs and all. */
	ck_assert_uint_eq(tally_intern(&t, "a\0b", 3, &isnew), 3);
	ck_assert_int_eq(isnew, 1);
	ck_assert_uint_eq(tally_intern(&t, "abc", 1, &isnew), 1);
	ck_assert_int_eq(isnew, 0);
	ck_assert_uint_eq(tally_intern(&t, "", 0, &isnew), 4);
	ck_assert_int_eq(isnew, 1);
	tally_free(&t);
}
END_TEST

/* Samples add up, weights as rec_addw sums them, record by record. */
START_TEST(test_add)
{
	struct tally t;
	struct sst_rec r;
	double w;

	tally_init(&t);
	r = rec(10, 1, 1, 0.1);
	ck_assert_uint_eq(add(&t, "x", &r), 0);
	r = rec(3, 0.3, 1, 0.1);
	ck_assert_uint_eq(add(&t, "y", &r), 1);
	r = rec(2, 1.4, 1, 0.7);
	ck_assert_uint_eq(add(&t, "y", &r), 1);
	r = rec(4, 0.5, 0, 0);
	ck_assert_uint_eq(add(&t, "z", &r), 2);
	r = rec(7, 0.25, 0, 0);
	ck_assert_uint_eq(add(&t, "z", &r), 2);
	tally_addid(&t, 0, &r);
	r = rec(0, 0, 0, 0);
	ck_assert_uint_eq(add(&t, "empty", &r), 3);
	ck_assert_uint_eq(tally_count(&t), 4);
	ck_assert_uint_eq(t.samples[0], 17);
	ck_assert(t.weight[0] == 0.9999999999999999 + 0.25);
	ck_assert_uint_eq(t.samples[1], 5);
	w = 0.1 + 0.1 + 0.1;
	w = w + 0.7 + 0.7;
	ck_assert(t.weight[1] == w);
	ck_assert_uint_eq(t.samples[2], 11);
	ck_assert(t.weight[2] == 0.75);
	ck_assert_uint_eq(t.samples[3], 0);
	ck_assert(t.weight[3] == 0);
	ck_assert_str_eq(ht_key(t.keys, 3, NULL), "empty");
	tally_free(&t);
}
END_TEST

/* The arrays grow with the keys and keep what they held. */
START_TEST(test_grow)
{
	struct tally t;
	struct sst_rec r;
	char key[32];
	size_t i, k, n = 5000;

	tally_init(&t);
	for (k = 0; k < 2; k++)
		for (i = 0; i < n; i++) {
			snprintf(key, sizeof(key), "key %zu", i);
			r = rec(i + 1, (double)i / 4, 0, 0);
			ck_assert_uint_eq(add(&t, key, &r), i);
		}
	ck_assert_uint_eq(tally_count(&t), n);
	ck_assert_uint_ge(t.cap, n);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(t.samples[i], 2 * (i + 1));
		ck_assert(t.weight[i] == (double)i / 2);
	}
	tally_free(&t);
}
END_TEST

/* Heaviest first, ties in id order, the totals untouched. */
START_TEST(test_sort)
{
	static const double w[] = { 1, 3, 0, 3, -1, 1, 2, 0.5, 3 };
	static const size_t want[] = { 1, 3, 8, 6, 0, 5, 7, 2, 4 };
	struct tally t;
	struct sst_rec r;
	char key[8];
	size_t *ix, i, n = sizeof(w) / sizeof(w[0]);

	tally_init(&t);
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "k%zu", i);
		r = rec(1, w[i], 0, 0);
		add(&t, key, &r);
	}
	ix = tally_sort(&t);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(ix[i], want[i]);
	for (i = 0; i < n; i++)
		ck_assert(t.weight[i] == w[i]);
	free(ix);
	tally_free(&t);
}
END_TEST

/* tally_sortw sorts any ids by any weights; ties keep their order. */
START_TEST(test_sortw)
{
	static const double w[] = { 2, 5, 2, 7, 5, 2 };
	size_t ix[] = { 5, 2, 4, 0, 1 }, one[] = { 3 };
	static const size_t want[] = { 4, 1, 5, 2, 0 };
	size_t i;

	tally_sortw(ix, 0, w);
	ck_assert_uint_eq(ix[0], 5);
	tally_sortw(one, 1, w);
	ck_assert_uint_eq(one[0], 3);
	tally_sortw(ix, 5, w);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(ix[i], want[i]);
}
END_TEST

/* Random weights with many ties, against the insertion sort. */
START_TEST(test_sortw_random)
{
	double *w;
	size_t *a, *b, i, n, round;

	for (round = 0; round < 50; round++) {
		n = rnd() % 2000;
		w = xcalloc(n, sizeof(*w));
		a = xcalloc(n, sizeof(*a));
		b = xcalloc(n, sizeof(*b));
		for (i = 0; i < n; i++) {
			w[i] = (double)(rnd() % (round % 10 + 1)) / 10;
			a[i] = b[i] = n - 1 - i;
		}
		tally_sortw(a, n, w);
		isortw(b, n, w);
		for (i = 0; i < n; i++)
			ck_assert_uint_eq(a[i], b[i]);
		free(w);
		free(a);
		free(b);
	}
}
END_TEST

/*
 * Leaves are told apart by name and location entry; records without
 * frames or samples count only in the total; totals go on across
 * inputs.
 */
START_TEST(test_leaves)
{
	struct tally t;
	double total = 0;
	char *a, *b;
	size_t *ix;

	a = tmpstream(
	    "t\t10\t1\tseconds\t0.1\tmain;f\tm.py:1::0;a.py:3::1\n"
	    "t\t2\t0.5\tseconds\t-\tmain;g\tm.py:1::0;a.py:9::2\n"
	    "u\t3\t0.3\tseconds\t0.1\tf\ta.py:3::1\n"
	    "u\t1\t0.25\tseconds\t0.25\tmain;f\tm.py:1::0;b.py:3::3\n"
	    "u\t2\t2\tseconds\t1\t\t\n"
	    "v\t0\t0\tseconds\t-\t\t\n"
	    "v\t0\t0\tseconds\t-\tmain;h\t\n");
	b = tmpstream(
	    "t\t1\t0.5\tseconds\t0.5\tmain;g\tm.py:1::0;a.py:9::2\n"
	    "t\t1\t7\tseconds\t7\tx;\\e\t\n");
	tally_init(&t);
	ck_assert_int_eq(tally_leaves(&t, &total, a, NULL), 0);
	ck_assert_uint_eq(tally_count(&t), 3);
	ck_assert_str_eq(ht_key(t.keys, 0, NULL), "f\ta.py:3::1");
	ck_assert_str_eq(ht_key(t.keys, 1, NULL), "g\ta.py:9::2");
	ck_assert_str_eq(ht_key(t.keys, 2, NULL), "f\tb.py:3::3");
	ck_assert_uint_eq(t.samples[0], 13);
	ck_assert(t.weight[0] == 0.9999999999999999 + 0.1 + 0.1 + 0.1);
	ck_assert_uint_eq(t.samples[1], 2);
	ck_assert(t.weight[1] == 0.5);
	ck_assert_uint_eq(t.samples[2], 1);
	ck_assert(t.weight[2] == 0.25);
	ck_assert(total == 0.9999999999999999 + 0.5 + 0.1 + 0.1 + 0.1 +
	    0.25 + 1 + 1);
	ck_assert_int_eq(tally_leaves(&t, &total, b, NULL), 0);
	ck_assert_uint_eq(tally_count(&t), 4);
	ck_assert_uint_eq(t.samples[1], 3);
	ck_assert(t.weight[1] == 1);
	/* No location field: the key ends with the TAB. */
	ck_assert_str_eq(ht_key(t.keys, 3, NULL), "\\e\t");
	ck_assert(t.weight[3] == 7);
	ix = tally_sort(&t);
	ck_assert_uint_eq(ix[0], 3);
	ck_assert_uint_eq(ix[1], 0);
	ck_assert_uint_eq(ix[2], 1);
	ck_assert_uint_eq(ix[3], 2);
	free(ix);
	tally_free(&t);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
}
END_TEST

/* Totals that would overflow are refused and say why. */
START_TEST(test_overflow)
{
	struct tally t;
	struct sst_rec r;
	size_t id;

	tally_init(&t);
	ck_assert_int_eq(t.unit, -1);
	ck_assert_ptr_null(t.over);
	r = rec(UINT64_MAX - 1, 1, 0, 0);
	id = add(&t, "k", &r);
	ck_assert_ptr_null(t.over);
	r = rec(1, 1, 0, 0);
	ck_assert_int_eq(tally_addid(&t, id, &r), 0);
	ck_assert_uint_eq(t.samples[id], UINT64_MAX);
	ck_assert_int_eq(tally_addid(&t, id, &r), -1);
	ck_assert_str_eq(t.over, "the sample count passes 2^64-1");
	ck_assert_uint_eq(t.samples[id], UINT64_MAX);
	ck_assert(t.weight[id] == 2);
	t.over = NULL;
	r = rec(1, 1.7e308, 1, 1.7e308);
	id = add(&t, "w", &r);
	ck_assert_ptr_null(t.over);
	ck_assert_int_eq(tally_addid(&t, id, &r), -1);
	ck_assert_str_eq(t.over, "the weight overflows to infinity");
	ck_assert(t.weight[id] == 1.7e308);
	ck_assert_uint_eq(t.samples[id], 1);
	tally_free(&t);
}
END_TEST

/* tally_leaves keeps the unit of the records with samples. */
START_TEST(test_leaves_unit)
{
	struct tally t;
	double total = 0;
	char *a;

	a = tmpstream("t\t0\t0\tseconds\t-\t\t\n"
	    "t\t2\t4096\tbytes\t2048\tf\t\n");
	tally_init(&t);
	ck_assert_int_eq(tally_leaves(&t, &total, a, NULL), 0);
	ck_assert_int_eq(t.unit, U_BYTES);
	ck_assert(total == 4096);
	tally_free(&t);
	unlink(a);
	free(a);
}
END_TEST

/*
 * tally_leaves refuses a file it cannot open, a second unit and a total
 * that overflows, with the place and what (rec.c's and tally.c's texts).
 */
START_TEST(test_leaves_errors)
{
	struct tally t;
	struct buf err, want;
	double total = 0;
	char *a;

	buf_init(&err);
	buf_init(&want);
	tally_init(&t);
	ck_assert_int_eq(tally_leaves(&t, &total, "/nonexistent/t.sst", &err),
	    -1);
	ck_assert_str_eq(err.data, "/nonexistent/t.sst: No such file or "
	    "directory");
	a = tmpstream("t\t1\t1\tseconds\t1\tf\t\n"
	    "t\t1\t1\tbytes\t1\tf\t\n");
	ck_assert_int_eq(tally_leaves(&t, &total, a, &err), -1);
	buf_printf(&want, "%s:2: unit bytes after unit seconds: a reducer "
	    "adds weights of one unit only", a);
	ck_assert_str_eq(err.data, want.data);
	unlink(a);
	free(a);
	tally_free(&t);
	tally_init(&t);
	total = 0;
	a = tmpstream("t\t1\t1.7e308\tseconds\t1.7e308\tf\t\n"
	    "t\t1\t1.7e308\tseconds\t1.7e308\tf\t\n");
	ck_assert_int_eq(tally_leaves(&t, &total, a, &err), -1);
	buf_reset(&want);
	buf_printf(&want, "%s:2: the total weight overflows to infinity", a);
	ck_assert_str_eq(err.data, want.data);
	unlink(a);
	free(a);
	tally_free(&t);
	buf_free(&err);
	buf_free(&want);
}
END_TEST

static Suite *
tally_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("tally");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_addw);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_intern);
	tcase_add_test(tc, test_add);
	tcase_add_test(tc, test_grow);
	tcase_add_test(tc, test_sort);
	tcase_add_test(tc, test_sortw);
	tcase_add_test(tc, test_sortw_random);
	tcase_add_test(tc, test_leaves);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_leaves_unit);
	tcase_add_test(tc, test_leaves_errors);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(tally_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
