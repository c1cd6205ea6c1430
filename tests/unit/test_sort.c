/*
 * test_sort.c: Check suite for the stable index sort (common/base/sort.c).
 * Every result is compared with a plain stable insertion sort (or, for
 * big arrays, with qsort(3) made stable by breaking ties on position).
 */

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "sort.h"

static int	 bykey(size_t, size_t, void *);
static int	 bykeydesc(size_t, size_t, void *);
static void	 isort(size_t *, size_t, sst_cmp, void *);
static int	 bypos(const void *, const void *);
static uint64_t	 rnd(void);
static void	 check_random(size_t, size_t, int);
static Suite	*sort_suite(void);

static uint64_t	 seed = 88172645463325252ULL;
static const int *poskey;	/* for bypos */
static const size_t *posidx;

/* Ascending by ((int *)ctx)[i]. */
static int
bykey(size_t a, size_t b, void *ctx)
{
	const int *k = ctx;

	return k[a] < k[b] ? -1 : k[a] > k[b];
}

/* Descending, as the filters rank by weight. */
static int
bykeydesc(size_t a, size_t b, void *ctx)
{
	return bykey(b, a, ctx);
}

/* The reference: a stable insertion sort. */
static void
isort(size_t *a, size_t n, sst_cmp cmp, void *ctx)
{
	size_t i, j, v;

	for (i = 1; i < n; i++) {
		v = a[i];
		for (j = i; j > 0 && cmp(a[j - 1], v, ctx) > 0; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

/* qsort order of positions: by key of the index there, then position. */
static int
bypos(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c;

	c = bykey(posidx[a], posidx[b], (void *)poskey);
	if (c != 0)
		return c;
	return a < b ? -1 : a > b;
}

/* xorshift64: the same numbers on every run. */
static uint64_t
rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

/*
 * Sort a shuffled index array of n with keys in [0, range) and compare
 * with the reference (insertion sort when small, else qsort).
 */
static void
check_random(size_t n, size_t range, int desc)
{
	size_t *a, *b, *pos, i;
	int *key;
	sst_cmp cmp = desc ? bykeydesc : bykey;

	a = xreallocarray(NULL, n + 1, sizeof(*a));
	b = xreallocarray(NULL, n + 1, sizeof(*b));
	key = xreallocarray(NULL, n + 1, sizeof(*key));
	for (i = 0; i < n; i++) {
		key[i] = (int)(rnd() % range);
		a[i] = i;
	}
	/* A shuffled start, so stability is about positions, not ids. */
	for (i = n; i > 1; i--) {
		size_t j = rnd() % i, t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
	memcpy(b, a, n * sizeof(*a));
	sst_sort(a, n, cmp, key);
	if (n <= 2000 || desc)
		isort(b, n, cmp, key);
	else {
		pos = xreallocarray(NULL, n, sizeof(*pos));
		for (i = 0; i < n; i++)
			pos[i] = i;
		poskey = key;
		posidx = b;
		qsort(pos, n, sizeof(*pos), bypos);
		for (i = 0; i < n; i++)
			pos[i] = b[pos[i]];
		memcpy(b, pos, n * sizeof(*b));
		free(pos);
	}
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			ck_abort_msg("n %zu range %zu: at %zu: %zu, want %zu",
			    n, range, i, a[i], b[i]);
	free(a);
	free(b);
	free(key);
}

START_TEST(test_small)
{
	int key[] = { 5, 3, 5, 1, 3 };
	size_t a[5] = { 0, 1, 2, 3, 4 }, one[1] = { 7 };
	size_t two[2] = { 1, 0 }, twoeq[2] = { 2, 0 };
	size_t want[5] = { 3, 1, 4, 0, 2 }, wantdesc[5] = { 0, 2, 1, 4, 3 };

	sst_sort(NULL, 0, bykey, key);
	sst_sort(one, 1, bykey, key);
	ck_assert_uint_eq(one[0], 7);
	sst_sort(two, 2, bykey, key);
	ck_assert_uint_eq(two[0], 1);
	ck_assert_uint_eq(two[1], 0);
	two[0] = 0;
	two[1] = 1;
	sst_sort(two, 2, bykey, key);
	ck_assert_uint_eq(two[0], 1);
	ck_assert_uint_eq(two[1], 0);
	/* key[2] == key[0]: a tie keeps the given order. */
	sst_sort(twoeq, 2, bykey, key);
	ck_assert_uint_eq(twoeq[0], 2);
	ck_assert_uint_eq(twoeq[1], 0);
	sst_sort(a, 5, bykey, key);
	ck_assert_mem_eq(a, want, sizeof(want));
	a[0] = 0, a[1] = 1, a[2] = 2, a[3] = 3, a[4] = 4;
	sst_sort(a, 5, bykeydesc, key);
	ck_assert_mem_eq(a, wantdesc, sizeof(wantdesc));
}
END_TEST

START_TEST(test_all_equal)
{
	int key[1000];
	size_t a[1000], i;

	for (i = 0; i < 1000; i++) {
		key[i] = 42;
		a[i] = 999 - i;
	}
	sst_sort(a, 1000, bykey, key);
	for (i = 0; i < 1000; i++)
		ck_assert_uint_eq(a[i], 999 - i);
}
END_TEST

START_TEST(test_sorted_and_reversed)
{
	int key[1001], g;
	size_t a[1001], i, k;

	for (i = 0; i < 1001; i++) {
		key[i] = (int)(i / 3);
		a[i] = i;
	}
	sst_sort(a, 1001, bykey, key);
	for (i = 0; i < 1001; i++)
		ck_assert_uint_eq(a[i], i);
	/* Descending keys; each group of ties stays in ascending ids. */
	sst_sort(a, 1001, bykeydesc, key);
	k = 0;
	for (g = 333; g >= 0; g--)
		for (i = 3 * (size_t)g; i < 1001 && i < 3 * (size_t)g + 3; i++)
			ck_assert_uint_eq(a[k++], i);
	ck_assert_uint_eq(k, 1001);
}
END_TEST

START_TEST(test_random_small)
{
	size_t n, r;
	int k;

	for (n = 0; n <= 64; n++)
		for (r = 1; r <= 9; r += 2)
			for (k = 0; k < 20; k++) {
				check_random(n, r, 0);
				check_random(n, r, 1);
			}
}
END_TEST

START_TEST(test_random_medium)
{
	static const size_t sizes[] = { 100, 127, 128, 129, 255, 256, 257,
	    1000, 1999 };
	size_t i, k;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (k = 0; k < 10; k++) {
			check_random(sizes[i], 2, k & 1);
			check_random(sizes[i], 50, k & 1);
			check_random(sizes[i], 1000000, k & 1);
		}
}
END_TEST

START_TEST(test_random_large)
{
	check_random(200000, 10, 0);
	check_random(200000, 5000, 0);
	check_random(131073, 1 << 30, 0);
	check_random(20000, 7, 1);
}
END_TEST

/*
 * sst_cmpi64: qsort(3) with it puts int64_t values in order, by hand:
 * extremes whose difference would overflow an int included.
 */
START_TEST(test_cmpi64)
{
	int64_t v[6] = { 3, INT64_MIN, -1, INT64_MAX, 0, -1 };
	const int64_t want[6] = { INT64_MIN, -1, -1, 0, 3, INT64_MAX };
	int i;

	qsort(v, 6, sizeof(*v), sst_cmpi64);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(v[i], want[i]);
}
END_TEST

static Suite *
sort_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("sort");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_small);
	tcase_add_test(tc, test_all_equal);
	tcase_add_test(tc, test_sorted_and_reversed);
	tcase_add_test(tc, test_random_small);
	tcase_add_test(tc, test_random_medium);
	tcase_add_test(tc, test_random_large);
	tcase_add_test(tc, test_cmpi64);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(sort_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
