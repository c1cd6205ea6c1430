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
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dotgraph.h"
#include "varint.h"
#include "util.h"
#include "htab.h"

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
	memset(g, 0, sizeof(*g));
}

void
dg_add(struct dg *g, uint32_t thread, const uint32_t *ids, size_t n,
    double w)
{
	unsigned char *p;
	size_t i;

	if (n > SIZE_MAX / VARINT_MAX - 3 || g->stlen > SIZE_MAX -
	    (n + 2) * VARINT_MAX - sizeof(w))
		xnoroom("stack too deep");
	if (g->stlen + sizeof(w) + (n + 2) * VARINT_MAX > g->stcap) {
		g->stcap = xgrowcap(g->stcap, g->stlen + sizeof(w) + (n + 2) *
		    VARINT_MAX, 1 << 16);
		g->st = xreallocarray(g->st, g->stcap, 1);
	}
	p = g->st + g->stlen;
	memcpy(p, &w, sizeof(w));
	p += sizeof(w);
	p += varint_put(p, thread);
	p += varint_put(p, n);
	for (i = 0; i < n; i++) {
		p += varint_put(p, ids[i]);
		if (ids[i] >= g->nfuncs)
			g->nfuncs = (size_t)ids[i] + 1;
	}
	g->stlen = (size_t)(p - g->st);
	g->nst++;
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
	const unsigned char *p = g->st, *e = g->st + g->stlen;
	size_t i, j, ecap = 0, eid, *nstamp, *estamp = NULL, escap = 0;
	uint64_t v, n, thread;
	uint32_t f, parent, nd;
	double w;
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
		memcpy(&w, p, sizeof(w));
		p = varint_get(p + sizeof(w), e, &thread);
		p = varint_get(p, e, &n);
		parent = NONE;
		residual = 0;
		for (j = 0; j < n; j++) {
			p = varint_get(p, e, &v);
			f = (uint32_t)v;
			if (keep != NULL && !keep[f]) {
				residual = 1;
				continue;
			}
			nd = nodeof(g, f);
			if (nstamp[nd] != i + 1) {
				nstamp[nd] = i + 1;
				g->cum[nd] += w;
				addthread(g, f, (uint32_t)thread, w);
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
					g->e[eid].w += w;
					g->e[eid].residual |= residual;
				}
			}
			parent = f;
			residual = 0;
		}
		if (parent != NONE && !residual)
			g->flat[g->index[parent] - 1] += w;
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

/* The function's label: its name and, if it has one, its file's base. */
void
dg_funclabel(struct buf *b, const struct cg *g, uint32_t id, enum svg_quote q)
{
	const char *s;
	size_t n;

	s = cg_name(g, id, &n);
	svg_text(b, s, n, q, 0);
	s = cg_file(g, id, &n);
	s = cg_base(s, n, &n);
	if (n == 0)
		return;
	buf_adds(b, q == SVG_DOT ? "\\n" : " (");
	svg_text(b, s, n, q, 0);
	if (q == SVG_XML)
		buf_addc(b, ')');
}

/* The edges not dropped, in DOT: weight, width and colour by share. */
void
dg_putedges(FILE *fp, const struct dg *g, const struct cg *cg)
{
	struct buf lab;
	char w1[FMTBUF], c2[16];
	double tot = cg->total;
	const char *s;
	size_t i, fs, len;
	const struct dg_edge *e;

	buf_init(&lab);
	for (i = 0; i < g->ne; i++) {
		e = &g->e[i];
		if (e->dropped)
			continue;
		svg_weight(w1, sizeof(w1), e->w, cg->unit);
		fprintf(fp, "N%u -> N%u [label=\" %s\"", g->index[e->from],
		    g->index[e->to], w1);
		if ((fs = 1 + (size_t)fmin(fabs(e->w * 100 / tot), 100)) > 1)
			fprintf(fp, " weight=%zu", fs);
		if ((fs = 1 + (size_t)fmin(fabs(e->w * 5 / tot), 5)) > 1)
			fprintf(fp, " penwidth=%zu", fs);
		buf_reset(&lab);
		s = cg_name(cg, e->from, &len);
		svg_text(&lab, s, len, SVG_DOT, 0);
		buf_adds(&lab, e->residual ? " ... " : " -> ");
		s = cg_name(cg, e->to, &len);
		svg_text(&lab, s, len, SVG_DOT, 0);
		fprintf(fp, " color=\"%s\" tooltip=\"%s (%s)\"%s]\n",
		    svg_heat(c2, sizeof(c2), e->w / tot, 0), lab.data, w1,
		    e->residual ? " style=\"dashed\"" : "");
	}
	buf_free(&lab);
}
