/*
 * dist.h: the distribution of a set of values (sst-stats): total,
 * count, mean, median, minimum, maximum and sample standard deviation.
 */
#ifndef DIST_H
#define DIST_H

#include <stddef.h>

/* Every value, kept for the median. */
struct dist {
	double		*v;
	size_t		 n, cap;
	double		 total;		/* summed in the order added */
};

struct dist_sum {
	size_t		 n;
	double		 total;
	double		 avg;
	double		 med;		/* even n: mean of the middle two */
	double		 min, max;
	double		 sd;		/* with n - 1; 0 when n < 2 */
};

void	 dist_init(struct dist *);
void	 dist_add(struct dist *, double);
/* The summary of d (n > 0); the values get sorted. */
void	 dist_summary(struct dist *, struct dist_sum *);
void	 dist_free(struct dist *);

#endif
