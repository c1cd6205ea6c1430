/*
 * sst-diff: compare two sst(5) streams, A and B, function by function.
 * Each function (a frame name) gets its weight in A and in B, self time
 * (-k leaf, the default) or inclusive time counted once per record
 * (-k inclusive), the difference, the difference as a percentage of A
 * and its share of each stream's total; rows go heaviest |delta| first,
 * ties in first-seen order (A's functions, then B's new ones).  -N
 * scales B to A's total.  --fail-above PCT makes the comparison a gate:
 * exit 3 when some function's share grew by more than PCT points.  The
 * gate fails closed: a side with a total of 0 (empty) or a share that
 * is not finite is an error (exit 1), never a pass; a total that
 * overflows is an error with or without the gate.
 * -F folded writes "stack countA countB" lines instead, as difffolded.pl
 * does, one per distinct stack, so that every frame's difference is
 * the sum over the stacks under it.  The folded lines are kept only
 * then.
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "rec.h"
#include "htab.h"
#include "sort.h"
#include "fmt.h"
#include "tally.h"
#include "dside.h"
#include "kind.h"

struct diff {
	struct dside	 a, b;
	int		 incl;		/* -k inclusive */
	double		 scale;		/* B's values times this */
	struct htab	*names;		/* A's and B's functions, in order */
	double		*delta;		/* by name id */
};

static int	bydelta(size_t, size_t, void *);
static void	puttable(struct diff *, size_t *, size_t);
static void	share(const struct diff *, size_t, double *, double *);
static int	gate(struct diff *, double);
static void	readsides(struct diff *, const char *, const char *, int,
		    int);
static size_t	*rank(struct diff *, size_t *);
static __dead void usage(int);

/* Heaviest |delta| first; ties keep their order. */
static int
bydelta(size_t x, size_t y, void *arg)
{
	const double *d = arg;
	double dx = fabs(d[x]), dy = fabs(d[y]);

	return dx > dy ? -1 : dx < dy;
}

/* The table of functions ix[0..n), for sst-table(1). */
static void
puttable(struct diff *d, size_t *ix, size_t n)
{
	const char *k;
	double wa, wb, ta = d->a.total, tb = d->b.total * d->scale;
	size_t i, len;
	int ina, inb;

	printf("Function\tA\tB\tDelta\tDelta %%\tA share\tB share\tIn\n");
	for (i = 0; i < n; i++) {
		k = ht_key(d->names, ix[i], &len);
		ina = ht_find(d->a.fn.keys, k, len) != (size_t)-1;
		inb = ht_find(d->b.fn.keys, k, len) != (size_t)-1;
		wa = dside_value(&d->a.fn, k, len);
		wb = dside_value(&d->b.fn, k, len) * d->scale;
		printf("%s\t", k);
		dside_putval(stdout, wa, d->a.unit, 0);
		putchar('\t');
		dside_putval(stdout, wb, d->a.unit, 0);
		putchar('\t');
		dside_putval(stdout, wb - wa, d->a.unit, 1);
		if (wa != 0)
			printf("\t%+.1f%%", 100 * (wb - wa) / wa);
		else
			printf("\t%s", wb != 0 ? "new" : "0.0%");
		printf("\t%.1f%%\t%.1f%%\t%s\n", ta != 0 ? 100 * wa / ta : 0,
		    tb != 0 ? 100 * wb / tb : 0,
		    ina && inb ? "both" : ina ? "A only" : "B only");
	}
}

/*
 * The shares in A and in B of function id, in percent; a share that is
 * not finite (a total that overflowed, values far above a tiny total)
 * ends the program, since a gate must not pass on it.
 */
static void
share(const struct diff *d, size_t id, double *sa, double *sb)
{
	const char *k;
	double tb = d->b.total * d->scale;
	size_t len;

	k = ht_key(d->names, id, &len);
	*sa = d->a.total != 0 ? 100 * dside_value(&d->a.fn, k, len) /
	    d->a.total : 0;
	*sb = tb != 0 ? 100 * dside_value(&d->b.fn, k, len) * d->scale / tb :
	    0;
	if (!isfinite(*sa) || !isfinite(*sb))
		errx(1, "%s: its share is not a finite number (%g%% -> %g%%): "
		    "the gate cannot decide", k, *sa, *sb);
}

/* Report the functions whose share grew by more than pct points. */
static int
gate(struct diff *d, double pct)
{
	double sa, sb;
	size_t i;
	int bad = 0;

	for (i = 0; i < ht_count(d->names); i++)
		share(d, i, &sa, &sb);
	for (i = 0; i < ht_count(d->names); i++) {
		share(d, i, &sa, &sb);
		if (sb - sa > pct) {
			warnx("%s: share %.1f%% -> %.1f%%, up %.1f points, "
			    "more than %g", ht_key(d->names, i, NULL), sa, sb,
			    sb - sa, pct);
			bad = 1;
		}
	}
	return bad;
}

/*
 * Read sides a and b (paths pa and pb), or exit 1 on what the
 * comparison, the gate or -N (normalise) cannot use; set the scale.
 */
static void
readsides(struct diff *d, const char *pa, const char *pb, int gating,
    int normalise)
{
	char msg[4096];

	if (dside_read(&d->a, d->incl, msg, sizeof(msg)) == -1 ||
	    dside_read(&d->b, d->incl, msg, sizeof(msg)) == -1)
		errx(1, "%s", msg);
	if (d->a.hasunit && d->b.hasunit && d->a.unit != d->b.unit)
		errx(1, "%s is in %s, %s in %s: they cannot be compared",
		    pa, rec_unitname(d->a.unit), pb, rec_unitname(d->b.unit));
	if (!d->a.hasunit)
		d->a.unit = d->b.unit;
	if (dside_check(&d->a, pa, gating, msg, sizeof(msg)) == -1 ||
	    dside_check(&d->b, pb, gating, msg, sizeof(msg)) == -1)
		errx(1, "%s", msg);
	d->scale = 1;
	if (normalise) {
		if (d->b.total == 0)
			errx(1, "-N: %s has a total of 0", pb);
		d->scale = d->a.total / d->b.total;
		if (!isfinite(d->scale) || d->scale == 0)
			errx(1, "-N: the scale %s / %s overflows", pa, pb);
	}
}

/*
 * The functions of A, then B's new ones, with their deltas; their ids
 * heaviest |delta| first (*n of them, free() the array).
 */
static size_t *
rank(struct diff *d, size_t *n)
{
	const struct tally *t;
	const char *k;
	size_t i, j, len, *ix;

	d->names = ht_new();
	for (j = 0; j < 2; j++) {
		t = j ? &d->b.fn : &d->a.fn;
		for (i = 0; i < tally_count(t); i++) {
			k = ht_key(t->keys, i, &len);
			ht_intern(d->names, k, len, NULL);
		}
	}
	*n = ht_count(d->names);
	d->delta = xreallocarray(NULL, *n, sizeof(*d->delta));
	ix = xreallocarray(NULL, *n, sizeof(*ix));
	for (i = 0; i < *n; i++) {
		k = ht_key(d->names, i, &len);
		d->delta[i] = dside_value(&d->b.fn, k, len) * d->scale -
		    dside_value(&d->a.fn, k, len);
		ix[i] = i;
	}
	sst_sort(ix, *n, bydelta, d->delta);
	return ix;
}

static __dead void
usage(int help)
{
	fprintf(help ? stdout : stderr, "usage: sst-diff [-N] [-F folded] "
	    "[-k leaf|inclusive] [--fail-above pct] a b\n");
	if (help)
		xfshut(stdout, "stdout");
	exit(help ? 0 : 2);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "fail-above", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct diff d;
	double pct = -1;
	size_t *ix, n;
	int ch, folded = 0, normalise = 0, bad;
	char *end;

	sst_init();
	memset(&d, 0, sizeof(d));
	while ((ch = getopt_long(argc, argv, "F:hk:N", longopts, NULL)) != -1) {
		switch (ch) {
		case 'F':
			if (strcmp(optarg, "folded") != 0)
				errx(2, "-F: expected folded, got %s", optarg);
			folded = 1;
			break;
		case 'G':
			pct = strtod(optarg, &end);
			if (end == optarg || *end != '\0' || !(pct >= 0) ||
			    isinf(pct))
				errx(2, "--fail-above: expected a number of "
				    "points >= 0, got %s", optarg);
			break;
		case 'h':
			usage(1);
		case 'k':
			if (strcmp(optarg, "leaf") == 0)
				d.incl = 0;
			else if (strcmp(optarg, "inclusive") == 0)
				d.incl = 1;
			else
				errx(2, "-k: expected leaf or inclusive, "
				    "got %s", optarg);
			break;
		case 'N':
			normalise = 1;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage(0);
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0)
		errx(2, "only one of a and b can be the standard input");

	dside_init(&d.a, argv[0]);
	dside_init(&d.b, argv[1]);
	/* Folded lines only for -F folded. */
	d.a.nofold = d.b.nofold = !folded;
	readsides(&d, argv[0], argv[1], pct >= 0, normalise);
	ix = rank(&d, &n);
	bad = pct >= 0 && gate(&d, pct);
	if (folded)
		dside_putfolded(stdout, &d.a, &d.b, d.scale);
	else
		puttable(&d, ix, n);
	xfshut(stdout, "stdout");
	free(ix);
	free(d.delta);
	ht_free(d.names);
	dside_free(&d.a);
	dside_free(&d.b);
	return bad ? 3 : 0;
}
