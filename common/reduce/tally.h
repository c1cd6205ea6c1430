/*
 * tally.h: totals per key (sst-leaf, sst-threads, chain.c, ...) (tally.c).
 */
#ifndef TALLY_H
#define TALLY_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "rec.h"
#include "htab.h"

/*
 * Keys interned in first-seen order, each with its samples and its
 * weight summed by rec_addw(); samples and weight are indexed by id.
 */
struct tally {
	struct htab	*keys;
	uint64_t	*samples;
	double		*weight;
	size_t		 cap;
	int		 unit;		/* -1, or the unit of tally_leaves */
	const char	*over;		/* what overflowed, or NULL */
};
void	 tally_init(struct tally *);
void	 tally_free(struct tally *);
/* The id of key, new ones with zero totals; *isnew (if not NULL) set. */
size_t	 tally_intern(struct tally *, const void *, size_t, int *);
/*
 * Add r to the totals of id; 0, or -1 if the samples would pass 2^64-1
 * or the weight overflow: the totals stay and over says which.
 */
int	 tally_addid(struct tally *, size_t, const struct sst_rec *);
/* Add r to the totals of key, interned if new; returns its id (over
 * set if the totals would overflow). */
size_t	 tally_add(struct tally *, const void *, size_t,
	    const struct sst_rec *);
size_t	 tally_count(const struct tally *);
/* Every id, heaviest first, ties in id order; free() the array. */
size_t	*tally_sort(const struct tally *);
/* Sort ids ix[0..n) by w[id], heaviest first; ties keep their order. */
void	 tally_sortw(size_t *, size_t, const double *);
/*
 * Read the stream path (NULL or "-": standard input) into totals keyed
 * "name TAB location" of each leaf, escaped; add every sample to *total.
 * Records must have one unit, t->unit.  0, or -1 with the message
 * ("PATH: why", or "NAME:LINE: what" as rec_error()) in err: a file that
 * cannot be opened, malformed input, an overflow.
 */
int	 tally_leaves(struct tally *, double *, const char *, struct buf *);

struct kind;
/*
 * tally_leaves() that also notes the kind of the stream in k (NULL: not
 * noted).
 */
int	 tally_leaveskind(struct tally *, double *, const char *,
	    struct kind *, struct buf *);

#endif /* TALLY_H */
