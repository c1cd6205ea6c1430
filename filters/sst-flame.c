/*
 * sst-flame: an sst(5) stream as one self-contained SVG flame graph:
 * a root, a tower per thread on it (unless -T merges them) and the
 * stacks' frames above, each as wide as its weight, coloured by kind
 * (Python, native, kernel, GPU), with a tooltip giving its name,
 * location, weight, samples and share.  The inline script zooms into a
 * frame on a click and searches by regular expression.  -i draws it
 * upside down (an icicle graph), -R with each stack reversed (the
 * callers of each leaf).  Frames narrower than --minwidth pixels are
 * merged into one per parent, so that huge profiles stay light.
 * Two-count folded lines "stack countA countB" (difffolded.pl, sst-diff
 * -F folded) give a differential flame graph: widths by countB, red
 * where it grew, blue where it shrank.
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callgraph.h"
#include "flame.h"
#include "svg.h"
#include "util.h"
#include "buf.h"
#include "rec.h"
#include "fmt.h"
#include "chain.h"

#define PAD	10		/* left and right */
#define TOP	44		/* above the frames */
#define BOTTOM	30		/* below */
#define FRAMEH	16		/* frame height with its gap */

struct fg {
	struct cg	 cg;
	struct flame	 t;
	int		 icicle, reverse, merge;
	double		 width, minwidth, span, maxdelta;
	size_t		 depth, height, nframes;
	int		 out;		/* 0: measure, 1: write */
	struct buf	 b;
	char		 mergenote[FMTBUF];
};

static void	add(void *, uint32_t, const uint32_t *, size_t,
		    const struct sst_rec *);
static void	frame(void *, uint32_t, size_t, double, double, size_t);
static void	title(struct fg *, uint32_t, size_t, double, enum svg_kind,
		    const char *, size_t, const char *, size_t, char *, size_t);
static void	draw(struct fg *, const char *);
static double	pixels(const char *, const char *, double);
static __dead void usage(int);

static void
add(void *arg, uint32_t tid, const uint32_t *ids, size_t n,
    const struct sst_rec *r)
{
	struct fg *f = arg;

	flame_add(&f->t, f->merge || f->cg.diff ? FLAME_NONE : tid, ids, n,
	    f->reverse, r->weight, f->cg.cura, r->samples);
}

/*
 * Into f->b: "<g><title>" and the tooltip of frame nd of kind k, name s
 * (len bytes), file file (flen), or with n > 0 of the n narrow
 * children of nd merged, w px wide; into c its fill colour.
 */
static void
title(struct fg *f, uint32_t nd, size_t n, double w, enum svg_kind k,
    const char *s, size_t len, const char *file, size_t flen, char *c,
    size_t clen)
{
	struct buf *b = &f->b;
	char xb[FMTBUF];
	const char *sn;
	size_t sl;
	double wt = f->t.w[nd], delta;

	buf_reset(b);
	buf_adds(b, "<g><title>");
	if (n > 0) {
		wt = w / f->span * f->cg.total;
		buf_printf(b, "[%zu frames]\n%s", n, f->mergenote);
	} else if (k == SK_THREAD) {
		/* The quoted short name first: labels and search use it. */
		sn = chain_shortthread(s, len, &sl);
		if (sl > 0 && sl < len) {
			svg_text(b, sn, sl, SVG_XML, 0);
			file = s;
			flen = len;
		} else
			svg_text(b, s, len, SVG_XML, 0);
	} else
		svg_text(b, s, len, SVG_XML, 0);
	if (flen > 0) {
		buf_addc(b, '\n');
		svg_text(b, file, flen, SVG_XML, 0);
	}
	buf_printf(b, "\n%s", svg_weight(c, clen, wt, f->cg.unit));
	if (n == 0 && !f->cg.diff)
		buf_printf(b, ", %llu sample%s",
		    (unsigned long long)f->t.samples[nd],
		    f->t.samples[nd] == 1 ? "" : "s");
	buf_printf(b, ", %.2f%%", 100 * wt / f->cg.total);
	delta = f->t.w[nd] - FLAME_WA(&f->t, nd);
	if (f->cg.diff && n == 0)
		buf_printf(b, "\nbefore %s, change %s%.2f%%",
		    svg_weight(xb, sizeof(xb), FLAME_WA(&f->t, nd),
		    f->cg.unit),
		    delta >= 0 ? "+" : "", 100 * delta / f->cg.total);
	if (f->cg.diff && n == 0 && nd > 0 && f->maxdelta > 0)
		flame_diffcolor(c, clen, delta, f->maxdelta);
	else
		svg_kindcolor(c, clen, k, s, len);
	buf_adds(b, "</title>");
}

/*
 * Write frame nd at depth d, x, width w px, or with n > 0 the n narrow
 * children of nd merged into one.
 */
static void
frame(void *arg, uint32_t nd, size_t d, double x, double w, size_t n)
{
	struct fg *f = arg;
	struct buf *b = &f->b;
	char xb[FMTBUF], wb[FMTBUF], yb[FMTBUF], c[16];
	const char *s, *sn, *file = "";
	size_t len, flen = 0, sl, fit;
	double y;
	enum svg_kind k = SK_ROOT;

	if (d > f->depth)
		f->depth = d;
	f->nframes++;
	if (!f->out)
		return;
	y = f->icicle ? TOP + (double)d * FRAMEH : (double)f->height -
	    BOTTOM - (double)(d + 1) * FRAMEH;
	s = flame_name(&f->t, &f->cg, (uint32_t)nd, &len);
	if (n > 0)
		k = SK_MERGED;
	else if (nd > 0 && (f->t.node[nd].func & FLAME_THREAD))
		k = SK_THREAD;
	else if (nd > 0) {
		file = cg_file(&f->cg, f->t.node[nd].func, &flen);
		k = svg_kind(s, len, file, flen);
	}
	title(f, nd, n, w, k, s, len, file, flen, c, sizeof(c));
	buf_printf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" "
	    "height=\"%d\" fill=\"%s\"/>", svg_num(xb, sizeof(xb), x),
	    svg_num(yb, sizeof(yb), y), svg_num(wb, sizeof(wb), w),
	    FRAMEH - 1, c);
	if ((fit = (size_t)fmax(0, floor((w - 6) / 7.1))) >= 3) {
		buf_printf(b, "<text x=\"%s\" y=\"%s\">",
		    svg_num(xb, sizeof(xb), x + 3), svg_num(yb, sizeof(yb),
		    y + 11));
		if (n > 0)
			buf_printf(b, "[%zu frames]", n);
		else {
			if (k == SK_THREAD) {
				sn = chain_shortthread(s, len, &sl);
				if (sl > 0)
					s = sn, len = sl;
			}
			svg_text(b, s, len, SVG_XML, fit);
		}
		buf_adds(b, "</text>");
	}
	buf_adds(b, "</g>\n");
	fwrite(b->data, 1, b->len, stdout);
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst-flame [-iRT] [--title title] [--width px] "
	    "[--minwidth px] [file ...]\n");
}

/* A number of pixels for option name, at least min. */
static double
pixels(const char *name, const char *s, double min)
{
	char *end;
	double v;

	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || !(v >= min && v <= 1e6))
		errx(2, "--%s: expected a number of pixels from %g to 1e6: %s",
		    name, min, s);
	return v;
}

/* The picture of the stacks read: its frames laid out, then written. */
static void
draw(struct fg *f, const char *title)
{
	char nb[FMTBUF];

	if (title == NULL)
		title = f->cg.diff ? "Differential Flame Graph" : f->icicle ?
		    "Icicle Graph" : "Flame Graph";
	f->span = f->width - 2 * PAD;
	flame_prune(&f->t, f->cg.total, f->span, f->minwidth);
	f->maxdelta = f->t.maxdelta;
	flame_byname(&f->t, &f->cg);
	snprintf(f->mergenote, sizeof(f->mergenote), "each narrower than %s "
	    "px, merged", svg_num(nb, sizeof(nb), f->minwidth));
	flame_walk(&f->t, PAD, f->cg.total, f->span, f->minwidth, frame, f);
	f->height = TOP + BOTTOM + (f->depth + 1) * FRAMEH;
	f->out = 1;
	flame_subtitle(&f->b, &f->cg);
	flame_page(f->width, f->height, PAD, f->icicle, title, f->b.data);
	flame_walk(&f->t, PAD, f->cg.total, f->span, f->minwidth, frame, f);
	fputs("</g>\n</svg>\n", stdout);
	xfshut(stdout, "stdout");
}

int
main(int argc, char *argv[])
{
	static struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "minwidth", required_argument, NULL, 'M' },
		{ "title", required_argument, NULL, 'L' },
		{ "width", required_argument, NULL, 'W' },
		{ NULL, 0, NULL, 0 }
	};
	struct fg f;
	const char *title = NULL;
	char msg[1024];
	size_t i;
	int ch;

	sst_init();
	memset(&f, 0, sizeof(f));
	f.width = 1200;
	f.minwidth = 0.1;
	while ((ch = getopt_long(argc, argv, "hiRT", lo, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		case 'i':
			f.icicle = 1;
			break;
		case 'L':
			title = optarg;
			break;
		case 'M':
			f.minwidth = pixels("minwidth", optarg, 0);
			break;
		case 'R':
			f.reverse = 1;
			break;
		case 'T':
			f.merge = 1;
			break;
		case 'W':
			f.width = pixels("width", optarg, 2 * PAD + 10);
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;

	cg_init(&f.cg);
	flame_init(&f.t);
	buf_init(&f.b);
	if (argc == 0 && cg_read(&f.cg, NULL, add, &f, msg, sizeof(msg)) == -1)
		errx(1, "%s", msg);
	for (i = 0; i < (size_t)argc; i++)
		if (cg_read(&f.cg, argv[i], add, &f, msg, sizeof(msg)) == -1)
			errx(1, "%s", msg);
	if (f.cg.samples == 0 || !(f.cg.total > 0))
		errx(1, "%s: no samples with weight: sst-flame reads an sst(5) "
		    "stream (sst-flatten, perf2sst and collapsed2sst write "
		    "one) or two-count folded lines", argc > 0 &&
		    strcmp(argv[argc - 1], "-") != 0 ? argv[argc - 1] :
		    "<stdin>");
	draw(&f, title);
	flame_free(&f.t);
	cg_free(&f.cg);
	buf_free(&f.b);
	return 0;
}
