/*
 * test_seqtab.c: Check suite for the table of sequences of ids
 * (common/base/seqtab.c).  By hand: ids in first-seen order, the empty
 * sequence, the varints' bytes (1 below 128, 2 below 16,384, 5 for
 * UINT32_MAX); then many distinct sequences (past several growths of
 * the table) and repeated ones, each given back, against a plain model.
 */

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "seqtab.h"
#include "tutil.h"

static Suite	*seqtab_suite(void);

START_TEST(test_hand)
{
	static const uint32_t a[] = { 1, 2, 3 }, b[] = { 127, 128, 16383,
	    16384, UINT32_MAX }, c[] = { 1, 2 };
	struct seqtab *t;
	const unsigned char *p, *e;
	uint32_t *v = NULL;
	size_t cap = 0, n;

	t = seq_new();
	ck_assert_uint_eq(seq_intern(t, a, 3), 0);
	ck_assert_uint_eq(seq_intern(t, b, 5), 1);
	ck_assert_uint_eq(seq_intern(t, c, 2), 2);
	ck_assert_uint_eq(seq_intern(t, NULL, 0), 3);
	ck_assert_uint_eq(seq_intern(t, a, 3), 0);
	ck_assert_uint_eq(seq_intern(t, c, 2), 2);
	ck_assert_uint_eq(seq_intern(t, a, 2), 2);	/* a prefix is c */
	ck_assert_uint_eq(seq_intern(t, NULL, 0), 3);
	ck_assert_uint_eq(seq_count(t), 4);
	/* 1 + 2 + 2 + 3 + 5 bytes. */
	p = seq_bytes(t, 1, &e);
	ck_assert_uint_eq((size_t)(e - p), 13);
	ck_assert_uint_eq(p[0], 127);
	ck_assert_uint_eq(p[1], 0x80);
	ck_assert_uint_eq(p[2], 1);
	ck_assert_uint_eq(seq_next(&p), 127);
	ck_assert_uint_eq(seq_next(&p), 128);
	ck_assert_uint_eq(seq_next(&p), 16383);
	ck_assert_uint_eq(seq_next(&p), 16384);
	ck_assert_uint_eq(seq_next(&p), UINT32_MAX);
	ck_assert_ptr_eq(p, e);
	n = seq_get(t, 0, &v, &cap);
	ck_assert_uint_eq(n, 3);
	ck_assert_mem_eq(v, a, sizeof(a));
	ck_assert_uint_eq(seq_get(t, 3, &v, &cap), 0);
	ck_assert_uint_gt(seq_memory(t), 13);
	free(v);
	seq_free(t);
}
END_TEST

/*
 * Sequence i of the model: empty for 0, else 1 to 40 ids, the first i
 * (so that each is distinct), the others of 7 to 31 bits from i.
 */
static size_t
model(size_t i, uint32_t *v)
{
	size_t k, n = i == 0 ? 0 : 1 + i % 40;
	uint64_t x = i * 0x9e3779b97f4a7c15ULL;

	if (n > 0)
		v[0] = (uint32_t)i;
	for (k = 1; k < n; k++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		v[k] = (uint32_t)(x >> (33 + (x >> 62) * 8));
	}
	return n;
}

START_TEST(test_many)
{
	struct seqtab *t;
	uint32_t m[40], *v = NULL;
	size_t cap = 0, i, n, count = 30000;

	t = seq_new();
	for (i = 0; i < count; i++) {
		n = model(i, m);
		ck_assert_uint_eq(seq_intern(t, m, n), i);
	}
	ck_assert_uint_eq(seq_count(t), count);
	/* Again, in another order: the same ids, nothing new. */
	for (i = count; i-- > 0; ) {
		n = model(i, m);
		ck_assert_uint_eq(seq_intern(t, m, n), i);
		ck_assert_uint_eq(seq_get(t, (uint32_t)i, &v, &cap), n);
		if (n > 0)
			ck_assert_mem_eq(v, m, n * sizeof(*m));
	}
	ck_assert_uint_eq(seq_count(t), count);
	free(v);
	seq_free(t);
}
END_TEST

static Suite *
seqtab_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("seqtab");
	tc = tcase_create("core");
	tcase_add_test(tc, test_hand);
	tcase_add_test(tc, test_many);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(seqtab_suite());
}
