/*
 * sst-stats: the distribution of the spans (or samples) of each leaf
 * frame of an sst(5) stream, in the shape of nsys stats' summaries
 * (cuda_gpu_kern_sum, nvtx_sum): Time (%), Total Time, Instances, Avg,
 * Med, Min, Max, StdDev and Name, heaviest first, ties in first-seen
 * order.  A record with one sample is one instance of its weight; one
 * with n samples and a period is n instances of the period; one with n
 * samples of different weights cannot be split and is an error.  Equal
 * instances of a leaf are counted, not stored (dist.c): memory follows
 * the distinct (leaf, value) pairs, whatever the sample counts.
 */
#include <err.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "rec.h"
#include "recread.h"
#include "htab.h"
#include "fmt.h"
#include "tally.h"
#include "dist.h"

struct stats {
	struct htab	*names;		/* escaped leaf names */
	struct dist	*d;		/* by name id */
	size_t		 cap;
	double		 total;
	int		 hasunit;
	enum sst_unit	 unit;
};

static __dead void fail(struct sst_reader *, const char *,
		    unsigned long long, const char *, ...)
		    __attribute__((__format__(__printf__, 4, 5)));
static void	readstream(struct stats *, const char *);
static const char *scale(double, double *);
static void	putnum(const struct stats *, double, double, int);
static void	putrows(struct stats *, long long, int);
static void	usage(int);

static void
usage(int help)
{
	xusage(help, "usage: sst-stats [-r] [-n num] [file ...]\n");
}

/* Close the reader and exit 1 with "path:line: message". */
static __dead void
fail(struct sst_reader *rd, const char *path, unsigned long long line,
    const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	rec_close(rd);
	errx(1, "%s:%llu: %s", strcmp(path, "-") ? path : "<stdin>", line,
	    msg);
}

/* Add the instances of the stream at path ("-": standard input). */
static void
readstream(struct stats *st, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	const char *leaf;
	unsigned long long line = 0;
	double v;
	size_t len, id;
	int isnew;
	char msg[1024];

	if ((rd = rec_openfile(path, msg, sizeof(msg))) == NULL)
		errx(1, "%s", msg);
	while (xrec_read(rd, &r)) {
		line++;
		if (r.samples == 0)
			continue;
		if (!st->hasunit) {
			st->unit = r.unit;
			st->hasunit = 1;
		} else if (r.unit != st->unit)
			fail(rd, path, line, "unit %s after %s: one unit per "
			    "table", rec_unitname(r.unit),
			    rec_unitname(st->unit));
		if (r.samples > 1 && !r.hasperiod)
			fail(rd, path, line, "%llu samples of different "
			    "weights in one record: sst-stats needs one record "
			    "per span or sample (the producer's -s)",
			    (unsigned long long)r.samples);
		leaf = rec_last(r.stack, r.stacklen, &len);
		id = ht_intern(st->names, leaf, len, &isnew);
		if (id == st->cap)
			st->d = xgrow(st->d, &st->cap, id + 1, 64,
			    sizeof(*st->d));
		if (isnew)
			dist_init(&st->d[id]);
		v = r.samples == 1 ? r.weight : r.period;
		if (dist_addn(&st->d[id], v, r.samples) == -1)
			fail(rd, path, line, "leaf %.*s: the instance count "
			    "passes 2^64-1", (int)len, leaf);
		if (isinf(st->total = fmt_pysum(st->total, v, r.samples)))
			fail(rd, path, line, "the total weight overflows to "
			    "infinity");
	}
	rec_close(rd);
}

/*
 * The unit of seconds of a column whose median is m: the largest of s,
 * ms, µs and ns in which m is at least 1, so that the median row shows
 * four significant digits with three decimals, and a row a tenth of it
 * three; seconds for a column of zeros.
 */
static const char *
scale(double m, double *f)
{
	static const char *name[] = { "s", "ms", "\xc2\xb5s", "ns" };
	int i;

	for (i = 0, *f = 1; i < 3 && m != 0 && m * *f < 1; i++)
		*f *= 1e3;
	return name[i];
}

/* Print value v of a column scaled by f (raw: as it is). */
static void
putnum(const struct stats *st, double v, double f, int raw)
{
	char b[FMTBUF];

	if (raw || st->unit != U_SECONDS)
		fputs(fmt_double(b, sizeof(b), v), stdout);
	else
		printf("%.3f", v * f);
}

/* Print the first max rows (all if max < 0), heaviest first. */
static void
putrows(struct stats *st, long long max, int raw)
{
	static const char *hd[DIST_NCOLS] = { "Total Time", "Avg", "Med",
	    "Min", "Max", "StdDev" };
	struct dist_sum *s;
	double *tot, f[DIST_NCOLS], pct;
	const char *u[DIST_NCOLS], *k;
	size_t *ix, i, n = ht_count(st->names), len;
	char b[FMTBUF];
	int c;

	s = xcalloc(n ? n : 1, sizeof(*s));
	tot = xcalloc(n ? n : 1, sizeof(*tot));
	ix = xcalloc(n ? n : 1, sizeof(*ix));
	for (i = 0; i < n; i++) {
		dist_summary(&st->d[i], &s[i]);
		tot[i] = s[i].total;
		ix[i] = i;
	}
	tally_sortw(ix, n, tot);
	if (max >= 0 && (unsigned long long)max < n)
		n = (size_t)max;
	for (c = 0; c < DIST_NCOLS; c++)
		u[c] = scale(dist_colmedian(s, ix, n, c, tot), &f[c]);
	if (!raw) {
		printf("%s (%%)", st->unit == U_SECONDS ? "Time" : "Total");
		for (c = 0; c < DIST_NCOLS; c++) {
			printf("\t%s", c == DIST_TOTAL &&
			    st->unit != U_SECONDS ? "Total" : hd[c]);
			if (st->unit == U_SECONDS)
				printf(" (%s)", u[c]);
			else if (st->unit == U_BYTES)
				fputs(" (B)", stdout);
			if (c == DIST_TOTAL)
				fputs("\tInstances", stdout);
		}
		fputs("\tName\n", stdout);
	}
	for (i = 0; i < n; i++) {
		pct = st->total != 0 ? 100 * s[ix[i]].total / st->total : 0;
		if (raw)
			fputs(fmt_double(b, sizeof(b), pct), stdout);
		else
			printf("%.1f", pct);
		for (c = 0; c < DIST_NCOLS; c++) {
			putchar('\t');
			putnum(st, dist_col(&s[ix[i]], c), f[c], raw);
			if (c == DIST_TOTAL)
				printf("\t%llu",
				    (unsigned long long)s[ix[i]].n);
		}
		k = ht_key(st->names, ix[i], &len);
		putchar('\t');
		fwrite(k, 1, len, stdout);
		putchar('\n');
	}
	free(s);
	free(tot);
	free(ix);
}

int
main(int argc, char *argv[])
{
	struct stats st;
	long long max = -1;
	size_t i;
	int ch, rflag = 0;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "hn:r")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
			break;
		case 'n':
			max = xoptnum("-n", optarg, 0, LLONG_MAX);
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

	memset(&st, 0, sizeof(st));
	st.names = ht_new();
	if (argc == 0)
		readstream(&st, "-");
	for (; argc > 0; argc--, argv++)
		readstream(&st, *argv);
	putrows(&st, max, rflag);
	for (i = 0; i < ht_count(st.names); i++)
		dist_free(&st.d[i]);
	free(st.d);
	ht_free(st.names);
	xfshut(stdout, "stdout");
	return 0;
}
