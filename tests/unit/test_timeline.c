/*
 * test_timeline.c: Check suite for the bars of a timeline
 * (common/draw/timeline.c): consecutive samples joined into one bar per
 * frame, a gap or another caller starting a new bar, nested spans,
 * threads apart, records added out of order, and the span; a span
 * drawn once however its self time lies around its children, equal
 * starts, the window and the blocks of bars narrower than a pixel.
 */

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec.h"
#include "timeline.h"

static void	 add(struct timeline *, const char *);
static const char *view(struct timeline *, double, double, double);
static const char *show(struct timeline *);
static Suite	*timeline_suite(void);

/* Add record line s (8 fields). */
static void
add(struct timeline *t, const char *s)
{
	struct sst_rec r;
	const char *why;
	char line[512];

	ck_assert_uint_lt(strlen(s), sizeof(line));
	strcpy(line, s);
	ck_assert_msg(rec_parse(line, strlen(line), &r, &why) == 0, "%s", why);
	ck_assert(r.hasstart);
	ck_assert_int_eq(tl_add(t, &r, &why), 0);
}

/*
 * The bars of the window [from, to) with pixel px as "thread/depth
 * name x0-x1 samples" (a block: "[count] x0-x1 total") joined by ", ".
 */
static const char *
view(struct timeline *t, double from, double to, double px)
{
	static char out[1024];
	const struct tl_bar *b;
	size_t i, n, len = 0;

	b = tl_view(t, from, to, px, &n);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		len += (size_t)snprintf(out + len, sizeof(out) - len,
		    "%s%zu/%zu ", i ? ", " : "", b[i].thread, b[i].depth);
		if (b[i].count > 1)
			len += (size_t)snprintf(out + len, sizeof(out) - len,
			    "[%zu] %g-%g %g", b[i].count, b[i].x0, b[i].x1,
			    b[i].total);
		else
			len += (size_t)snprintf(out + len, sizeof(out) - len,
			    "%.*s %g-%g %llu", (int)b[i].namelen, b[i].name,
			    b[i].x0, b[i].x1, (unsigned long long)b[i].samples);
	}
	return out;
}

/* All the bars, none merged. */
static const char *
show(struct timeline *t)
{
	return view(t, -INFINITY, INFINITY, 0);
}

START_TEST(test_samples)
{
	struct timeline *t = tl_new();
	double t0, t1;

	add(t, "T\t1\t1\tseconds\t1\tm;a\t\t0");
	add(t, "T\t1\t1\tseconds\t1\tm;a\t\t1");
	add(t, "T\t1\t1\tseconds\t1\tm;b\t\t2");
	add(t, "T\t1\t1\tseconds\t1\tm\t\t3");
	add(t, "T\t1\t1\tseconds\t1\tm;a\t\t4");
	/* A gap: m ends at 5, this starts at 6. */
	add(t, "T\t1\t1\tseconds\t1\tm;a\t\t6");
	ck_assert_str_eq(show(t), "0/0 m 0-5 5, 0/0 m 6-7 1, 0/1 a 0-2 2, "
	    "0/1 b 2-3 1, 0/1 a 4-5 1, 0/1 a 6-7 1");
	ck_assert_uint_eq(tl_nthreads(t), 1);
	ck_assert_uint_eq(tl_depth(t, 0), 2);
	tl_span(t, &t0, &t1);
	ck_assert(t0 == 0 && t1 == 7);
	tl_free(t);
}
END_TEST

START_TEST(test_callers)
{
	struct timeline *t = tl_new();

	/* The same leaf under another caller is another bar. */
	add(t, "T\t1\t1\tseconds\t1\tm;x;a\t\t0");
	add(t, "T\t1\t1\tseconds\t1\tm;y;a\t\t1");
	ck_assert_str_eq(show(t), "0/0 m 0-2 2, 0/1 x 0-1 1, 0/1 y 1-2 1, "
	    "0/2 a 0-1 1, 0/2 a 1-2 1");
	tl_free(t);
}
END_TEST

START_TEST(test_spans)
{
	struct timeline *t = tl_new();

	/*
	 * Added child first: sorting puts the outer span first.  A span
	 * weighs its self time: step covers 3 + 0.5 + 1 from 2.
	 */
	add(t, "T\t1\t0.5\tseconds\t0.5\tstep;fwd\t\t2");
	add(t, "T\t1\t3\tseconds\t3\tstep\t\t2");
	add(t, "U\t1\t1\tseconds\t1\tio\t\t0");
	add(t, "T\t1\t1\tseconds\t1\tstep;bwd\t\t3");
	ck_assert_str_eq(show(t), "0/0 step 2-6.5 3, 0/1 fwd 2-2.5 1, "
	    "0/1 bwd 3-4 1, 1/0 io 0-1 1");
	ck_assert_uint_eq(tl_nthreads(t), 2);
	ck_assert_uint_eq(tl_depth(t, 1), 1);
	tl_free(t);
}
END_TEST

START_TEST(test_locations)
{
	struct timeline *t = tl_new();
	const struct tl_bar *b;
	size_t n;

	add(t, "T\t1\t1\tseconds\t1\tm;f\tm.py:1::0;lib.c:2::1\t0");
	add(t, "T\t1\t1\tseconds\t1\tm\t\t1");
	b = tl_view(t, 0, 2, 0, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq((int)b[0].filelen, 9);
	ck_assert(memcmp(b[0].file, "m.py:1::0", 9) == 0);
	ck_assert_int_eq((int)b[1].filelen, 10);
	ck_assert(memcmp(b[1].file, "lib.c:2::1", 10) == 0);
	tl_free(t);
}
END_TEST

START_TEST(test_skip)
{
	struct timeline *t = tl_new();

	add(t, "T\t0\t0\tseconds\t-\tm\t\t0");
	add(t, "T\t1\t1\tseconds\t1\t\t\t0");
	ck_assert_uint_eq(tl_count(t), 0);
	tl_free(t);
}
END_TEST

START_TEST(test_once)
{
	struct timeline *t = tl_new();
	double t0, t1;

	/*
	 * P runs 0..10 with 5 s of its own, between its children C1
	 * (0..1) and C2 (6..10), each all in its child G: its record
	 * covers 0..5 alone, with its children 0..10, one bar.
	 */
	add(t, "T\t1\t5\tseconds\t5\tP\t\t0");
	add(t, "T\t1\t0\tseconds\t0\tP;C1\t\t0");
	add(t, "T\t1\t1\tseconds\t1\tP;C1;G\t\t0");
	add(t, "T\t1\t0\tseconds\t0\tP;C2\t\t6");
	add(t, "T\t1\t4\tseconds\t4\tP;C2;G\t\t6");
	/* The next call of P, after a gap: another bar. */
	add(t, "T\t1\t1\tseconds\t1\tP\t\t11");
	ck_assert_str_eq(show(t), "0/0 P 0-10 5, 0/0 P 11-12 1, "
	    "0/1 C1 0-1 2, 0/1 C2 6-10 2, 0/2 G 0-1 1, 0/2 G 6-10 1");
	tl_span(t, &t0, &t1);
	ck_assert(t0 == 0 && t1 == 12);
	tl_free(t);
}
END_TEST

START_TEST(test_gap)
{
	struct timeline *t = tl_new();

	/* A sample does not cover the deeper one after a gap. */
	add(t, "T\t1\t1\tseconds\t1\tm\t\t0");
	add(t, "T\t1\t1\tseconds\t1\tm;a\t\t5");
	ck_assert_str_eq(show(t), "0/0 m 0-1 1, 0/0 m 5-6 1, 0/1 a 5-6 1");
	tl_free(t);
}
END_TEST

START_TEST(test_ties)
{
	struct timeline *t = tl_new();

	/*
	 * At equal starts a record comes before those under it, whatever
	 * the input order, and an empty sibling does not cut B from C.
	 */
	add(t, "T\t1\t1\tseconds\t1\tP;B;C\t\t1");
	add(t, "T\t1\t0\tseconds\t0\tP;A\t\t1");
	add(t, "T\t1\t1\tseconds\t1\tP;B\t\t1");
	add(t, "T\t1\t1\tseconds\t1\tP;Bz\t\t3");
	add(t, "T\t1\t1\tseconds\t1\tP\t\t0");
	ck_assert_str_eq(show(t), "0/0 P 0-4 5, 0/1 A 1-1 1, 0/1 B 1-3 2, "
	    "0/1 Bz 3-4 1, 0/2 C 1-2 1");
	tl_free(t);
}
END_TEST

START_TEST(test_window)
{
	struct timeline *t = tl_new();
	const struct tl_bar *b;
	size_t n;

	add(t, "T\t1\t1\tseconds\t1\tm;a\t\t0");
	add(t, "T\t1\t1\tseconds\t1\tm;b\t\t1");
	add(t, "T\t1\t1\tseconds\t1\tm;a\t\t2");
	add(t, "T\t1\t1\tseconds\t1\tm;b\t\t3");
	/* a 0-1 ends where the window begins, b 3-4 begins at its end. */
	ck_assert_str_eq(view(t, 1, 3, 0), "0/0 m 1-3 4, 0/1 b 1-2 1, "
	    "0/1 a 2-3 1");
	b = tl_view(t, 1.5, 2.5, 0, &n);
	ck_assert_uint_eq(n, 3);
	ck_assert(b[0].x0 == 1.5 && b[0].x1 == 2.5);
	ck_assert(b[0].start == 0 && b[0].end == 4);
	ck_assert(b[2].start == 2 && b[2].end == 3 && b[2].x0 == 2);
	ck_assert_uint_eq(tl_depth(t, 0), 2);
	tl_free(t);
}
END_TEST

/*
 * -t from,to parsed by tl_window(): the bounds, and each bad window's
 * message (the program writes it and exits 2); the texts are the ones
 * sst-timeline(1) wrote when tl_window() exited itself.
 */
START_TEST(test_tlwindow)
{
	struct tl_window w;
	char msg[256], longb[80];

	ck_assert_int_eq(tl_window(&w, "1.5,50%", msg, sizeof(msg)), 0);
	ck_assert(w.set[0] && w.set[1] && !w.pct[0] && w.pct[1]);
	ck_assert(w.v[0] == 1.5 && w.v[1] == 50);
	ck_assert_int_eq(tl_window(&w, ",2", msg, sizeof(msg)), 0);
	ck_assert(!w.set[0] && w.set[1] && w.v[1] == 2);
	ck_assert_int_eq(tl_window(&w, "x", msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "-t: expected from,to, got x");
	ck_assert_int_eq(tl_window(&w, "1,0", msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "-t: from 1 is not before to 0");
	ck_assert_int_eq(tl_window(&w, "0,200%", msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "-t: expected seconds >= 0 or a percentage "
	    "from 0% to 100%, got 200%");
	ck_assert_int_eq(tl_window(&w, "-1,", msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "-t: expected seconds >= 0 or a percentage "
	    "from 0% to 100%, got -1");
	memset(longb, '1', 64);
	strcpy(longb + 64, ",");
	ck_assert_int_eq(tl_window(&w, longb, msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "-t: bound too long: "
	    "1111111111111111111111111111111111111111111111111111111111111111");
}
END_TEST

START_TEST(test_blocks)
{
	struct timeline *t = tl_new();
	const struct tl_bar *b;
	size_t n;

	/*
	 * Pixels of 1 s.  On row 1: n1 and n2 (0.5 s each, 0.1 s apart)
	 * are one block; w (3 s) is drawn; n3 alone stays a bar; n4 and
	 * n5 are a block: n4 is 1.25 s after n3, n5 0.5 s after n4.  On
	 * row 0, r has the same gaps, and r from 7.75 to 12 is wide.
	 */
	add(t, "T\t1\t0.5\tseconds\t0.5\tr;n1\t\t0");
	add(t, "T\t1\t0.5\tseconds\t0.5\tr;n2\t\t0.6");
	add(t, "T\t1\t3\tseconds\t3\tr;w\t\t2");
	add(t, "T\t1\t0.25\tseconds\t0.25\tr;n3\t\t5.5");
	add(t, "T\t1\t0.25\tseconds\t0.25\tr;n4\t\t7");
	add(t, "T\t1\t0.25\tseconds\t0.25\tr;n5\t\t7.75");
	add(t, "T\t1\t4\tseconds\t4\tr\t\t8");
	ck_assert_str_eq(view(t, -INFINITY, INFINITY, 1), "0/0 [2] 0-1.1 1, "
	    "0/0 r 2-5 1, 0/0 r 5.5-5.75 1, 0/0 r 7-7.25 1, "
	    "0/0 r 7.75-12 2, 0/1 [2] 0-1.1 1, 0/1 w 2-5 1, "
	    "0/1 n3 5.5-5.75 1, 0/1 [2] 7-8 0.5");
	b = tl_view(t, -INFINITY, INFINITY, 1, &n);
	ck_assert_uint_eq(n, 9);
	ck_assert(b[5].start == 0 && b[5].end == 1.1 && b[5].namelen == 0);
	/* Finer pixels: nothing is narrow. */
	ck_assert_str_eq(view(t, -INFINITY, INFINITY, 0.1), "0/0 r 0-0.5 1, "
	    "0/0 r 0.6-1.1 1, 0/0 r 2-5 1, 0/0 r 5.5-5.75 1, "
	    "0/0 r 7-7.25 1, 0/0 r 7.75-12 2, 0/1 n1 0-0.5 1, "
	    "0/1 n2 0.6-1.1 1, 0/1 w 2-5 1, 0/1 n3 5.5-5.75 1, "
	    "0/1 n4 7-7.25 1, 0/1 n5 7.75-8 1");
	tl_free(t);
}
END_TEST

START_TEST(test_cap)
{
	struct timeline *t = tl_new();
	char line[64];
	int i;

	/* Twelve bars of 0.5 s a second apart: blocks of 10 pixels. */
	for (i = 0; i < 12; i++) {
		snprintf(line, sizeof(line), "T\t1\t0.5\tseconds\t0.5\tk\t\t%d",
		    i);
		add(t, line);
	}
	ck_assert_str_eq(view(t, -INFINITY, INFINITY, 1),
	    "0/0 [10] 0-9.5 5, 0/0 [2] 10-11.5 1");
	tl_free(t);
}
END_TEST

static Suite *
timeline_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("timeline");
	tc = tcase_create("core");
	tcase_add_test(tc, test_samples);
	tcase_add_test(tc, test_callers);
	tcase_add_test(tc, test_spans);
	tcase_add_test(tc, test_locations);
	tcase_add_test(tc, test_skip);
	tcase_add_test(tc, test_once);
	tcase_add_test(tc, test_gap);
	tcase_add_test(tc, test_ties);
	tcase_add_test(tc, test_window);
	tcase_add_test(tc, test_tlwindow);
	tcase_add_test(tc, test_blocks);
	tcase_add_test(tc, test_cap);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(timeline_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
