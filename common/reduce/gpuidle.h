/*
 * gpuidle.h: sst-gpu's idle view, HolisticTraceAnalysis's idle time
 * breakdown (gpuidle.c): summarised as the rows are read, or from the
 * rank's rows, one printer for both.
 */
#ifndef GPUIDLE_H
#define GPUIDLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu.h"

/* The categories of a gap before a kernel. */
enum { IC_HOST, IC_KERNEL, IC_OTHER, IC_N };

/* A stream's idle time by category, and the categories met. */
struct gidlest {
	int64_t		 acc[IC_N];
	unsigned char	 has[IC_N];
};

/*
 * Print the idle table of rank r: the streams (indexes in r->streams)
 * in order ord (n of them), each stream's totals in st[index]; times in
 * ticks of scale a microsecond.
 */
void	 gidle_print(FILE *, const struct grank *, const size_t *, size_t,
	    const struct gidlest *, int64_t);

/*
 * The idle table of rank r from its rows (all in memory, correlated
 * with r->ic filled: gpu_correlate()), times in ticks of scale a us.
 */
void	 gidle_rows(FILE *, const struct grank *, int64_t);

struct gidle;
/* An idle view summarised as read, times in ticks of scale a us. */
struct gidle *gidle_new(int64_t);
/* Each row read, in trace order (gpu_opt's sink calls it). */
void	 gidle_row(struct gidle *, const struct grow *);
/*
 * Print the table of rank r, whose rows were all given: 0; or -1 when
 * they did not come in a way it could summarise exactly as read (the
 * caller makes the table from r's rows).
 */
int	 gidle_end(struct gidle *, const struct grank *, FILE *);
/* Forget the rank: ready for the next. */
void	 gidle_reset(struct gidle *);
void	 gidle_free(struct gidle *);

#endif /* GPUIDLE_H */
