/*
 * test_htab.c: Check suite for the interning hash table (common/base/htab.c):
 * dense ids in first-seen order, lookups, binary keys, growth and
 * emptying.
 */

#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "htab.h"

static size_t	 intern(struct htab *, const char *, int *);
static void	 keyname(char *, size_t, size_t);
static void	 holds(struct htab *, size_t, size_t);
static void	 fill(struct htab *, size_t, size_t);
static Suite	*htab_suite(void);

static size_t
intern(struct htab *h, const char *s, int *isnew)
{
	return ht_intern(h, s, strlen(s), isnew);
}

/* The i-th key of the big tests: lengths vary from 1 to 40 bytes. */
static void
keyname(char *k, size_t sz, size_t i)
{
	snprintf(k, sz, "%zu/%.*s", i, (int)(i % 31),
	    "abcdefghijklmnopqrstuvwxyz01234");
}

START_TEST(test_empty_table)
{
	struct htab *h;

	h = ht_new();
	ck_assert_uint_eq(ht_count(h), 0);
	ck_assert_uint_eq(ht_find(h, "x", 1), (size_t)-1);
	ck_assert_uint_eq(ht_find(h, "", 0), (size_t)-1);
	ht_free(h);
	ht_free(NULL);
}
END_TEST

START_TEST(test_first_seen)
{
	static const char *keys[] = { "main", "run", "main", "loop",
	    "run", "select", "main", "", "" };
	static const size_t want[] = { 0, 1, 0, 2, 1, 3, 0, 4, 4 };
	static const int wantnew[] = { 1, 1, 0, 1, 0, 1, 0, 1, 0 };
	struct htab *h;
	size_t i, len;
	int isnew;

	h = ht_new();
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		isnew = -1;
		ck_assert_uint_eq(intern(h, keys[i], &isnew), want[i]);
		ck_assert_int_eq(isnew, wantnew[i]);
	}
	ck_assert_uint_eq(ht_count(h), 5);
	ck_assert_str_eq(ht_key(h, 0, &len), "main");
	ck_assert_uint_eq(len, 4);
	ck_assert_str_eq(ht_key(h, 1, &len), "run");
	ck_assert_uint_eq(len, 3);
	ck_assert_str_eq(ht_key(h, 2, NULL), "loop");
	ck_assert_str_eq(ht_key(h, 3, &len), "select");
	ck_assert_uint_eq(len, 6);
	ck_assert_str_eq(ht_key(h, 4, &len), "");
	ck_assert_uint_eq(len, 0);
	ck_assert_uint_eq(ht_find(h, "select", 6), 3);
	ck_assert_uint_eq(ht_find(h, "", 0), 4);
	ck_assert_uint_eq(ht_find(h, "mai", 3), (size_t)-1);
	ck_assert_uint_eq(ht_find(h, "mainx", 5), (size_t)-1);
	ck_assert_uint_eq(ht_find(h, "Main", 4), (size_t)-1);
	/* A NULL isnew is allowed. */
	ck_assert_uint_eq(intern(h, "run", NULL), 1);
	ck_assert_uint_eq(intern(h, "new", NULL), 5);
	ck_assert_uint_eq(ht_count(h), 6);
	ht_free(h);
}
END_TEST

START_TEST(test_empty_key_first)
{
	struct htab *h;
	size_t len = 99;
	int isnew;

	h = ht_new();
	ck_assert_uint_eq(ht_intern(h, "", 0, &isnew), 0);
	ck_assert_int_eq(isnew, 1);
	ck_assert_uint_eq(ht_intern(h, "a", 0, &isnew), 0);
	ck_assert_int_eq(isnew, 0);
	ck_assert_str_eq(ht_key(h, 0, &len), "");
	ck_assert_uint_eq(len, 0);
	ck_assert_uint_eq(intern(h, "a", &isnew), 1);
	ck_assert_uint_eq(ht_find(h, "", 0), 0);
	ht_free(h);
}
END_TEST

START_TEST(test_binary_keys)
{
	static const struct {
		const char	*k;
		size_t		 n;
	} t[] = {
		{ "a", 1 },
		{ "a\0", 2 },
		{ "a\0\0", 3 },
		{ "\0", 1 },
		{ "\0\0", 2 },
		{ "\0a", 2 },
		{ "a\0b", 3 },
		{ "a\0c", 3 },
		{ "\xff\xfe\0\x01", 4 },
		{ "12345678\0", 9 },
		{ "12345678", 8 },
		{ "1234567\0", 8 },
		{ "12345678\0abcdefg\0", 17 },
		{ "12345678\0abcdefg\0\0", 18 },
	};
	struct htab *h;
	size_t i, len, n = sizeof(t) / sizeof(t[0]);
	const char *k;
	int isnew;

	h = ht_new();
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(ht_intern(h, t[i].k, t[i].n, &isnew), i);
		ck_assert_int_eq(isnew, 1);
	}
	ck_assert_uint_eq(ht_count(h), n);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(ht_find(h, t[i].k, t[i].n), i);
		ck_assert_uint_eq(ht_intern(h, t[i].k, t[i].n, &isnew), i);
		ck_assert_int_eq(isnew, 0);
		k = ht_key(h, i, &len);
		ck_assert_uint_eq(len, t[i].n);
		ck_assert_mem_eq(k, t[i].k, len);
		/* Keys are NUL-terminated in the table. */
		ck_assert_int_eq(k[len], '\0');
	}
	ck_assert_uint_eq(ht_count(h), n);
	ht_free(h);
}
END_TEST

/* Arrays of uint32 frame indices, as spd.c interns stacks. */
START_TEST(test_uint32_keys)
{
	struct htab *h;
	uint32_t st[64], v;
	const char *k;
	size_t i, j, len;

	h = ht_new();
	for (i = 0; i < 64; i++) {
		for (j = 0; j < i; j++)
			st[j] = (uint32_t)(j == i - 1 ? 0 : j);
		ck_assert_uint_eq(ht_intern(h, st, i * sizeof(*st), NULL), i);
	}
	for (i = 0; i < 64; i++) {
		/* Keys are not aligned in the arena: copy them out. */
		k = ht_key(h, i, &len);
		ck_assert_uint_eq(len, i * sizeof(*st));
		for (j = 0; j < i; j++) {
			memcpy(&v, k + j * sizeof(v), sizeof(v));
			ck_assert_uint_eq(v, j == i - 1 ? 0 : j);
		}
	}
	ht_free(h);
}
END_TEST

START_TEST(test_many)
{
	struct htab *h;
	size_t i, n = 100000, len;
	char k[64];
	const char *p;
	int isnew;

	h = ht_new();
	for (i = 0; i < n; i++) {
		keyname(k, sizeof(k), i);
		if (intern(h, k, &isnew) != i || isnew != 1)
			ck_abort_msg("key %zu: wrong id or not new", i);
		/* Every tenth key comes back at once; it keeps its id. */
		if (i % 10 == 0 && (intern(h, k, &isnew) != i || isnew != 0))
			ck_abort_msg("key %zu again: wrong id or new", i);
	}
	ck_assert_uint_eq(ht_count(h), n);
	for (i = 0; i < n; i++) {
		keyname(k, sizeof(k), i);
		if (ht_find(h, k, strlen(k)) != i)
			ck_abort_msg("key %zu not found", i);
		p = ht_key(h, i, &len);
		if (len != strlen(k) || memcmp(p, k, len) != 0 ||
		    p[len] != '\0')
			ck_abort_msg("key %zu: ht_key differs", i);
	}
	for (i = n; i < n + 1000; i++) {
		keyname(k, sizeof(k), i);
		if (ht_find(h, k, strlen(k)) != (size_t)-1)
			ck_abort_msg("absent key %zu found", i);
	}
	/* Interning again, in reverse, changes nothing. */
	for (i = n; i-- > 0;) {
		keyname(k, sizeof(k), i);
		if (intern(h, k, &isnew) != i || isnew != 0)
			ck_abort_msg("key %zu again: wrong id or new", i);
	}
	ck_assert_uint_eq(ht_count(h), n);
	ht_free(h);
}
END_TEST

/*
 * Check that h holds keys from..to-1 of keyname() with ids 0, 1, ...
 * and no others of 0..to+1000.
 */
static void
holds(struct htab *h, size_t from, size_t to)
{
	size_t i, len;
	char k[64];
	const char *p;

	ck_assert_uint_eq(ht_count(h), to - from);
	for (i = 0; i < to + 1000; i++) {
		keyname(k, sizeof(k), i);
		if (ht_find(h, k, strlen(k)) != (i >= from && i < to ?
		    i - from : (size_t)-1))
			ck_abort_msg("key %zu: wrong id or found", i);
		if (i < from || i >= to)
			continue;
		p = ht_key(h, i - from, &len);
		if (len != strlen(k) || memcmp(p, k, len) != 0 ||
		    p[len] != '\0')
			ck_abort_msg("key %zu: ht_key differs", i);
	}
}

/* Intern keys from..to-1 of keyname() into h, new ones all. */
static void
fill(struct htab *h, size_t from, size_t to)
{
	size_t i;
	char k[64];
	int isnew;

	for (i = from; i < to; i++) {
		keyname(k, sizeof(k), i);
		if (intern(h, k, &isnew) != i - from || isnew != 1)
			ck_abort_msg("key %zu: wrong id or not new", i);
	}
}

/*
 * An emptied table starts again from id 0 and finds none of its old
 * keys, whether it keeps its slots (a few keys), has them cut down (many
 * keys, then a few: then its arena's pages past them go back too) or
 * grows from there again.
 */
START_TEST(test_clear)
{
	struct htab *h;

	h = ht_new();
	ht_clear(h);
	holds(h, 0, 0);
	fill(h, 0, 10);
	ht_clear(h);
	holds(h, 0, 0);
	fill(h, 5, 30);
	holds(h, 5, 30);
	ht_clear(h);
	fill(h, 0, 300000);
	holds(h, 0, 300000);
	ht_clear(h);
	fill(h, 300000, 300100);
	holds(h, 300000, 300100);
	ht_clear(h);
	holds(h, 0, 0);
	fill(h, 1000, 301000);
	holds(h, 1000, 301000);
	ht_clear(h);
	ck_assert_uint_eq(intern(h, "", NULL), 0);
	ck_assert_uint_eq(intern(h, "x", NULL), 1);
	ck_assert_uint_eq(intern(h, "", NULL), 0);
	ht_free(h);
}
END_TEST

/*
 * xhuge() and xhugegrow(), which the table's arrays use: what was
 * written is kept when an array grows, below HUGEPAGE, across it and
 * above it.
 */
START_TEST(test_huge)
{
	size_t sizes[] = { 1000, 4096, HUGEPAGE - 1, HUGEPAGE + 1,
	    3 * HUGEPAGE + 17 }, i, k, n = 0;
	unsigned char *p;

	p = xhuge(16, 1);
	for (k = 0; k < 16; k++)
		p[k] = (unsigned char)(k * 7);
	n = 16;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		p = xhugegrow(p, n, sizes[i], 1);
		for (k = 0; k < n; k++)
			if (p[k] != (unsigned char)(k * 7))
				ck_abort_msg("byte %zu lost growing to %zu",
				    k, sizes[i]);
		for (; k < sizes[i]; k++)
			p[k] = (unsigned char)(k * 7);
		n = sizes[i];
	}
	free(p);
	p = xhuge(2, HUGEPAGE);
	ck_assert_uint_eq((uintptr_t)p % HUGEPAGE, 0);
	memset(p, 1, 2 * HUGEPAGE);
	free(p);
}
END_TEST

/*
 * The flags of the mapping that holds p (VmFlags of /proc/self/smaps)
 * into fl, its bounds into *lo and *hi; -1 if not found.
 */
static int
vmaof(const void *p, char *fl, size_t n, uintptr_t *lo, uintptr_t *hi)
{
	FILE *f;
	char line[512];
	uintptr_t a, b, u = (uintptr_t)p;
	int in = 0, r = -1;

	if ((f = fopen("/proc/self/smaps", "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "%lx-%lx ", &a, &b) == 2 &&
		    strchr(line, ':') != NULL && line[0] != 'V') {
			if ((in = u >= a && u < b)) {
				*lo = a;
				*hi = b;
			}
		} else if (in && strncmp(line, "VmFlags:", 8) == 0) {
			snprintf(fl, n, "%s", line + 8);
			r = 0;
			break;
		}
	}
	fclose(f);
	return r;
}

static void *
threadblock(void *arg)
{
	(void)arg;
	return malloc(1000);
}

/*
 * heap_huge(): past its first 2 MB, the heap is advised to be in huge
 * pages ("hg" in its flags), and another thread's blocks come from it.
 */
START_TEST(test_heap_huge)
{
#if defined(__GLIBC__) && defined(__linux__)
	char fl[512];
	void *p[64], *t;
	uintptr_t lo, hi, tlo, thi;
	pthread_t th;
	size_t i;
	int r;

	r = heap_huge();
#ifdef __SANITIZE_ADDRESS__
	if (r == -1)
		return;		/* the sanitizer's malloc(3) */
#endif
	if (r == -1 && access("/sys/kernel/mm/transparent_hugepage",
	    F_OK) == -1)
		return;		/* a kernel without huge pages */
	ck_assert_int_eq(r, 0);
	for (i = 0; i < 64; i++)
		p[i] = xmalloc(64 * 1024);
	if (vmaof(p[63], fl, sizeof(fl), &lo, &hi) == -1)
		return;		/* no /proc */
	ck_assert_msg(strstr(fl, " hg") != NULL, "flags:%s", fl);
	ck_assert_int_eq(pthread_create(&th, NULL, threadblock, NULL), 0);
	ck_assert_int_eq(pthread_join(th, &t), 0);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(vmaof(t, fl, sizeof(fl), &tlo, &thi), 0);
	ck_assert_msg(tlo <= (uintptr_t)p[63] + HEAPPAD &&
	    thi >= (uintptr_t)p[0] - HEAPPAD, "a thread's block at %p, "
	    "the heap's at %p", t, p[0]);
	free(t);
	for (i = 0; i < 64; i++)
		free(p[i]);
#endif
}
END_TEST

/*
 * ht_hashto(): the length up to the first c at every place about the
 * 32 and 16-byte steps, and a hash that depends on the bytes up to it,
 * not on what follows nor on how far the buffer goes on; no c, none.
 */
START_TEST(test_hashto)
{
	unsigned char b[300];
	uint64_t h[140], g;
	size_t i, k, len, ends[] = { 0, 1, 31, 32, 33, 100 };

	for (i = 0; i < sizeof(b); i++)
		b[i] = (unsigned char)('a' + i * 7 % 26);
	for (i = 0; i < 140; i++) {
		b[i] = ']';
		b[i + 1] = ']';
		for (k = 0; k < sizeof(ends) / sizeof(ends[0]); k++) {
			g = ht_hashto(b, b + i + 1 + ends[k], ']', &len);
			ck_assert_uint_eq(len, i);
			if (k == 0)
				h[i] = g;
			else
				ck_assert_msg(g == h[i], "%zu bytes, %zu after",
				    i, ends[k]);
		}
		b[i] = (unsigned char)('a' + i * 7 % 26);
		b[i + 1] = (unsigned char)('a' + (i + 1) * 7 % 26);
		for (k = 0; k < i; k++)
			ck_assert_msg(h[k] != h[i], "%zu and %zu bytes", k, i);
	}
	/* One byte changed anywhere changes the hash. */
	b[64] = ']';
	g = ht_hashto(b, b + sizeof(b), ']', &len);
	ck_assert_uint_eq(len, 64);
	for (i = 0; i < 64; i++) {
		b[i] ^= 1;
		ck_assert_uint_ne(ht_hashto(b, b + sizeof(b), ']', &len), g);
		b[i] ^= 1;
	}
	ck_assert_uint_eq(ht_hashto(b, b + sizeof(b), ']', &len), g);
	/* No ']' before the end. */
	ck_assert_uint_eq(ht_hashto(b, b + 64, ']', &len), 0);
	ck_assert_uint_eq(len, SIZE_MAX);
	ck_assert_uint_eq(ht_hashto(b, b, ']', &len), 0);
	ck_assert_uint_eq(len, SIZE_MAX);
}
END_TEST

/* One long key grows the arena past several doublings at once. */
START_TEST(test_long_key)
{
	struct htab *h;
	size_t n = 1 << 20, len;
	char *k;
	const char *p;

	k = xmalloc(n);
	memset(k, 'k', n);
	h = ht_new();
	ck_assert_uint_eq(intern(h, "short", NULL), 0);
	ck_assert_uint_eq(ht_intern(h, k, n, NULL), 1);
	ck_assert_uint_eq(ht_intern(h, k, n - 1, NULL), 2);
	ck_assert_uint_eq(ht_find(h, k, n), 1);
	p = ht_key(h, 1, &len);
	ck_assert_uint_eq(len, n);
	ck_assert_mem_eq(p, k, n);
	ck_assert_str_eq(ht_key(h, 0, NULL), "short");
	ck_assert_uint_eq(ht_find(h, "short", 5), 0);
	ht_free(h);
	free(k);
}
END_TEST

START_TEST(test_hash)
{
	ck_assert_uint_eq(ht_hash("abc", 3), ht_hash("abc", 3));
	ck_assert_uint_ne(ht_hash("abc", 3), ht_hash("abd", 3));
	ck_assert_uint_ne(ht_hash("a", 1), ht_hash("a\0", 2));
	ck_assert_uint_ne(ht_hash("", 0), ht_hash("\0", 1));
	ck_assert_uint_ne(ht_hash("12345678a", 9), ht_hash("12345678b", 9));
}
END_TEST

static Suite *
htab_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("htab");
	tc = tcase_create("core");
	tcase_add_test(tc, test_empty_table);
	tcase_add_test(tc, test_first_seen);
	tcase_add_test(tc, test_empty_key_first);
	tcase_add_test(tc, test_binary_keys);
	tcase_add_test(tc, test_uint32_keys);
	tcase_add_test(tc, test_many);
	tcase_add_test(tc, test_long_key);
	tcase_add_test(tc, test_clear);
	tcase_add_test(tc, test_huge);
	tcase_add_test(tc, test_hashto);
	tcase_add_test(tc, test_heap_huge);
	tcase_add_test(tc, test_hash);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(htab_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
