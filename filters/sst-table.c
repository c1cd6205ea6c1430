/*
 * sst-table: print TAB-separated rows as a Markdown table.  The first
 * line is the header row, the others are data rows.  Cells are decoded
 * from the sst(5) escapes.  Every column is as wide as its widest cell,
 * counted in UTF-8 code points; right-aligned columns are padded on the
 * left and end their separator with ':'.  Without -a, a column is
 * right-aligned when every one of its data cells looks like a number.
 * A cell is made safe for Markdown: '|' is escaped as '\|' and control
 * characters become spaces, unless -F ray asks for the bytes as Ray's
 * scripts print them.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "lines.h"
#include "esc.h"

/* How cells are written (-F). */
enum view {
	VIEW_MARKDOWN,			/* '|' escaped, controls as spaces */
	VIEW_RAY			/* the decoded bytes as they are */
};

struct table {
	struct buf	 text;		/* decoded cells, back to back */
	struct buf	 cell;		/* one decoded cell, before -F */
	enum view	 view;
	size_t		*off;		/* cell i is text[off[i]..off[i+1]) */
	size_t		 ncells;
	size_t		 cap;
	size_t		 ncols;		/* 0 until the header is read */
	size_t		 nrows;		/* data rows */
	size_t		*width;
	int		*numeric;
};

static size_t	cplen(const char *, size_t);
static int	isnumeric(const char *, size_t);
static void	mdcell(struct buf *, const char *, size_t);
static void	addrow(struct table *, const char *, size_t);
static void	readfile(struct table *, const char *, const char *);
static void	putrow(const struct table *, size_t, const char *);
static void	putsep(const struct table *, const char *);
static __dead void usage(int);

/* The number of code points in s: the bytes that are not 10xxxxxx. */
static size_t
cplen(const char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			k++;
	return k;
}

/* Does s look like 1,234 or -12.5% or 0.37s, 12.0ms, 3µs or 4,096 B? */
static int
isnumeric(const char *s, size_t n)
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
static void
mdcell(struct buf *b, const char *s, size_t n)
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

/* Decode the TAB-separated cells of one line into the table. */
static void
addrow(struct table *t, const char *line, size_t len)
{
	const char *p = line, *e = line + len, *q;
	size_t col = 0, n;

	for (;;) {
		if ((q = memchr(p, '\t', (size_t)(e - p))) == NULL)
			q = e;
		if (t->ncells + 1 >= t->cap) {
			t->cap *= 2;
			t->off = xreallocarray(t->off, t->cap, sizeof(*t->off));
		}
		if (t->view == VIEW_RAY) {
			buf_grow(&t->text, (size_t)(q - p));
			n = esc_decode(t->text.data + t->text.len, p,
			    (size_t)(q - p));
			t->text.len += n;
		} else {
			buf_reset(&t->cell);
			buf_grow(&t->cell, (size_t)(q - p));
			n = esc_decode(t->cell.data, p, (size_t)(q - p));
			mdcell(&t->text, t->cell.data, n);
			n = t->text.len - t->off[t->ncells];
		}
		if (t->nrows > 0)
			t->numeric[col] &= isnumeric(t->text.data +
			    t->off[t->ncells], n);
		t->off[++t->ncells] = t->text.len;
		n = cplen(t->text.data + t->off[t->ncells - 1], n);
		if (n > t->width[col])
			t->width[col] = n;
		col++;
		if (q == e)
			break;
		p = q + 1;
	}
}

/* Read the lines of one input; the very first line is the header. */
static void
readfile(struct table *t, const char *path, const char *align)
{
	struct lines *l;
	const char *p, *e;
	char *line;
	size_t len, n;
	int fd;

	fd = xopen(path);
	l = lines_open(fd, path);
	while ((line = xlines_next(l, &len)) != NULL) {
		for (n = 1, p = line, e = line + len;
		    (p = memchr(p, '\t', (size_t)(e - p))) != NULL; p++)
			n++;
		if (t->ncols == 0) {
			if (align != NULL && strlen(align) != n)
				errx(2, "-a: not %zu letters: %s", n,
				    align);
			t->ncols = n;
			t->width = xcalloc(n, sizeof(*t->width));
			t->numeric = xcalloc(n, sizeof(*t->numeric));
			for (n = 0; n < t->ncols; n++)
				t->numeric[n] = 1;
		} else if (n != t->ncols)
			errx(1, "%s:%llu: expected %zu cells", lines_name(l),
			    lines_lineno(l), t->ncols);
		else
			t->nrows++;
		addrow(t, line, len);
	}
	lines_close(l);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* Print row r (0 is the header), padding each cell to its column. */
static void
putrow(const struct table *t, size_t r, const char *align)
{
	const char *s;
	size_t c, i, n, pad;

	fputs("| ", stdout);
	for (c = 0; c < t->ncols; c++) {
		i = r * t->ncols + c;
		s = t->text.data + t->off[i];
		n = t->off[i + 1] - t->off[i];
		pad = t->width[c] - cplen(s, n);
		if (c > 0)
			fputs(" | ", stdout);
		if (align[c] == 'r')
			printf("%*s", (int)pad, "");
		fwrite(s, 1, n, stdout);
		if (align[c] != 'r')
			printf("%*s", (int)pad, "");
	}
	fputs(" |\n", stdout);
}

/* Print the separator row: dashes, ending in ':' when right-aligned. */
static void
putsep(const struct table *t, const char *align)
{
	size_t c, i, n;

	fputs("| ", stdout);
	for (c = 0; c < t->ncols; c++) {
		if (c > 0)
			fputs(" | ", stdout);
		n = t->width[c];
		if (align[c] == 'r' && n > 0)
			n--;
		for (i = 0; i < n; i++)
			putchar('-');
		if (align[c] == 'r')
			putchar(':');
	}
	fputs(" |\n", stdout);
}

static __dead void
usage(int help)
{
	xusage(help,
	    "usage: sst-table [-h] [-a align] [-F view] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct table t;
	const char *align = NULL;
	char *al;
	size_t c, r;
	int ch, i;

	sst_init();
	sst_longhelp(argc, argv, usage);
	memset(&t, 0, sizeof(t));
	while ((ch = getopt(argc, argv, "a:F:h")) != -1) {
		switch (ch) {
		case 'a':
			if (optarg[strspn(optarg, "lr")] != '\0')
				errx(2, "-a: invalid: %s", optarg);
			align = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "markdown") == 0)
				t.view = VIEW_MARKDOWN;
			else if (strcmp(optarg, "ray") == 0)
				t.view = VIEW_RAY;
			else
				errx(2, "-F: invalid: %s", optarg);
			break;
		case 'h':
			usage(1);
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;

	buf_init(&t.text);
	buf_init(&t.cell);
	t.cap = 1024;
	t.off = xreallocarray(NULL, t.cap, sizeof(*t.off));
	t.off[0] = 0;
	if (argc == 0)
		readfile(&t, NULL, align);
	for (i = 0; i < argc; i++)
		readfile(&t, argv[i], align);
	if (t.ncols > 0) {
		al = xmalloc(t.ncols);
		for (c = 0; c < t.ncols; c++)
			al[c] = align != NULL ? align[c] :
			    t.nrows > 0 && t.numeric[c] ? 'r' : 'l';
		putrow(&t, 0, al);
		putsep(&t, al);
		for (r = 1; r <= t.nrows; r++)
			putrow(&t, r, al);
		free(al);
	}
	buf_free(&t.text);
	buf_free(&t.cell);
	free(t.off);
	free(t.width);
	free(t.numeric);
	xfshut(stdout, "stdout");
	return 0;
}
