/*
 * kind.h: what the weights of a stream measure, as its records tell it,
 * and the words and time units the tables print for it (sst-threads,
 * sst-leaf, sst-inclusive, sst-tree, chain.c).
 */
#ifndef KIND_H
#define KIND_H

#include "buf.h"
#include "rec.h"
#include "fmt.h"

/*
 * A stream in seconds is sampled (one weight per sample, the period: a
 * profiler's samples of CPU time) until a record shows it is timed:
 * a record of several samples without a period (spans or samples of
 * different lengths that a producer added up), a record of samples
 * that weigh 0 (a span its children cover; no sampler writes one), or
 * two per-sample records (with a start) of different weights.
 */
struct kind {
	int		 timed;
	int		 hasw;		/* w is set */
	double		 w;		/* the first per-sample weight */
};

void	 kind_init(struct kind *);
/* Note what record r says of its stream. */
void	 kind_add(struct kind *, const struct sst_rec *);
/* Whether a stream of unit u and kind k is timed. */
int	 kind_timed(const struct kind *, enum sst_unit);
/*
 * A time in seconds for people, three significant digits in the unit
 * that suits it: "2.95s" (1 s and more, two decimals), "230ms",
 * "12.3µs", "1.50ns"; "0s"; "inf", "nan".
 */
char	*fmt_time(char *, size_t, double);
/* fmt_time() for timed streams, else fmt_weight(). */
char	*fmt_kindw(char *, size_t, double, enum sst_unit, int);

#endif
