/*
 * gpulive.h: sst-gpu's temporal and launch
 * views summarised as the rows are read, in memory for what is in
 * flight only (gpulive.c).
 */
#ifndef GPULIVE_H
#define GPULIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu.h"

struct glive;
struct glive *glive_new(const struct gpu_opt *);
/* The sink of gpu_opt. */
void	 glive_row(void *, const struct grow *);
/*
 * The view's table of the rank just read, 0; -1: its rows did not come
 * in an order it can summarise as read (temporal), use r's rows.
 */
int	 glive_temporal(struct glive *, struct grank *, FILE *);
void	 glive_launch(struct glive *, struct grank *, FILE *);
/* Forget the rank: ready for the next. */
void	 glive_reset(struct glive *);
void	 glive_free(struct glive *);
/* Ticks t as microseconds (scale ticks a us) into s; its length. */
size_t	 gpu_fmtus(char *, int64_t, int64_t);

#endif /* GPULIVE_H */
