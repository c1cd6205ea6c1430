/*
 * bars.h: a table drawn as stacked horizontal bars in SVG (sst-bars)
 * (bars.c).
 */
#ifndef BARS_H
#define BARS_H

#include <stddef.h>
#include <stdio.h>

#include "buf.h"

#define BARS_MAXCOLS	64	/* columns of a table */
#define BARS_LABMAX	40	/* characters of a label, longer end in .. */

/* A table read: header cells, the columns drawn, labels and values. */
struct bars {
	struct buf	 head[BARS_MAXCOLS];	/* header cells, as SVG text */
	size_t		 ncols;
	size_t		 col[BARS_MAXCOLS];	/* columns drawn, from 0 */
	size_t		 ndraw;
	struct buf	 lab;		/* labels, SVG text, NUL-ended */
	struct buf	 tip;		/* drawn cells, ditto */
	double		*v;		/* nrows x ndraw values */
	size_t		 nrows, cap, labw;
};

/* The number of code points of the UTF-8 string s. */
size_t	 bars_cplen(const char *);
/*
 * The unit of the drawn columns when all their headers end in the same
 * "(u)" ("us" as "\xc2\xb5s"), in a static buffer; "" if they do not.
 */
const char *bars_unit(const struct bars *);
/*
 * Write the picture to fp: one bar a row, its segments the drawn
 * columns, an axis from 0 to the longest bar, a legend; the title (if
 * not NULL) above.
 */
void	 bars_draw(FILE *, const struct bars *, const char *);

#endif /* BARS_H */
