/*
 * test_svg.c: Check suite for the drawing helpers (common/draw/svg.c): names
 * decoded and quoted for DOT and XML, control bytes and invalid UTF-8
 * as \xHH text, the length limit; numbers with two decimals at most;
 * weights scaled as pprof labels them; pprof's heat colours; the
 * palette; the kinds of frames and their colours; a timeline's time
 * axis, its round steps and tick positions worked out by hand.
 */

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tutil.h"
#include "svg.h"
#include "buf.h"
#include "fmt.h"

static Suite	*svg_suite(void);

/* svg_text of the NUL-terminated s into a static buffer. */
static const char *
text(const char *s, enum svg_quote q, size_t max)
{
	static struct buf b;

	buf_free(&b);
	buf_init(&b);
	svg_text(&b, s, strlen(s), q, max);
	return b.data;
}

START_TEST(test_text)
{
	ck_assert_str_eq(text("plain", SVG_DOT, 0), "plain");
	ck_assert_str_eq(text("a\\x3bb", SVG_DOT, 0), "a;b");
	ck_assert_str_eq(text("say \"hi\"", SVG_DOT, 0), "say \\\"hi\\\"");
	ck_assert_str_eq(text("back\\\\slash", SVG_DOT, 0),
	    "back\\\\slash");
	ck_assert_str_eq(text("\\e", SVG_DOT, 0), "");
	ck_assert_str_eq(text("t\\tab", SVG_DOT, 0), "t\\\\x09ab");
	ck_assert_str_eq(text("t\\tab", SVG_XML, 0), "t\\x09ab");
	ck_assert_str_eq(text("<a&b>\"", SVG_XML, 0),
	    "&lt;a&amp;b&gt;&quot;");
	ck_assert_str_eq(text("<a&b>", SVG_DOT, 0), "<a&b>");
	/* UTF-8 stays, invalid bytes become text. */
	ck_assert_str_eq(text("\xc3\xa9t\xc3\xa9", SVG_XML, 0),
	    "\xc3\xa9t\xc3\xa9");
	ck_assert_str_eq(text("\xff\xc3", SVG_XML, 0), "\\xff\\xc3");
	ck_assert_str_eq(text("\xed\xa0\x80", SVG_DOT, 0),
	    "\\\\xed\\\\xa0\\\\x80");
	/* U+FFFE and U+FFFF, which XML forbids, become U+FFFD. */
	ck_assert_str_eq(text("a\xef\xbf\xbe\xef\xbf\xbf" "b", SVG_XML, 0),
	    "a\xef\xbf\xbd\xef\xbf\xbd" "b");
	ck_assert_str_eq(text("\xef\xbf\xbf", SVG_DOT, 0), "\xef\xbf\xbd");
	ck_assert_str_eq(text("\xef\xbf\xbe\xef\xbf\xbe\xef\xbf\xbe", SVG_XML,
	    2), "..");
	/* The noncharacters that XML allows stay. */
	ck_assert_str_eq(text("\xef\xb7\x90\xf0\x9f\xbf\xbe", SVG_XML, 0),
	    "\xef\xb7\x90\xf0\x9f\xbf\xbe");
	/* At most max characters, a longer name ending in "..". */
	ck_assert_str_eq(text("abcdefgh", SVG_XML, 5), "abc..");
	ck_assert_str_eq(text("abcde", SVG_XML, 5), "abcde");
	ck_assert_str_eq(text("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", SVG_XML, 3),
	    "\xc3\xa9..");
	ck_assert_str_eq(text("\xc3\xa9\xc3\xa9\xc3\xa9", SVG_XML, 3),
	    "\xc3\xa9\xc3\xa9\xc3\xa9");
}
END_TEST

START_TEST(test_num)
{
	char b[FMTBUF];

	ck_assert_str_eq(svg_num(b, sizeof(b), 12), "12");
	ck_assert_str_eq(svg_num(b, sizeof(b), 1.5), "1.5");
	ck_assert_str_eq(svg_num(b, sizeof(b), 666.666), "666.67");
	ck_assert_str_eq(svg_num(b, sizeof(b), 0.001), "0");
	ck_assert_str_eq(svg_num(b, sizeof(b), -0.001), "0");
	ck_assert_str_eq(svg_num(b, sizeof(b), 100.10), "100.1");
}
END_TEST

START_TEST(test_weight)
{
	char b[FMTBUF];

	ck_assert_str_eq(svg_weight(b, sizeof(b), 1, U_SECONDS), "1s");
	ck_assert_str_eq(svg_weight(b, sizeof(b), 16.638, U_SECONDS),
	    "16.64s");
	ck_assert_str_eq(svg_weight(b, sizeof(b), 0.25, U_SECONDS), "250ms");
	ck_assert_str_eq(svg_weight(b, sizeof(b), 0.0000125, U_SECONDS),
	    "12.5us");
	ck_assert_str_eq(svg_weight(b, sizeof(b), 3e-9, U_SECONDS), "3ns");
	/* What rounds to 1 of a unit is written in it, not as 1000. */
	ck_assert_str_eq(svg_weight(b, sizeof(b), 0.01 - 0.009, U_SECONDS),
	    "1ms");
	ck_assert_str_eq(svg_weight(b, sizeof(b), 0.999999, U_SECONDS), "1s");
	ck_assert_str_eq(svg_weight(b, sizeof(b), 0.99999, U_SECONDS),
	    "999.99ms");
	ck_assert_str_eq(svg_weight(b, sizeof(b), 0, U_SECONDS), "0");
	ck_assert_str_eq(svg_weight(b, sizeof(b), 1023, U_BYTES), "1023B");
	ck_assert_str_eq(svg_weight(b, sizeof(b), 1536, U_BYTES), "1.5kB");
	ck_assert_str_eq(svg_weight(b, sizeof(b), 3 * 1048576.0, U_BYTES),
	    "3MB");
	ck_assert_str_eq(svg_weight(b, sizeof(b), 1234567, U_NONE),
	    "1234567");
	ck_assert_str_eq(svg_weight(b, sizeof(b), 2.5, U_NONE), "2.5");
}
END_TEST

START_TEST(test_heat)
{
	char b[16];

	/* pprof's dotColor: grey at 0, full red at 1, green below 0. */
	ck_assert_str_eq(svg_heat(b, sizeof(b), 0, 0), "#b2b2b2");
	ck_assert_str_eq(svg_heat(b, sizeof(b), 1, 0), "#b20000");
	ck_assert_str_eq(svg_heat(b, sizeof(b), 2, 0), "#b20000");
	ck_assert_str_eq(svg_heat(b, sizeof(b), -1, 0), "#00b200");
	ck_assert_str_eq(svg_heat(b, sizeof(b), 0.625, 0), "#b21700");
	ck_assert_str_eq(svg_heat(b, sizeof(b), 0.06, 0), "#b29b7c");
	ck_assert_str_eq(svg_heat(b, sizeof(b), 0, 1), "#ededed");
}
END_TEST

START_TEST(test_palette)
{
	size_t i, j;

	for (i = 0; i < SVG_NPALETTE; i++) {
		ck_assert_uint_eq(strlen(svg_palette(i)), 7);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(svg_palette(i), svg_palette(j));
		ck_assert_str_ne(svg_palette(i), SVG_OTHER);
	}
	ck_assert_str_eq(svg_palette(SVG_NPALETTE), "");
}
END_TEST

/* The kind of frame name s at file f. */
static enum svg_kind
kind(const char *s, const char *f)
{
	return svg_kind(s, strlen(s), f, strlen(f));
}

START_TEST(test_kind)
{
	char b[16];
	unsigned r, g, bl;

	ck_assert_int_eq(kind("run", "/usr/lib/python3.11/threading.py"),
	    SK_PYTHON);
	ck_assert_int_eq(kind("<module>", ""), SK_PYTHON);
	ck_assert_int_eq(kind("f", "x.pyx"), SK_PYTHON);
	ck_assert_int_eq(kind("__memmove_avx", "libc.so.6"), SK_NATIVE);
	ck_assert_int_eq(kind("void at::native::elementwise_kernel<128>(int)",
	    ""), SK_GPU);
	ck_assert_int_eq(kind("Memcpy HtoD (Pageable -> Device)", ""), SK_GPU);
	ck_assert_int_eq(kind("render", "app/main.js"), SK_PYTHON);
	ck_assert_int_eq(kind("main", ""), SK_NATIVE);
	ck_assert_int_eq(kind("do_syscall_64_[k]", ""), SK_KERNEL);
	ck_assert_int_eq(kind("schedule", "[kernel.kallsyms]"), SK_KERNEL);
	ck_assert_int_eq(kind("ampere_sgemm_128x64", ""), SK_GPU);
	ck_assert_int_eq(kind("ncclKernel_AllReduce", ""), SK_GPU);
	ck_assert_int_eq(kind("cudaLaunchKernel", "libcudart.so"), SK_GPU);
	/* Python: red full, green above blue; native: red above green. */
	svg_kindcolor(b, sizeof(b), SK_PYTHON, "run", 3);
	ck_assert_int_eq(sscanf(b, "#%2x%2x%2x", &r, &g, &bl), 3);
	ck_assert_uint_ge(r, 225);
	ck_assert_uint_gt(g, bl);
	svg_kindcolor(b, sizeof(b), SK_NATIVE, "main", 4);
	ck_assert_int_eq(sscanf(b, "#%2x%2x%2x", &r, &g, &bl), 3);
	ck_assert_uint_gt(r, g + 40);
	svg_kindcolor(b, sizeof(b), SK_GPU, "gemm", 4);
	ck_assert_int_eq(sscanf(b, "#%2x%2x%2x", &r, &g, &bl), 3);
	ck_assert_uint_gt(g, r);
	svg_kindcolor(b, sizeof(b), SK_MERGED, "x", 1);
	ck_assert_str_eq(b, "#a0a0a0");
	/* The same name, the same colour. */
	svg_kindcolor(b, sizeof(b), SK_PYTHON, "run", 3);
	ck_assert_str_eq(b, svg_kindcolor((char[16]){ 0 }, 16, SK_PYTHON,
	    "run", 3));
}
END_TEST

/* The arguments of one svg_axis() call, for tu_capture(). */
struct axisarg {
	double		 t0, t1, left, scale;
	int		 top;
	size_t		 bottom;
	double		 width;
};

static void
axis(void *arg)
{
	const struct axisarg *a = arg;

	svg_axis(stdout, a->t0, a->t1, a->left, a->scale, a->top, a->bottom,
	    a->width);
}

/*
 * 0 to 25 s: a tenth is 2.5, its power of ten 1; steps 1 and 2 are
 * below 2.5, so 5: ticks 0, 5, ..., 25 at x = 10 + 4v = 10, 30, ...,
 * 110; lines from 64 - 8 to 100, labels at 64 - 12, two pixels right
 * of x, or left of it (anchored at the end) where x + 40 > 120: 90, 110.
 */
START_TEST(test_axis)
{
	struct axisarg a = { 0, 25, 10, 4, 64, 100, 120 };
	char *out;

	out = tu_capture(axis, &a);
	ck_assert_str_eq(out,
	    "<line x1=\"10.00\" y1=\"56\" x2=\"10.00\" y2=\"100\" "
	    "class=\"grid\"/>\n"
	    "<text x=\"12.00\" y=\"52\" class=\"tick\">0</text>\n"
	    "<line x1=\"30.00\" y1=\"56\" x2=\"30.00\" y2=\"100\" "
	    "class=\"grid\"/>\n"
	    "<text x=\"32.00\" y=\"52\" class=\"tick\">5s</text>\n"
	    "<line x1=\"50.00\" y1=\"56\" x2=\"50.00\" y2=\"100\" "
	    "class=\"grid\"/>\n"
	    "<text x=\"52.00\" y=\"52\" class=\"tick\">10s</text>\n"
	    "<line x1=\"70.00\" y1=\"56\" x2=\"70.00\" y2=\"100\" "
	    "class=\"grid\"/>\n"
	    "<text x=\"72.00\" y=\"52\" class=\"tick\">15s</text>\n"
	    "<line x1=\"90.00\" y1=\"56\" x2=\"90.00\" y2=\"100\" "
	    "class=\"grid\"/>\n"
	    "<text x=\"88.00\" y=\"52\" class=\"tick\" "
	    "text-anchor=\"end\">20s</text>\n"
	    "<line x1=\"110.00\" y1=\"56\" x2=\"110.00\" y2=\"100\" "
	    "class=\"grid\"/>\n"
	    "<text x=\"108.00\" y=\"52\" class=\"tick\" "
	    "text-anchor=\"end\">25s</text>\n");
	free(out);
}
END_TEST

/*
 * 3 to 14 s: a tenth is 1.1, step 1 below it, so 2; the first tick is
 * the first multiple of 2 from 3: 4, then 6, ..., 14, at x = (v - 3) *
 * 10 = 10, 30, ..., 110.
 */
START_TEST(test_axis_offset)
{
	struct axisarg a = { 3, 14, 0, 10, 20, 50, 1000 };
	char *out;
	const char *p;
	int n = 0;

	out = tu_capture(axis, &a);
	for (p = out; (p = strstr(p, "<line")) != NULL; p++)
		n++;
	ck_assert_int_eq(n, 6);
	ck_assert(strncmp(out, "<line x1=\"10.00\" y1=\"12\" x2=\"10.00\" "
	    "y2=\"50\" class=\"grid\"/>\n<text x=\"12.00\" y=\"8\" "
	    "class=\"tick\">4s</text>\n", 104) == 0);
	ck_assert(strstr(out, "<text x=\"112.00\" y=\"8\" class=\"tick\">"
	    "14s</text>\n") != NULL);
	free(out);
}
END_TEST

static Suite *
svg_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("svg");
	tc = tcase_create("core");
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_num);
	tcase_add_test(tc, test_weight);
	tcase_add_test(tc, test_heat);
	tcase_add_test(tc, test_palette);
	tcase_add_test(tc, test_kind);
	tcase_add_test(tc, test_axis);
	tcase_add_test(tc, test_axis_offset);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(svg_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
