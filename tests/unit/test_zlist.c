/*
 * test_zlist.c: Check suite for compressed string lists (common/base/zlist.c).
 * Strings made from their number by a rule read back byte for byte in
 * order, backwards and at random, across many blocks; empty strings,
 * strings longer than a block, adding after reading, and zl_done();
 * lists made one after another through a pool, each reading back its
 * own strings; strings that do not compress, so that their blocks take
 * more than a chunk of the pool and are split between two, or take one
 * of their own, and chunks emptied by a list freed are filled again.
 */

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutil.h"
#include "zlist.h"

static Suite	*zlist_suite(void);

/* String i: "i:" then i % 97 bytes of ('a' + i % 26); i % 50 == 7: "". */
static size_t
mkstr(char *b, size_t i)
{
	size_t n, k;

	if (i % 50 == 7)
		return 0;
	n = (size_t)snprintf(b, 32, "%zu:", i);
	for (k = 0; k < i % 97; k++)
		b[n++] = (char)('a' + i % 26);
	return n;
}

/*
 * Random string i: 1 + i % 200 bytes of a generator seeded by i, or
 * with i >= BIGRND, BIGRND bytes: more than a chunk.
 */
#define BIGRND	(5 << 20)
static size_t
mkrnd(char *b, size_t i)
{
	uint64_t x = i * 0x9e3779b97f4a7c15ULL + 1;
	size_t n, k;

	n = i >= BIGRND ? BIGRND : 1 + i % 200;
	for (k = 0; k < n; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		b[k] = (char)(x >> 32);
	}
	return n;
}

/* A rule: string i made in a buffer, its length returned. */
typedef size_t	(*rule)(char *, size_t);

/* String i of l is string i + off of rule r (made in want). */
static void
checkby(struct zlist *l, rule r, size_t i, size_t off, char *want)
{
	const char *got;
	size_t n, len;

	n = r(want, i + off);
	got = zl_get(l, i, &len);
	ck_assert_uint_eq(len, n);
	ck_assert_int_eq(memcmp(got, want, n), 0);
}

/* A list of strings off .. off + n - 1 of rule r, made in pool p (in b). */
static struct zlist *
mkby(struct zpool *p, rule r, size_t n, size_t off, char *b)
{
	struct zlist *l;
	size_t i;

	l = zl_new(p);
	for (i = 0; i < n; i++)
		zl_add(l, b, r(b, i + off));
	zl_done(l);
	ck_assert_uint_eq(zl_count(l), n);
	return l;
}

/* String i of l is string i + off of the rule. */
static void
checkoff(struct zlist *l, size_t i, size_t off)
{
	char want[160];

	checkby(l, mkstr, i, off, want);
}

static void
check(struct zlist *l, size_t i)
{
	checkoff(l, i, 0);
}

/* A list of strings off .. off + n - 1 of the rule, made in pool p. */
static struct zlist *
mklist(struct zpool *p, size_t n, size_t off)
{
	char b[160];

	return mkby(p, mkstr, n, off, b);
}

START_TEST(test_orders)
{
	struct zlist *l;
	char b[160];
	size_t i, n = 40000, j;

	l = zl_new(NULL);
	for (i = 0; i < n; i++)
		zl_add(l, b, mkstr(b, i));
	zl_done(l);
	ck_assert_uint_eq(zl_count(l), n);
	for (i = 0; i < n; i++)
		check(l, i);
	for (i = n; i-- > 0;)
		check(l, i);
	for (i = 0, j = 12345; i < 2000; i++) {
		j = (j * 1103515245 + 12345) % 2147483648UL;
		check(l, j % n);
	}
	zl_free(l);
}
END_TEST

START_TEST(test_interleaved)
{
	struct zlist *l;
	char b[160];
	size_t i;

	/* Read while adding: the raw block is compressed on demand. */
	l = zl_new(NULL);
	for (i = 0; i < 20000; i++) {
		zl_add(l, b, mkstr(b, i));
		if (i % 3001 == 0)
			check(l, i);
		if (i % 4999 == 0)
			check(l, i / 2);
	}
	zl_flush(l);
	for (i = 20000; i < 20100; i++)
		zl_add(l, b, mkstr(b, i));
	for (i = 0; i < 20100; i++)
		check(l, i);
	zl_free(l);
}
END_TEST

START_TEST(test_long)
{
	struct zlist *l;
	char *big;
	const char *got;
	size_t n = 700000, len, i;

	/* A string longer than a block, between two short ones. */
	big = malloc(n);
	ck_assert_ptr_nonnull(big);
	for (i = 0; i < n; i++)
		big[i] = (char)(i * 7 + i / 1000);
	l = zl_new(NULL);
	zl_add(l, "x", 1);
	zl_add(l, big, n);
	zl_add(l, "yz", 2);
	zl_done(l);
	got = zl_get(l, 1, &len);
	ck_assert_uint_eq(len, n);
	ck_assert_int_eq(memcmp(got, big, n), 0);
	got = zl_get(l, 2, &len);
	ck_assert_uint_eq(len, 2);
	ck_assert_int_eq(memcmp(got, "yz", 2), 0);
	got = zl_get(l, 0, &len);
	ck_assert_uint_eq(len, 1);
	ck_assert_int_eq(got[0], 'x');
	zl_free(l);
	free(big);
}
END_TEST

START_TEST(test_pool)
{
	struct zpool *p;
	struct zlist *a, *b, *c, *d;
	size_t i;

	/*
	 * A small list first: its context, made for a small block, is too
	 * small for the next list's blocks.  Lists read while others are
	 * made and read; a list freed hands its reading context on.
	 */
	p = zp_new();
	a = mklist(p, 100, 500000);
	b = mklist(p, 40000, 100000);
	for (i = 0; i < 100; i++)
		checkoff(a, i, 500000);
	c = mklist(p, 30000, 200000);
	for (i = 0; i < 40000; i += 7)
		checkoff(b, i, 100000);
	for (i = 30000; i-- > 0;)
		checkoff(c, i, 200000);
	zl_free(a);
	zl_free(b);
	d = mklist(p, 50000, 300000);
	for (i = 0; i < 50000; i++)
		checkoff(d, i, 300000);
	for (i = 0; i < 30000; i += 3)
		checkoff(c, i, 200000);
	zl_free(c);
	zl_free(d);
	zp_free(p);
	zp_free(NULL);
}
END_TEST

START_TEST(test_chunks)
{
	struct zpool *p;
	struct zlist *a, *b, *c, *e;
	char *w;
	size_t i;

	/*
	 * a's 3 MB, not compressed much, take a chunk and part of the
	 * next, one of its blocks split between them; e's string of 5 MB
	 * fills the rest of that chunk and one of its own.  Freed, a
	 * leaves its first chunk empty, which c's blocks fill again after
	 * b's.
	 */
	w = malloc(BIGRND);
	ck_assert_ptr_nonnull(w);
	p = zp_new();
	a = mkby(p, mkrnd, 30000, 0, w);
	e = mkby(p, mkrnd, 2, BIGRND - 1, w);
	b = mkby(p, mkrnd, 20000, 100000, w);
	for (i = 30000; i-- > 0;)
		checkby(a, mkrnd, i, 0, w);
	checkby(e, mkrnd, 1, BIGRND - 1, w);
	checkby(e, mkrnd, 0, BIGRND - 1, w);
	zl_free(a);
	c = mkby(p, mkrnd, 40000, 200000, w);
	for (i = 0; i < 20000; i++)
		checkby(b, mkrnd, i, 100000, w);
	for (i = 0; i < 40000; i++)
		checkby(c, mkrnd, i, 200000, w);
	checkby(e, mkrnd, 1, BIGRND - 1, w);
	zl_free(b);
	zl_free(e);
	for (i = 40000; i-- > 0;)
		checkby(c, mkrnd, i, 200000, w);
	zl_free(c);
	zp_free(p);
	free(w);
}
END_TEST

START_TEST(test_empty)
{
	struct zlist *l;

	/* Nothing added: done and freed without a thread. */
	l = zl_new(NULL);
	zl_done(l);
	ck_assert_uint_eq(zl_count(l), 0);
	zl_free(l);
	l = zl_new(NULL);
	zl_free(l);
}
END_TEST

static Suite *
zlist_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("zlist");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_orders);
	tcase_add_test(tc, test_interleaved);
	tcase_add_test(tc, test_long);
	tcase_add_test(tc, test_pool);
	tcase_add_test(tc, test_chunks);
	tcase_add_test(tc, test_empty);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(zlist_suite());
}
