/*
 * gpuq.h: the queue length table of sst-gpu -F queue (gpuq.c).
 */
#ifndef GPUQ_H
#define GPUQ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu.h"

/* The queue table of rank r (HTA's queue length summary) to fp. */
void	 gpu_queue(const struct grank *, const struct gpu_opt *, FILE *);

#endif /* GPUQ_H */
