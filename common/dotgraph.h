/*
 * dotgraph.h: the call graph of sst-dot(1), built and pruned as pprof
 * builds and prunes its graphs (pprof's internal/graph): nodes are
 * functions with flat (self) and cum (inclusive) weight, edges caller
 * -> callee with the weight that flows through them, each counted once
 * per sample, residual where pruned nodes lay between.
 */
#ifndef DOTGRAPH_H
#define DOTGRAPH_H

#include "callgraph.h"
#include "svg.h"

/* The stacks, kept to build the graph again with fewer nodes. */
struct dg_stack {
	uint32_t	 thread;
	uint32_t	 n;
	size_t		 off;		/* into ids */
	double		 w;
};
struct dg_edge {
	uint32_t	 from, to;	/* node indices */
	double		 w;
	int		 residual;
	int		 dropped;
};
struct dg {
	struct dg_stack	*st;
	size_t		 nst, stcap;
	uint32_t	*ids;
	size_t		 nids, idcap;
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
/* Sort the nodes as pprof's visual mode: entropy score, cum, name. */
void	 dg_sort(struct dg *, const struct cg *);
/* Mark the edges lighter than cutoff dropped; returns how many. */
size_t	 dg_trimedges(struct dg *, double);
/* The weight of node i in thread t. */
double	 dg_threadw(const struct dg *, uint32_t, uint32_t);

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

#endif
