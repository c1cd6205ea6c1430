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
	struct fnode	*node;
	double		*w;		/* weight */
	double		*wa;		/* countA in a diff, NULL: all 0 */
	uint64_t	*samples;
	size_t		 n, cap;
	double		 maxdelta;	/* see flame_prune() */
	/* children of each node, after flame_children() */
	uint32_t	*first, *next;
	/* the stacks added, until flame_prune() (flame.c) */
	struct seqtab	*keys;		/* distinct paths of functions */
	uint64_t	*ks;		/* by key: samples */
	double		*kw;		/* by key: its first weight */
	size_t		 kcap;
	unsigned char	*log;		/* by record: key and weights */
	size_t		 loglen, logcap;
	int		 haswa;
	uint32_t	*path;		/* flame_add()'s scratch */
	size_t		 pathcap;
};
/* Node nd's countA (flame_add()'s wa): 0 unless one was added. */
#define FLAME_WA(t, nd)	((t)->wa != NULL ? (t)->wa[nd] : 0.0)

struct seqtab;

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
 * Build the tree of the stacks added, once they all are, with only the
 * nodes that can be seen in a picture of span pixels for total weight:
 * those that flame_walk() would draw with minwidth, and their children
 * (merged when narrow); node ids go level by level from the root.  Each
 * node's weight is summed over the stacks through it in the order they
 * were added.  maxdelta: the largest |w - countA| of the nodes below the
 * root but threads', of every node when a countA was added (a diff),
 * else of those made.  Before the tree is read.
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
 * Into the buffer (reset), the line under the title: the total weight,
 * then the samples and the unit's name, or in a diff what the colours
 * say.
 */
void	 flame_subtitle(struct buf *, const struct cg *);
/*
 * Into c (clen bytes), the fill of a frame whose weight changed by
 * delta in a diff whose largest change is maxdelta (> 0): red if it
 * grew, else blue, white-ish for a change near 0.
 */
void	 flame_diffcolor(char *, size_t, double, double);

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
