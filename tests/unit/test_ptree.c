/*
 * test_ptree.c: Check suite for the depths of forests given by parent
 * links (common/base/ptree.c), hand-worked: two trees with children
 * listed before and after their parents, no nodes; the cycles of
 * golden/cpuprofile2sst (a node its own parent, a cycle apart from the
 * root, a walk that runs into a cycle) and the node each names; the
 * depth limit met exactly and passed, walking from the root's side and
 * from the leaf's; a chain of a million nodes, each walked once.
 */

#include <check.h>
#include <stdlib.h>

#include "tutil.h"
#include "ptree.h"

#define N	PTREE_NONE

static Suite	*ptree_suite(void);

START_TEST(test_forest)
{
	/* 0 -> 1 -> 2, 0 -> 3; 4 -> 5 */
	static const size_t par[] = { N, 0, 1, 0, N, 4 },
	    want[] = { 0, 1, 2, 1, 0, 1 };
	/* 1 -> 2 -> 0: the child before its parent */
	static const size_t par2[] = { 2, N, 1 }, want2[] = { 2, 0, 1 };
	size_t d[6], bad = 99, i;

	ck_assert_int_eq(ptree_depths(par, 6, 10, d, &bad), PTREE_OK);
	for (i = 0; i < 6; i++)
		ck_assert_uint_eq(d[i], want[i]);
	ck_assert_int_eq(ptree_depths(par2, 3, 10, d, &bad), PTREE_OK);
	for (i = 0; i < 3; i++)
		ck_assert_uint_eq(d[i], want2[i]);
	ck_assert_uint_eq(bad, 99);
	ck_assert_int_eq(ptree_depths(par, 0, 10, d, &bad), PTREE_OK);
}
END_TEST

START_TEST(test_cycle)
{
	/* node 1 its own parent */
	static const size_t self[] = { N, 1 };
	/* 1 -> 2 -> 3 -> 1, apart from the root 0: the walk from 1 */
	static const size_t apart[] = { N, 2, 3, 1 };
	/* 0's parent 1, in the cycle 1 -> 2 -> 1: met again at 1 */
	static const size_t into[] = { 1, 2, 1 };
	/* a cycle found only from a later node: 0 and 1 are fine */
	static const size_t late[] = { N, 0, 3, 2 };
	size_t d[4], bad;

	ck_assert_int_eq(ptree_depths(self, 2, 10, d, &bad), PTREE_CYCLE);
	ck_assert_uint_eq(bad, 1);
	ck_assert_int_eq(ptree_depths(apart, 4, 10, d, &bad), PTREE_CYCLE);
	ck_assert_uint_eq(bad, 1);
	ck_assert_int_eq(ptree_depths(into, 3, 10, d, &bad), PTREE_CYCLE);
	ck_assert_uint_eq(bad, 1);
	ck_assert_int_eq(ptree_depths(late, 4, 10, d, &bad), PTREE_CYCLE);
	ck_assert_uint_eq(bad, 2);
}
END_TEST

START_TEST(test_deep)
{
	/* parents first: 0 -> 1 -> ... -> 5, depths 0 to 5 */
	static const size_t down[] = { N, 0, 1, 2, 3, 4 };
	/* leaves first: 5 -> 4 -> ... -> 0, node 0 at depth 5 */
	static const size_t up[] = { 1, 2, 3, 4, 5, N };
	size_t d[6], bad;

	ck_assert_int_eq(ptree_depths(down, 6, 5, d, &bad), PTREE_OK);
	ck_assert_uint_eq(d[5], 5);
	ck_assert_int_eq(ptree_depths(down, 6, 4, d, &bad), PTREE_DEEP);
	ck_assert_uint_eq(bad, 5);
	ck_assert_int_eq(ptree_depths(up, 6, 5, d, &bad), PTREE_OK);
	ck_assert_uint_eq(d[0], 5);
	ck_assert_uint_eq(d[5], 0);
	ck_assert_int_eq(ptree_depths(up, 6, 4, d, &bad), PTREE_DEEP);
	ck_assert_uint_eq(bad, 0);
}
END_TEST

/* A chain of a million nodes, leaf first: depth n - 1 - i. */
START_TEST(test_chain)
{
	size_t n = 1000000, i, bad, *par, *d;

	par = malloc(n * sizeof(*par));
	d = malloc(n * sizeof(*d));
	ck_assert(par != NULL && d != NULL);
	for (i = 0; i < n; i++)
		par[i] = i + 1 < n ? i + 1 : N;
	ck_assert_int_eq(ptree_depths(par, n, n, d, &bad), PTREE_OK);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(d[i], n - 1 - i);
	free(par);
	free(d);
}
END_TEST

static Suite *
ptree_suite(void)
{
	Suite *s = suite_create("ptree");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_forest);
	tcase_add_test(tc, test_cycle);
	tcase_add_test(tc, test_deep);
	tcase_add_test(tc, test_chain);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(ptree_suite());
}
