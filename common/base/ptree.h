/*
 * ptree.h: the depths of the nodes of a forest given by parent links
 * (cpuprofile.c's nodes), with the two faults such links can have: a
 * cycle, and a tree deeper than a limit.
 */
#ifndef PTREE_H
#define PTREE_H

#include <stddef.h>

#define PTREE_NONE	((size_t)-1)	/* the parent of a root */

/* What ptree_depths() found. */
enum ptree_err {
	PTREE_OK = 0,
	PTREE_CYCLE = -1,		/* a node is its own ancestor */
	PTREE_DEEP = -2			/* a node deeper than the limit */
};

/*
 * The depth of each of the n nodes into depth[0..n): a root (parent
 * PTREE_NONE) 0, another node its parent's depth + 1.  In linear time:
 * one walk up from each node whose depth is not known, stopping at the
 * first that is.  PTREE_OK, or the first fault met walking from nodes
 * 0, 1, ... with its node in *bad: PTREE_CYCLE (the node met twice on
 * one walk), PTREE_DEEP (the first node deeper than max, from the top
 * of its walk); depth[] is then undefined.
 */
enum ptree_err ptree_depths(const size_t *, size_t, size_t, size_t *,
	    size_t *);

#endif
