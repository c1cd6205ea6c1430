/*
 * gpustat.h: the tables of sst-gpu's views, one
 * after another, from the ranks read (gpustat.c).
 */
#ifndef GPUSTAT_H
#define GPUSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu.h"

struct gstat;
/* The tables of o's views to fp, one after another; sets o's sink. */
struct gstat *gstat_new(struct gpu_opt *, FILE *);
void	 gstat_rank(struct gstat *, struct grank *);
/* Print the tables; 0, or -1 when a write failed. */
int	 gstat_end(struct gstat *);
/* The view called s, or -1. */
int	 gpu_view(const char *);
/* Add view v to o's (once); returns o's count of views. */
size_t	 gpu_addview(struct gpu_opt *, enum gpu_view);

#endif /* GPUSTAT_H */
