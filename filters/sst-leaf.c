/*
 * sst-leaf: self time per leaf frame of an sst(5) stream.  The leaf of
 * a record is the last frame of its stack, told apart by its name and
 * its location entry, which holds the input's frame index.  Prints one
 * TAB-separated row per leaf, heaviest first, with samples, share of
 * the total, weight in its unit, name and location, for sst-table(1).
 * Weights are summed exactly as the reference Python scripts sum them,
 * sample after sample.  The table of a timed stream (kind.h: spans)
 * counts spans and prints times in s, ms, µs or ns; a sampled one keeps
 * the reference's samples and "12.34s".
 */
#include <err.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "htab.h"
#include "fmt.h"
#include "tally.h"
#include "kind.h"

struct leaves {
	struct tally	 tally;		/* by escaped "name TAB location" */
	double		 total;		/* every sample, in stream order */
	struct kind	 kind;
};

static void	putloc(const char *, size_t);
static void	putrows(const struct leaves *, long long, int);
static __dead void usage(int);

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
	const struct tally *t = &lv->tally;
	enum sst_unit u = t->unit < 0 ? U_SECONDS : (enum sst_unit)t->unit;
	size_t *ix, i, n = tally_count(t), len;
	double pct;
	int timed = kind_timed(&lv->kind, u);

	ix = tally_sort(t);
	if (max >= 0 && (unsigned long long)max < n)
		n = (size_t)max;
	if (!raw)
		printf("%s\tSelf %%\tSelf %s\tFunction\tLocation\n",
		    timed ? "Spans" : "Samples", fmt_unitnoun(u));
	for (i = 0; i < n; i++) {
		pct = lv->total != 0 ? 100 * t->weight[ix[i]] / lv->total : 0;
		k = ht_key(t->keys, ix[i], &len);
		tab = strchr(k, '\t');
		if (raw) {
			fmt_double(wb, sizeof(wb), t->weight[ix[i]]);
			fmt_double(pb, sizeof(pb), pct);
			printf("%llu\t%s\t%s\t%s\n",
			    (unsigned long long)t->samples[ix[i]], pb, wb, k);
			continue;
		}
		fmt_commas(sb, sizeof(sb), t->samples[ix[i]]);
		printf("%s\t%.1f%%\t%s\t", sb, pct,
		    fmt_kindw(wb, sizeof(wb), t->weight[ix[i]], u, timed));
		fwrite(k, 1, (size_t)(tab - k) + 1, stdout);
		putloc(tab + 1, len - (size_t)(tab - k) - 1);
		putchar('\n');
	}
	free(ix);
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst-leaf [-hr] [-n num] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct leaves lv;
	struct buf err;
	long long max = -1;
	int ch, i, rflag = 0;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "hn:r")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
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

	memset(&lv, 0, sizeof(lv));
	tally_init(&lv.tally);
	kind_init(&lv.kind);
	buf_init(&err);
	if (argc == 0 && tally_leaveskind(&lv.tally, &lv.total, NULL,
	    &lv.kind, &err) == -1)
		errx(1, "%s", err.data);
	for (i = 0; i < argc; i++)
		if (tally_leaveskind(&lv.tally, &lv.total, argv[i], &lv.kind,
		    &err) == -1)
			errx(1, "%s", err.data);
	buf_free(&err);
	putrows(&lv, max, rflag);
	tally_free(&lv.tally);
	xfshut(stdout, "stdout");
	return 0;
}
