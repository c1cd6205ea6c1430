/*
 * test_dotrank.c: Check suite for the ranks and colours of sst-dot's
 * nodes (common/draw/dotrank.c): pprof's entropy order on a small graph
 * worked out by hand, ties broken by name, thread ranks with the
 * threads past the palette sharing grey, and the stripes of a node
 * shared by thirteen threads and the note that names them.
 */

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "dotrank.h"
#include "buf.h"
#include "rec.h"
#include "htab.h"
#include "tally.h"

static Suite	*dotrank_suite(void);

START_TEST(test_ties)
{
	struct cg cg;
	struct dg g;
	static const uint32_t a[] = { 0, 1 }, b[] = { 0, 2 }, c[] = { 0, 3 };

	/* r calls z, y and x, 1 each: leaves tie, name order wins. */
	cg_init(&cg);
	ht_intern(cg.funcs, "r\t", 2, NULL);
	ht_intern(cg.funcs, "z\t", 2, NULL);
	ht_intern(cg.funcs, "y\t", 2, NULL);
	ht_intern(cg.funcs, "x\t", 2, NULL);
	dg_init(&g);
	dg_add(&g, 0, a, 2, 1);
	dg_add(&g, 0, b, 2, 1);
	dg_add(&g, 0, c, 2, 1);
	dg_build(&g, NULL);
	dg_sort(&g, &cg);
	/* r: (1 + log2 3) * 3 = 7.75; leaves: 1 * 1 + 1 = 2. */
	ck_assert_uint_eq(g.node[0], 0);
	ck_assert_uint_eq(g.node[1], 3);
	ck_assert_uint_eq(g.node[2], 2);
	ck_assert_uint_eq(g.node[3], 1);
	ck_assert_uint_eq(g.index[3], 2);
	ck_assert_double_eq(g.cum[0], 3);
	dg_free(&g);
	cg_free(&cg);
}
END_TEST

START_TEST(test_fill)
{
	struct cg cg;
	struct dg g;
	struct tally th;
	struct sst_rec r;
	struct buf b;
	static const uint32_t s[] = { 0, 1 };
	char name[16];
	size_t *rank, i;

	/* 13 threads: t0 weighs 1, t1 2, ... t12 13. */
	tally_init(&th);
	memset(&r, 0, sizeof(r));
	cg_init(&cg);
	ht_intern(cg.funcs, "m\t", 2, NULL);
	ht_intern(cg.funcs, "f\t", 2, NULL);
	dg_init(&g);
	for (i = 0; i < 13; i++) {
		snprintf(name, sizeof(name), "t%zu", i);
		r.samples = 1;
		r.weight = (double)i + 1;
		tally_add(&th, name, strlen(name), &r);
		dg_add(&g, (uint32_t)i, s, i == 12 ? 2 : 1, r.weight);
	}
	rank = dg_ranks(&th);
	ck_assert_uint_eq(rank[12], 0);
	ck_assert_uint_eq(rank[2], 10);
	ck_assert_uint_eq(rank[1], SVG_NPALETTE);
	ck_assert_uint_eq(rank[0], SVG_NPALETTE);
	dg_build(&g, NULL);
	buf_init(&b);
	/* f: t12 alone. */
	dg_fill(&g, &b, g.index[1] - 1, &th, rank);
	ck_assert_str_eq(b.data, svg_palette(0));
	/* m: 91 in all, t12 13/91 = 0.143, ..., t0 and t1 grey. */
	dg_fill(&g, &b, g.index[0] - 1, &th, rank);
	ck_assert_str_eq(b.data, "#8dd3c7;0.143:#ffffb3;0.132:#bebada;0.121:"
	    "#fb8072;0.110:#80b1d3;0.099:#fdb462;0.088:#b3de69;0.077:"
	    "#fccde5;0.066:#bc80bd;0.055:#ccebc5;0.044:#ffed6f;0.033:#d9d9d9");
	/* Its note: the eight heaviest threads, then a count. */
	buf_reset(&b);
	dg_note(&g, &b, g.index[0] - 1, &th);
	ck_assert_str_eq(b.data, "\\nt12: 14.29%\\nt11: 13.19%\\nt10: 12.09%"
	    "\\nt9: 10.99%\\nt8: 9.89%\\nt7: 8.79%\\nt6: 7.69%\\nt5: 6.59%"
	    "\\n5 more threads");
	buf_free(&b);
	free(rank);
	tally_free(&th);
	dg_free(&g);
	cg_free(&cg);
}
END_TEST

static Suite *
dotrank_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("dotrank");
	tc = tcase_create("core");
	tcase_add_test(tc, test_ties);
	tcase_add_test(tc, test_fill);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(dotrank_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
