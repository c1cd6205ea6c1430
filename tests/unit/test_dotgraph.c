/*
 * test_dotgraph.c: Check suite for the call graph of sst-dot
 * (common/draw/dotgraph.c), on graphs whose numbers were worked out by hand:
 * cum and flat, edges counted once per sample through recursion, no
 * self edges, pruned functions making residual edges and taking the
 * flat weight of the leaf with them, pprof's entropy order, trimming
 * light edges, and the whole pruning of sst-dot; the entropy order is
 * checked here too (test_dotrank.c has the rest of dotrank.c); the
 * edges written in DOT (dg_putedges), weights and widths by hand.
 */

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tutil.h"
#include "dotrank.h"
#include "htab.h"

static Suite	*dotgraph_suite(void);

/* main=0 a=1 b=2 c=3 x=4 y=5 z=6, total 100, as golden/sst-dot/prune. */
static void
prune(struct cg *cg, struct dg *g)
{
	static const char *names[] = { "main", "a", "b", "c", "x", "y", "z" };
	static const uint32_t s1[] = { 0, 1, 2, 3 }, s2[] = { 0, 1, 4, 3 },
	    s3[] = { 0, 5 }, s4[] = { 0, 1, 6 };
	char k[16];
	size_t i;

	cg_init(cg);
	for (i = 0; i < 7; i++) {
		snprintf(k, sizeof(k), "%s\t", names[i]);
		ht_intern(cg->funcs, k, strlen(k), NULL);
	}
	dg_init(g);
	dg_add(g, 0, s1, 4, 60);
	dg_add(g, 0, s2, 4, 30);
	dg_add(g, 0, s3, 2, 6);
	dg_add(g, 0, s4, 3, 4);
}

/* The edge from function a to b, or NULL. */
static const struct dg_edge *
edge(const struct dg *g, uint32_t a, uint32_t b)
{
	size_t i;

	for (i = 0; i < g->ne; i++)
		if (g->e[i].from == a && g->e[i].to == b)
			return &g->e[i];
	return NULL;
}

/* Cum and flat of function f. */
static double
cum(const struct dg *g, uint32_t f)
{
	return g->index[f] ? g->cum[g->index[f] - 1] : -1;
}

static double
flat(const struct dg *g, uint32_t f)
{
	return g->index[f] ? g->flat[g->index[f] - 1] : -1;
}

START_TEST(test_full)
{
	struct cg cg;
	struct dg g;

	prune(&cg, &g);
	ck_assert_uint_eq(g.nfuncs, 7);
	dg_build(&g, NULL);
	ck_assert_uint_eq(g.nnodes, 7);
	ck_assert_double_eq(cum(&g, 0), 100);
	ck_assert_double_eq(cum(&g, 1), 94);
	ck_assert_double_eq(cum(&g, 3), 90);
	ck_assert_double_eq(flat(&g, 3), 90);
	ck_assert_double_eq(flat(&g, 1), 0);
	ck_assert_double_eq(flat(&g, 6), 4);
	ck_assert_uint_eq(g.ne, 7);
	ck_assert_double_eq(edge(&g, 0, 1)->w, 94);
	ck_assert_double_eq(edge(&g, 4, 3)->w, 30);
	ck_assert_int_eq(edge(&g, 1, 6)->residual, 0);
	/* Entropy order: c 262.65, main 132.74, a 86.32, y 12, b, x. */
	dg_sort(&g, &cg);
	ck_assert_uint_eq(g.node[0], 3);
	ck_assert_uint_eq(g.node[1], 0);
	ck_assert_uint_eq(g.node[2], 1);
	ck_assert_uint_eq(g.node[3], 5);
	ck_assert_uint_eq(g.node[4], 6);
	ck_assert_uint_eq(g.node[5], 2);
	ck_assert_uint_eq(g.node[6], 4);
	ck_assert_double_eq(cum(&g, 0), 100);
	ck_assert_uint_eq(dg_trimedges(&g, 10), 2);
	ck_assert_int_eq(edge(&g, 0, 5)->dropped, 1);
	ck_assert_int_eq(edge(&g, 1, 6)->dropped, 1);
	ck_assert_uint_eq(dg_trimedges(&g, 10), 0);
	dg_free(&g);
	cg_free(&cg);
}
END_TEST

START_TEST(test_kept)
{
	struct cg cg;
	struct dg g;
	unsigned char keep[7] = { 1, 1, 0, 1, 0, 1, 0 };

	prune(&cg, &g);
	dg_build(&g, keep);
	ck_assert_uint_eq(g.nnodes, 4);
	ck_assert_uint_eq(g.index[2], 0);
	ck_assert_uint_eq(g.ne, 3);
	/* Both paths through b and x meet on one residual edge. */
	ck_assert_double_eq(edge(&g, 1, 3)->w, 90);
	ck_assert_int_eq(edge(&g, 1, 3)->residual, 1);
	ck_assert_int_eq(edge(&g, 0, 1)->residual, 0);
	/* z went, and a does not get its flat weight. */
	ck_assert_double_eq(flat(&g, 1), 0);
	ck_assert_double_eq(cum(&g, 1), 94);
	dg_sort(&g, &cg);
	ck_assert_uint_eq(g.node[0], 3);
	ck_assert_uint_eq(g.node[1], 0);
	ck_assert_uint_eq(g.node[2], 5);
	ck_assert_uint_eq(g.node[3], 1);
	dg_free(&g);
	cg_free(&cg);
}
END_TEST

START_TEST(test_recursion)
{
	struct cg cg;
	struct dg g;
	static const uint32_t s1[] = { 0, 1, 1, 2, 1, 2 }, s2[] = { 0, 1 };

	cg_init(&cg);
	ht_intern(cg.funcs, "m\t", 2, NULL);
	ht_intern(cg.funcs, "f\t", 2, NULL);
	ht_intern(cg.funcs, "g\t", 2, NULL);
	dg_init(&g);
	dg_add(&g, 0, s1, 6, 2);
	dg_add(&g, 1, s2, 2, 1);
	dg_build(&g, NULL);
	ck_assert_double_eq(cum(&g, 1), 3);
	ck_assert_double_eq(cum(&g, 2), 2);
	ck_assert_double_eq(flat(&g, 2), 2);
	ck_assert_double_eq(flat(&g, 1), 1);
	ck_assert_uint_eq(g.ne, 3);
	ck_assert_ptr_null(edge(&g, 1, 1));
	ck_assert_double_eq(edge(&g, 1, 2)->w, 2);
	ck_assert_double_eq(edge(&g, 2, 1)->w, 2);
	ck_assert_double_eq(edge(&g, 0, 1)->w, 3);
	ck_assert_double_eq(dg_threadw(&g, g.index[1] - 1, 0), 2);
	ck_assert_double_eq(dg_threadw(&g, g.index[1] - 1, 1), 1);
	ck_assert_double_eq(dg_threadw(&g, g.index[2] - 1, 1), 0);
	dg_free(&g);
	cg_free(&cg);
}
END_TEST

START_TEST(test_prune)
{
	struct cg cg;
	struct dg g;
	struct dg_cuts c;

	prune(&cg, &g);
	cg.total = 100;
	dg_prune(&g, &cg, 0.05, 0.1, 4, &c);
	ck_assert_uint_eq(c.nodrop, 1);
	ck_assert_uint_eq(c.edrop, 1);
	ck_assert_uint_eq(c.ntop, 4);
	ck_assert_uint_eq(c.norig, 6);
	ck_assert_double_eq(c.ncut, 5);
	ck_assert_double_eq(c.ecut, 10);
	ck_assert_uint_eq(g.nnodes, 4);
	ck_assert_uint_eq(g.node[0], 3);
	ck_assert_uint_eq(g.node[1], 0);
	ck_assert_uint_eq(g.node[2], 5);
	ck_assert_uint_eq(g.node[3], 1);
	ck_assert_int_eq(edge(&g, 0, 5)->dropped, 1);
	ck_assert_int_eq(edge(&g, 1, 3)->residual, 1);
	/* No cut at all: every node, every edge. */
	dg_prune(&g, &cg, 0, 0, 0, &c);
	ck_assert_uint_eq(c.nodrop + c.edrop + c.ntop, 0);
	ck_assert_uint_eq(g.nnodes, 7);
	ck_assert_uint_eq(g.ne, 7);
	dg_free(&g);
	cg_free(&cg);
}
END_TEST

/* What dg_putedges() writes for the graph of arg. */
struct edgesarg {
	struct dg	*g;
	struct cg	*cg;
};

static void
putedges(void *arg)
{
	struct edgesarg *a = arg;

	dg_putedges(stdout, a->g, a->cg);
}

/*
 * The graph of test_full, sorted (nodes c main a y z b x: N1 to N7),
 * light edges trimmed (main -> y 6 and a -> z 4 dropped), a -> x made
 * residual: five edges.  main -> a weighs 94 of 100: weight 1 + 94,
 * pen width 1 + 4 (4.7 truncated); 60: 61 and 1 + 3; 30: 31 and 1 + 1.
 */
START_TEST(test_putedges)
{
	struct cg cg;
	struct dg g;
	struct edgesarg a = { &g, &cg };
	char *out, c[16];
	const char *p;
	int n = 0;

	prune(&cg, &g);
	cg.total = 100;
	cg.unit = U_NONE;
	dg_build(&g, NULL);
	dg_sort(&g, &cg);
	ck_assert_uint_eq(dg_trimedges(&g, 10), 2);
	g.e[edge(&g, 1, 4) - g.e].residual = 1;
	out = tu_capture(putedges, &a);
	for (p = out; (p = strchr(p, '\n')) != NULL; p++)
		n++;
	ck_assert_int_eq(n, 5);
	ck_assert_ptr_nonnull(strstr(out, "N2 -> N3 [label=\" 94\" weight=95 "
	    "penwidth=5 color=\""));
	ck_assert_ptr_nonnull(strstr(out, "\" tooltip=\"main -> a (94)\"]\n"));
	ck_assert_ptr_nonnull(strstr(out, "N3 -> N6 [label=\" 60\" weight=61 "
	    "penwidth=4 color=\""));
	ck_assert_ptr_nonnull(strstr(out, "N6 -> N1 [label=\" 60\" weight=61 "
	    "penwidth=4 color=\""));
	ck_assert_ptr_nonnull(strstr(out, "N7 -> N1 [label=\" 30\" weight=31 "
	    "penwidth=2 color=\""));
	ck_assert_ptr_nonnull(strstr(out, "N3 -> N7 [label=\" 30\" weight=31 "
	    "penwidth=2 color=\""));
	ck_assert_ptr_nonnull(strstr(out, "\" tooltip=\"a ... x (30)\" "
	    "style=\"dashed\"]\n"));
	/* the colour is svg_heat's of the share (test_svg checks those) */
	svg_heat(c, sizeof(c), 0.94, 0);
	p = strstr(out, "N2 -> N3");
	ck_assert(strncmp(strstr(p, "color=\"") + 7, c, strlen(c)) == 0);
	ck_assert_ptr_null(strstr(out, "N2 -> N4"));
	ck_assert_ptr_null(strstr(out, "N3 -> N5"));
	free(out);
	dg_free(&g);
	cg_free(&cg);
}
END_TEST

static Suite *
dotgraph_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("dotgraph");
	tc = tcase_create("core");
	tcase_add_test(tc, test_full);
	tcase_add_test(tc, test_putedges);
	tcase_add_test(tc, test_kept);
	tcase_add_test(tc, test_recursion);
	tcase_add_test(tc, test_prune);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(dotgraph_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
