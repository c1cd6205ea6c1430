/*
 * sst-threads: list the threads of an sst(5) stream with their sample
 * counts, total weight and share of the grand total, heaviest first,
 * as TAB-separated rows for sst-table(1).  Weights are summed exactly
 * as the reference Python scripts sum them, sample after sample.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"

struct threads {
	struct htab	*names;		/* escaped thread names */
	uint64_t	*samples;	/* by thread id */
	double		*weight;
	size_t		 cap;
	uint64_t	 nsamples;	/* over the whole stream */
	double		 total;		/* every sample, in stream order */
};

static double	addrec(double, const struct sst_rec *);
static void	readfile(struct threads *, const char *);
static int	byweight(size_t, size_t, void *);
static void	putnames(const struct threads *);
static void	putrows(const struct threads *, int, int);
static __dead void usage(void);

/* acc plus the weights of the samples of r, one by one. */
static double
addrec(double acc, const struct sst_rec *r)
{
	if (r->hasperiod)
		return fmt_pysum(acc, r->period, r->samples);
	return acc + r->weight;
}

/* Add the records of one input to the per-thread totals. */
static void
readfile(struct threads *t, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	size_t id;
	int fd, isnew;

	fd = xopen(path);
	rd = rec_open(fd, path);
	while (rec_read(rd, &r)) {
		id = ht_intern(t->names, r.thread, r.threadlen, &isnew);
		if (id == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 64;
			t->samples = xreallocarray(t->samples, t->cap,
			    sizeof(*t->samples));
			t->weight = xreallocarray(t->weight, t->cap,
			    sizeof(*t->weight));
		}
		if (isnew) {
			t->samples[id] = 0;
			t->weight[id] = 0;
		}
		t->samples[id] += r.samples;
		t->weight[id] = addrec(t->weight[id], &r);
		t->nsamples += r.samples;
		t->total = addrec(t->total, &r);
	}
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* Heaviest thread first; equal weights keep their order (stable sort). */
static int
byweight(size_t a, size_t b, void *ctx)
{
	const double *w = ctx;

	if (w[a] > w[b])
		return -1;
	return w[a] < w[b];
}

/* Print every thread name, decoded, in first-seen order. */
static void
putnames(const struct threads *t)
{
	const char *k;
	char *s;
	size_t i, n;

	for (i = 0; i < ht_count(t->names); i++) {
		k = ht_key(t->names, i, &n);
		s = xmemdup(k, n);
		n = esc_decode(s, s, n);
		fwrite(s, 1, n, stdout);
		putchar('\n');
		free(s);
	}
}

/* Print one row per thread, sorted unless unsorted is set. */
static void
putrows(const struct threads *t, int raw, int unsorted)
{
	char sb[FMTBUF], wb[FMTBUF], pb[FMTBUF];
	size_t *ix, i, n = ht_count(t->names);
	double grand = 0, pct;

	for (i = 0; i < n; i++)
		grand += t->weight[i];
	ix = xreallocarray(NULL, n, sizeof(*ix));
	for (i = 0; i < n; i++)
		ix[i] = i;
	if (!unsorted)
		sst_sort(ix, n, byweight, t->weight);
	if (!raw)
		fputs("Samples\tCPU time\t% total\tThread name\n", stdout);
	for (i = 0; i < n; i++) {
		pct = grand != 0 ? 100 * t->weight[ix[i]] / grand : 0;
		snprintf(sb, sizeof(sb), "%llu",
		    (unsigned long long)t->samples[ix[i]]);
		if (raw) {
			fmt_double(wb, sizeof(wb), t->weight[ix[i]]);
			fmt_double(pb, sizeof(pb), pct);
			printf("%s\t%s\t%s\t", sb, wb, pb);
		} else
			printf("%s\t%.2fs\t%.1f%%\t", sb, t->weight[ix[i]],
			    pct);
		fputs(ht_key(t->names, ix[i], NULL), stdout);
		putchar('\n');
	}
	free(ix);
}

static __dead void
usage(void)
{
	fprintf(stderr, "usage: sst-threads [-nrtu] [file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct threads t;
	char wb[FMTBUF];
	int ch, i, nflag = 0, rflag = 0, tflag = 0, uflag = 0;

	sst_init();
	while ((ch = getopt(argc, argv, "nrtu")) != -1) {
		switch (ch) {
		case 'n':
			nflag = 1;
			break;
		case 'r':
			rflag = 1;
			break;
		case 't':
			tflag = 1;
			break;
		case 'u':
			uflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (nflag && tflag)
		usage();

	memset(&t, 0, sizeof(t));
	t.names = ht_new();
	if (argc == 0)
		readfile(&t, NULL);
	for (i = 0; i < argc; i++)
		readfile(&t, argv[i]);
	if (nflag)
		putnames(&t);
	else if (tflag)
		printf("%llu\t%s\n", (unsigned long long)t.nsamples,
		    fmt_double(wb, sizeof(wb), t.total));
	else
		putrows(&t, rflag, uflag);
	ht_free(t.names);
	free(t.samples);
	free(t.weight);
	fshut(stdout, "stdout");
	return 0;
}
