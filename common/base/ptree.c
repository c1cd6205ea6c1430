/*
 * ptree.c: the depths of a forest given by parent links (ptree.h).
 * Each node's depth starts UNKNOWN; a walk up from a node marks the
 * nodes it passes ONPATH until it meets a root or a node whose depth
 * is known, then gives the depths on the way back down.  A node found
 * ONPATH is on the walk already: its own ancestor.  Each node is
 * walked once, so the cost is linear in the nodes.
 */
#include <stdlib.h>

#include "util.h"
#include "ptree.h"

#define UNKNOWN		((size_t)-1)	/* depth not worked out yet */
#define ONPATH		((size_t)-2)	/* on the walk working it out */

enum ptree_err
ptree_depths(const size_t *parent, size_t n, size_t max, size_t *depth,
    size_t *bad)
{
	size_t i, k, np, d, *path;
	enum ptree_err rv = PTREE_OK;

	for (i = 0; i < n; i++)
		depth[i] = UNKNOWN;
	path = xreallocarray(NULL, n ? n : 1, sizeof(*path));
	for (i = 0; i < n && rv == PTREE_OK; i++) {
		np = 0;
		for (k = i; k != PTREE_NONE && depth[k] >= ONPATH;
		    k = parent[k]) {
			if (depth[k] == ONPATH) {
				*bad = k;
				rv = PTREE_CYCLE;
				break;
			}
			depth[k] = ONPATH;
			path[np++] = k;
		}
		if (rv != PTREE_OK)
			break;
		d = k == PTREE_NONE ? 0 : depth[k];
		while (np-- > 0) {
			k = path[np];
			d = parent[k] == PTREE_NONE ? 0 : d + 1;
			if (d > max) {
				*bad = k;
				rv = PTREE_DEEP;
				break;
			}
			depth[k] = d;
		}
	}
	free(path);
	return rv;
}
