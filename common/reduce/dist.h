/*
 * dist.h: the distribution of a set of values (sst-stats): total,
 * count, mean, median, minimum, maximum and sample standard deviation;
 * the columns of summaries, as sst-stats prints them.
 */
#ifndef DIST_H
#define DIST_H

#include <stddef.h>
#include <stdint.h>

/* A value and how many times it came. */
struct dist_ent {
	double		 v;
	uint64_t	 k;
};

/*
 * The values as (value, count) entries, equal values counted, not
 * stored: memory grows with the distinct values, not the instances.
 */
struct dist {
	struct dist_ent	*e;
	size_t		 ne, cap;
	uint64_t	 n;		/* instances */
	double		 total;		/* summed in the order added */
};

struct dist_sum {
	uint64_t	 n;
	double		 total;
	double		 avg;
	double		 med;		/* even n: mean of the middle two */
	double		 min, max;
	double		 sd;		/* with n - 1; 0 when n < 2 */
};

void	 dist_init(struct dist *);
/* Add one instance of v. */
void	 dist_add(struct dist *, double);
/*
 * Add k instances of v, as k calls of dist_add() would, in time and
 * memory independent of k; -1 (nothing added) if the count of
 * instances would pass 2^64-1.
 */
int	 dist_addn(struct dist *, double, uint64_t);
/* The summary of d (n > 0); the entries get sorted. */
void	 dist_summary(struct dist *, struct dist_sum *);
void	 dist_free(struct dist *);

/* The columns of a summary, in the order sst-stats prints them. */
enum dist_col { DIST_TOTAL, DIST_AVG, DIST_MED, DIST_MIN, DIST_MAX,
	DIST_SD, DIST_NCOLS };
/* Column c of summary s. */
double	 dist_col(const struct dist_sum *, int);
/*
 * The median of the nonzero magnitudes of column c of the summaries
 * s[ix[0]], ..., s[ix[n - 1]] (of an even count, the lower of the
 * middle two), 0 if all are zero; tmp holds n doubles.
 */
double	 dist_colmedian(const struct dist_sum *, const size_t *, size_t, int,
	    double *);

#endif
