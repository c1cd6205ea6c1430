/*
 * sst-timeline: draw the per-sample or per-span records of an sst(5)
 * stream (those with a start time) as a timeline in SVG, Perfetto's
 * picture as one self-contained file: a track per thread, in
 * first-seen order, with a row per stack depth and a time axis over
 * the window -t (default: all of it).  A record covers its weight from
 * its start, and the records it encloses, with each frame of its
 * stack; consecutive records of a thread that share a frame and its
 * callers without a gap make one bar, so sampled stacks become a flame
 * chart and a span is one bar over its children.  Runs of bars
 * narrower than a pixel are drawn as blocks, so that the SVG stays
 * small whatever the input.  Every bar has a <title> tooltip.
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "rec.h"
#include "recread.h"
#include "fmt.h"
#include "svg.h"
#include "timeline.h"

#define MARGIN	10
#define ROW	16		/* a depth row */
#define HEAD	20		/* a thread's name above its rows */
#define TOP	64		/* title and axis */

static void	readfile(struct timeline *, const char *);
static size_t	locfile(const char *, size_t);
static void	head(struct timeline *, const char *, double, double, double,
		    size_t *);
static void	putbar(const struct tl_bar *, double, size_t, double,
		    struct buf *);
static void	draw(struct timeline *, const char *, double, double,
		    double);
static __dead void usage(int);

/* Keep the records of one input that have a start. */
static void
readfile(struct timeline *t, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	const char *why;
	char msg[1024];

	if ((rd = rec_openfile(path, msg, sizeof(msg))) == NULL)
		errx(1, "%s", msg);
	while (xrec_read(rd, &r)) {
		if (!r.hasstart) {
			if (r.samples == 0 && r.stacklen == 0)
				continue;
			xrec_fail(rd, "a record with no start time: "
			    "sst-timeline draws the per-sample or per-span "
			    "streams of -s (sst-flatten -s, trace2sst -s)");
		}
		if (r.unit != U_SECONDS)
			xrec_fail(rd, "unit %s: sst-timeline draws time "
			    "(seconds)", rec_unitname(r.unit));
		if (tl_add(t, &r, &why) == -1)
			errx(1, "%s", why);
	}
	rec_close(rd);
}

/* The length of the file of location entry s[0..n): up to its third
 * colon from the end, or all of it. */
static size_t
locfile(const char *s, size_t n)
{
	size_t k = 0, i = n;

	while (i > 0 && k < 3)
		if (s[--i] == ':')
			k++;
	return k == 3 ? i : n;
}

/*
 * The SVG's head, title, time axis from from to to at scale pixels a
 * second, and the threads' names; the tops of their tracks in y.
 */
static void
head(struct timeline *t, const char *title, double width, double from,
    double to, size_t *y)
{
	struct buf nb;
	const char *k;
	size_t th, n, height, nth = tl_nthreads(t);
	double scale = (width - 2 * MARGIN) / (to - from);

	buf_init(&nb);
	svg_text(&nb, title, strlen(title), SVG_XML, 0);
	y[0] = TOP;
	for (th = 0; th < nth; th++)
		y[th + 1] = y[th] + HEAD + tl_depth(t, th) * ROW + 8;
	height = y[nth] + MARGIN;
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
	    "height=\"%zu\" viewBox=\"0 0 %.0f %zu\">\n", width, height, width,
	    height);
	/*
	 * The document's title first: without one Chromium takes time
	 * quadratic in the number of <title> tooltips to open the file.
	 */
	printf("<title>%s</title>\n", nb.data);
	printf("<style>text { font-family: Verdana, sans-serif; "
	    "font-size: 11px; } .title { font-size: 16px; } "
	    ".thread { font-weight: bold; } .tick { fill: #555; } "
	    ".grid { stroke: #ddd; } rect.bar { stroke: white; "
	    "stroke-width: 0.5; }</style>\n");
	printf("<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	printf("<text x=\"%d\" y=\"24\" class=\"title\">%s</text>\n", MARGIN,
	    nb.data);
	svg_axis(stdout, from, to, MARGIN, scale, TOP, height - MARGIN,
	    width);
	for (th = 0; th < nth; th++) {
		k = tl_thread(t, th, &n);
		buf_reset(&nb);
		svg_text(&nb, k, n, SVG_XML, 0);
		printf("<text x=\"%d\" y=\"%zu\" class=\"thread\">%s</text>\n",
		    MARGIN, y[th] + 14, nb.data);
	}
	buf_free(&nb);
}

/* One bar, or block of narrow bars, at x0 and y, bw pixels wide. */
static void
putbar(const struct tl_bar *b, double x0, size_t y, double bw,
    struct buf *nb)
{
	char col[16], w1[FMTBUF], w2[FMTBUF], w3[FMTBUF];

	buf_reset(nb);
	if (b->count > 1) {
		svg_kindcolor(col, sizeof(col), SK_MERGED, "", 0);
		buf_printf(nb, "[%zu spans]", b->count);
		printf("<g><title>%zu spans narrower than a pixel: total %s, "
		    "start %s, duration %s</title>", b->count,
		    svg_weight(w3, sizeof(w3), b->total, U_SECONDS),
		    svg_weight(w1, sizeof(w1), b->start, U_SECONDS),
		    svg_weight(w2, sizeof(w2), b->end - b->start, U_SECONDS));
	} else {
		svg_kindcolor(col, sizeof(col), svg_kind(b->name, b->namelen,
		    b->file, locfile(b->file, b->filelen)), b->name,
		    b->namelen);
		svg_text(nb, b->name, b->namelen, SVG_XML, 0);
		printf("<g><title>%s: start %s, duration %s, samples %llu"
		    "</title>", nb->data,
		    svg_weight(w1, sizeof(w1), b->start, U_SECONDS),
		    svg_weight(w2, sizeof(w2), b->end - b->start, U_SECONDS),
		    (unsigned long long)b->samples);
	}
	printf("<rect class=\"bar\" x=\"%.2f\" y=\"%zu\" width=\"%.2f\" "
	    "height=\"%d\" fill=\"%s\"", x0, y, bw, ROW - 1, col);
	/* A block is as opaque as it is busy, at least 0.2. */
	if (b->count > 1)
		printf(" fill-opacity=\"%.2f\"", b->end > b->start ?
		    fmax(0.2, fmin(1, b->total / (b->end - b->start))) : 1);
	printf("/>");
	if (bw >= 24) {
		if (b->count == 1) {
			buf_reset(nb);
			svg_text(nb, b->name, b->namelen, SVG_XML,
			    (size_t)((bw - 6) / 7));
		} else if (nb->len > (size_t)((bw - 6) / 7))
			buf_reset(nb);
		if (nb->len > 0)
			printf("<text x=\"%.2f\" y=\"%zu\">%s</text>", x0 + 3,
			    y + 11, nb->data);
	}
	printf("</g>\n");
}

/* The picture of the window [from, to). */
static void
draw(struct timeline *t, const char *title, double width, double from,
    double to)
{
	const struct tl_bar *bar;
	struct buf nb;
	size_t i, *y, nbar;
	double scale;

	scale = (width - 2 * MARGIN) / (to - from);
	bar = tl_view(t, from, to, 1 / scale, &nbar);
	if (nbar == 0)
		errx(1, "nothing to draw from %g to %g seconds", from, to);
	buf_init(&nb);
	y = xreallocarray(NULL, tl_nthreads(t) + 1, sizeof(*y));
	head(t, title, width, from, to, y);
	for (i = 0; i < nbar; i++)
		putbar(&bar[i], MARGIN + (bar[i].x0 - from) * scale,
		    y[bar[i].thread] + HEAD + bar[i].depth * ROW,
		    (bar[i].x1 - bar[i].x0) * scale, &nb);
	printf("</svg>\n");
	free(y);
	buf_free(&nb);
}

/* The usage line: on stdout for help (exit 0), else on stderr (2). */
static void
usage(int help)
{
	xusage(help, "usage: sst-timeline [-t from,to] [--title text] "
	    "[--width px] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "title", required_argument, NULL, 'T' },
		{ "width", required_argument, NULL, 'W' },
		{ NULL, 0, NULL, 0 }
	};
	struct timeline *t;
	struct tl_window win;
	const char *title = "Timeline";
	char msg[256];
	double width = 1200, t0, t1, from, to;
	size_t i;
	int ch;

	sst_init();
	memset(&win, 0, sizeof(win));
	while ((ch = getopt_long(argc, argv, "ht:", lo, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		case 't':
			if (tl_window(&win, optarg, msg, sizeof(msg)) == -1)
				errx(2, "%s", msg);
			break;
		case 'T':
			title = optarg;
			break;
		case 'W':
			width = (double)xoptnum("--width", optarg, 100, 100000);
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;

	t = tl_new();
	if (argc == 0)
		readfile(t, NULL);
	for (i = 0; i < (size_t)argc; i++)
		readfile(t, argv[i]);
	if (tl_count(t) == 0)
		errx(1, "no record with a start time and samples to draw");
	tl_span(t, &t0, &t1);
	if (t1 <= t0)
		t1 = t0 + 1e-6;
	tl_inwindow(&win, t0, t1, &from, &to);
	if (to <= from)
		errx(1, "-t: the window from %g to %g seconds is empty",
		    from, to);
	draw(t, title, width, from, to);
	xfshut(stdout, "stdout");
	tl_free(t);
	return 0;
}
