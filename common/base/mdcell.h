/*
 * mdcell.h: the cells of a Markdown table (sst-table): how wide a cell
 * is in code points, whether it looks like a number (so that its column
 * is right-aligned), and its bytes made safe for a table row.
 */
#ifndef MDCELL_H
#define MDCELL_H

#include <stddef.h>

struct buf;

/* The number of code points in s[0..n): the bytes that are not 10xxxxxx. */
size_t	 md_cplen(const char *, size_t);
/* Does s[0..n) look like 1,234 or -12.5% or 0.37s, 12.0ms, 3µs or 4,096 B? */
int	 md_isnumeric(const char *, size_t);
/*
 * Append s[0..n) to b as a Markdown table cell: controls as spaces,
 * '|' as '\|' (the backslashes right before it doubled).
 */
void	 md_cell(struct buf *, const char *, size_t);

#endif
