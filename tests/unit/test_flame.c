/*
 * test_flame.c: Check suite for the frame tree of sst-flame
 * (common/draw/flame.c) and its script (common/draw/flamejs.c): nodes
 * shared by stacks with the same path, thread nodes, merged threads,
 * reversed stacks, deep ones, weights summed in the order of the
 * records, the children linked in the order asked for, the line under
 * the title and a diff's colours, and a script that can sit in CDATA
 * and loads nothing.
 */

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "buf.h"
#include "rec.h"
#include "htab.h"
#include "tally.h"

static Suite	*flame_suite(void);

/* The node reached from the root through funcs f[0..n), or NONE. */
static uint32_t
path(const struct flame *t, const uint32_t *f, size_t n)
{
	uint32_t nd = 0, c;
	size_t i;

	for (i = 0; i < n; i++) {
		for (c = 0; c < t->n; c++)
			if (c != 0 && t->node[c].parent == nd &&
			    t->node[c].func == f[i])
				break;
		if (c == t->n)
			return FLAME_NONE;
		nd = c;
	}
	return nd;
}

START_TEST(test_tree)
{
	struct flame t;
	static const uint32_t a[] = { 0, 1, 2 }, b[] = { 0, 1 },
	    c[] = { 0, 1, 1 };
	uint32_t p[4], nd;

	flame_init(&t);
	ck_assert_uint_eq(t.n, 1);
	flame_add(&t, 7, a, 3, 0, 0.5, 0, 2);
	flame_add(&t, 7, b, 2, 0, 0.25, 0, 1);
	flame_add(&t, 3, c, 3, 0, 1, 0, 1);
	/* Nothing narrower than 0 px: every node kept. */
	flame_prune(&t, 1.75, 100, 0);
	/* root, thread 7, 0, 1, 2, thread 3, 0, 1, 1 */
	ck_assert_uint_eq(t.n, 9);
	ck_assert_double_eq(t.w[0], 1.75);
	ck_assert_uint_eq(t.samples[0], 4);
	p[0] = FLAME_THREAD | 7;
	p[1] = 0;
	p[2] = 1;
	p[3] = 2;
	nd = path(&t, p, 3);
	ck_assert_double_eq(t.w[nd], 0.75);
	ck_assert_uint_eq(t.samples[nd], 3);
	nd = path(&t, p, 4);
	ck_assert_double_eq(t.w[nd], 0.5);
	p[0] = FLAME_THREAD | 3;
	p[3] = 1;
	ck_assert_double_eq(t.w[path(&t, p, 4)], 1);
	/* No countA was added: none is kept, and each reads 0. */
	ck_assert_ptr_null(t.wa);
	ck_assert_double_eq(FLAME_WA(&t, nd), 0);
	flame_free(&t);
}
END_TEST

START_TEST(test_merged_reverse)
{
	struct flame t;
	static const uint32_t a[] = { 0, 1, 2 }, b[] = { 3, 1, 2 };
	uint32_t p[3] = { 2, 1, 0 };

	flame_init(&t);
	flame_add(&t, FLAME_NONE, a, 3, 1, 2, 1.5, 1);
	flame_add(&t, FLAME_NONE, b, 3, 1, 3, 0, 1);
	flame_prune(&t, 5, 100, 0);
	/* root, 2, 1, 0, 3 */
	ck_assert_uint_eq(t.n, 5);
	ck_assert_double_eq(t.w[path(&t, p, 2)], 5);
	ck_assert_double_eq(t.w[path(&t, p, 3)], 2);
	ck_assert_double_eq(t.wa[path(&t, p, 3)], 1.5);
	ck_assert_double_eq(t.wa[0], 1.5);
	p[2] = 3;
	ck_assert_double_eq(t.w[path(&t, p, 3)], 3);
	ck_assert_double_eq(t.wa[path(&t, p, 3)], 0);
	flame_free(&t);
}
END_TEST

/*
 * A diff whose first stacks have countA 0: the countA of the nodes
 * made before the first that is not are 0, and those added after it
 * count, nodes made after it included.
 */
START_TEST(test_wa_late)
{
	struct flame t;
	static const uint32_t a[] = { 0, 1 }, b[] = { 0, 2 }, c[] = { 3 };
	uint32_t p[2] = { 0, 1 }, f;
	size_t i;

	flame_init(&t);
	flame_add(&t, FLAME_NONE, a, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, b, 2, 0, 1, 2, 1);
	flame_add(&t, FLAME_NONE, c, 1, 0, 1, 4, 1);
	/* Past the first 1,024 nodes, the arrays grown: new ones are 0. */
	for (i = 0; i < 1100; i++) {
		f = 10 + (uint32_t)i;
		flame_add(&t, FLAME_NONE, &f, 1, 0, 1, i == 0 ? 1 : 0, 1);
	}
	flame_prune(&t, 1103, 100, 0);
	/* root, 0, 1, 2, 3, 10 ... 1109 */
	ck_assert_uint_eq(t.n, 1105);
	ck_assert_double_eq(FLAME_WA(&t, 0), 7);
	ck_assert_double_eq(FLAME_WA(&t, path(&t, p, 1)), 2);
	ck_assert_double_eq(FLAME_WA(&t, path(&t, p, 2)), 0);
	p[1] = 2;
	ck_assert_double_eq(FLAME_WA(&t, path(&t, p, 2)), 2);
	p[0] = 3;
	ck_assert_double_eq(FLAME_WA(&t, path(&t, p, 1)), 4);
	p[0] = 10;
	ck_assert_double_eq(FLAME_WA(&t, path(&t, p, 1)), 1);
	p[0] = 1109;
	ck_assert_double_eq(FLAME_WA(&t, path(&t, p, 1)), 0);
	/* Every node's |w - countA|: 3's, 1 - 4. */
	ck_assert_double_eq(t.maxdelta, 3);
	flame_free(&t);
}
END_TEST

/*
 * Each node sums its stacks' weights in the order they were added, not
 * stack by stack: 2^53 + 1 is 2^53 (round half to even), so main's
 * weight is 2^53 where summing stack b's four records first (3) would
 * give 2^53 + 4.  A repeated stack with another weight (logged with it), one
 * with its first weight again (logged without).
 */
START_TEST(test_order)
{
	struct flame t;
	static const uint32_t a[] = { 0, 1 }, b[] = { 0, 2 };
	uint32_t p[2] = { 0, 2 };
	double big = 9007199254740992.0;

	flame_init(&t);
	flame_add(&t, FLAME_NONE, b, 2, 0, 0.5, 0, 1);
	flame_add(&t, FLAME_NONE, a, 2, 0, big, 0, 1);
	flame_add(&t, FLAME_NONE, b, 2, 0, 0.5, 0, 1);
	flame_add(&t, FLAME_NONE, b, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, b, 2, 0, 1, 0, 1);
	flame_prune(&t, big, 100, 0);
	ck_assert_uint_eq(t.n, 4);
	/* 0.5 + 2^53 = 2^53 + 0.5 -> 2^53; + 0.5 -> 2^53; + 1 -> 2^53 twice. */
	ck_assert_double_eq(t.w[0], big);
	ck_assert_double_eq(t.w[path(&t, p, 1)], big);
	ck_assert_double_eq(t.w[path(&t, p, 2)], 3);
	p[1] = 1;
	ck_assert_double_eq(t.w[path(&t, p, 2)], big);
	ck_assert_uint_eq(t.samples[path(&t, p, 1)], 5);
	ck_assert_uint_eq(t.samples[0], 5);
	flame_free(&t);
}
END_TEST

/* Nodes by function, descending: the reverse of the ids' order. */
static int
bydesc(size_t a, size_t b, void *arg)
{
	const struct flame *t = arg;

	return t->node[a].func > t->node[b].func ? -1 :
	    t->node[a].func < t->node[b].func;
}

START_TEST(test_children)
{
	struct flame t;
	static const uint32_t a[] = { 1, 5 }, b[] = { 3 }, c[] = { 1, 2 },
	    d[] = { 2 };
	uint32_t c0;

	flame_init(&t);
	flame_add(&t, FLAME_NONE, a, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, b, 1, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, c, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, d, 1, 0, 1, 0, 1);
	flame_prune(&t, 4, 100, 0);
	flame_children(&t, bydesc, &t);
	c0 = t.first[0];
	ck_assert_uint_eq(t.node[c0].func, 3);
	ck_assert_uint_eq(t.node[t.next[c0]].func, 2);
	ck_assert_uint_eq(t.node[t.next[t.next[c0]]].func, 1);
	ck_assert_uint_eq(t.next[t.next[t.next[c0]]], FLAME_NONE);
	c0 = t.first[t.next[t.next[c0]]];
	ck_assert_uint_eq(t.node[c0].func, 5);
	ck_assert_uint_eq(t.node[t.next[c0]].func, 2);
	ck_assert_uint_eq(t.first[t.next[c0]], FLAME_NONE);
	flame_free(&t);
}
END_TEST

START_TEST(test_byname)
{
	struct flame t;
	struct cg g;
	struct sst_rec r;
	static const uint32_t f0[] = { 0 }, f1[] = { 1 }, f2[] = { 2 };
	const char *s;
	uint32_t c;
	size_t n;

	cg_init(&g);
	ht_intern(g.funcs, "b\tz.py", 6, NULL);
	ht_intern(g.funcs, "a\ty.py", 6, NULL);
	ht_intern(g.funcs, "a\tx.py", 6, NULL);
	memset(&r, 0, sizeof(r));
	tally_add(&g.threads, "T2", 2, &r);
	tally_add(&g.threads, "T1", 2, &r);
	flame_init(&t);
	flame_add(&t, 0, f0, 1, 0, 1, 0, 1);
	flame_add(&t, 0, f1, 1, 0, 1, 0, 1);
	flame_add(&t, 0, f2, 1, 0, 1, 0, 1);
	flame_add(&t, 1, f0, 1, 0, 1, 0, 1);
	flame_prune(&t, 4, 100, 0);
	flame_byname(&t, &g);
	s = flame_name(&t, &g, 0, &n);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(memcmp(s, "all", 3), 0);
	c = t.first[0];
	s = flame_name(&t, &g, c, &n);
	ck_assert_int_eq(memcmp(s, "T1", 2), 0);
	c = t.next[c];
	ck_assert_uint_eq(t.next[c], FLAME_NONE);
	/* T2: a at x.py, a at y.py, b. */
	c = t.first[c];
	ck_assert_uint_eq(t.node[c].func, 2);
	ck_assert_uint_eq(t.node[t.next[c]].func, 1);
	ck_assert_uint_eq(t.node[t.next[t.next[c]]].func, 0);
	flame_free(&t);
	cg_free(&g);
}
END_TEST

/*
 * By name at every level: each node's children in name order, a
 * function's nodes under several parents each in its place.
 */
START_TEST(test_byname_deep)
{
	struct flame t;
	struct cg g;
	static const uint32_t s0[] = { 0, 0 }, s1[] = { 0, 2 },
	    s2[] = { 0, 1 }, s3[] = { 2, 1 }, s4[] = { 2, 0 }, s5[] = { 1 };
	uint32_t c, d;

	cg_init(&g);
	ht_intern(g.funcs, "c\tc.py", 6, NULL);
	ht_intern(g.funcs, "a\ta.py", 6, NULL);
	ht_intern(g.funcs, "b\tb.py", 6, NULL);
	flame_init(&t);
	flame_add(&t, FLAME_NONE, s0, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, s1, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, s2, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, s3, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, s4, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, s5, 1, 0, 1, 0, 1);
	flame_prune(&t, 6, 100, 0);
	flame_byname(&t, &g);
	/* The root: a, b, c. */
	c = t.first[0];
	ck_assert_uint_eq(t.node[c].func, 1);
	ck_assert_uint_eq(t.first[c], FLAME_NONE);
	c = t.next[c];
	ck_assert_uint_eq(t.node[c].func, 2);
	/* Under b: a, c. */
	d = t.first[c];
	ck_assert_uint_eq(t.node[d].func, 1);
	d = t.next[d];
	ck_assert_uint_eq(t.node[d].func, 0);
	ck_assert_uint_eq(t.next[d], FLAME_NONE);
	c = t.next[c];
	ck_assert_uint_eq(t.node[c].func, 0);
	ck_assert_uint_eq(t.next[c], FLAME_NONE);
	/* Under c: a, b, c. */
	d = t.first[c];
	ck_assert_uint_eq(t.node[d].func, 1);
	d = t.next[d];
	ck_assert_uint_eq(t.node[d].func, 2);
	d = t.next[d];
	ck_assert_uint_eq(t.node[d].func, 0);
	ck_assert_uint_eq(t.next[d], FLAME_NONE);
	ck_assert_double_eq(t.w[0], 6);
	flame_free(&t);
	cg_free(&g);
}
END_TEST

/* What flame_walk() drew, as text. */
static void
draw(void *arg, uint32_t nd, size_t d, double x, double w, size_t n)
{
	buf_printf(arg, "%u/%zu/%g/%g/%zu ", nd, d, x, w, n);
}

START_TEST(test_walk)
{
	struct flame t;
	struct buf b;
	static const uint32_t a[] = { 0, 1 }, bb[] = { 0, 2 }, c[] = { 0, 3 },
	    d[] = { 0, 4 };

	/* main (0) calls a, b, c once and d five times: 1000 px. */
	flame_init(&t);
	flame_add(&t, FLAME_NONE, a, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, bb, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, c, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, d, 2, 0, 5, 0, 1);
	flame_prune(&t, 8, 1000, 0);
	flame_children(&t, bydesc, &t);
	buf_init(&b);
	flame_walk(&t, 10, 8, 1000, 130, draw, &b);
	/* d first (descending), the three of 125 px merged after it. */
	ck_assert_str_eq(b.data, "0/0/10/1000/0 1/1/10/1000/0 "
	    "5/2/10/625/0 1/2/635/375/3 ");
	buf_reset(&b);
	flame_walk(&t, 10, 8, 1000, 400, draw, &b);
	ck_assert_str_eq(b.data, "0/0/10/1000/0 1/1/10/1000/0 "
	    "5/2/10/625/0 ");
	buf_reset(&b);
	flame_walk(&t, 10, 8, 1000, 0, draw, &b);
	ck_assert_str_eq(b.data, "0/0/10/1000/0 1/1/10/1000/0 "
	    "5/2/10/625/0 4/2/635/125/0 3/2/760/125/0 2/2/885/125/0 ");
	buf_free(&b);
	flame_free(&t);
}
END_TEST

START_TEST(test_script)
{
	size_t i, n = 0;

	ck_assert_ptr_nonnull(strstr(flame_css, ".hide"));
	for (i = 0; flame_js[i] != NULL; i++) {
		ck_assert_ptr_null(strstr(flame_js[i], "]]>"));
		ck_assert_ptr_null(strstr(flame_js[i], "https:"));
		ck_assert_ptr_null(strstr(flame_js[i], "fetch("));
		ck_assert_ptr_null(strstr(flame_js[i], "import"));
		ck_assert_uint_eq(flame_js[i][strlen(flame_js[i]) - 1], '\n');
		if (strstr(flame_js[i], "http:") != NULL) {
			ck_assert_ptr_nonnull(strstr(flame_js[i],
			    "\"http://www.w3.org/2000/svg\""));
			n++;
		}
	}
	ck_assert_uint_gt(i, 50);
	ck_assert_uint_eq(n, 1);
}
END_TEST

/*
 * Deep stacks over a few functions, so that they share prefixes of
 * every length, in two threads, some reversed: each path is one node,
 * with the right parent, function and weight, as a model made here by
 * comparing the paths finds; the tree's nodes are as many as the
 * model's distinct paths.
 */
#define DS	300	/* stacks */
#define DD	61	/* levels at most: a thread and 60 frames */
START_TEST(test_deep)
{
	static uint32_t pth[DS][DD], ids[DD], id[DS][DD];
	static size_t len[DS];
	static double ew[DS * DD + 1];
	struct flame t;
	uint32_t x = 12345, next = 1, nd, c;
	size_t i, j, k, l, n;
	int rev;

	flame_init(&t);
	for (i = 0; i < DS; i++) {
		n = 20 + (x = x * 1103515245 + 12345) % 41;
		rev = i % 3 == 0;
		pth[i][0] = FLAME_THREAD | (uint32_t)(i % 2);
		for (j = 0; j < n; j++) {
			x = x * 1103515245 + 12345;
			ids[j] = (x >> 16) % (j < 10 ? 2 : 4);
		}
		for (j = 0; j < n; j++)
			pth[i][j + 1] = ids[rev ? n - 1 - j : j];
		len[i] = n + 1;
		flame_add(&t, (uint32_t)(i % 2), ids, n, rev, (double)i,
		    0, 1);
		/* The model: the first stack through a path makes it. */
		for (l = 0; l < len[i]; l++) {
			for (k = 0; k < i; k++)
				if (len[k] > l && memcmp(pth[k], pth[i],
				    (l + 1) * sizeof(uint32_t)) == 0)
					break;
			id[i][l] = k < i ? id[k][l] : next++;
			ew[id[i][l]] += (double)i;
		}
	}
	flame_prune(&t, DS * DS, 100, 0);
	flame_children(&t, bydesc, &t);
	ck_assert_uint_eq(t.n, next);
	for (i = 0; i < DS; i++)
		for (l = 0, nd = 0; l < len[i]; l++) {
			for (c = t.first[nd]; c != FLAME_NONE; c = t.next[c])
				if (t.node[c].func == pth[i][l])
					break;
			ck_assert_uint_ne(c, FLAME_NONE);
			ck_assert_uint_eq(t.node[c].parent, nd);
			ck_assert_double_eq(t.w[c], ew[id[i][l]]);
			nd = c;
		}
	flame_free(&t);
}
END_TEST

/*
 * flame_prune() keeps the drawn nodes and their children: with weights
 * as pixels (total 10, span 10), minwidth 2 draws the root, 1, 1;2 and
 * 1;2;3, shows 1;4 and 5 merged, and drops 5;6, whose sample goes to
 * 5, the nearest node kept.
 */
START_TEST(test_prune)
{
	struct flame t;
	static const uint32_t a[] = { 1, 2, 3 }, b[] = { 1, 4 },
	    c[] = { 5, 6 };
	uint32_t p[3] = { 5, 6, 0 };

	flame_init(&t);
	flame_add(&t, FLAME_NONE, a, 3, 0, 8, 0, 8);
	flame_add(&t, FLAME_NONE, b, 2, 0, 1, 0, 1);
	flame_add(&t, FLAME_NONE, c, 2, 0, 1, 0, 3);
	flame_prune(&t, 10, 10, 2);
	ck_assert_uint_eq(t.n, 6);
	ck_assert_uint_eq(path(&t, p, 2), FLAME_NONE);
	ck_assert_uint_eq(t.samples[path(&t, p, 1)], 3);
	ck_assert_double_eq(t.w[path(&t, p, 1)], 1);
	p[0] = 1;
	p[1] = 2;
	p[2] = 3;
	ck_assert_uint_eq(t.samples[path(&t, p, 1)], 9);
	ck_assert_uint_eq(t.samples[path(&t, p, 3)], 8);
	ck_assert_double_eq(t.w[path(&t, p, 3)], 8);
	ck_assert_uint_eq(t.samples[0], 12);
	ck_assert_double_eq(t.w[0], 10);
	flame_free(&t);
}
END_TEST

/*
 * The line under the title: 1.5 s of 3 samples; a diff of 2048 bytes
 * (2 kB) says what its colours mean.  A diff's fills: half the largest
 * growth is 210 / 2 = 105 = 0x69 of green and blue; the largest
 * shrinking 0, pure blue; no change 210 = 0xd2, on the blue side.
 */
START_TEST(test_subtitle)
{
	struct cg g;
	struct buf b;
	char c[16];

	cg_init(&g);
	buf_init(&b);
	g.total = 1.5;
	g.unit = U_SECONDS;
	g.samples = 3;
	g.diff = 0;
	flame_subtitle(&b, &g);
	ck_assert_str_eq(b.data, "1.5s, 3 samples, unit seconds");
	g.diff = 1;
	g.total = 2048;
	g.unit = U_BYTES;
	flame_subtitle(&b, &g);
	ck_assert_str_eq(b.data, "2kB after (widths), red: grew, blue: "
	    "shrank");
	flame_diffcolor(c, sizeof(c), 1, 2);
	ck_assert_str_eq(c, "#ff6969");
	flame_diffcolor(c, sizeof(c), -2, 2);
	ck_assert_str_eq(c, "#0000ff");
	flame_diffcolor(c, sizeof(c), 0, 2);
	ck_assert_str_eq(c, "#d2d2ff");
	buf_free(&b);
	cg_free(&g);
}
END_TEST

/*
 * A diff's largest change is over every node, those not kept too:
 * with weights as pixels (total 11, span 11) and minwidth 2, 2 (1 px)
 * is not drawn and its children are dropped, but 2;3's change, 9 - 0,
 * is the largest (1: 10 - 8 = 2, 2: 9 - 1 = 8, 2;4: 1).
 */
START_TEST(test_maxdelta)
{
	struct flame t;
	static const uint32_t a[] = { 1 }, b[] = { 2, 3 }, c[] = { 2, 4 };
	uint32_t p[2] = { 2, 3 };

	flame_init(&t);
	flame_add(&t, FLAME_NONE, a, 1, 0, 10, 8, 1);
	flame_add(&t, FLAME_NONE, b, 2, 0, 0, 9, 1);
	flame_add(&t, FLAME_NONE, c, 2, 0, 1, 0, 1);
	flame_prune(&t, 11, 11, 2);
	ck_assert_uint_eq(t.n, 3);
	ck_assert_uint_eq(path(&t, p, 2), FLAME_NONE);
	ck_assert_double_eq(t.wa[path(&t, p, 1)], 9);
	ck_assert_uint_eq(t.samples[path(&t, p, 1)], 2);
	ck_assert_double_eq(t.maxdelta, 9);
	flame_free(&t);
}
END_TEST

static Suite *
flame_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("flame");
	tc = tcase_create("core");
	tcase_add_test(tc, test_tree);
	tcase_add_test(tc, test_prune);
	tcase_add_test(tc, test_merged_reverse);
	tcase_add_test(tc, test_wa_late);
	tcase_add_test(tc, test_children);
	tcase_add_test(tc, test_order);
	tcase_add_test(tc, test_maxdelta);
	tcase_add_test(tc, test_deep);
	tcase_add_test(tc, test_byname);
	tcase_add_test(tc, test_byname_deep);
	tcase_add_test(tc, test_walk);
	tcase_add_test(tc, test_script);
	tcase_add_test(tc, test_subtitle);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(flame_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
