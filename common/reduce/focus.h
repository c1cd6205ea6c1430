/*
 * focus.h: pprof's focus, ignore, hide, prune_from and show_from as
 * filters of sst(5) records (sst-focus, sst-ignore, sst-hide,
 * sst-prune, sst-from), matching POSIX extended regular expressions
 * against frame names or location entries.
 */
#ifndef FOCUS_H
#define FOCUS_H

#include "buf.h"
#include "rec.h"

enum focus_op {
	FOCUS_KEEP,	/* keep records with a matching frame (focus) */
	FOCUS_DROP,	/* drop records with a matching frame (ignore) */
	FOCUS_HIDE,	/* remove matching frames (hide) */
	FOCUS_PRUNE,	/* cut below the deepest match (prune_from) */
	FOCUS_FROM	/* cut above the outermost match (show_from) */
};
#define FOCUS_LOC	0x01	/* match location entries, not names */
#define FOCUS_INV	0x02	/* invert the match (keep, drop, hide) */

struct focus;
/*
 * A filter doing op with the ERE and FOCUS_* flags; NULL and the
 * regcomp(3) message in err if the expression is bad.
 */
struct focus *focus_new(enum focus_op, const char *, int, char *, size_t);
/*
 * Apply the filter to r: 0 if the record is dropped, 1 if it is kept,
 * its stack and locations then possibly pointing into the filter's
 * buffers (valid until the next call).
 */
int	 focus_apply(struct focus *, struct sst_rec *);
void	 focus_free(struct focus *);
/*
 * Write the kept records of path (NULL or "-": stdin) to stdout: 0, or
 * -1 with the message in err ("PATH: why" if it cannot be opened, else
 * rec_error()'s).
 */
int	 focus_file(struct focus *, const char *, struct buf *);

/*
 * The whole of a focus program after its options: argv[0] the ERE,
 * the files after it (none: standard input), each filtered by op to
 * stdout.  0, or -1 with the message in err and the exit status the
 * program should end with in *status (2: a bad expression, 1: input).
 */
int	 focus_run(enum focus_op, int, int, char *[], struct buf *, int *);

#endif
