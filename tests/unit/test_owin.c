/*
 * test_owin.c: Check suite for the ordered window (common/base/owin.h):
 * elements in order, reversed, and in runs out of order (ring and heap
 * both in use, the ring wrapping and growing) come out in order, by
 * construction: the sorted list of what went in; a window emptied by
 * clear is empty and takes new elements.
 */

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tutil.h"
#include "owin.h"
#include "sort.h"

static Suite	*owin_suite(void);

#define LESS(a, b)	(*(a) < *(b))
OWIN_HEAD(iwin, int64_t);
OWIN_FUNCS(iwin, int64_t, LESS)

/*
 * n values of pattern k pushed, with a pop each time more than lag wait,
 * then all popped: out in the order of sort(3) of what went in, as long
 * as none comes after a larger one was popped (the patterns keep that).
 */
static void
check(int k, size_t n, size_t lag)
{
	struct iwin w = { 0 };
	int64_t *in, *out, v;
	size_t i, no = 0;
	unsigned s = 7;

	in = calloc(n, sizeof(*in));
	out = calloc(n, sizeof(*out));
	for (i = 0; i < n; i++) {
		s = s * 1103515245 + 12345;
		if (k == 0)
			v = (int64_t)i;			/* in order */
		else if (k == 1)
			v = (int64_t)(n - i);		/* reversed */
		else if (k == 2)	/* up to 5 places out of order */
			v = (int64_t)i * 10 + (s >> 16) % 50;
		else			/* pairs swapped */
			v = (int64_t)(i ^ 1);
		in[i] = v;
		iwin_push(&w, &v);
		if (w.n > lag) {
			ck_assert_int_eq(*iwin_first(&w), (w.nq > 0 &&
			    (w.nh == 0 || w.q[w.q0] <= w.h[0])) ? w.q[w.q0] :
			    w.h[0]);
			iwin_pop(&w, &out[no++]);
		}
	}
	while (w.n > 0)
		iwin_pop(&w, &out[no++]);
	ck_assert_uint_eq(no, n);
	qsort(in, n, sizeof(*in), sst_cmpi64);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(out[i], in[i]);
	iwin_free(&w);
	free(in);
	free(out);
}

START_TEST(test_orders)
{
	check(0, 10000, 16);
	check(1, 10000, 20000);
	check(2, 10000, 16);
	check(2, 1000, 1000);
	check(3, 100000, 1);
}
END_TEST

/* 5 9 in the ring, 3 in the heap; cleared; then 2 1 come out 1 2. */
START_TEST(test_clear)
{
	struct iwin w = { 0 };
	int64_t v[] = { 5, 9, 3, 2, 1 }, x;

	iwin_push(&w, &v[0]);
	iwin_push(&w, &v[1]);
	iwin_push(&w, &v[2]);
	ck_assert_uint_eq(w.nq, 2);
	ck_assert_uint_eq(w.nh, 1);
	iwin_clear(&w);
	ck_assert_uint_eq(w.n, 0);
	ck_assert_uint_eq(w.nq + w.nh, 0);
	iwin_push(&w, &v[3]);
	iwin_push(&w, &v[4]);
	ck_assert_uint_eq(w.n, 2);
	iwin_pop(&w, &x);
	ck_assert_int_eq(x, 1);
	iwin_pop(&w, &x);
	ck_assert_int_eq(x, 2);
	ck_assert_uint_eq(w.n, 0);
	iwin_free(&w);
}
END_TEST

static Suite *
owin_suite(void)
{
	Suite *s = suite_create("owin");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_orders);
	tcase_add_test(tc, test_clear);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(owin_suite());
}
