/*
 * gpuwin.h: the union of GPU intervals merged in start order through a
 * window, as they are read (gpuwin.c): sst-gpu's temporal, kernel-types
 * and overlap summarised as read.
 */
#ifndef GPUWIN_H
#define GPUWIN_H

#include <stddef.h>
#include <stdint.h>

#include "owin.h"

/* An interval [s, e) of tag t (a kernel type, or 0). */
struct ivl {
	int64_t		 s, e;
	int		 t;
};

OWIN_HEAD(ivwin, struct ivl);

/* A tag's intervals merged so far: the last one [gs, ge), if gon. */
struct gmst {
	int64_t		 gs, ge, busy;
	int		 gon;
};

/* The union of intervals of up to GW_NTAG tags, merged in start order. */
#define GW_NTAG	3
struct gwin {
	int		 ntag;		/* tags 0 .. ntag - 1 */
	size_t		 nst;		/* streams */
	struct ivl	*open;		/* per stream and tag; s > e: none */
	struct ivwin	 wait;		/* waiting, by s (owin.h) */
	struct gmst	 m[GW_NTAG];
	int64_t		 front;		/* the start merged last */
	int		 popped;	/* one was merged */
	int64_t		 acc[1 << GW_NTAG]; /* time by the set of tags */
};

/* An empty window of ntag tags (1: one union; more: acc is kept). */
void	 gw_init(struct gwin *, int);
/*
 * Interval [s, e) of tag t on stream st into w; -1 if it starts before
 * what w merged already (w can no longer merge in start order).
 */
int	 gw_add(struct gwin *, size_t, int, int64_t, int64_t);
/*
 * Merge what waits: the busy time of all tags (each tag's in w->m[t],
 * and with several tags the time covered by exactly each set of them,
 * by mask 1 << t, in w->acc).
 */
int64_t	 gw_end(struct gwin *);
/* Empty w for the next rank. */
void	 gw_reset(struct gwin *);
void	 gw_free(struct gwin *);

#endif /* GPUWIN_H */
