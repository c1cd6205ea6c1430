/*
 * dotrank.h: the order and colours of the nodes of sst-dot(1)'s call
 * graph (see dotgraph.h).
 */
#ifndef DOTRANK_H
#define DOTRANK_H

#include "dotgraph.h"
#include "buf.h"
#include "tally.h"

/*
 * Build the graph as pprof does: without the nodes lighter than nfrac
 * of the total, then without the edges lighter than efrac, then with
 * the best nmax nodes only (0: all), then without light edges again.
 */
void	 dg_prune(struct dg *, const struct cg *, double, double, size_t,
	    struct dg_cuts *);
/* The weight of node i in thread t. */
double	 dg_threadw(const struct dg *, uint32_t, uint32_t);
/* Sort the nodes as pprof's visual mode: entropy score, cum, name. */
void	 dg_sort(struct dg *, const struct cg *);
/*
 * The colour rank of each thread with samples, heaviest first, the
 * threads past the palette all SVG_NPALETTE; free() the array.
 */
size_t	*dg_ranks(const struct tally *);
/*
 * Into the buffer (reset): the fillcolor of node i, the colour of its
 * only thread or stripes "c1;f1:c2;f2..." by each thread's share.
 */
void	 dg_fill(const struct dg *, struct buf *, uint32_t,
	    const struct tally *, const size_t *);

/*
 * Append to the buffer, for a DOT string, a line per thread of node i
 * with its share of the node's inclusive weight, heaviest first.
 */
void	 dg_note(const struct dg *, struct buf *, uint32_t,
	    const struct tally *);

#endif
