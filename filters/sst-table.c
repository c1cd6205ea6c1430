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
#include "mdcell.h"

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

static void	addrow(struct table *, const char *, size_t);
static void	readfile(struct table *, const char *, const char *);
static void	putrow(const struct table *, size_t, const char *);
static void	putsep(const struct table *, const char *);
static __dead void usage(int);

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
			md_cell(&t->text, t->cell.data, n);
			n = t->text.len - t->off[t->ncells];
		}
		if (t->nrows > 0)
			t->numeric[col] &= md_isnumeric(t->text.data +
			    t->off[t->ncells], n);
		t->off[++t->ncells] = t->text.len;
		n = md_cplen(t->text.data + t->off[t->ncells - 1], n);
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
		pad = t->width[c] - md_cplen(s, n);
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
