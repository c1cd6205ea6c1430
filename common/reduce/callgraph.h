/*
 * callgraph.h: the functions and stacks of an sst(5) stream, read for
 * sst-dot(1) and sst-flame(1).  A function is a frame name and the file
 * of its location entry; stacks become arrays of function ids.
 */
#ifndef CALLGRAPH_H
#define CALLGRAPH_H

#include <stdint.h>

#include "buf.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "tally.h"
#include "chain.h"

/* One record's stack as function ids, root first. */
typedef void (*cg_emit)(void *, uint32_t, const uint32_t *, size_t,
	    const struct sst_rec *);

struct cg {
	struct htab	*funcs;		/* escaped "name TAB file" */
	struct tally	 threads;	/* escaped thread names, totals */
	enum sst_unit	 unit;
	int		 hasunit;
	double		 total;		/* every sample's weight */
	uint64_t	 samples;
	int		 diff;		/* -1 unknown, 1 two-count folded */
	double		 cura;		/* countA of the last diff record */
	/* scratch */
	struct frames	 fs, fl;
	struct buf	 key, tmp;
	uint32_t	*ids;
	size_t		 idcap;
};
void	 cg_init(struct cg *);
void	 cg_free(struct cg *);
/*
 * Read the stream path (NULL or "-": standard input), calling emit for
 * each record with samples: 0 ok; -1 on a bad line, a record whose
 * unit is not the first's, a negative weight or a total that
 * overflows, with "file:line: what" in the buffer (the program exits
 * with it); a file that cannot be opened is "file: why", more than
 * UINT32_MAX - 1 functions "too many functions".
 */
int	 cg_read(struct cg *, const char *, cg_emit, void *, char *,
	    size_t);
/* The escaped name and file of function id. */
const char *cg_name(const struct cg *, uint32_t, size_t *);
const char *cg_file(const struct cg *, uint32_t, size_t *);
/* The last path component of file f[0..n), or f. */
const char *cg_base(const char *, size_t, size_t *);

#endif
