/*
 * timeline.h: records with a start time joined into the bars of a
 * timeline (sst-timeline): a bar per frame, depth and stretch of time,
 * clipped to a window, the bars narrower than a pixel merged into
 * blocks.
 */
#ifndef TIMELINE_H
#define TIMELINE_H

#include "rec.h"

/*
 * Frame depth of a thread from x0 to x1 seconds (clipped to the view),
 * or a block of count > 1 bars of that row, each narrower than a pixel.
 */
struct tl_bar {
	size_t		 thread;	/* in first-seen order */
	size_t		 depth;		/* 0: the root frame */
	double		 x0, x1;	/* drawn: inside the view */
	double		 start, end;	/* the bar; a block: x0, x1 */
	uint64_t	 samples;	/* of its records */
	size_t		 count;		/* 1: a bar, more: a block */
	double		 total;		/* a block: its bars' time */
	const char	*name;		/* escaped, until tl_free */
	size_t		 namelen;
	const char	*file;		/* location entry, or "" */
	size_t		 filelen;
};

/* A time window -t from,to: each bound seconds, a percentage or open. */
struct tl_window {
	int		 set[2];
	int		 pct[2];
	double		 v[2];
};
/*
 * Parse -t from,to into w: 0 ok, -1 with a message in the buffer (the
 * program makes it a usage error, status 2).
 */
int	 tl_window(struct tl_window *, const char *, char *, size_t);
/* The window w in seconds over the span t0..t1 (open: its ends). */
void	 tl_inwindow(const struct tl_window *, double, double, double *,
	    double *);

/* The widest block, in pixels: a run of narrow bars is cut there. */
#define TL_BLOCK	10

struct timeline;
struct timeline *tl_new(void);
void	 tl_free(struct timeline *);
/*
 * Add a record that has a start: it covers [start, start + weight)
 * with each frame of its stack (a negative weight counts as 0), and
 * with the frames of its own stack the records it encloses too.
 * Records with no samples or no frames are left out.  0, or -1 with
 * the message in *why when there are too many stacks or threads (more
 * than UINT32_MAX - 1) to draw.
 */
int	 tl_add(struct timeline *, const struct sst_rec *, const char **);
/* How many records were added. */
size_t	 tl_count(const struct timeline *);
/*
 * The bars that meet the window [from, to), clipped to it, by thread,
 * depth and start; on a row, a run of bars each narrower than px
 * seconds and less than px apart is one block, cut into blocks of at
 * most TL_BLOCK pixels (px 0: none).  Records
 * are taken by thread and start; a record encloses the records after
 * it whose stacks extend its own, as long as each starts before its
 * time so far (its weight and the weights of those enclosed before)
 * ends, so that a span, which weighs its self time, covers its
 * children.  Frame k of a record extends the bar of depth k when the
 * frames from the root to k are the last record's and the record
 * starts no later than the bar ends, else a new bar begins.  Kept
 * until the next call or tl_free; their number in *n.
 */
const struct tl_bar *tl_view(struct timeline *, double, double, double,
	    size_t *);
/* The threads, their names and, after tl_view, how deep they go. */
size_t	 tl_nthreads(const struct timeline *);
const char *tl_thread(const struct timeline *, size_t, size_t *);
size_t	 tl_depth(const struct timeline *, size_t);
/* The earliest start and the latest end of what the records cover. */
void	 tl_span(struct timeline *, double *, double *);

#endif
