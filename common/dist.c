/*
 * dist.c: the distribution of a set of values, as nsys stats reports
 * it: total, count, mean, median (the mean of the two middle values for
 * an even count), minimum, maximum and the sample standard deviation
 * (divided by n - 1; 0 for a single value and for equal values).  The
 * total is summed in the order the values came, as Python's sum() adds
 * them, and the mean is that total over the count; the deviations are
 * taken from a mean of a compensated sum, so that they are as exact as
 * Python's statistics.stdev() makes them.  The values are all kept: 8
 * bytes each.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sst.h"
#include "dist.h"

static int	cmpdouble(const void *, const void *);
static double	accsum(const double *, size_t);

void
dist_init(struct dist *d)
{
	memset(d, 0, sizeof(*d));
}

void
dist_add(struct dist *d, double v)
{
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 16;
		d->v = xreallocarray(d->v, d->cap, sizeof(*d->v));
	}
	d->v[d->n++] = v;
	d->total += v;
}

/* qsort(3) order of doubles. */
static int
cmpdouble(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The sum of v[0..n) with Neumaier's compensation: nearly exact. */
static double
accsum(const double *v, size_t n)
{
	double sum = 0, c = 0, t;
	size_t i;

	for (i = 0; i < n; i++) {
		t = sum + v[i];
		if (fabs(sum) >= fabs(v[i]))
			c += (sum - t) + v[i];
		else
			c += (v[i] - t) + sum;
		sum = t;
	}
	return sum + c;
}

void
dist_summary(struct dist *d, struct dist_sum *s)
{
	double dev, mean, acc = 0;
	size_t i, n = d->n;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return;
	qsort(d->v, n, sizeof(*d->v), cmpdouble);
	s->n = n;
	s->total = d->total;
	s->avg = d->total / (double)n;
	if (n % 2 == 1)
		s->med = d->v[n / 2];
	else
		s->med = (d->v[n / 2 - 1] + d->v[n / 2]) / 2;
	s->min = d->v[0];
	s->max = d->v[n - 1];
	if (n > 1 && s->min != s->max) {
		/* Deviations from a mean summed with compensation. */
		mean = accsum(d->v, n) / (double)n;
		for (i = 0; i < n; i++) {
			dev = d->v[i] - mean;
			acc += dev * dev;
		}
		s->sd = sqrt(acc / (double)(n - 1));
	}
}

void
dist_free(struct dist *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}
