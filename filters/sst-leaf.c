/*
 * sst-leaf: self time per leaf frame of an sst(5) stream.  The leaf of
 * a record is the last frame of its stack, told apart by its name and
 * its location entry, which holds the input's frame index.  Prints one
 * TAB-separated row per leaf, heaviest first, with samples, share of
 * the total, weight, name and location, for sst-table(1).  Weights are
 * summed exactly as the reference Python scripts sum them, sample after
 * sample.
 */
#include <err.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"

struct leaves {
	struct htab	*keys;		/* escaped "name TAB location" */
	uint64_t	*samples;	/* by key id */
	double		*weight;
	size_t		 cap;
	double		 total;		/* every sample, in stream order */
};

static double	addrec(double, const struct sst_rec *);
static void	readfile(struct leaves *, const char *);
static int	byweight(size_t, size_t, void *);
static void	putloc(const char *, size_t);
static void	putrows(const struct leaves *, long long, int);
static __dead void usage(void);

/* acc plus the weights of the samples of r, one by one. */
static double
addrec(double acc, const struct sst_rec *r)
{
	if (r->hasperiod)
		return fmt_pysum(acc, r->period, r->samples);
	return acc + r->weight;
}

/* Add the records of one input to the per-leaf totals. */
static void
readfile(struct leaves *lv, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	struct buf key;
	const char *p;
	size_t id, n;
	int fd, isnew;

	buf_init(&key);
	fd = xopen(path);
	rd = rec_open(fd, path);
	while (rec_read(rd, &r)) {
		lv->total = addrec(lv->total, &r);
		if (r.stacklen == 0 || r.samples == 0)
			continue;
		buf_reset(&key);
		p = rec_last(r.stack, r.stacklen, &n);
		buf_add(&key, p, n);
		buf_addc(&key, '\t');
		p = rec_last(r.locs, r.locslen, &n);
		buf_add(&key, p, n);
		id = ht_intern(lv->keys, key.data, key.len, &isnew);
		if (id == lv->cap) {
			lv->cap = lv->cap ? lv->cap * 2 : 64;
			lv->samples = xreallocarray(lv->samples, lv->cap,
			    sizeof(*lv->samples));
			lv->weight = xreallocarray(lv->weight, lv->cap,
			    sizeof(*lv->weight));
		}
		if (isnew) {
			lv->samples[id] = 0;
			lv->weight[id] = 0;
		}
		lv->samples[id] += r.samples;
		lv->weight[id] = addrec(lv->weight[id], &r);
	}
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
	buf_free(&key);
}

/* Heaviest leaf first; equal weights keep their order (stable sort). */
static int
byweight(size_t a, size_t b, void *ctx)
{
	const double *w = ctx;

	if (w[a] > w[b])
		return -1;
	return w[a] < w[b];
}

/*
 * Print the entry file:line:col:frame as the reference shows it: the
 * last component of the file's path, ':', and the line, "None" for
 * null or "?" when there is none.  An entry with fewer colons is read
 * as file:line:col, file:line or file.
 */
static void
putloc(const char *s, size_t n)
{
	const char *c[3], *p, *e, *fe, *le, *base, *end;
	int k = 0;

	for (p = s + n; p > s && k < 3; p--)
		if (p[-1] == ':')
			c[k++] = p - 1;
	fe = k > 0 ? c[k - 1] : s + n;
	le = k > 1 ? c[k - 2] : s + n;
	base = end = s;
	for (p = s; p < fe; p = e + 1) {
		if ((e = memchr(p, '/', (size_t)(fe - p))) == NULL)
			e = fe;
		if (e > p && !(e - p == 1 && *p == '.')) {
			base = p;
			end = e;
		}
	}
	fwrite(base, 1, (size_t)(end - base), stdout);
	putchar(':');
	p = fe < le ? fe + 1 : le;
	if (le - p == 4 && memcmp(p, "null", 4) == 0)
		fputs("None", stdout);
	else if (le == p)
		putchar('?');
	else
		fwrite(p, 1, (size_t)(le - p), stdout);
}

/* Print the first max rows (all if max < 0), heaviest first. */
static void
putrows(const struct leaves *lv, long long max, int raw)
{
	char sb[FMTBUF], wb[FMTBUF], pb[FMTBUF];
	const char *k, *tab;
	size_t *ix, i, n = ht_count(lv->keys), len;
	double pct;

	ix = xreallocarray(NULL, n, sizeof(*ix));
	for (i = 0; i < n; i++)
		ix[i] = i;
	sst_sort(ix, n, byweight, lv->weight);
	if (max >= 0 && (unsigned long long)max < n)
		n = (size_t)max;
	if (!raw)
		fputs("Samples\tSelf %\tSelf time\tFunction\tLocation\n",
		    stdout);
	for (i = 0; i < n; i++) {
		pct = lv->total != 0 ? 100 * lv->weight[ix[i]] / lv->total : 0;
		k = ht_key(lv->keys, ix[i], &len);
		tab = strchr(k, '\t');
		if (raw) {
			fmt_double(wb, sizeof(wb), lv->weight[ix[i]]);
			fmt_double(pb, sizeof(pb), pct);
			printf("%llu\t%s\t%s\t%s\n",
			    (unsigned long long)lv->samples[ix[i]], pb, wb, k);
			continue;
		}
		fmt_commas(sb, sizeof(sb), lv->samples[ix[i]]);
		printf("%s\t%.1f%%\t%.2fs\t", sb, pct, lv->weight[ix[i]]);
		fwrite(k, 1, (size_t)(tab - k) + 1, stdout);
		putloc(tab + 1, len - (size_t)(tab - k) - 1);
		putchar('\n');
	}
	free(ix);
}

static __dead void
usage(void)
{
	fprintf(stderr, "usage: sst-leaf [-r] [-n num] [file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct leaves lv;
	const char *errstr;
	long long max = -1;
	int ch, i, rflag = 0;

	sst_init();
	while ((ch = getopt(argc, argv, "n:r")) != -1) {
		switch (ch) {
		case 'n':
			max = strtonum(optarg, 0, LLONG_MAX, &errstr);
			if (errstr != NULL)
				errx(2, "-n: %s: %s", errstr, optarg);
			break;
		case 'r':
			rflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	memset(&lv, 0, sizeof(lv));
	lv.keys = ht_new();
	if (argc == 0)
		readfile(&lv, NULL);
	for (i = 0; i < argc; i++)
		readfile(&lv, argv[i]);
	putrows(&lv, max, rflag);
	ht_free(lv.keys);
	free(lv.samples);
	free(lv.weight);
	fshut(stdout, "stdout");
	return 0;
}
