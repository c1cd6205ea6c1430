/*
 * gpuqlive.h: sst-gpu's queue table summarised as the rows are read
 * (gpuqlive.c): launches joined to their GPU events, the steps of each
 * stream merged in time order through a window, and a histogram of the
 * queue lengths per stream.
 */
#ifndef GPUQLIVE_H
#define GPUQLIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu.h"

/* A histogram of integers: c[v - lo] values v, n in all. */
struct qhist {
	int		 lo;
	size_t		 nc;		/* values lo .. lo + nc - 1 */
	uint64_t	*c;
	uint64_t	 n;
};

/* Add v to h. */
void	 qh_add(struct qhist *, int);
/* The k-th smallest value of h (k < h->n). */
int	 qh_at(const struct qhist *, uint64_t);
/* pandas' quantile p of h's values (linear interpolation). */
double	 qh_quant(const struct qhist *, double);
/*
 * The mean and the sum of squared deviations of h's values, summed in
 * ascending order in doubles as gpuq.c sums the sorted values.
 */
void	 qh_moments(const struct qhist *, double *, double *);
void	 qh_free(struct qhist *);

struct gqlive;
/*
 * Live queue state: lag steps wait in the window; keep joined
 * correlations are kept before the older half is forgotten.
 */
struct gqlive *gql_new(size_t, size_t);
/* The sink: row w of the rank being read. */
void	 gql_row(struct gqlive *, const struct grow *);
/*
 * A step of stream st at ts: a launch (kind 0, +1) or a start (1, -1);
 * -1 if it comes too late for the window.
 */
int	 gql_step(struct gqlive *, int64_t, int, size_t);
/* Stream st's histogram so far (NULL: none). */
const struct qhist *gql_hist(const struct gqlive *, size_t);
/* Merge what waits; -1 if the rank must use its rows. */
int	 gql_drain(struct gqlive *);
/*
 * The queue table of rank r, just read, to fp; 0, or -1: use r's rows
 * (the rows did not come in an order it can merge).
 */
int	 gql_end(struct gqlive *, const struct grank *, FILE *);
void	 gql_reset(struct gqlive *);
void	 gql_free(struct gqlive *);

#endif /* GPUQLIVE_H */
