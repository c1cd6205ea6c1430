/*
 * sst-tree: print chain rows (samples, weight, thread, chain), as
 * sst-callers(1), sst-callees(1) and sst-stacks(1) write them, the way
 * the reference analyze_pyspy_profile.py prints its caller stacks, its
 * call graph and its full stack dump: one block per row, one indented
 * line per frame.  Names are decoded from the sst(5) escapes.
 */
#include <err.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"

enum view { V_CALLERS, V_FULL, V_GCALLERS, V_GCALLEES };
enum mark { M_LAST, M_NAME, M_CALLEE };

struct row {
	uint64_t	 samples;
	double		 weight;
	size_t		 thread;	/* offsets into the text */
	size_t		 tlen;
	size_t		 chain;
	size_t		 clen;
};

struct tree {
	struct buf	 text;		/* the escaped thread and chain fields */
	struct buf	 scratch;	/* a decoded name */
	struct row	*rows;
	size_t		 n;
	size_t		 cap;
	const char	*name;		/* -m */
	double		 total;		/* -T */
	long long	 num;		/* -n */
	int		 hasnum;
};

static void	readfile(struct tree *, const char *);
static const char *decode(struct tree *, size_t, size_t, size_t *);
static double	pct(double, double);
static size_t	shown(const struct tree *, size_t);
static void	putchain(struct tree *, const struct row *, int, enum mark);
static void	putcallers(struct tree *, double);
static void	putfull(struct tree *);
static int	isdeep(const struct tree *, const struct row *);
static void	putgraph(struct tree *, int);
static __dead void usage(void);

/* Read the rows of one input. */
static void
readfile(struct tree *t, const char *path)
{
	struct lines *l;
	struct chainrow cr;
	struct row *r;
	const char *why;
	char *line;
	size_t len;
	int fd;

	fd = xopen(path);
	l = lines_open(fd, path);
	while ((line = lines_next(l, &len)) != NULL) {
		if (chainrow_parse(line, len, &cr, &why) == -1)
			errx(1, "%s:%llu: %s", lines_name(l), lines_lineno(l),
			    why);
		if (t->n == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 64;
			t->rows = xreallocarray(t->rows, t->cap,
			    sizeof(*t->rows));
		}
		r = &t->rows[t->n++];
		r->samples = cr.samples;
		r->weight = cr.weight;
		r->thread = t->text.len;
		r->tlen = cr.threadlen;
		buf_add(&t->text, cr.thread, cr.threadlen);
		r->chain = t->text.len;
		r->clen = cr.chainlen;
		buf_add(&t->text, cr.chain, cr.chainlen);
	}
	lines_close(l);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* The text[off, off + n) decoded from its escapes, in the scratch. */
static const char *
decode(struct tree *t, size_t off, size_t n, size_t *len)
{
	buf_reset(&t->scratch);
	buf_grow(&t->scratch, n + 1);
	*len = esc_decode(t->scratch.data, t->text.data + off, n);
	t->scratch.data[*len] = '\0';
	return t->scratch.data;
}

/* 100 * w / total, or 0 when total is 0. */
static double
pct(double w, double total)
{
	return total != 0 ? 100 * w / total : 0;
}

/* How many of k rows Python's rows[:num] keeps. */
static size_t
shown(const struct tree *t, size_t k)
{
	if (!t->hasnum)
		return k;
	if (t->num >= 0)
		return (unsigned long long)t->num < k ? (size_t)t->num : k;
	return (unsigned long long)-t->num < k ? k - (size_t)-t->num : 0;
}

/* Print the frames of r, one a line, indented and marked as m says. */
static void
putchain(struct tree *t, const struct row *r, int indent, enum mark m)
{
	const char *p, *e, *q, *s;
	size_t d, len;
	int hit;

	p = t->text.data + r->chain;
	e = p + r->clen;
	for (d = 0; r->clen > 0; d++, p = q + 1) {
		if ((q = memchr(p, ';', (size_t)(e - p))) == NULL)
			q = e;
		s = decode(t, (size_t)(p - t->text.data), (size_t)(q - p),
		    &len);
		printf("%*s", indent + 2 * (int)d, "");
		if (m == M_LAST)
			hit = q == e;
		else if (m == M_NAME)
			hit = strlen(t->name) == len &&
			    memcmp(s, t->name, len) == 0;
		else
			hit = d == 0;
		if (hit)
			fputs("** ", stdout);
		else if (m == M_CALLEE && q == e)
			fputs("-> ", stdout);
		fwrite(s, 1, len, stdout);
		puts(hit ? " **" : "");
		if (q == e)
			break;
	}
}

/* The reference's --callers: a summary over all rows, then the rows. */
static void
putcallers(struct tree *t, double sum)
{
	char sb[FMTBUF];
	const struct row *r;
	const char *s, *q1, *q2;
	uint64_t samples = 0;
	size_t i, n, len;

	if (t->n == 0)
		return;
	for (i = 0; i < t->n; i++)
		samples += t->rows[i].samples;
	printf("\n%s samples (%.2fs) contain '%s' (%.1f%% of thread CPU)\n\n",
	    fmt_commas(sb, sizeof(sb), samples), sum, t->name,
	    100 * sum / t->total);
	for (i = 0, n = shown(t, t->n); i < n; i++) {
		r = &t->rows[i];
		printf("--- Stack #%zu: %s samples, %.2fs (%.1f%% of thread, "
		    "%.1f%% of '%s') [", i + 1,
		    fmt_commas(sb, sizeof(sb), r->samples), r->weight,
		    pct(r->weight, t->total), pct(r->weight, sum), t->name);
		/* Python: tname.rsplit('"', 2)[-2] if '"' in tname */
		s = decode(t, r->thread, r->tlen, &len);
		for (q1 = s + len; q1 > s && q1[-1] != '"'; q1--)
			;
		if (q1-- > s) {
			for (q2 = q1; q2 > s && q2[-1] != '"'; q2--)
				;
			len = (size_t)(q1 - q2);
			s = q2;
		}
		fwrite(s, 1, len, stdout);
		puts("] ---");
		putchain(t, r, 4, M_LAST);
		putchar('\n');
	}
}

/* The reference's --full: every row with its share of the total. */
static void
putfull(struct tree *t)
{
	char sb[FMTBUF];
	const struct row *r;
	size_t i, n;

	for (i = 0, n = shown(t, t->n); i < n; i++) {
		r = &t->rows[i];
		printf("--- Stack #%zu: %s samples, %.2fs (%.1f%%) ---\n", i + 1,
		    fmt_commas(sb, sizeof(sb), r->samples), r->weight,
		    pct(r->weight, t->total));
		putchain(t, r, 4, M_LAST);
		putchar('\n');
	}
}

/* Does r hold more than one frame?  (Its chain has a ';'.) */
static int
isdeep(const struct tree *t, const struct row *r)
{
	return memchr(t->text.data + r->chain, ';', r->clen) != NULL;
}

/*
 * The callers (callees: 0) half of the reference's --call-graph.  For
 * callees, one-frame chains are the function's self time, shown as one
 * line, and empty chains are left out, as the reference does.
 */
static void
putgraph(struct tree *t, int callers)
{
	char sb[FMTBUF];
	const struct row *r;
	uint64_t selfn = 0;
	double selfw = 0;
	size_t i, j, k = 0, n, nself = 0;

	for (i = 0; i < t->n; i++) {
		r = &t->rows[i];
		if (callers || isdeep(t, r))
			k++;
		else if (r->clen > 0) {
			nself++;
			selfn += r->samples;
			selfw += r->weight;
		}
	}
	printf("--- %s (%s unique chains, showing top %lld) ---\n\n",
	    callers ? "Callers" : "Callees", fmt_commas(sb, sizeof(sb), k),
	    t->hasnum && t->num < (long long)k ? t->num : (long long)k);
	if (nself > 0)
		printf("  (self): %s samples, %.2fs (%.1f%%) -- '%s' is the "
		    "leaf\n\n", fmt_commas(sb, sizeof(sb), selfn), selfw,
		    pct(selfw, t->total), t->name);
	n = shown(t, k);
	for (i = 0, j = 0; j < n; i++) {
		r = &t->rows[i];
		if (!callers && !isdeep(t, r))
			continue;
		printf("  #%zu: %s samples, %.2fs (%.1f%%)\n", ++j,
		    fmt_commas(sb, sizeof(sb), r->samples), r->weight,
		    pct(r->weight, t->total));
		putchain(t, r, 6, callers ? M_NAME : M_CALLEE);
		putchar('\n');
	}
}

static __dead void
usage(void)
{
	fprintf(stderr, "usage: sst-tree [-m name] [-n num] [-T total] "
	    "[-v view] [file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	static const char *views[] = { "callers", "full", "graph-callers",
	    "graph-callees" };
	struct tree t;
	const char *errstr;
	double sum;
	size_t i;
	int ch, hastotal = 0, view = V_CALLERS;

	sst_init();
	memset(&t, 0, sizeof(t));
	t.name = "";
	while ((ch = getopt(argc, argv, "T:m:n:v:")) != -1) {
		switch (ch) {
		case 'T':
			if (fmt_strtod(optarg, strlen(optarg), &t.total) == -1)
				errx(2, "-T: invalid: %s", optarg);
			hastotal = 1;
			break;
		case 'm':
			t.name = optarg;
			break;
		case 'n':
			t.num = strtonum(optarg, -LLONG_MAX, LLONG_MAX,
			    &errstr);
			if (errstr != NULL)
				errx(2, "-n: %s: %s", errstr, optarg);
			t.hasnum = 1;
			break;
		case 'v':
			for (view = 0; view < 4; view++)
				if (strcmp(optarg, views[view]) == 0)
					break;
			if (view == 4)
				errx(2, "-v: invalid: %s", optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	buf_init(&t.text);
	buf_init(&t.scratch);
	if (argc == 0)
		readfile(&t, NULL);
	for (ch = 0; ch < argc; ch++)
		readfile(&t, argv[ch]);
	for (sum = 0, i = 0; i < t.n; i++)
		sum += t.rows[i].weight;
	if (!hastotal)
		t.total = sum;
	if (view == V_CALLERS)
		putcallers(&t, sum);
	else if (view == V_FULL)
		putfull(&t);
	else
		putgraph(&t, view == V_GCALLERS);
	buf_free(&t.text);
	buf_free(&t.scratch);
	free(t.rows);
	fshut(stdout, "stdout");
	return 0;
}
