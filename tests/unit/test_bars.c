/*
 * test_bars.c: Check suite for the stacked bars of sst-bars
 * (common/draw/bars.c): code points of a label, the common unit of the
 * drawn columns, and the geometry of one bar, worked out by hand in the
 * comments.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "bars.h"

static void	 mktable(struct bars *, const char *, const char *);
static void	 freetable(struct bars *);
static Suite	*bars_suite(void);

/* A table of one row "r", two drawn columns headed h1 and h2, 1 and 3. */
static void
mktable(struct bars *t, const char *h1, const char *h2)
{
	static double v[2] = { 1, 3 };

	memset(t, 0, sizeof(*t));
	buf_init(&t->head[0]);
	buf_adds(&t->head[0], "rank");
	buf_addc(&t->head[0], '\0');
	buf_init(&t->head[1]);
	buf_adds(&t->head[1], h1);
	buf_addc(&t->head[1], '\0');
	buf_init(&t->head[2]);
	buf_adds(&t->head[2], h2);
	buf_addc(&t->head[2], '\0');
	t->ncols = 3;
	t->col[0] = 1;
	t->col[1] = 2;
	t->ndraw = 2;
	buf_init(&t->lab);
	buf_add(&t->lab, "r", 2);
	buf_init(&t->tip);
	buf_add(&t->tip, "1\0" "3", 4);
	t->v = v;
	t->nrows = 1;
	t->labw = 1;
}

/* Free what mktable() made. */
static void
freetable(struct bars *t)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		buf_free(&t->head[i]);
	buf_free(&t->lab);
	buf_free(&t->tip);
}

/* ASCII, two- and three-byte UTF-8: one code point each. */
START_TEST(test_cplen)
{
	ck_assert_uint_eq(bars_cplen(""), 0);
	ck_assert_uint_eq(bars_cplen("abc"), 3);
	ck_assert_uint_eq(bars_cplen("\xc2\xb5s"), 2);
	ck_assert_uint_eq(bars_cplen("a\xe2\x80\xa6z"), 3);
}
END_TEST

/* Same "(u)" everywhere: u ("us" as µs); else none. */
START_TEST(test_unit)
{
	struct bars t;

	mktable(&t, "idle(us)", "busy(us)");
	ck_assert_str_eq(bars_unit(&t), "\xc2\xb5s");
	freetable(&t);
	mktable(&t, "idle(ms)", "busy(ms)");
	ck_assert_str_eq(bars_unit(&t), "ms");
	freetable(&t);
	mktable(&t, "idle(ms)", "busy(us)");
	ck_assert_str_eq(bars_unit(&t), "");
	freetable(&t);
	mktable(&t, "idle", "busy(us)");
	ck_assert_str_eq(bars_unit(&t), "");
	freetable(&t);
}
END_TEST

/*
 * One bar of 1 + 3 with a one-character label: x0 = 10 + 7 * 1 + 10 =
 * 27, the plot 800 - 27 - 10 = 763 wide, so the scale is 763 / 4 =
 * 190.75: segments at x 27 (190.75 wide) and 217.75 (572.25 wide); no
 * title: the bar at y 10, the axis at 10 + 30 + 5 = 45, the legend at
 * 80, the picture 90 high.
 */
START_TEST(test_draw)
{
	struct bars t;
	char *out;
	size_t len;
	FILE *fp;

	mktable(&t, "idle(ms)", "busy(ms)");
	fp = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(fp);
	bars_draw(fp, &t, NULL);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(out, "width=\"800\" height=\"90\""));
	ck_assert_ptr_nonnull(strstr(out, "<rect x=\"27\" y=\"10\" "
	    "width=\"190.75\" height=\"20\" fill=\"#bab0ac\">"
	    "<title>r idle(ms): 1</title></rect>\n"));
	ck_assert_ptr_nonnull(strstr(out, "<rect x=\"217.75\" y=\"10\" "
	    "width=\"572.25\" height=\"20\" fill=\"#4e79a7\">"
	    "<title>r busy(ms): 3</title></rect>\n"));
	ck_assert_ptr_nonnull(strstr(out, "<line x1=\"27\" y1=\"45\" "
	    "x2=\"790\" y2=\"45\""));
	ck_assert_ptr_nonnull(strstr(out, ">4 ms</text>"));
	ck_assert_ptr_null(strstr(out, "<title>r</title>"));
	free(out);
	freetable(&t);
}
END_TEST

static Suite *
bars_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("bars");
	tc = tcase_create("core");
	tcase_add_test(tc, test_cplen);
	tcase_add_test(tc, test_unit);
	tcase_add_test(tc, test_draw);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(bars_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
