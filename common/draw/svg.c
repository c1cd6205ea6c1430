/*
 * svg.c: drawing helpers of sst-dot(1) and sst-flame(1): names made
 * safe for DOT strings and XML text, weights with their unit as pprof
 * writes them, pprof's heat colours, the palette of threads (ColorBrewer
 * Set3, pastel colours that black text reads well on and neighbours
 * tell apart) and the colours of frame kinds in flame graphs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistr.h>

#include "svg.h"
#include "util.h"
#include "buf.h"
#include "esc.h"
#include "htab.h"
#include "fmt.h"

static const char *palette[SVG_NPALETTE] = {
	"#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
	"#b3de69", "#fccde5", "#bc80bd", "#ccebc5", "#ffed6f"
};

/* Append one byte c as DOT or XML wants it; hex: as text \xHH. */
static void
putbyte(struct buf *b, unsigned char c, enum svg_quote q, int hex)
{
	if (hex || c < 0x20 || c == 0x7f) {
		buf_printf(b, q == SVG_DOT ? "\\\\x%02x" : "\\x%02x", c);
		return;
	}
	if (q == SVG_DOT) {
		if (c == '"' || c == '\\')
			buf_addc(b, '\\');
		buf_addc(b, c);
		return;
	}
	switch (c) {
	case '&':
		buf_adds(b, "&amp;");
		break;
	case '<':
		buf_adds(b, "&lt;");
		break;
	case '>':
		buf_adds(b, "&gt;");
		break;
	case '"':
		buf_adds(b, "&quot;");
		break;
	default:
		buf_addc(b, c);
	}
}

void
svg_text(struct buf *b, const char *s, size_t n, enum svg_quote q,
    size_t max)
{
	char tmp[256], *d = tmp;
	const uint8_t *p, *e;
	ucs4_t uc;
	size_t len, chars = 0, total;
	int k;

	if (n > sizeof(tmp))
		d = xmalloc(n);
	len = esc_decode(d, s, n);
	p = (const uint8_t *)d;
	e = p + len;
	for (total = 0; p < e; p++)
		total += (*p & 0xc0) != 0x80;
	p = (const uint8_t *)d;
	while (p < e) {
		if (max > 0 && chars + 2 >= max && max < total) {
			buf_adds(b, "..");
			break;
		}
		chars++;
		if (*p < 0x80) {
			putbyte(b, *p++, q, 0);
			continue;
		}
		if ((k = u8_mbtoucr(&uc, p, (size_t)(e - p))) < 0) {
			putbyte(b, *p++, q, 1);
			continue;
		}
		/*
		 * U+FFFE and U+FFFF are UTF-8 that XML 1.0 forbids (its
		 * other forbidden characters, C0 controls and surrogates,
		 * are written as \xHH above): U+FFFD instead.
		 */
		if (uc == 0xfffe || uc == 0xffff)
			buf_adds(b, "\xef\xbf\xbd");
		else
			buf_add(b, p, (size_t)k);
		p += k;
	}
	if (d != tmp)
		free(d);
}

char *
svg_num(char *s, size_t n, double v)
{
	char *p;

	snprintf(s, n, "%.2f", v);
	if ((p = strchr(s, '.')) != NULL) {
		p += strlen(p);
		while (p[-1] == '0')
			*--p = '\0';
		if (p[-1] == '.')
			p[-1] = '\0';
	}
	if (strcmp(s, "-0") == 0)
		strlcpy(s, "0", n);
	return s;
}

char *
svg_weight(char *s, size_t n, double v, enum sst_unit u)
{
	static const char *tu[] = { "s", "ms", "us", "ns" };
	static const char *bu[] = { "B", "kB", "MB", "GB", "TB" };
	char nb[FMTBUF];
	double a = fabs(v);
	int i = 0;

	if (u == U_SECONDS && v != 0) {
		/* Not below 1 as written: 0.9999999 is 1s, not 1000ms. */
		while (i < 3 && a < 0.999995) {
			a *= 1000;
			v *= 1000;
			i++;
		}
		snprintf(s, n, "%s%s", svg_num(nb, sizeof(nb), v), tu[i]);
	} else if (u == U_BYTES) {
		while (i < 4 && a >= 1024) {
			a /= 1024;
			v /= 1024;
			i++;
		}
		snprintf(s, n, "%s%s", svg_num(nb, sizeof(nb), v), bu[i]);
	} else
		svg_num(s, n, v);
	return s;
}

char *
svg_heat(char *s, size_t n, double score, int bg)
{
	double sat = bg ? 0.1 : 1.0, val = bg ? 0.93 : 0.7, r, g, bl;

	if (isnan(score))
		score = 0;
	score = fmax(-1, fmin(1, score));
	if (fabs(score) < 0.2)
		sat *= fabs(score) / 0.2;
	if (score > 0)
		score = pow(score, 0.3);
	else if (score < 0)
		score = -pow(-score, 0.3);
	if (score < 0) {
		g = val;
		r = val * (1 + sat * score);
	} else {
		r = val;
		g = val * (1 - sat * score);
	}
	bl = val * (1 - sat);
	snprintf(s, n, "#%02x%02x%02x", (unsigned)(r * 255),
	    (unsigned)(g * 255), (unsigned)(bl * 255));
	return s;
}

const char *
svg_palette(size_t i)
{
	return i < SVG_NPALETTE ? palette[i] : "";
}

/* Whether s[0..n) ends in suffix x. */
static int
endsin(const char *s, size_t n, const char *x)
{
	size_t k = strlen(x);

	return n >= k && memcmp(s + n - k, x, k) == 0;
}

/* Whether s[0..n) holds x, ignoring case. */
static int
holds(const char *s, size_t n, const char *x)
{
	size_t i, k = strlen(x);

	for (i = 0; i + k <= n; i++)
		if (strncasecmp(s + i, x, k) == 0)
			return 1;
	return 0;
}

enum svg_kind
svg_kind(const char *s, size_t n, const char *f, size_t fn)
{
	if (endsin(s, n, "_[k]") || holds(f, fn, "[kernel") ||
	    holds(f, fn, "vmlinux"))
		return SK_KERNEL;
	/* CUDA kernels demangle to "void name<...>(...)". */
	if (holds(s, n, "cuda") || holds(s, n, "nccl") ||
	    holds(s, n, "memcpy") || holds(s, n, "memset") ||
	    holds(s, n, "gemm") || holds(s, n, "kernel") ||
	    (n > 5 && memcmp(s, "void ", 5) == 0) || holds(f, fn, "[gpu") ||
	    holds(s, n, "[gpu"))
		return SK_GPU;
	if (endsin(f, fn, ".py") || endsin(f, fn, ".pyx") ||
	    endsin(f, fn, ".js") || endsin(f, fn, ".mjs") ||
	    endsin(f, fn, ".ts") ||
	    (fn == 0 && n > 2 && s[0] == '<' && s[n - 1] == '>'))
		return SK_PYTHON;
	return SK_NATIVE;
}

char *
svg_kindcolor(char *s, size_t n, enum svg_kind k, const char *name,
    size_t len)
{
	double v;
	unsigned r, g, b;

	/* flamegraph.pl varies each colour by the name, so does this. */
	v = (double)(ht_hash(name, len) % 1000) / 1000;
	switch (k) {
	case SK_ROOT:
	case SK_THREAD:
		r = g = b = 200 + (unsigned)(30 * v);
		break;
	case SK_MERGED:
		r = g = b = 160;
		break;
	case SK_PYTHON:		/* yellow to orange */
		r = 225 + (unsigned)(30 * v);
		g = 140 + (unsigned)(95 * v);
		b = 30 + (unsigned)(70 * (1 - v));
		break;
	case SK_KERNEL:		/* orange-brown */
		r = 200 + (unsigned)(40 * v);
		g = 110 + (unsigned)(40 * v);
		b = 40;
		break;
	case SK_GPU:		/* aqua to green */
		r = 60 + (unsigned)(50 * v);
		g = 190 + (unsigned)(50 * v);
		b = 150 + (unsigned)(40 * v);
		break;
	default:		/* native: red */
		r = 220 + (unsigned)(35 * v);
		g = 70 + (unsigned)(90 * v);
		b = 50 + (unsigned)(40 * v);
	}
	snprintf(s, n, "#%02x%02x%02x", r, g, b);
	return s;
}

/* The time axis from t0 to t1: ticks at a round step, grid lines. */
void
svg_axis(FILE *fp, double t0, double t1, double left, double scale,
    int top, size_t bottom, double width)
{
	double raw, mag, step, v, x;
	char lb[FMTBUF];
	int i;

	raw = (t1 - t0) / 10;
	mag = pow(10, floor(log10(raw)));
	step = mag;
	for (i = 0; step < raw && i < 3; i++)
		step = mag * (i == 0 ? 2 : i == 1 ? 5 : 10);
	for (v = ceil(t0 / step) * step; v <= t1 + step * 1e-9; v += step) {
		x = left + (v - t0) * scale;
		fprintf(fp, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" "
		    "y2=\"%zu\" class=\"grid\"/>\n", x, top - 8, x, bottom);
		fprintf(fp, "<text x=\"%.2f\" y=\"%d\" class=\"tick\"%s>"
		    "%s</text>\n", x + (x + 40 > width ? -2 : 2), top - 12,
		    x + 40 > width ? " text-anchor=\"end\"" : "",
		    svg_weight(lb, sizeof(lb), v, U_SECONDS));
	}
}
