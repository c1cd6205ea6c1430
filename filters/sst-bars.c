/*
 * sst-bars: draw a TAB-separated table as stacked horizontal bars, one
 * per row, in a self-contained SVG: the first column labels the bar,
 * the columns drawn (-b, by default all the others, or idle, compute
 * and non-compute time for sst-gpu -F temporal's table) are its
 * segments, in the order given, with a legend and an axis from 0 to
 * the longest bar.  Cells are decoded from the sst(5) escapes, as
 * sst-table(1) reads them; a drawn cell is a finite number >= 0.
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "lines.h"
#include "svg.h"
#include "bars.h"

#define LABMAX	BARS_LABMAX
#define MAXCOLS	BARS_MAXCOLS

/* sst-gpu -F temporal's header: its columns 2 to 4 by default. */
static const char temporal[] = "rank\tidle_time(us)\tcompute_time(us)\t"
    "non_compute_time(us)\tkernel_time(us)\tidle_time_pctg\t"
    "compute_time_pctg\tnon_compute_time_pctg";

static __dead void
usage(int help)
{
	xusage(help, "usage: sst-bars [-B columns] [--title text] "
	    "[file]\n");
}

/* Parse -B: 1-based column numbers and ranges a-b, comma-separated. */
static void
parsecols(struct bars *t, const char *s)
{
	const char *err;
	char *d, *p, *q, *dash;
	long long a, b;

	d = xstrdup(s);
	for (p = d; p != NULL; p = q) {
		if ((q = strchr(p, ',')) != NULL)
			*q++ = '\0';
		b = -1;
		if ((dash = strchr(p, '-')) != NULL) {
			*dash = '\0';
			b = strtonum(dash + 1, 2, MAXCOLS, &err);
			if (err != NULL)
				errx(2, "-B: column %s: %s", dash + 1, err);
		}
		a = strtonum(p, 2, MAXCOLS, &err);
		if (err != NULL)
			errx(2, "-B: column %s: %s", p, err);
		if (b == -1)
			b = a;
		if (b < a)
			errx(2, "-B: empty range: %lld-%lld", a, b);
		for (; a <= b; a++) {
			if (t->ndraw == MAXCOLS)
				errx(2, "-B: more than %d columns", MAXCOLS);
			t->col[t->ndraw++] = (size_t)a - 1;
		}
	}
	free(d);
}

/* The header: its cells, and the columns drawn when -b gave none. */
static void
header(struct bars *t, struct lines *l, const char *line, size_t len)
{
	const char *p = line, *e = line + len, *q;
	size_t i;

	for (t->ncols = 0;; p = q + 1) {
		if ((q = memchr(p, '\t', (size_t)(e - p))) == NULL)
			q = e;
		if (t->ncols == MAXCOLS)
			errx(1, "%s:1: more than %d columns", lines_name(l),
			    MAXCOLS);
		buf_init(&t->head[t->ncols]);
		svg_text(&t->head[t->ncols++], p, (size_t)(q - p), SVG_XML,
		    0);
		if (q == e)
			break;
	}
	if (t->ndraw == 0 && len == strlen(temporal) &&
	    memcmp(line, temporal, len) == 0)
		parsecols(t, "2-4");
	else if (t->ndraw == 0)
		for (i = 1; i < t->ncols; i++)
			t->col[t->ndraw++] = i;
	for (i = 0; i < t->ndraw; i++)
		if (t->col[i] >= t->ncols)
			errx(1, "%s:1: -B: no column %zu: the table has %zu",
			    lines_name(l), t->col[i] + 1, t->ncols);
	if (t->ndraw == 0)
		errx(1, "%s:1: one column: sst-bars draws the numbers of the "
		    "columns after the first", lines_name(l));
}

/* One data row: its label, and its drawn cells read as numbers. */
static void
row(struct bars *t, struct lines *l, const char *line, size_t len)
{
	const char *cell[MAXCOLS], *p = line, *e = line + len, *q;
	size_t n[MAXCOLS], k = 0, i, j;
	double v, sum = 0;
	char *end, num[64];
	const char *why;

	for (;; p = q + 1) {
		if ((q = memchr(p, '\t', (size_t)(e - p))) == NULL)
			q = e;
		if (k < MAXCOLS)
			cell[k] = p, n[k] = (size_t)(q - p);
		k++;
		if (q == e)
			break;
	}
	if (k != t->ncols)
		errx(1, "%s:%llu: expected %zu cells", lines_name(l),
		    lines_lineno(l), t->ncols);
	if (t->nrows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->v = xreallocarray(t->v, t->cap * t->ndraw, sizeof(*t->v));
	}
	for (i = 0; i < t->ndraw; i++) {
		j = t->col[i];
		snprintf(num, sizeof(num), "%.*s", (int)n[j], cell[j]);
		v = strtod(num, &end);
		why = n[j] == 0 ? "an empty cell" : n[j] >= sizeof(num) ||
		    strspn(num, "0123456789.eE+-") != n[j] || *end != '\0' ?
		    "not a number: " : !isfinite(v) || !isfinite(sum + v) ?
		    "out of range: " : v < 0 ? "negative: " : NULL;
		if (why != NULL)
			errx(1, "%s:%llu: %s: %s%.*s", lines_name(l),
			    lines_lineno(l), t->head[j].data, why,
			    n[j] == 0 ? 0 : (int)n[j], cell[j]);
		t->v[t->nrows * t->ndraw + i] = v;
		sum += v;
		svg_text(&t->tip, cell[j], n[j], SVG_XML, 0);
		buf_addc(&t->tip, '\0');
	}
	i = t->lab.len;
	svg_text(&t->lab, cell[0], n[0], SVG_XML, LABMAX);
	buf_addc(&t->lab, '\0');
	if ((j = bars_cplen(t->lab.data + i)) > t->labw)
		t->labw = j;
	t->nrows++;
}

int
main(int argc, char *argv[])
{
	static struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "title", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 }
	};
	static struct bars t;
	struct lines *l;
	const char *title = NULL, *path;
	char *line;
	size_t len;
	int ch, fd;

	sst_init();
	buf_init(&t.lab);
	buf_init(&t.tip);
	while ((ch = getopt_long(argc, argv, "B:h", lo, NULL)) != -1) {
		switch (ch) {
		case 'B':
			t.ndraw = 0;
			parsecols(&t, optarg);
			break;
		case 'h':
			usage(1);
		case 'L':
			title = optarg;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(0);
	path = argc == 1 ? argv[0] : "-";
	fd = xopen(path);
	l = lines_open(fd, path);
	while ((line = xlines_next(l, &len)) != NULL) {
		if (t.ncols == 0)
			header(&t, l, line, len);
		else
			row(&t, l, line, len);
	}
	if (t.nrows == 0)
		errx(1, "%s: no rows: sst-bars reads a TAB-separated table "
		    "with a header row, as sst-gpu writes", lines_name(l));
	bars_draw(stdout, &t, title);
	lines_close(l);
	xfshut(stdout, "stdout");
	return 0;
}
