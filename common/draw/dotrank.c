/*
 * dotrank.c: the order and colours of the nodes of sst-dot(1)'s call
 * graph.  dg_sort() ranks nodes as pprof does for pictures (its
 * EntropyOrder): a node's score is its inclusive weight times the
 * entropy of its incoming edges (1 for a root) plus that of its
 * outgoing edges and self weight (1 for a leaf), plus its self weight,
 * so that the nodes where paths meet or part come first.  Threads are
 * ranked by weight for the palette, and a node shared by threads is
 * filled with stripes as wide as their shares.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dotrank.h"
#include "util.h"
#include "buf.h"
#include "htab.h"
#include "sort.h"
#include "tally.h"

/* What dg_sort() compares. */
struct order {
	const struct dg	*g;
	const struct cg	*cg;
	double		*score;
};

/* Entropy score, then cum, heaviest first; then name and file. */
static int
cmpnode(size_t a, size_t b, void *arg)
{
	const struct order *o = arg;
	const char *ka, *kb;
	int c;

	if (o->score[a] != o->score[b])
		return o->score[a] > o->score[b] ? -1 : 1;
	if (o->g->cum[a] != o->g->cum[b])
		return o->g->cum[a] > o->g->cum[b] ? -1 : 1;
	ka = ht_key(o->cg->funcs, o->g->node[a], NULL);
	kb = ht_key(o->cg->funcs, o->g->node[b], NULL);
	if ((c = strcmp(ka, kb)) != 0)
		return c;
	return a < b ? -1 : a > b;
}

/* Add -p log2 p of the edges of one side of each node into h. */
static void
entropy(const struct dg *g, double *h, double *tot, unsigned char *has,
    int out)
{
	const struct dg_edge *e;
	size_t i, nd;
	double p;

	for (i = 0; i < g->ne; i++) {
		e = &g->e[i];
		if (e->dropped)
			continue;
		nd = g->index[out ? e->from : e->to] - 1;
		has[nd] = 1;
		tot[nd] += fabs(e->w);
	}
	for (i = 0; i < g->ne; i++) {
		e = &g->e[i];
		nd = g->index[out ? e->from : e->to] - 1;
		if (e->dropped || tot[nd] == 0 || e->w == 0)
			continue;
		p = fabs(e->w) / tot[nd];
		h[nd] -= p * log2(p);
	}
}

/* The weight of node i in thread t (in dotrank.c, its one user). */
double
dg_threadw(const struct dg *g, uint32_t i, uint32_t t)
{
	uint32_t k[2] = { g->node[i], t };
	size_t id;

	id = ht_find(g->nt, k, sizeof(k));
	return id == (size_t)-1 ? 0 : g->ntw[id];
}

void
dg_sort(struct dg *g, const struct cg *cg)
{
	struct order o = { g, cg, NULL };
	double *hin, *hout, *tin, *tout, *flat, *cum, p;
	unsigned char *hasin, *hasout;
	size_t i, n = g->nnodes, *ix;
	uint32_t *node;

	hin = xcalloc(n + 1, sizeof(*hin));
	hout = xcalloc(n + 1, sizeof(*hout));
	tin = xcalloc(n + 1, sizeof(*tin));
	tout = xcalloc(n + 1, sizeof(*tout));
	hasin = xcalloc(n + 1, 1);
	hasout = xcalloc(n + 1, 1);
	o.score = xcalloc(n + 1, sizeof(*o.score));
	for (i = 0; i < n; i++)
		tout[i] = fabs(g->flat[i]);
	entropy(g, hin, tin, hasin, 0);
	entropy(g, hout, tout, hasout, 1);
	for (i = 0; i < n; i++) {
		if (hasout[i] && g->flat[i] > 0 && tout[i] > 0) {
			p = g->flat[i] / tout[i];
			hout[i] -= p * log2(p);
		}
		o.score[i] = ((hasin[i] ? hin[i] : 1) +
		    (hasout[i] ? hout[i] : 1)) * g->cum[i] + g->flat[i];
	}
	ix = xcalloc(n + 1, sizeof(*ix));
	for (i = 0; i < n; i++)
		ix[i] = i;
	sst_sort(ix, n, cmpnode, &o);
	node = xcalloc(n + 1, sizeof(*node));
	flat = xcalloc(n + 1, sizeof(*flat));
	cum = xcalloc(n + 1, sizeof(*cum));
	for (i = 0; i < n; i++) {
		node[i] = g->node[ix[i]];
		flat[i] = g->flat[ix[i]];
		cum[i] = g->cum[ix[i]];
		g->index[node[i]] = (uint32_t)i + 1;
	}
	free(g->node);
	free(g->flat);
	free(g->cum);
	g->node = node;
	g->flat = flat;
	g->cum = cum;
	free(ix);
	free(o.score);
	free(hin);
	free(hout);
	free(tin);
	free(tout);
	free(hasin);
	free(hasout);
}

size_t *
dg_ranks(const struct tally *th)
{
	size_t i, k = 0, n = tally_count(th), *ix, *rank;

	ix = tally_sort(th);
	rank = xcalloc(n + 1, sizeof(*rank));
	for (i = 0; i < n; i++) {
		rank[ix[i]] = k;
		if (th->samples[ix[i]] > 0 && k < SVG_NPALETTE)
			k++;
	}
	free(ix);
	return rank;
}

void
dg_fill(const struct dg *g, struct buf *b, uint32_t i,
    const struct tally *th, const size_t *rank)
{
	double f, left = 1, other = 0;
	size_t k, n = tally_count(th), *ix, shown = 0;
	const char *c, *one = SVG_OTHER;

	ix = tally_sort(th);
	buf_reset(b);
	for (k = 0; k < n; k++) {
		if ((f = dg_threadw(g, i, (uint32_t)ix[k])) <= 0 ||
		    g->cum[i] <= 0)
			continue;
		f /= g->cum[i];
		if (*(c = svg_palette(rank[ix[k]])) == '\0') {
			other += f;
			continue;
		}
		/* Graphviz wants the fractions to sum to 1 at most. */
		f = fmin(floor(f * 1000 + 0.5) / 1000, left);
		if (f < 0.001)
			continue;
		buf_printf(b, "%s%s;%.3f", shown++ ? ":" : "", c, f);
		one = c;
		left -= f;
	}
	if (other > 0 && shown > 0)
		buf_printf(b, ":%s", SVG_OTHER);
	else if (shown == 1) {
		buf_reset(b);
		buf_adds(b, one);
	} else if (shown == 0)
		buf_adds(b, SVG_OTHER);
	free(ix);
}

void
dg_note(const struct dg *g, struct buf *b, uint32_t i, const struct tally *th)
{
	size_t k, n = tally_count(th), *ix, shown = 0, more = 0, len;
	const char *s;
	double w;

	ix = tally_sort(th);
	for (k = 0; k < n; k++) {
		if ((w = dg_threadw(g, i, (uint32_t)ix[k])) <= 0 ||
		    g->cum[i] <= 0)
			continue;
		if (shown == 8) {
			more++;
			continue;
		}
		buf_adds(b, "\\n");
		s = ht_key(th->keys, ix[k], &len);
		svg_text(b, s, len, SVG_DOT, 60);
		buf_printf(b, ": %.2f%%", 100 * w / g->cum[i]);
		shown++;
	}
	if (more > 0)
		buf_printf(b, "\\n%zu more threads", more);
	free(ix);
}

/* pprof's pruning (see dotrank.h): here, as it ranks with dg_sort(). */
void
dg_prune(struct dg *g, const struct cg *cg, double nfrac, double efrac,
    size_t nmax, struct dg_cuts *c)
{
	unsigned char *keep;
	size_t i;

	memset(c, 0, sizeof(*c));
	c->ncut = cg->total * nfrac;
	c->ecut = cg->total * efrac;
	keep = xcalloc(g->nfuncs + 1, 1);
	dg_build(g, NULL);
	for (i = 0; i < g->nnodes; i++)
		if (fabs(g->cum[i]) >= c->ncut)
			keep[g->node[i]] = 1;
		else
			c->nodrop++;
	if (c->nodrop > 0)
		dg_build(g, keep);
	dg_sort(g, cg);
	dg_trimedges(g, c->ecut);
	if (nmax > 0 && g->nnodes > nmax) {
		memset(keep, 0, g->nfuncs + 1);
		for (i = 0; i < nmax; i++)
			keep[g->node[i]] = 1;
		c->ntop = nmax;
		c->norig = g->nnodes;
		dg_build(g, keep);
		dg_sort(g, cg);
	}
	c->edrop = dg_trimedges(g, c->ecut);
	free(keep);
}
