/*
 * sst-threads: list the threads of an sst(5) stream with their sample
 * counts, total weight in its unit and share of the grand total,
 * heaviest first, as TAB-separated rows for sst-table(1); or, with -F,
 * only their names or the totals of the whole stream.  Weights are
 * summed exactly as the reference Python scripts sum them, sample after
 * sample, and the records must all have one unit.  The table of a timed
 * stream (kind.h: spans) says "Spans" and "Time", its times in s, ms,
 * µs or ns; a sampled one, and -F ray always, keep the reference's
 * "Samples", "CPU time" and "12.34s".
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "esc.h"
#include "rec.h"
#include "recread.h"
#include "htab.h"
#include "fmt.h"
#include "tally.h"
#include "kind.h"

enum view { V_TABLE, V_RAY, V_NAMES, V_RAYNAMES, V_TOTAL, NVIEWS };

struct threads {
	struct tally	 tally;		/* by escaped thread name */
	uint64_t	 nsamples;	/* over the whole stream */
	double		 total;		/* every sample, in stream order */
	int		 unit;		/* -1 until a record is read */
	struct kind	 kind;
};

static void	readfile(struct threads *, const char *);
static void	putnames(const struct threads *, const char *);
static void	putrows(const struct threads *, enum view, int, int);
static __dead void usage(int);

/* Add the records of one input to the per-thread totals. */
static void
readfile(struct threads *t, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	int fd;

	fd = xopen(path);
	rd = rec_open(fd, path);
	rec_oneunit(rd, &t->unit);
	rec_nostacks(rd);
	while (xrec_read(rd, &r)) {
		kind_add(&t->kind, &r);
		tally_add(&t->tally, r.thread, r.threadlen, &r);
		if (t->tally.over != NULL)
			xrec_fail(rd, "thread %.*s: %s", (int)r.threadlen,
			    r.thread, t->tally.over);
		if (r.samples > UINT64_MAX - t->nsamples)
			xrec_fail(rd, "the sample count of the stream passes "
			    "2^64-1");
		t->nsamples += r.samples;
		if (isinf(t->total = rec_addw(t->total, &r)))
			xrec_fail(rd, "the total weight overflows to infinity");
	}
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* Print every thread name, decoded, after pre, in first-seen order. */
static void
putnames(const struct threads *t, const char *pre)
{
	const char *k;
	char *s;
	size_t i, n;

	for (i = 0; i < tally_count(&t->tally); i++) {
		k = ht_key(t->tally.keys, i, &n);
		s = xmemdup(k, n);
		n = esc_decode(s, s, n);
		fputs(pre, stdout);
		fwrite(s, 1, n, stdout);
		putchar('\n');
		free(s);
	}
}

/* Print one row per thread, sorted unless unsorted is set. */
static void
putrows(const struct threads *t, enum view v, int raw, int unsorted)
{
	static const char *head[] = { "CPU time", "Count", "Bytes" };
	char sb[FMTBUF], wb[FMTBUF], pb[FMTBUF];
	const double *w = t->tally.weight;
	enum sst_unit u = t->unit < 0 ? U_SECONDS : (enum sst_unit)t->unit;
	size_t *ix, i, id, n = tally_count(&t->tally);
	double grand = 0, pct;
	int timed = v != V_RAY && kind_timed(&t->kind, u);

	for (i = 0; i < n; i++)
		grand += w[i];
	if (isinf(grand))
		errx(1, "the total weight of the threads overflows to "
		    "infinity");
	ix = unsorted ? NULL : tally_sort(&t->tally);
	if (!raw)
		printf("%s\t%s\t%% total\tThread name\n", timed ? "Spans" :
		    "Samples", timed ? "Time" : head[u]);
	for (i = 0; i < n; i++) {
		id = ix != NULL ? ix[i] : i;
		pct = grand != 0 ? 100 * w[id] / grand : 0;
		if (raw || v == V_RAY)
			snprintf(sb, sizeof(sb), "%llu",
			    (unsigned long long)t->tally.samples[id]);
		else
			fmt_commas(sb, sizeof(sb), t->tally.samples[id]);
		if (raw) {
			fmt_double(wb, sizeof(wb), w[id]);
			fmt_double(pb, sizeof(pb), pct);
			printf("%s\t%s\t%s\t", sb, wb, pb);
		} else
			printf("%s\t%s\t%.1f%%\t", sb,
			    fmt_kindw(wb, sizeof(wb), w[id], u, timed), pct);
		fputs(ht_key(t->tally.keys, id, NULL), stdout);
		putchar('\n');
	}
	free(ix);
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst-threads [-hrU] [-F view] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	static const char *views[NVIEWS] = { "table", "ray", "names",
	    "ray-names", "total" };
	struct threads t;
	char wb[FMTBUF];
	int ch, i, rflag = 0, uflag = 0, view = V_TABLE;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "F:hrU")) != -1) {
		switch (ch) {
		case 'F':
			view = xoptword("-F", "view", optarg, views, NVIEWS);
			break;
		case 'h':
			usage(1);
		case 'r':
			rflag = 1;
			break;
		case 'U':
			uflag = 1;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;

	memset(&t, 0, sizeof(t));
	tally_init(&t.tally);
	kind_init(&t.kind);
	t.unit = -1;
	if (argc == 0)
		readfile(&t, NULL);
	for (i = 0; i < argc; i++)
		readfile(&t, argv[i]);
	if (view == V_NAMES || view == V_RAYNAMES)
		putnames(&t, view == V_RAYNAMES ? "  - " : "");
	else if (view == V_TOTAL)
		printf("%llu\t%s\n", (unsigned long long)t.nsamples,
		    fmt_double(wb, sizeof(wb), t.total));
	else
		putrows(&t, (enum view)view, rflag, uflag);
	tally_free(&t.tally);
	xfshut(stdout, "stdout");
	return 0;
}
