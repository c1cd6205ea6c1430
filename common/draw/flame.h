/*
 * flame.h: the frame tree of sst-flame(1): a root, a node per thread
 * under it (unless merged), and the frames of the stacks below, each
 * node with the weight and samples of the stacks through it.
 */
#ifndef FLAME_H
#define FLAME_H

#include <stdint.h>

#include "callgraph.h"
#include "sort.h"

#define FLAME_NONE	UINT32_MAX
#define FLAME_THREAD	0x80000000u	/* func of a thread's node | tid */
/* A node: its key, (parent, func). */
struct fnode {
	uint32_t	 parent;
	uint32_t	 func;
};
struct flame {
	uint32_t	*slot;		/* by path hash: node + 1 */
	unsigned char	*tag;		/* by slot: 8 bits of its path hash */
	size_t		 nslot;
	struct fnode	*node;
	uint32_t	*ph;		/* flame_add()'s path hashes, functions */
	size_t		 phcap;
	double		*w;		/* weight */
	double		*wa;		/* countA in a diff, NULL: all 0 */
	uint64_t	*samples;	/* after flame_prune() */
	size_t		 n, cap;
	/* the samples of the stacks ending at each node, until then */
	uint32_t	*lid;		/* node + 1, 0: empty slot */
	uint64_t	*ls;
	size_t		 nleaf, lcap;
	/* children of each node, after flame_children() */
	uint32_t	*first, *next;
};
/* Node nd's countA (flame_add()'s wa): 0 unless one was added. */
#define FLAME_WA(t, nd)	((t)->wa != NULL ? (t)->wa[nd] : 0.0)

/* A tree of a root alone (node 0). */
void	 flame_init(struct flame *);
void	 flame_free(struct flame *);
/*
 * Add a stack of function ids (root first; reverse: leaf first) of
 * thread tid (FLAME_NONE: threads merged), weight w, countA wa.
 */
void	 flame_add(struct flame *, uint32_t, const uint32_t *, size_t, int,
	    double, double, uint64_t);
/*
 * Sum the samples of each node, then keep only the nodes that can be
 * seen in a picture of span pixels for total weight: those that
 * flame_walk() would draw with minwidth, and their children (merged
 * when narrow), the others dropped; node ids change, in their order.
 * Needed before the samples are read; a later flame_add() starts the
 * table again.
 */
void	 flame_prune(struct flame *, double, double, double);
/* Link each node's children, in the order cmp gives (ids as arg). */
void	 flame_children(struct flame *, sst_cmp, void *);
/* The same by name ("all" for the root, thread names), then by file. */
void	 flame_byname(struct flame *, const struct cg *);
/* The escaped name of node nd: "all", a thread's or a function's. */
const char *flame_name(const struct flame *, const struct cg *, uint32_t,
	    size_t *);

/*
 * Draw node nd at depth d, x, w pixels wide; with n > 0, the n children
 * of nd too narrow to draw, merged into one frame.
 */
typedef void (*flame_draw)(void *, uint32_t, size_t, double, double,
	    size_t);
/*
 * Every frame from the root at x, each before its children, a frame's
 * children narrower than minwidth merged after the others; a node is
 * w / total * span pixels wide.  The path is a stack of its own, since
 * stacks may be a million frames deep.  After flame_children().
 */
void	 flame_walk(const struct flame *, double, double, double, double,
	    flame_draw, void *);
/*
 * Write the SVG up to its frames, which go in <g id="frames">: its size,
 * style sheet, script, title and subtitle (plain text, both), buttons.
 */
void	 flame_page(double, size_t, int, int, const char *, const char *);
extern const char flame_css[];
extern const char *const flame_js[];	/* lines, NULL last */

#endif
