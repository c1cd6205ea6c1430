/*
 * sst-dot: an sst(5) stream as a Graphviz DOT call graph, drawn as
 * pprof draws its graphs: a box per function (name and file) labelled
 * with its self and inclusive weight and their share of the total, font
 * size growing with self weight; an edge per caller -> callee with the
 * weight that flows through it, wider and redder as it grows, dashed
 * where pruned functions lay between.  Boxes are filled with the colour
 * of their thread (striped by share when several threads run them) and
 * a legend names the threads.  Pruning follows pprof: nodes lighter
 * than --nodefraction of the total go, then all but the -n best, then
 * edges lighter than --edgefraction.
 */
#include <err.h>
#include <getopt.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "dotrank.h"
#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "tally.h"

struct dot {
	struct cg	 cg;
	struct dg	 dg;
	regex_t		 re;
	int		 focus;
	struct buf	 name;
	size_t		 nfocus;
	double		 wfocus;
	size_t		*trank;		/* thread id -> colour rank */
	struct dg_cuts	 cuts;
	const char	*path;		/* being read */
};

static void	add(void *, uint32_t, const uint32_t *, size_t,
		    const struct sst_rec *);
static void	putlegend(struct dot *);
static void	putnodes(struct dot *);
static void	readall(struct dot *, int, char *[]);
static __dead void usage(void);

/* Keep a record's stack if it has a frame that -m matches. */
static void
add(void *arg, uint32_t t, const uint32_t *ids, size_t n,
    const struct sst_rec *r)
{
	struct dot *d = arg;
	const char *s;
	size_t i, len;

	if (d->cg.diff == 1)
		errx(1, "%s: two-count folded lines, which sst-flame draws; "
		    "sst-dot reads an sst(5) stream", d->path);

	for (i = 0; d->focus && i < n; i++) {
		s = cg_name(&d->cg, ids[i], &len);
		buf_reset(&d->name);
		buf_grow(&d->name, len + 1);
		d->name.len = esc_decode(d->name.data, s, len);
		d->name.data[d->name.len] = '\0';
		if (regexec(&d->re, d->name.data, 0, NULL, 0) == 0)
			break;
	}
	if (d->focus && i == n)
		return;
	d->nfocus += r->samples;
	d->wfocus += r->weight;
	dg_add(&d->dg, t, ids, n, r->weight);
}

/* The legend: totals, what was dropped, and the thread colours. */
static void
putlegend(struct dot *d)
{
	struct tally *th = &d->cg.threads;
	struct buf b;
	char w1[FMTBUF], w2[FMTBUF];
	size_t k, nt = tally_count(th), *ix, len;
	double shown = 0;
	const char *s;

	buf_init(&b);
	for (k = 0; k < d->dg.nnodes; k++)
		shown += d->dg.flat[k];
	printf("subgraph cluster_L { \"legend\" [shape=box fontsize=16 "
	    "label=\"Unit: %s\\l", rec_unitname(d->cg.unit));
	if (d->focus)
		printf("Focus: %llu samples, %s (%.2f%%)\\l",
		    (unsigned long long)d->nfocus, svg_weight(w1, sizeof(w1),
		    d->wfocus, d->cg.unit), 100 * d->wfocus / d->cg.total);
	printf("Showing nodes accounting for %s, %.2f%% of %s total\\l",
	    svg_weight(w1, sizeof(w1), shown, d->cg.unit),
	    100 * shown / d->cg.total, svg_weight(w2, sizeof(w2),
	    d->cg.total, d->cg.unit));
	if (d->cuts.nodrop > 0)
		printf("Dropped %zu nodes (cum <= %s)\\l", d->cuts.nodrop,
		    svg_weight(w1, sizeof(w1), d->cuts.ncut, d->cg.unit));
	if (d->cuts.edrop > 0)
		printf("Dropped %zu edges (freq <= %s)\\l", d->cuts.edrop,
		    svg_weight(w1, sizeof(w1), d->cuts.ecut, d->cg.unit));
	if (d->cuts.ntop > 0)
		printf("Showing top %zu nodes out of %zu\\l", d->cuts.ntop,
		    d->cuts.norig);
	printf("\" tooltip=\"sst-dot\"]\n\"threads\" [shape=plaintext "
	    "label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" "
	    "cellpadding=\"4\">");
	ix = tally_sort(th);
	for (k = 0; k < nt; k++) {
		if (th->samples[ix[k]] == 0)
			continue;
		if (d->trank[ix[k]] == SVG_NPALETTE) {
			printf("<tr><td bgcolor=\"%s\" width=\"16\"></td><td "
			    "align=\"left\">other threads</td></tr>",
			    SVG_OTHER);
			break;
		}
		s = ht_key(th->keys, ix[k], &len);
		buf_reset(&b);
		svg_text(&b, s, len, SVG_XML, 60);
		printf("<tr><td bgcolor=\"%s\" width=\"16\"></td><td align="
		    "\"left\">%s: %s (%.2f%%)</td></tr>",
		    svg_palette(d->trank[ix[k]]), b.data, svg_weight(w1,
		    sizeof(w1), th->weight[ix[k]], d->cg.unit),
		    100 * th->weight[ix[k]] / d->cg.total);
	}
	printf("</table>>] }\n");
	free(ix);
	buf_free(&b);
}

/* The nodes, then the edges. */
static void
putnodes(struct dot *d)
{
	struct dg *g = &d->dg;
	struct buf lab, fl;
	char w1[FMTBUF], w2[FMTBUF], c1[16];
	double maxflat = 0, tot = d->cg.total;
	size_t i, fs;

	buf_init(&lab);
	buf_init(&fl);
	for (i = 0; i < g->nnodes; i++)
		maxflat = fmax(maxflat, fabs(g->flat[i]));
	for (i = 0; i < g->nnodes; i++) {
		buf_reset(&lab);
		dg_funclabel(&lab, &d->cg, g->node[i], SVG_DOT);
		svg_weight(w1, sizeof(w1), g->flat[i], d->cg.unit);
		svg_weight(w2, sizeof(w2), g->cum[i], d->cg.unit);
		fs = 8;
		if (maxflat > 0 && g->flat[i] != 0)
			fs += (size_t)ceil(16 * sqrt(fabs(g->flat[i]) /
			    maxflat));
		printf("N%zu [label=\"%s\\n", i + 1, lab.data);
		if (g->flat[i] != 0)
			printf("%s (%.2f%%)", w1, 100 * g->flat[i] / tot);
		else
			printf("0");
		if (g->cum[i] != g->flat[i])
			printf("%sof %s (%.2f%%)", g->flat[i] != 0 ? "\\n" :
			    " ", w2, 100 * g->cum[i] / tot);
		dg_fill(&d->dg, &fl, (uint32_t)i, &d->cg.threads, d->trank);
		buf_printf(&lab, " (%s)", w2);
		if (strchr(fl.data, ';') != NULL)
			dg_note(&d->dg, &lab, (uint32_t)i, &d->cg.threads);
		printf("\" id=\"node%zu\" fontsize=%zu shape=box "
		    "tooltip=\"%s\" color=\"%s\" style=\"%s\" "
		    "fillcolor=\"%s\"]\n", i + 1,
		    fs, lab.data, svg_heat(c1, sizeof(c1), g->cum[i] / tot, 0),
		    strchr(fl.data, ';') ? "striped" : "filled", fl.data);
	}
	dg_putedges(stdout, g, &d->cg);
	buf_free(&lab);
	buf_free(&fl);
}

/* Read the files (standard input if none), or exit 1. */
static void
readall(struct dot *d, int argc, char *argv[])
{
	char msg[1024];
	int i;

	d->path = "<stdin>";
	if (argc == 0 && cg_read(&d->cg, NULL, add, d, msg,
	    sizeof(msg)) == -1)
		errx(1, "%s", msg);
	for (i = 0; i < argc; i++) {
		d->path = strcmp(argv[i], "-") == 0 ? "<stdin>" : argv[i];
		if (cg_read(&d->cg, argv[i], add, d, msg, sizeof(msg)) == -1)
			errx(1, "%s", msg);
	}
	if (d->cg.samples == 0 || d->cg.total <= 0)
		errx(1, "%s: no samples with weight: sst-dot reads an "
		    "sst(5) stream (sst-flatten, perf2sst and collapsed2sst "
		    "write one)", d->path);
	if (d->nfocus == 0)
		errx(1, "-m: no sample has a frame that matches");
}

static __dead void
usage(void)
{
	fprintf(stderr, "usage: sst-dot [-m focus] [-n nodecount] "
	    "[--nodefraction frac] [--edgefraction frac] [file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	static struct option lo[] = {
		{ "edgefraction", required_argument, NULL, 'E' },
		{ "help", no_argument, NULL, 'h' },
		{ "nodefraction", required_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 }
	};
	struct dot d;
	double nfrac = 0.005, efrac = 0.001, *fr;
	long long nmax = 80;
	char *end;
	int ch, rc;

	sst_init();
	memset(&d, 0, sizeof(d));
	while ((ch = getopt_long(argc, argv, "hm:n:", lo, NULL)) != -1) {
		switch (ch) {
		case 'E':
		case 'N':
			fr = ch == 'E' ? &efrac : &nfrac;
			*fr = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' || !(*fr >= 0 &&
			    *fr <= 1))
				errx(2, "--%s: expected a fraction from 0 to "
				    "1: %s", ch == 'E' ? "edgefraction" :
				    "nodefraction", optarg);
			break;
		case 'h':
			printf("usage: sst-dot [-m focus] [-n nodecount] "
			    "[--nodefraction frac] [--edgefraction frac] "
			    "[file ...]\n");
			exit(0);
		case 'm':
			if ((rc = regcomp(&d.re, optarg, REG_EXTENDED |
			    REG_NOSUB)) != 0) {
				regerror(rc, &d.re, (end = xmalloc(256)), 256);
				errx(2, "-m: %s: %s", end, optarg);
			}
			d.focus = 1;
			break;
		case 'n':
			nmax = xoptnum("-n", optarg, 0, INT32_MAX);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	cg_init(&d.cg);
	dg_init(&d.dg);
	buf_init(&d.name);
	readall(&d, argc, argv);
	d.trank = dg_ranks(&d.cg.threads);
	dg_prune(&d.dg, &d.cg, nfrac, efrac, (size_t)nmax, &d.cuts);
	printf("digraph \"sst\" {\nnode [style=filled fillcolor=\"#f8f8f8\"]"
	    "\n");
	putlegend(&d);
	putnodes(&d);
	printf("}\n");
	xfshut(stdout, "stdout");
	free(d.trank);
	dg_free(&d.dg);
	cg_free(&d.cg);
	buf_free(&d.name);
	if (d.focus)
		regfree(&d.re);
	return 0;
}
