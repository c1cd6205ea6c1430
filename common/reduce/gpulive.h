/*
 * gpulive.h: sst-gpu's temporal, launch, kernels, kernel-types,
 * overlap, annotations, cpu-annotations and queue views summarised as the
 * rows are read, in memory for what is in flight only (gpulive.c, the
 * queue's in gpuqlive.c).
 */
#ifndef GPULIVE_H
#define GPULIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu.h"

/* Summary statistics of a group (Welford), values added in order. */
struct agg {
	size_t		 n;
	int64_t		 sum, max, min;
	double		 mean, m2;
};

struct glive;
struct glive *glive_new(const struct gpu_opt *);
/* The sink of gpu_opt. */
void	 glive_row(void *, const struct grow *);
/*
 * The view's table of the rank just read, 0; -1: its rows did not come
 * in an order it can summarise as read (temporal), use r's rows.
 */
int	 glive_temporal(struct glive *, struct grank *, FILE *);
/*
 * launch's rows of the rank just read, 0; -1: a correlation with more
 * than one call and more than one GPU event, use r's rows.
 */
int	 glive_launch(struct glive *, struct grank *, FILE *);
/*
 * kernel-types of the rank just read: the time covered by exactly each
 * set of kernel types (by mask 1 << KT_*) added to acc; 0, or -1: its
 * rows did not come in an order it can merge as read, use r's rows.
 */
int	 glive_ktypes(struct glive *, int64_t [8]);
/* overlap's row of the rank just read (named label) to fp; 0 or -1. */
int	 glive_overlap(struct glive *, const char *, FILE *);
/*
 * The kernels of the rank just read, in first-seen order: their
 * statistics, name ids and types into *a, *nm and *ty (the live
 * state's, valid until glive_reset()); returns how many.
 */
size_t	 glive_kernels(struct glive *, const struct agg **,
	    const uint32_t **, const uint8_t **);
/*
 * The annotations (cpu 0: gpu_user_annotation) or cpu-annotations (1:
 * user_annotation) of the rank just read, as glive_kernels().
 */
size_t	 glive_ann(struct glive *, int, const struct agg **,
	    const uint32_t **);
/*
 * The queue table of rank r, just read, to fp; 0, or -1: its rows did
 * not come in an order it can summarise as read, use r's rows.
 */
int	 glive_queue(struct glive *, const struct grank *, FILE *);
/* Add value v to a. */
void	 gpu_aggadd(struct agg *, int64_t);
/* Forget the rank: ready for the next. */
void	 glive_reset(struct glive *);
void	 glive_free(struct glive *);
/* Ticks t as microseconds (scale ticks a us) into s; its length. */
size_t	 gpu_fmtus(char *, int64_t, int64_t);

#endif /* GPULIVE_H */
