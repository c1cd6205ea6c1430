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
	struct tally	 tally;		/* by escaped thread name */
	uint64_t	 nsamples;	/* over the whole stream */
	double		 total;		/* every sample, in stream order */
};

static void	readfile(struct threads *, const char *);
static void	putnames(const struct threads *);
static void	putrows(const struct threads *, int, int);
static __dead void usage(void);

/* Add the records of one input to the per-thread totals. */
static void
readfile(struct threads *t, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	int fd;

	fd = xopen(path);
	rd = rec_open(fd, path);
	while (rec_read(rd, &r)) {
		tally_add(&t->tally, r.thread, r.threadlen, &r);
		t->nsamples += r.samples;
		t->total = rec_addw(t->total, &r);
	}
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* Print every thread name, decoded, in first-seen order. */
static void
putnames(const struct threads *t)
{
	const char *k;
	char *s;
	size_t i, n;

	for (i = 0; i < tally_count(&t->tally); i++) {
		k = ht_key(t->tally.keys, i, &n);
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
	const double *w = t->tally.weight;
	size_t *ix, i, id, n = tally_count(&t->tally);
	double grand = 0, pct;

	for (i = 0; i < n; i++)
		grand += w[i];
	ix = unsorted ? NULL : tally_sort(&t->tally);
	if (!raw)
		fputs("Samples\tCPU time\t% total\tThread name\n", stdout);
	for (i = 0; i < n; i++) {
		id = ix != NULL ? ix[i] : i;
		pct = grand != 0 ? 100 * w[id] / grand : 0;
		snprintf(sb, sizeof(sb), "%llu",
		    (unsigned long long)t->tally.samples[id]);
		if (raw) {
			fmt_double(wb, sizeof(wb), w[id]);
			fmt_double(pb, sizeof(pb), pct);
			printf("%s\t%s\t%s\t", sb, wb, pb);
		} else
			printf("%s\t%.2fs\t%.1f%%\t", sb, w[id], pct);
		fputs(ht_key(t->tally.keys, id, NULL), stdout);
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
	tally_init(&t.tally);
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
	tally_free(&t.tally);
	fshut(stdout, "stdout");
	return 0;
}
