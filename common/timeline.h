/*
 * timeline.h: records with a start time joined into the bars of a
 * timeline (sst-timeline): a bar per frame, depth and stretch of time.
 */
#ifndef TIMELINE_H
#define TIMELINE_H

#include "sst.h"

/* Frame depth of a thread from x0 to x1 seconds. */
struct tl_bar {
	size_t		 thread;	/* in first-seen order */
	size_t		 depth;		/* 0: the root frame */
	double		 x0, x1;
	uint64_t	 samples;
	const char	*name;		/* escaped, valid until tl_free */
	size_t		 namelen;
	const char	*file;		/* its location entry, or "" */
	size_t		 filelen;
};

struct timeline;
struct timeline *tl_new(void);
void	 tl_free(struct timeline *);
/*
 * Add a record that has a start: it covers [start, start + weight)
 * with each frame of its stack (a negative weight counts as 0).
 * Records with no samples or no frames are left out.
 */
void	 tl_add(struct timeline *, const struct sst_rec *);
/* How many records were added. */
size_t	 tl_count(const struct timeline *);
/*
 * Join the records into bars, thread by thread, earliest first: the
 * records that follow each other without a gap and share a frame and
 * its callers make one bar of that frame.  The bars are kept until
 * tl_free; their number in *n.
 */
const struct tl_bar *tl_bars(struct timeline *, size_t *);
/* After tl_bars: the threads, their names and how deep they go. */
size_t	 tl_nthreads(const struct timeline *);
const char *tl_thread(const struct timeline *, size_t, size_t *);
size_t	 tl_depth(const struct timeline *, size_t);
/* The earliest start and the latest end of the records. */
void	 tl_span(const struct timeline *, double *, double *);

#endif
