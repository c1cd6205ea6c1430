/*
 * mdcell.c: the cells of a Markdown table (mdcell.h), as sst-table
 * writes them: widths counted in UTF-8 code points, the shapes of
 * number that right-align a column, and the escaping that keeps a cell
 * on its row and in its column.
 */
#include <stddef.h>

#include "buf.h"
#include "mdcell.h"

/* The number of code points in s: the bytes that are not 10xxxxxx. */
size_t
md_cplen(const char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			k++;
	return k;
}

/* Does s look like 1,234 or -12.5% or 0.37s, 12.0ms, 3µs or 4,096 B? */
int
md_isnumeric(const char *s, size_t n)
{
	size_t i = 0, j;

	if (n > 0 && s[n - 1] == 's') {
		n--;
		if (n > 0 && (s[n - 1] == 'm' || s[n - 1] == 'n'))
			n--;
		else if (n > 1 && (unsigned char)s[n - 2] == 0xc2 &&
		    (unsigned char)s[n - 1] == 0xb5)
			n -= 2;
	} else if (n > 0 && s[n - 1] == '%')
		n--;
	else if (n > 2 && s[n - 2] == ' ' && s[n - 1] == 'B')
		n -= 2;
	if (i < n && s[i] == '-')
		i++;
	for (j = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == j || (i < n && s[i] == ',' && i - j > 3))
		return 0;
	while (i < n && s[i] == ',') {
		for (j = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i - j != 3)
			return 0;
	}
	if (i < n && s[i] == '.') {
		for (j = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == j)
			return 0;
	}
	return i == n;
}

/*
 * Append cell s of n bytes to b as a Markdown table cell: a control
 * character (below 0x20, and 0x7f) as a space, so that no newline
 * splits the row, and '|' as '\|', so that it adds no column; the
 * backslashes right before a '|' are doubled, so that none of them
 * escapes the next.
 */
void
md_cell(struct buf *b, const char *s, size_t n)
{
	size_t i, run = 0;
	unsigned char c;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		if (c == '|') {
			for (; run > 0; run--)
				buf_addc(b, '\\');
			buf_add(b, "\\|", 2);
			continue;
		}
		run = c == '\\' ? run + 1 : 0;
		buf_addc(b, c < 0x20 || c == 0x7f ? ' ' : c);
	}
}
