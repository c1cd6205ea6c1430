/*
 * test_buf.c: Check suite for the growable byte buffer (common/base/buf.c).
 */

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"

static Suite	*buf_suite(void);

START_TEST(test_init)
{
	struct buf b;

	buf_init(&b);
	ck_assert_ptr_nonnull(b.data);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_uint_ge(b.cap, 1);
	ck_assert_int_eq(b.data[0], '\0');
	buf_free(&b);
	ck_assert_ptr_null(b.data);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_uint_eq(b.cap, 0);
}
END_TEST

START_TEST(test_add)
{
	struct buf b;

	buf_init(&b);
	buf_add(&b, "abc", 3);
	ck_assert_uint_eq(b.len, 3);
	ck_assert_str_eq(b.data, "abc");
	buf_add(&b, "", 0);
	ck_assert_uint_eq(b.len, 3);
	ck_assert_str_eq(b.data, "abc");
	/* NUL bytes are data; the terminator still follows them. */
	buf_add(&b, "d\0e", 3);
	ck_assert_uint_eq(b.len, 6);
	ck_assert_mem_eq(b.data, "abcd\0e", 7);
	buf_free(&b);
}
END_TEST

START_TEST(test_addc)
{
	struct buf b;
	int c;

	buf_init(&b);
	for (c = 0; c < 256; c++)
		buf_addc(&b, c);
	ck_assert_uint_eq(b.len, 256);
	for (c = 0; c < 256; c++)
		ck_assert_uint_eq((unsigned char)b.data[c], c);
	ck_assert_int_eq(b.data[256], '\0');
	buf_free(&b);
}
END_TEST

START_TEST(test_adds)
{
	struct buf b;

	buf_init(&b);
	buf_adds(&b, "hello");
	buf_adds(&b, "");
	buf_adds(&b, ", world");
	ck_assert_uint_eq(b.len, 12);
	ck_assert_str_eq(b.data, "hello, world");
	buf_free(&b);
}
END_TEST

START_TEST(test_printf)
{
	struct buf b;
	char big[1000];

	buf_init(&b);
	buf_printf(&b, "%d:%s:%zu", -42, "x", (size_t)7);
	ck_assert_str_eq(b.data, "-42:x:7");
	ck_assert_uint_eq(b.len, 7);
	buf_printf(&b, "%s", "");
	ck_assert_uint_eq(b.len, 7);
	buf_printf(&b, "|%05.1f|", 2.25);
	ck_assert_str_eq(b.data, "-42:x:7|002.2|");
	ck_assert_uint_eq(b.len, 14);
	/* Output longer than the room left makes the buffer grow. */
	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	buf_printf(&b, "<%s>", big);
	ck_assert_uint_eq(b.len, 14 + 1001);
	ck_assert_uint_gt(b.cap, b.len);
	ck_assert_int_eq(b.data[14], '<');
	ck_assert_int_eq(b.data[15], 'q');
	ck_assert_int_eq(b.data[1013], 'q');
	ck_assert_int_eq(b.data[1014], '>');
	ck_assert_int_eq(b.data[1015], '\0');
	ck_assert_uint_eq(strlen(b.data), b.len);
	buf_free(&b);
}
END_TEST

START_TEST(test_reset)
{
	struct buf b;
	size_t cap;

	buf_init(&b);
	buf_adds(&b, "some text that is long enough to need more room "
	    "than the first allocation gives, at least I hope so");
	cap = b.cap;
	buf_reset(&b);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_str_eq(b.data, "");
	ck_assert_uint_eq(b.cap, cap);
	buf_adds(&b, "again");
	ck_assert_str_eq(b.data, "again");
	ck_assert_uint_eq(b.len, 5);
	buf_reset(&b);
	buf_printf(&b, "%s", "x");
	ck_assert_str_eq(b.data, "x");
	buf_free(&b);
}
END_TEST

START_TEST(test_grow)
{
	struct buf b;

	buf_init(&b);
	buf_add(&b, "ab", 2);
	buf_grow(&b, 100000);
	ck_assert_uint_ge(b.cap, 2 + 100000 + 1);
	ck_assert_uint_eq(b.len, 2);
	ck_assert_str_eq(b.data, "ab");
	buf_free(&b);
}
END_TEST

START_TEST(test_many)
{
	struct buf b;
	size_t i, n = 300000;
	char piece[16];
	int k;

	buf_init(&b);
	for (i = 0; i < n; i++) {
		switch (i % 4) {
		case 0:
			buf_addc(&b, 'a' + (int)(i % 26));
			break;
		case 1:
			buf_add(&b, "xyz", 3);
			break;
		case 2:
			buf_adds(&b, "");
			break;
		default:
			buf_printf(&b, "%02zu", i % 100);
			break;
		}
		if (b.data[b.len] != '\0' || b.len >= b.cap)
			ck_abort_msg("append %zu: not terminated", i);
	}
	ck_assert_uint_eq(b.len, n / 4 * (1 + 3 + 0 + 2));
	/* Check every piece in place. */
	for (i = 0, k = 0; i < n; i++) {
		switch (i % 4) {
		case 0:
			piece[0] = (char)('a' + (int)(i % 26));
			piece[1] = '\0';
			break;
		case 1:
			strcpy(piece, "xyz");
			break;
		case 2:
			piece[0] = '\0';
			break;
		default:
			snprintf(piece, sizeof(piece), "%02zu", i % 100);
			break;
		}
		if (memcmp(b.data + k, piece, strlen(piece)) != 0)
			ck_abort_msg("piece %zu differs", i);
		k += (int)strlen(piece);
	}
	ck_assert_uint_eq((size_t)k, b.len);
	ck_assert_uint_eq(strlen(b.data), b.len);
	buf_free(&b);
}
END_TEST

START_TEST(test_big_add)
{
	struct buf b;
	char *p;
	size_t n = 5 << 20, i;

	p = xmalloc(n);
	for (i = 0; i < n; i++)
		p[i] = (char)(i * 7 + 1);
	buf_init(&b);
	buf_addc(&b, '>');
	buf_add(&b, p, n);
	ck_assert_uint_eq(b.len, n + 1);
	ck_assert_int_eq(b.data[0], '>');
	ck_assert_mem_eq(b.data + 1, p, n);
	ck_assert_int_eq(b.data[n + 1], '\0');
	buf_free(&b);
	free(p);
}
END_TEST

static Suite *
buf_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("buf");
	tc = tcase_create("core");
	tcase_add_test(tc, test_init);
	tcase_add_test(tc, test_add);
	tcase_add_test(tc, test_addc);
	tcase_add_test(tc, test_adds);
	tcase_add_test(tc, test_printf);
	tcase_add_test(tc, test_reset);
	tcase_add_test(tc, test_grow);
	tcase_add_test(tc, test_many);
	tcase_add_test(tc, test_big_add);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(buf_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
