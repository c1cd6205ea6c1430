/*
 * test_i64map.c: Check suite for the integer-keyed hash map and its bit
 * sets (common/base/i64map.c): keys put, found and deleted against a
 * plain array of what should be there, through clusters that wrap
 * around the table's end (the backward shift of im_del()); bit sets of
 * runs and of negative numbers.  Expected values: the reference array
 * (by construction), and bits worked by hand.
 */

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tutil.h"
#include "i64map.h"

static Suite	*i64map_suite(void);

/* Key of index i (0-999) of test_random: 999 is the key kept apart. */
#define KEY(i)	((i) == 999 ? IM_EMPTY : (uint64_t)(i))

/* A few keys by hand: put, find, values kept, delete, find again. */
START_TEST(test_basic)
{
	struct i64map m;
	int64_t *v;
	int isnew;

	im_init(&m);
	ck_assert_ptr_null(im_find(&m, 5));
	ck_assert_int_eq(im_del(&m, 5), -1);
	v = im_put(&m, 5, &isnew);
	ck_assert_int_eq(isnew, 1);
	ck_assert_int_eq(v[0], 0);
	v[0] = 50;
	v[2] = -7;
	v = im_put(&m, 5, &isnew);
	ck_assert_int_eq(isnew, 0);
	ck_assert_int_eq(v[0], 50);
	ck_assert_int_eq(v[2], -7);
	im_put(&m, IM_EMPTY - 1, NULL)[1] = 9;
	ck_assert_int_eq(im_count(&m), 2);
	ck_assert_int_eq(im_find(&m, IM_EMPTY - 1)[1], 9);
	/* The key of empty slots is stored beside them. */
	ck_assert_ptr_null(im_find(&m, IM_EMPTY));
	im_put(&m, IM_EMPTY, &isnew)[0] = 4;
	ck_assert_int_eq(isnew, 1);
	ck_assert_int_eq(im_count(&m), 3);
	ck_assert_int_eq(im_find(&m, IM_EMPTY)[0], 4);
	ck_assert_int_eq(im_del(&m, IM_EMPTY), 0);
	ck_assert_ptr_null(im_find(&m, IM_EMPTY));
	ck_assert_int_eq(im_del(&m, IM_EMPTY), -1);
	im_put(&m, IM_EMPTY, NULL)[0] = 5;
	ck_assert_int_eq(im_del(&m, 5), 0);
	ck_assert_ptr_null(im_find(&m, 5));
	ck_assert_int_eq(im_count(&m), 2);
	im_clear(&m);
	ck_assert_int_eq(im_count(&m), 0);
	ck_assert_ptr_null(im_find(&m, IM_EMPTY - 1));
	ck_assert_ptr_null(im_find(&m, IM_EMPTY));
	im_free(&m);
}
END_TEST

/*
 * 200,000 random puts and deletes of keys 0 to 998 and IM_EMPTY (a table of
 * 1,024 or 2,048 slots: long clusters, wrapping) against an array of
 * which keys are in and their values; then every key looked up, and
 * im_next() visits exactly the keys in.
 */
START_TEST(test_random)
{
	struct i64map m;
	int64_t ref[1000], *v;
	unsigned char in[1000] = { 0 };
	size_t i, n = 0, pos = 0, seen = 0, ki;
	uint64_t k;
	unsigned s = 12345;

	im_init(&m);
	for (i = 0; i < 200000; i++) {
		s = s * 1103515245 + 12345;
		ki = (s >> 8) % 1000;
		k = KEY(ki);
		if ((s >> 20) & 1) {
			if (!in[ki])
				n++;
			in[ki] = 1;
			ref[ki] = (int64_t)i;
			im_put(&m, k, NULL)[1] = (int64_t)i;
		} else {
			ck_assert_int_eq(im_del(&m, k), in[ki] ? 0 : -1);
			if (in[ki])
				n--;
			in[ki] = 0;
		}
		ck_assert_uint_eq(im_count(&m), n);
	}
	for (ki = 0; ki < 1000; ki++) {
		v = im_find(&m, KEY(ki));
		if (in[ki]) {
			ck_assert_ptr_nonnull(v);
			ck_assert_int_eq(v[1], ref[ki]);
		} else
			ck_assert_ptr_null(v);
	}
	while ((v = im_next(&m, &pos, &k)) != NULL) {
		ki = k == IM_EMPTY ? 999 : (size_t)k;
		ck_assert(ki < 1000 && in[ki] && KEY(ki) == k);
		ck_assert_int_eq(v[1], ref[ki]);
		seen++;
	}
	ck_assert_uint_eq(seen, n);
	im_free(&m);
}
END_TEST

/*
 * Bits: 0..9999 set once each (the first time not set before, the
 * second time set): 10,000 numbers in words of 192 take 53 words
 * (10,000 / 192 = 52.1); -1 and INT64_MIN are numbers like others; a
 * number never set tests 0.
 */
START_TEST(test_bits)
{
	struct i64map m;
	int64_t x;

	im_init(&m);
	for (x = 0; x < 10000; x++)
		ck_assert_int_eq(im_bitset(&m, x), 0);
	for (x = 0; x < 10000; x++) {
		ck_assert_int_eq(im_bittest(&m, x), 1);
		ck_assert_int_eq(im_bitset(&m, x), 1);
	}
	ck_assert_uint_eq(im_count(&m), 53);
	ck_assert_int_eq(im_bittest(&m, 10000), 0);
	ck_assert_int_eq(im_bittest(&m, -1), 0);
	ck_assert_int_eq(im_bitset(&m, -1), 0);
	ck_assert_int_eq(im_bitset(&m, -1), 1);
	ck_assert_int_eq(im_bitset(&m, INT64_MIN), 0);
	ck_assert_int_eq(im_bittest(&m, INT64_MIN), 1);
	ck_assert_int_eq(im_bittest(&m, INT64_MIN + 1), 0);
	im_free(&m);
}
END_TEST

static Suite *
i64map_suite(void)
{
	Suite *s = suite_create("i64map");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_basic);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_bits);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(i64map_suite());
}
