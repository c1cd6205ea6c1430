/*
 * dotgraph.c: the call graph of sst-dot(1), as pprof's internal/graph
 * builds it from samples.  Walking each stack from the root, a kept
 * function's node gets the stack's weight once (cum), the edge from the
 * last kept node to it gets it once (recursion counts once per sample)
 * and is residual when functions that are not kept lay between; the
 * leaf's node gets it as flat if the leaf itself is kept.  dg_sort()
 * orders nodes by pprof's entropy score, which favours the nodes that
 * hold the graph's shape together, so that the top N keep it readable.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dotgraph.h"

#define NONE	UINT32_MAX

void
dg_init(struct dg *g)
{
	memset(g, 0, sizeof(*g));
}

/* Forget the graph of the last dg_build(). */
static void
clear(struct dg *g)
{
	free(g->node);
	free(g->flat);
	free(g->cum);
	free(g->index);
	free(g->e);
	free(g->ntw);
	ht_free(g->eh);
	ht_free(g->nt);
	g->node = g->index = NULL;
	g->flat = g->cum = g->ntw = NULL;
	g->e = NULL;
	g->eh = g->nt = NULL;
	g->nnodes = g->ne = g->ntcap = 0;
}

void
dg_free(struct dg *g)
{
	clear(g);
	free(g->st);
	free(g->ids);
	memset(g, 0, sizeof(*g));
}

void
dg_add(struct dg *g, uint32_t thread, const uint32_t *ids, size_t n,
    double w)
{
	struct dg_stack *s;
	size_t i;

	if (g->nst == g->stcap) {
		g->stcap = g->stcap ? g->stcap * 2 : 256;
		g->st = xreallocarray(g->st, g->stcap, sizeof(*g->st));
	}
	while (g->nids + n > g->idcap) {
		g->idcap = g->idcap ? g->idcap * 2 : 4096;
		g->ids = xreallocarray(g->ids, g->idcap, sizeof(*g->ids));
	}
	s = &g->st[g->nst++];
	s->thread = thread;
	s->n = (uint32_t)n;
	s->off = g->nids;
	s->w = w;
	memcpy(g->ids + g->nids, ids, n * sizeof(*ids));
	g->nids += n;
	for (i = 0; i < n; i++)
		if (ids[i] >= g->nfuncs)
			g->nfuncs = (size_t)ids[i] + 1;
}

/* The node index of function f, made if new. */
static uint32_t
nodeof(struct dg *g, uint32_t f)
{
	if (g->index[f] == 0) {
		g->node[g->nnodes++] = f;
		g->index[f] = (uint32_t)g->nnodes;
	}
	return g->index[f] - 1;
}

/* Add w to the weight of node function f in thread t. */
static void
addthread(struct dg *g, uint32_t f, uint32_t t, double w)
{
	uint32_t k[2] = { f, t };
	size_t id;

	id = ht_intern(g->nt, k, sizeof(k), NULL);
	if (id >= g->ntcap) {
		g->ntcap = g->ntcap ? g->ntcap * 2 : 256;
		g->ntw = xreallocarray(g->ntw, g->ntcap, sizeof(*g->ntw));
		memset(g->ntw + id, 0, (g->ntcap - id) * sizeof(*g->ntw));
	}
	g->ntw[id] += w;
}

/* The edge from function a to function b, made if new. */
static size_t
edgeof(struct dg *g, uint32_t a, uint32_t b, size_t *cap)
{
	uint32_t k[2] = { a, b };
	int isnew;
	size_t id;

	id = ht_intern(g->eh, k, sizeof(k), &isnew);
	if (isnew) {
		if (id >= *cap) {
			*cap = *cap ? *cap * 2 : 256;
			g->e = xreallocarray(g->e, *cap, sizeof(*g->e));
		}
		memset(&g->e[id], 0, sizeof(g->e[id]));
		g->e[id].from = a;
		g->e[id].to = b;
		g->ne++;
	}
	return id;
}

void
dg_build(struct dg *g, const unsigned char *keep)
{
	const struct dg_stack *s;
	size_t i, j, ecap = 0, eid, *nstamp, *estamp = NULL, escap = 0;
	uint32_t f, parent, nd;
	int residual;

	clear(g);
	g->node = xcalloc(g->nfuncs + 1, sizeof(*g->node));
	g->index = xcalloc(g->nfuncs + 1, sizeof(*g->index));
	g->flat = xcalloc(g->nfuncs + 1, sizeof(*g->flat));
	g->cum = xcalloc(g->nfuncs + 1, sizeof(*g->cum));
	nstamp = xcalloc(g->nfuncs + 1, sizeof(*nstamp));
	g->eh = ht_new();
	g->nt = ht_new();
	for (i = 0; i < g->nst; i++) {
		s = &g->st[i];
		parent = NONE;
		residual = 0;
		for (j = 0; j < s->n; j++) {
			f = g->ids[s->off + j];
			if (keep != NULL && !keep[f]) {
				residual = 1;
				continue;
			}
			nd = nodeof(g, f);
			if (nstamp[nd] != i + 1) {
				nstamp[nd] = i + 1;
				g->cum[nd] += s->w;
				addthread(g, f, s->thread, s->w);
			}
			if (parent != NONE && f != parent) {
				eid = edgeof(g, parent, f, &ecap);
				if (eid >= escap) {
					escap = ecap;
					estamp = xreallocarray(estamp, escap,
					    sizeof(*estamp));
					memset(estamp + eid, 0, (escap - eid) *
					    sizeof(*estamp));
				}
				if (estamp[eid] != i + 1) {
					estamp[eid] = i + 1;
					g->e[eid].w += s->w;
					g->e[eid].residual |= residual;
				}
			}
			parent = f;
			residual = 0;
		}
		if (parent != NONE && !residual)
			g->flat[g->index[parent] - 1] += s->w;
	}
	free(nstamp);
	free(estamp);
}

size_t
dg_trimedges(struct dg *g, double cutoff)
{
	size_t i, n = 0;

	for (i = 0; i < g->ne; i++)
		if (!g->e[i].dropped && fabs(g->e[i].w) < cutoff) {
			g->e[i].dropped = 1;
			n++;
		}
	return n;
}

double
dg_threadw(const struct dg *g, uint32_t i, uint32_t t)
{
	uint32_t k[2] = { g->node[i], t };
	size_t id;

	id = ht_find(g->nt, k, sizeof(k));
	return id == (size_t)-1 ? 0 : g->ntw[id];
}

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
