/*
 * dotgraph.h: the call graph of sst-dot(1), built and pruned as pprof
 * builds and prunes its graphs (pprof's internal/graph): nodes are
 * functions with flat (self) and cum (inclusive) weight, edges caller
 * -> callee with the weight that flows through them, each counted once
 * per sample, residual where pruned nodes lay between.
 */
#ifndef DOTGRAPH_H
#define DOTGRAPH_H

#include <stdio.h>

#include "callgraph.h"
#include "svg.h"
#include "htab.h"

struct dg_edge {
	uint32_t	 from, to;	/* node indices */
	double		 w;
	int		 residual;
	int		 dropped;
};
struct dg {
	/*
	 * The stacks, kept to build the graph again with fewer nodes,
	 * each its weight's 8 bytes, then its thread, its depth and its
	 * function ids as varints (varint.h), about 2 bytes a frame.
	 */
	unsigned char	*st;
	size_t		 stlen, stcap;
	size_t		 nst;
	size_t		 nfuncs;	/* functions of the stream */
	/* the graph of the last dg_build */
	uint32_t	*node;		/* node index -> function, sorted */
	size_t		 nnodes;
	double		*flat, *cum;	/* by node index */
	uint32_t	*index;		/* function -> node index + 1 */
	struct dg_edge	*e;
	size_t		 ne;
	struct htab	*eh;		/* (from, to) -> edge */
	struct htab	*nt;		/* (node, thread) -> nt weight */
	double		*ntw;
	size_t		 ntcap;
};
void	 dg_init(struct dg *);
void	 dg_free(struct dg *);
/* Keep a stack of function ids of a thread, of weight w. */
void	 dg_add(struct dg *, uint32_t, const uint32_t *, size_t, double);
/*
 * Build the graph of the functions whose keep[] is set (all if NULL),
 * the nodes in the order of func ids.
 */
void	 dg_build(struct dg *, const unsigned char *);
/* Mark the edges lighter than cutoff dropped; returns how many. */
size_t	 dg_trimedges(struct dg *, double);

/* What dg_prune() cut. */
struct dg_cuts {
	size_t		 nodrop, edrop;	/* nodes and edges dropped */
	size_t		 ntop, norig;	/* nodes kept by nodecount, out of */
	double		 ncut, ecut;	/* by weight under these */
};

/* Function id's label: its name and, if it has one, its file's base. */
void	 dg_funclabel(struct buf *, const struct cg *, uint32_t,
	    enum svg_quote);
/*
 * The edges of the graph that are not dropped, to fp in DOT, as pprof
 * draws them: "Nf -> Nt" (node indices from 1) labelled with the
 * weight, a layout weight of 1 + its percentage of the total cg->total
 * and a pen width of 1 + 5 times its share (each left out at 1), a heat
 * colour by share, a tooltip "caller -> callee (weight)" (" ... " for
 * a residual edge, which is dashed).
 */
void	 dg_putedges(FILE *, const struct dg *, const struct cg *);

#endif
