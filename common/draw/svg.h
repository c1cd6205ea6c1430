/*
 * svg.h: what sst-dot(1), sst-flame(1) and sst-timeline(1) share to
 * draw: names of the stream made safe for DOT and SVG text, weights
 * written with their unit, colours, and a time axis.
 */
#ifndef SVG_H
#define SVG_H

#include <stddef.h>
#include <stdio.h>

#include "buf.h"
#include "fmt.h"

/* How svg_text() quotes: inside a DOT "string" or in XML text. */
enum svg_quote {
	SVG_DOT,
	SVG_XML
};
/*
 * Append the escaped stream field s[0..n) decoded, quoted for q: a byte
 * that is a control character or not part of valid UTF-8 is written
 * as the text \xHH, and U+FFFE and U+FFFF, which XML 1.0 forbids, as
 * U+FFFD, so that the output is always valid UTF-8 and XML text.  At
 * most max characters (0: no limit); a longer name ends in "..".
 */
void	 svg_text(struct buf *, const char *, size_t, enum svg_quote, size_t);
/* v with at most two decimals, trailing zeros dropped ("1.5", "12"). */
char	*svg_num(char *, size_t, double);
/*
 * A weight as pprof labels it: seconds scaled to s, ms, us or ns,
 * bytes to B, kB, MB, GB (powers of 1024), counts as they are.
 */
char	*svg_weight(char *, size_t, double, enum sst_unit);
/* pprof's colour of a share in [-1, 1]: grey for 0, red up, green down. */
char	*svg_heat(char *, size_t, double, int);
/* The i-th colour of the thread palette, "" past its end. */
const char *svg_palette(size_t);
#define SVG_NPALETTE	11
#define SVG_OTHER	"#d9d9d9"	/* the threads past the palette */
/* What a frame is, for its colour in a flame graph. */
enum svg_kind {
	SK_ROOT,
	SK_THREAD,
	SK_PYTHON,
	SK_NATIVE,
	SK_KERNEL,
	SK_GPU,
	SK_MERGED
};
/* The kind of frame name s[0..n) at file f[0..fn), both escaped. */
enum svg_kind svg_kind(const char *, size_t, const char *, size_t);
/* Its colour "#rrggbb", varied by a hash of the name as flamegraph.pl. */
char	*svg_kindcolor(char *, size_t, enum svg_kind, const char *, size_t);
/*
 * The time axis of a timeline from t0 to t1 seconds, to fp: at each
 * multiple of a round step (1, 2, 5 or 10 times a power of ten, the
 * first at least a tenth of t1 - t0) a grid line at x = left + (v -
 * t0) * scale from y top - 8 to bottom, and its time at y top - 12,
 * set to the left of x when it would pass width.
 */
void	 svg_axis(FILE *, double, double, double, double, int, size_t,
	    double);

#endif
