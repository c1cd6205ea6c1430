/*
 * dotgraph.c: the call graph of sst-dot(1), as pprof's internal/graph
 * builds it from samples.  Walking each stack from the root, a kept
 * function's node gets the stack's weight once (cum), the edge from the
 * last kept node to it gets it once (recursion counts once per sample)
 * and is residual when functions that are not kept lay between; the
 * leaf's node gets it as flat if the leaf itself is kept.  dg_sort()
 * orders nodes by pprof's entropy score, which favours the nodes that
 * hold the graph's shape together, so that the top N keep it readable
 * (dotrank.c).  dg_prune() cuts the graph down as pprof does.
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

	if (g->nst == g->stcap)
		g->st = xgrow(g->st, &g->stcap, g->nst + 1, 256,
		    sizeof(*g->st));
	if (g->nids + n > g->idcap)
		g->ids = xgrow(g->ids, &g->idcap, g->nids + n, 4096,
		    sizeof(*g->ids));
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
		g->ntw = xgrow(g->ntw, &g->ntcap, id + 1, 256,
		    sizeof(*g->ntw));
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
		if (id >= *cap)
			g->e = xgrow(g->e, cap, id + 1, 256, sizeof(*g->e));
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
