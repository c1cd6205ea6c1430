/*
 * sst-tree: print chain rows (samples, weight, thread, chain), as
 * sst-callers(1), sst-callees(1) and sst-stacks(1) write them, the way
 * the reference analyze_pyspy_profile.py prints its caller stacks, its
 * call graph and its full stack dump: one block per row, one indented
 * line per frame.  Names are decoded from the sst(5) escapes, weights
 * printed in the unit of the rows.  The text says what it knows only:
 * rows of a timed stream (a sixth field, "spans") count spans and print
 * times in s, ms, µs or ns; without -m the function is the frame every
 * chain ends (or begins) with, if there is one; without -W no share of
 * a thread is claimed, and rows that all name no thread (grouped across
 * threads) show none.
 */
#include <err.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "fmt.h"
#include "chain.h"
#include "kind.h"

enum view { V_CALLERS, V_FULL, V_GCALLERS, V_GCALLEES, NVIEWS };

struct tree {
	struct chainset	 cs;
	struct buf	 scratch;	/* a decoded name */
	struct buf	 guessed;	/* the name found in the rows */
	const char	*name;		/* -m, or found in the rows */
	double		 total;		/* -W */
	enum sst_unit	 unit;		/* of the rows */
	long long	 num;		/* -n */
	int		 hasnum;
	int		 hasname;	/* -m given, or a name found */
	int		 hastotal;	/* -W given */
	int		 timed;		/* rows of spans */
	const char	*noun;		/* what the counts count */
	int		 threads;	/* rows name threads, or -W */
};

static double	pct(double, double);
static void	putstacks(struct tree *, double, int);
static void	putgraph(struct tree *, int);
static const char *wt(const struct tree *, double);
static __dead void usage(int);

/* w in the unit of the rows, in a static buffer kept for two calls. */
static const char *
wt(const struct tree *t, double w)
{
	static char b[2][FMTBUF];
	static int i;

	i = !i;
	return fmt_kindw(b[i], sizeof(b[i]), w, t->unit, t->timed);
}

/* 100 * w / total, or 0 when total is 0. */
static double
pct(double w, double total)
{
	return total != 0 ? 100 * w / total : 0;
}

/*
 * The reference's --callers (callers set: a summary over all the rows
 * first, shares of the total and of sum) or --full (shares of the
 * total only).
 */
static void
putstacks(struct tree *t, double sum, int callers)
{
	char sb[FMTBUF];
	const struct chainrow *r;
	uint64_t samples = 0;
	size_t i, n;

	if (callers && t->cs.n > 0) {
		for (i = 0; i < t->cs.n; i++) {
			if (t->cs.rows[i].samples > UINT64_MAX - samples)
				errx(1, "the sample count of the rows passes "
				    "2^64-1");
			samples += t->cs.rows[i].samples;
		}
		printf("\n%s %s (%s)", fmt_commas(sb, sizeof(sb), samples),
		    t->noun, wt(t, sum));
		if (t->hasname)
			printf(" contain '%s'", t->name);
		if (t->hastotal)
			printf(" (%.1f%% of thread %s)", pct(sum, t->total),
			    t->timed ? "time" : "CPU");
		fputs("\n\n", stdout);
	}
	for (i = 0, n = chain_shown(t->hasnum, t->num, t->cs.n); i < n; i++) {
		r = &t->cs.rows[i];
		printf("--- Stack #%zu: %s %s, %s (", i + 1,
		    fmt_commas(sb, sizeof(sb), r->samples), t->noun,
		    wt(t, r->weight));
		if (!callers)
			printf("%.1f%%) ---\n", pct(r->weight, t->total));
		else {
			if (t->hastotal)
				printf("%.1f%% of thread, ",
				    pct(r->weight, t->total));
			printf("%.1f%%", pct(r->weight, sum));
			if (t->hasname)
				printf(" of '%s'", t->name);
			putchar(')');
			if (t->threads) {
				fputs(" [", stdout);
				chainrow_putthread(stdout, r, &t->scratch);
				putchar(']');
			}
			puts(" ---");
		}
		chainrow_putframes(stdout, r, 4, CM_LAST, t->name,
		    &t->scratch);
		putchar('\n');
	}
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
	const struct chainrow *r;
	uint64_t selfn = 0;
	double selfw = 0;
	size_t i, j, k = 0, n, nself = 0;

	for (i = 0; i < t->cs.n; i++) {
		r = &t->cs.rows[i];
		if (callers || chainrow_deep(r))
			k++;
		else if (r->chainlen > 0) {
			nself++;
			if (r->samples > UINT64_MAX - selfn)
				errx(1, "the self sample count passes 2^64-1");
			selfn += r->samples;
			if (isinf(selfw += r->weight))
				errx(1, "the self weight overflows to "
				    "infinity");
		}
	}
	printf("--- %s (%s unique chains, showing top %lld) ---\n\n",
	    callers ? "Callers" : "Callees", fmt_commas(sb, sizeof(sb), k),
	    t->hasnum && t->num < (long long)k ? t->num : (long long)k);
	if (nself > 0) {
		printf("  (self): %s %s, %s (%.1f%%)",
		    fmt_commas(sb, sizeof(sb), selfn), t->noun, wt(t, selfw),
		    pct(selfw, t->total));
		if (t->hasname)
			printf(" -- '%s' is the leaf", t->name);
		fputs("\n\n", stdout);
	}
	n = chain_shown(t->hasnum, t->num, k);
	for (i = 0, j = 0; j < n; i++) {
		r = &t->cs.rows[i];
		if (!callers && !chainrow_deep(r))
			continue;
		printf("  #%zu: %s %s, %s (%.1f%%)\n", ++j,
		    fmt_commas(sb, sizeof(sb), r->samples), t->noun,
		    wt(t, r->weight), pct(r->weight, t->total));
		chainrow_putframes(stdout, r, 6,
		    callers ? CM_NAME : CM_CALLEE, t->name, &t->scratch);
		putchar('\n');
	}
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst-tree [-h] [-F view] [-m name] [-n num] "
	    "[-W total] [file ...]\n");
}

/* Read the chain rows of the files (none: standard input); their sum. */
static double
readrows(struct tree *t, int argc, char *argv[])
{
	char msg[1024];
	double sum = 0;
	size_t i;
	int k;

	if (argc == 0 && chainset_read(&t->cs, NULL, msg, sizeof(msg)) == -1)
		errx(1, "%s", msg);
	for (k = 0; k < argc; k++)
		if (chainset_read(&t->cs, argv[k], msg, sizeof(msg)) == -1)
			errx(1, "%s", msg);
	for (i = 0; i < t->cs.n; i++) {
		if (isinf(sum += t->cs.rows[i].weight))
			errx(1, "the total weight of the rows overflows to "
			    "infinity");
		t->timed |= t->cs.rows[i].timed;
		t->threads |= t->cs.rows[i].threadlen > 0 || t->hastotal;
	}
	return sum;
}

int
main(int argc, char *argv[])
{
	static const char *views[NVIEWS] = { "callers", "full",
	    "graph-callers", "graph-callees" };
	struct tree t;
	double sum;
	int ch, view = V_CALLERS;

	sst_init();
	memset(&t, 0, sizeof(t));
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "F:hm:n:W:")) != -1) {
		switch (ch) {
		case 'F':
			view = xoptword("-F", "view", optarg, views, NVIEWS);
			break;
		case 'h':
			usage(1);
		case 'm':
			t.name = optarg;
			t.hasname = 1;
			break;
		case 'n':
			t.num = xoptnum("-n", optarg, -LLONG_MAX, LLONG_MAX);
			t.hasnum = 1;
			break;
		case 'W':
			if (fmt_strtod(optarg, strlen(optarg), &t.total) == -1)
				errx(2, "-W: invalid: %s", optarg);
			t.hastotal = 1;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;

	buf_init(&t.scratch);
	buf_init(&t.guessed);
	sum = readrows(&t, argc, argv);
	t.unit = t.cs.n > 0 ? t.cs.rows[0].unit : U_SECONDS;
	t.noun = t.timed ? "spans" : "samples";
	if (!t.hastotal)
		t.total = sum;
	/* Without -m: the frame every chain ends with, else begins with. */
	if (!t.hasname && view != V_FULL &&
	    (t.name = chainset_name(&t.cs, view != V_GCALLEES,
	    view != V_GCALLERS, &t.guessed)) != NULL)
		t.hasname = 1;
	if (t.name == NULL)
		t.name = "";
	if (view == V_CALLERS || view == V_FULL)
		putstacks(&t, sum, view == V_CALLERS);
	else
		putgraph(&t, view == V_GCALLERS);
	chainset_free(&t.cs);
	buf_free(&t.scratch);
	buf_free(&t.guessed);
	xfshut(stdout, "stdout");
	return 0;
}
