/*
 * sst-inclusive: inclusive time of named functions in an sst(5) stream.
 * A sample counts once for each named function found anywhere in its
 * stack, however often the function recurs there (with -k leaf: only
 * when the function is the leaf).  Prints a TAB-separated row per function,
 * heaviest first, then the names never found, for sst-table(1).
 * Weights are summed exactly as the reference Python scripts sum them,
 * sample after sample.  The table of a timed stream (kind.h: spans)
 * counts spans and prints times in s, ms, µs or ns.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "recread.h"
#include "htab.h"
#include "sort.h"
#include "fmt.h"
#include "tally.h"
#include "kind.h"

struct incl {
	struct tally	 tally;		/* by escaped name, first occurrence */
	char		**raw;		/* by id: the name as given */
	unsigned long long *stamp;	/* by id: last record credited, 0 */
	size_t		*order;		/* ids in the order first credited */
	size_t		 ncredited;
	unsigned long long nrec;	/* records read so far */
	double		 total;		/* every sample, in stream order */
	int		 self;		/* -k leaf: count leaves only */
	int		 unit;		/* of every input */
	struct kind	 kind;
};

static void	addnames(struct incl *, char *);
static int	credit(struct incl *, const struct sst_rec *, const char *,
		    size_t);
static void	readfile(struct incl *, const char *);
static int	byname(size_t, size_t, void *);
static void	putrows(struct incl *, int);
static __dead void usage(int);

/* Intern the comma-separated names of list, escaped as in the stream. */
static void
addnames(struct incl *in, char *list)
{
	struct buf b;
	char *p, *e;
	size_t id, n;
	int isnew;

	buf_init(&b);
	for (p = list; p != NULL; p = e) {
		if ((e = strchr(p, ',')) != NULL)
			*e++ = '\0';
		buf_reset(&b);
		esc_name(&b, p, strlen(p));
		id = tally_intern(&in->tally, b.data, b.len, &isnew);
		if (!isnew)
			continue;
		in->raw = xreallocarray(in->raw, id + 1, sizeof(*in->raw));
		in->raw[id] = p;
	}
	buf_free(&b);
	n = tally_count(&in->tally);
	in->stamp = xcalloc(n, sizeof(*in->stamp));
	in->order = xcalloc(n, sizeof(*in->order));
}

/*
 * Credit r to the name f[0..n) if it is wanted and not yet credited;
 * -1 if its totals would overflow.
 */
static int
credit(struct incl *in, const struct sst_rec *r, const char *f, size_t n)
{
	size_t id;

	if ((id = ht_find(in->tally.keys, f, n)) == (size_t)-1 ||
	    in->stamp[id] == in->nrec)
		return 0;
	if (in->stamp[id] == 0)
		in->order[in->ncredited++] = id;
	in->stamp[id] = in->nrec;
	return tally_addid(&in->tally, id, r);
}

/* Add the records of one input to the per-name totals. */
static void
readfile(struct incl *in, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	const char *p, *e, *end;
	size_t n;
	int fd;

	fd = xopen(path);
	rd = rec_open(fd, path);
	rec_oneunit(rd, &in->unit);
	while (xrec_read(rd, &r)) {
		if (isinf(in->total = rec_addw(in->total, &r)))
			xrec_fail(rd, "the total weight overflows to infinity");
		in->nrec++;
		kind_add(&in->kind, &r);
		if (r.stacklen == 0 || r.samples == 0)
			continue;
		if (in->self) {
			p = rec_last(r.stack, r.stacklen, &n);
			if (credit(in, &r, p, n) == -1)
				xrec_fail(rd, "function %.*s: %s", (int)n, p,
				    in->tally.over);
			continue;
		}
		end = r.stack + r.stacklen;
		for (p = r.stack; p <= end; p = e + 1) {
			if ((e = memchr(p, ';', (size_t)(end - p))) == NULL)
				e = end;
			if (credit(in, &r, p, (size_t)(e - p)) == -1)
				xrec_fail(rd, "function %.*s: %s", (int)(e - p),
				    p, in->tally.over);
		}
	}
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* Names as given, in byte order (Python's code point order). */
static int
byname(size_t a, size_t b, void *ctx)
{
	char **raw = ctx;

	return strcmp(raw[a], raw[b]);
}

/* Print the table, or with raw every name in command-line order. */
static void
putrows(struct incl *in, int raw)
{
	char sb[FMTBUF], wb[FMTBUF];
	const struct tally *t = &in->tally;
	enum sst_unit u = in->unit < 0 ? U_SECONDS : (enum sst_unit)in->unit;
	size_t *miss, i, id, nmiss = 0, n = tally_count(t);
	double pct;
	int timed = kind_timed(&in->kind, u);

	if (raw) {
		for (id = 0; id < n; id++)
			printf("%llu\t%s\t%s\n",
			    (unsigned long long)t->samples[id],
			    fmt_double(wb, sizeof(wb), t->weight[id]),
			    ht_key(t->keys, id, NULL));
		return;
	}
	tally_sortw(in->order, in->ncredited, t->weight);
	printf("%s\tInclusive %%\tInclusive %s\tFunction\n",
	    timed ? "Spans" : "Samples", fmt_unitnoun(u));
	for (i = 0; i < in->ncredited; i++) {
		id = in->order[i];
		pct = in->total != 0 ? 100 * t->weight[id] / in->total : 0;
		printf("%s\t%.1f%%\t%s\t%s\n",
		    fmt_commas(sb, sizeof(sb), t->samples[id]), pct,
		    fmt_kindw(wb, sizeof(wb), t->weight[id], u, timed),
		    ht_key(t->keys, id, NULL));
	}
	miss = xreallocarray(NULL, n, sizeof(*miss));
	for (id = 0; id < n; id++)
		if (in->stamp[id] == 0)
			miss[nmiss++] = id;
	sst_sort(miss, nmiss, byname, in->raw);
	for (i = 0; i < nmiss; i++)
		printf("0\t0.0%%\t%s\t%s (not found)\n",
		    fmt_kindw(wb, sizeof(wb), 0, u, timed),
		    ht_key(t->keys, miss[i], NULL));
	free(miss);
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst-inclusive [-hr] [-k key] name[,name...] "
	    "[file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct incl in;
	int ch, i, rflag = 0;

	sst_init();
	memset(&in, 0, sizeof(in));
	in.unit = -1;
	kind_init(&in.kind);
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "hk:r")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		case 'k':
			if (strcmp(optarg, "leaf") == 0)
				in.self = 1;
			else if (strcmp(optarg, "inclusive") == 0)
				in.self = 0;
			else
				errx(2, "-k: unknown key: %s", optarg);
			break;
		case 'r':
			rflag = 1;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage(0);

	tally_init(&in.tally);
	addnames(&in, argv[0]);
	if (argc == 1)
		readfile(&in, NULL);
	for (i = 1; i < argc; i++)
		readfile(&in, argv[i]);
	putrows(&in, rflag);
	tally_free(&in.tally);
	free(in.raw);
	free(in.stamp);
	free(in.order);
	xfshut(stdout, "stdout");
	return 0;
}
