/*
 * bars.c: a TAB-separated table drawn as stacked horizontal bars, one
 * per row, in a self-contained SVG (sst-bars(1)): labels on the left,
 * the segments in turn in a fixed palette (grey first, HTA's idle),
 * each with a tooltip of its cell, an axis from 0 to the longest bar
 * with the columns' common unit, and a legend below.
 */
#include <stdio.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "svg.h"
#include "bars.h"

#define WIDTH	800	/* the picture */
#define PAD	10
#define BAR	20	/* a bar's height */
#define STEP	30	/* from one bar to the next */
#define CHARW	7	/* a character's width at 12 px, roughly */

/* Colours of the segments, in turn: grey first (HTA's idle). */
static const char *colour[] = {
	"#bab0ac", "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f"
};

/* The number of code points of s. */
size_t
bars_cplen(const char *s)
{
	size_t k = 0;

	for (; *s != '\0'; s++)
		k += ((unsigned char)*s & 0xc0) != 0x80;
	return k;
}

/* The unit of the drawn columns when all headers end in the same (u). */
const char *
bars_unit(const struct bars *t)
{
	static char u[64];
	const char *h, *o;
	size_t i;

	for (i = 0; i < t->ndraw; i++) {
		h = t->head[t->col[i]].data;
		if ((o = strrchr(h, '(')) == NULL || h[strlen(h) - 1] != ')' ||
		    strlen(o) > sizeof(u) || (i > 0 && strcmp(u, o + 1) != 0))
			return "";
		strlcpy(u, o + 1, sizeof(u));
	}
	u[strlen(u) - 1] = '\0';
	return strcmp(u, "us") == 0 ? "\xc2\xb5s" : u;
}

/* The picture. */
void
bars_draw(FILE *fp, const struct bars *t, const char *title)
{
	struct buf tb;
	const char *lab = t->lab.data, *tip = t->tip.data, *u;
	char a[32], b[32], c[32];
	double max = 0, s, scale, x0, plot;
	size_t r, i;
	int top, ax, ly, lx;

	for (r = 0; r < t->nrows; r++) {
		for (s = 0, i = 0; i < t->ndraw; i++)
			s += t->v[r * t->ndraw + i];
		if (s > max)
			max = s;
	}
	x0 = PAD + CHARW * t->labw + PAD;
	plot = WIDTH - x0 - PAD;
	scale = max > 0 ? plot / max : 0;
	top = title != NULL ? 40 : PAD;
	ax = top + (int)t->nrows * STEP + 5;
	ly = ax + 35;
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
	    "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
	    "font-size=\"12\">\n", WIDTH, ly + 10, WIDTH, ly + 10);
	buf_init(&tb);
	if (title != NULL) {
		svg_text(&tb, title, strlen(title), SVG_XML, 0);
		fprintf(fp, "<title>%s</title>\n", tb.data);
	}
	fprintf(fp, "<rect width=\"100%%\" height=\"100%%\" "
	    "fill=\"#ffffff\"/>\n");
	if (title != NULL)
		fprintf(fp, "<text x=\"%d\" y=\"24\" font-size=\"16\" "
		    "text-anchor=\"middle\">%s</text>\n", WIDTH / 2, tb.data);
	buf_free(&tb);
	for (r = 0; r < t->nrows; r++, lab += strlen(lab) + 1) {
		int y = top + (int)r * STEP;

		fprintf(fp, "<text x=\"%s\" y=\"%d\" text-anchor=\"end\">"
		    "%s</text>\n", svg_num(a, sizeof(a), x0 - PAD / 2),
		    y + 15, lab);
		for (s = 0, i = 0; i < t->ndraw; i++, tip += strlen(tip) + 1) {
			double v = t->v[r * t->ndraw + i];

			fprintf(fp, "<rect x=\"%s\" y=\"%d\" width=\"%s\" "
			    "height=\"%d\" fill=\"%s\"><title>%s %s: %s"
			    "</title></rect>\n", svg_num(a, sizeof(a), x0 +
			    s * scale), y, svg_num(b, sizeof(b), v * scale),
			    BAR, colour[i % 10], lab,
			    t->head[t->col[i]].data, tip);
			s += v;
		}
	}
	fprintf(fp, "<line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\" "
	    "stroke=\"#000000\"/>\n", svg_num(a, sizeof(a), x0), ax,
	    svg_num(b, sizeof(b), x0 + plot), ax);
	u = bars_unit(t);
	fprintf(fp, "<text x=\"%s\" y=\"%d\">0</text>\n<text x=\"%s\" "
	    "y=\"%d\" text-anchor=\"end\">%s%s%s</text>\n", a, ax + 15,
	    b, ax + 15, svg_num(c, sizeof(c), max),
	    *u != '\0' ? " " : "", u);
	for (lx = (int)x0, i = 0; i < t->ndraw; i++) {
		const char *h = t->head[t->col[i]].data;

		fprintf(fp, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\""
		    " fill=\"%s\"/>\n<text x=\"%d\" y=\"%d\">%s</text>\n",
		    lx, ly - 10, colour[i % 10], lx + 14, ly, h);
		lx += 14 + CHARW * (int)bars_cplen(h) + 16;
	}
	fprintf(fp, "</svg>\n");
}

