/*
 * dist.c: the distribution of a set of values, as nsys stats reports
 * it: total, count, mean, median (the mean of the two middle values for
 * an even count), minimum, maximum and the sample standard deviation
 * (divided by n - 1; 0 for a single value and for equal values).  The
 * total is summed in the order the values came, as Python's sum() adds
 * them, and the mean is that total over the count; the deviations are
 * taken from a mean of a compensated sum, so that they are as exact as
 * Python's statistics.stdev() makes them.
 *
 * Equal values are counted, not stored: a value and its count make an
 * entry (16 bytes).  A value equal to the last entry's adds to its
 * count; when the entries fill their array, they are sorted and the
 * equal ones merged, and the array doubles only if that freed less
 * than half of it.  So memory follows the distinct values, and a
 * record of 10^12 samples of one period costs one entry.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "fmt.h"
#include "dist.h"

static int	byvalue(const void *, const void *);
static void	compact(struct dist *);
static double	wsum(const struct dist_ent *, size_t);
static double	nth(const struct dist *, uint64_t);
static int	cmpdouble(const void *, const void *);

void
dist_init(struct dist *d)
{
	memset(d, 0, sizeof(*d));
}

/* qsort(3) order of entries by value. */
static int
byvalue(const void *a, const void *b)
{
	double x = ((const struct dist_ent *)a)->v;
	double y = ((const struct dist_ent *)b)->v;

	return x < y ? -1 : x > y;
}

/* Sort the entries and merge those of equal values. */
static void
compact(struct dist *d)
{
	size_t i, j;

	if (d->ne == 0)
		return;
	qsort(d->e, d->ne, sizeof(*d->e), byvalue);
	for (i = 1, j = 0; i < d->ne; i++) {
		if (d->e[i].v == d->e[j].v)
			d->e[j].k += d->e[i].k;
		else
			d->e[++j] = d->e[i];
	}
	d->ne = j + 1;
}

int
dist_addn(struct dist *d, double v, uint64_t k)
{
	if (k == 0)
		return 0;
	if (k > UINT64_MAX - d->n)
		return -1;
	d->n += k;
	d->total = fmt_pysum(d->total, v, k);
	if (d->ne > 0 && d->e[d->ne - 1].v == v) {
		d->e[d->ne - 1].k += k;
		return 0;
	}
	if (d->ne == d->cap) {
		compact(d);
		if (d->cap == 0 || d->ne > d->cap / 2) {
			d->e = xgrow(d->e, &d->cap, d->cap + 1, 16,
			    sizeof(*d->e));
		}
	}
	d->e[d->ne].v = v;
	d->e[d->ne].k = k;
	d->ne++;
	return 0;
}

void
dist_add(struct dist *d, double v)
{
	(void)dist_addn(d, v, 1);
}

/*
 * The sum of every instance of e[0..n), k times v each, with Neumaier's
 * compensation and each product's rounding error (fma) added to it:
 * nearly exact.
 */
static double
wsum(const struct dist_ent *e, size_t n)
{
	double sum = 0, c = 0, p, t;
	size_t i;

	for (i = 0; i < n; i++) {
		p = (double)e[i].k * e[i].v;
		c += fma((double)e[i].k, e[i].v, -p);
		t = sum + p;
		if (fabs(sum) >= fabs(p))
			c += (sum - t) + p;
		else
			c += (p - t) + sum;
		sum = t;
	}
	return sum + c;
}

/* The value of instance i (from 0) in sorted order. */
static double
nth(const struct dist *d, uint64_t i)
{
	size_t j;

	for (j = 0; j + 1 < d->ne && i >= d->e[j].k; j++)
		i -= d->e[j].k;
	return d->e[j].v;
}

void
dist_summary(struct dist *d, struct dist_sum *s)
{
	double dev, mean, acc = 0;
	uint64_t n = d->n;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return;
	compact(d);
	s->n = n;
	s->total = d->total;
	s->avg = d->total / (double)n;
	if (n % 2 == 1)
		s->med = nth(d, n / 2);
	else
		s->med = (nth(d, n / 2 - 1) + nth(d, n / 2)) / 2;
	s->min = d->e[0].v;
	s->max = d->e[d->ne - 1].v;
	if (n > 1 && s->min != s->max) {
		/*
		 * Deviations from a mean of a compensated sum, their squares
		 * added in sorted order as one addition per instance does.
		 */
		mean = wsum(d->e, d->ne) / (double)n;
		for (i = 0; i < d->ne; i++) {
			dev = d->e[i].v - mean;
			acc = fmt_pysum(acc, dev * dev, d->e[i].k);
		}
		s->sd = sqrt(acc / (double)(n - 1));
	}
}

void
dist_free(struct dist *d)
{
	free(d->e);
	memset(d, 0, sizeof(*d));
}

/* Column c of a summary. */
double
dist_col(const struct dist_sum *s, int c)
{
	switch (c) {
	case DIST_TOTAL:
		return s->total;
	case DIST_AVG:
		return s->avg;
	case DIST_MED:
		return s->med;
	case DIST_MIN:
		return s->min;
	case DIST_MAX:
		return s->max;
	default:
		return s->sd;
	}
}

/* qsort(3) order of doubles. */
static int
cmpdouble(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of the nonzero magnitudes of column c of rows ix[0..n). */
double
dist_colmedian(const struct dist_sum *s, const size_t *ix, size_t n, int c,
    double *tmp)
{
	size_t i, k = 0;
	double v;

	for (i = 0; i < n; i++)
		if ((v = fabs(dist_col(&s[ix[i]], c))) != 0)
			tmp[k++] = v;
	if (k == 0)
		return 0;
	qsort(tmp, k, sizeof(*tmp), cmpdouble);
	return tmp[(k - 1) / 2];
}
