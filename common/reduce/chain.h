/*
 * chain.h: chain rows (sst-callers, sst-callees, sst-stacks) (chain.c).
 */
#ifndef CHAIN_H
#define CHAIN_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "rec.h"
#include "fmt.h"

/* The frames of one stack field: frame i is s[off[i], off[i + 1] - 1). */
struct frames {
	size_t	*off;
	size_t	 n;
	size_t	 cap;
};
void	 frames_split(struct frames *, const char *, size_t);
/* Index of the first (last: the last) frame spelt name, or (size_t)-1. */
size_t	 frames_find(const struct frames *, const char *, const char *,
	    size_t, int);
/* Frames a to b - 1 of s as one field (empty when a >= b). */
const char *frames_span(const struct frames *, const char *, size_t, size_t,
	    size_t *);
void	 frames_free(struct frames *);
/* Groups by (thread, chain) with samples and exact weights. */
struct chains;
struct chains *chains_new(void);
/* Add r to (thread, chain); -1 if its totals would overflow. */
int	 chains_add(struct chains *, const char *, size_t, const char *,
	    size_t, const struct sst_rec *);
/* What overflowed when chains_add() returned -1. */
const char *chains_over(const struct chains *);
/*
 * Write "samples TAB weight TAB unit TAB thread TAB chain" rows,
 * heaviest first, the first max of them (all if max < 0); rows of a
 * timed stream (kind.h) end in a sixth field, "spans".
 */
void	 chains_put(const struct chains *, long long);
void	 chains_free(struct chains *);
/* One chain row, its names escaped, pointing into the line. */
struct chainrow {
	uint64_t	 samples;
	double		 weight;
	enum sst_unit	 unit;
	const char	*thread;
	size_t		 threadlen;
	const char	*chain;
	size_t		 chainlen;
	int		 timed;		/* a sixth field "spans" (kind.h) */
};
/* Parse one line; 0 ok, else -1 with a static message in *why. */
int	 chainrow_parse(const char *, size_t, struct chainrow *,
	    const char **);
/* Chain rows read whole, each pointing into its own copy of its line. */
struct chainset {
	struct chainrow	*rows;
	char		**lines;
	size_t		 n, cap;
};
/*
 * Add the rows of path (NULL or "-": stdin): 0 ok; -1 on a bad row or
 * a row of another unit than the first, with "file:line: what" in the
 * buffer (the rows before it kept); a file that cannot be opened is
 * "PATH: why", one that cannot be read lines_error()'s message.
 */
int	 chainset_read(struct chainset *, const char *, char *, size_t);
void	 chainset_free(struct chainset *);
/*
 * The frame that every chain with frames ends with (last) or begins
 * with, escaped, its length in *len; NULL when they differ or there is
 * none.
 */
const char *chainset_common(const struct chainset *, int, size_t *);
/*
 * The function the rows are about, decoded into the buffer: if last,
 * the frame they all end with; if none and first, the one they all
 * begin with; NULL if neither.
 */
const char *chainset_name(const struct chainset *, int, int, struct buf *);
/* The short name of a thread: Python's name.rsplit('"', 2)[-2]. */
const char *chain_shortthread(const char *, size_t, size_t *);

struct kind;
/*
 * Note the kind of record r in chain rows c, as chains_add() does, for
 * the records that add no chain (sst-callers, sst-callees).
 */
void	 chains_kind(struct chains *, const struct sst_rec *);

/* Does the row hold more than one frame? */
int	 chainrow_deep(const struct chainrow *);
/* How many of k rows Python's rows[:num] keeps (all without hasnum). */
size_t	 chain_shown(int, long long, size_t);
/* Write the short thread name of a row, decoded in the scratch buffer. */
void	 chainrow_putthread(FILE *, const struct chainrow *, struct buf *);
/*
 * How chainrow_putframes() marks a frame "** f **": the last frame, the
 * frames spelt name, or the first frame (with "-> " before the last).
 */
enum chainmark { CM_LAST, CM_NAME, CM_CALLEE };
/*
 * Write the frames of a row, decoded in the scratch buffer, one a line,
 * frame d indented by indent + 2d spaces, marked as the mark says.
 */
void	 chainrow_putframes(FILE *, const struct chainrow *, int,
	    enum chainmark, const char *, struct buf *);

#endif /* CHAIN_H */
