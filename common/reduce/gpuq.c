/*
 * gpuq.c: the queue length of each stream of a rank (sst-gpu -F queue).
 *
 * A launch (a runtime launch call correlated with a GPU event) adds one
 * to the queue of its event's stream, the start of a GPU event takes one
 * away; HTA orders the launches and starts by time and summarises the
 * queue lengths after each step as pandas' describe() does: count, mean,
 * std (n-1), min, quartiles (linear interpolation), max.
 *
 * Equal times: HTA sorts with numpy's quicksort, which is not stable, so
 * which of a launch and a start at the same microsecond comes first
 * depends on where they sit in its array (the launches in trace order,
 * then the GPU events in trace order).  With hta the same introsort is
 * run on the same array, so that the same order comes out; otherwise the
 * sort is stable.  Either way the steps of the rank are held in memory
 * (24 bytes each) for the sort.  Without hta or a step range gpuqlive.c
 * summarises the same table as the rows are read, with the same numbers;
 * this is its fallback.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "sort.h"
#include "gpu.h"
#include "gpuq.h"

#define SMALLQS		16
#define QSSTACK		128

/* numpy's aheapsort: a[0..n) sorted by v, the fallback of introsort. */
static void
aheap(const int64_t *v, size_t *t, size_t n)
{
	size_t *a = t - 1, i, j, l, tmp;

	for (l = n >> 1; l > 0; --l) {
		tmp = a[l];
		for (i = l, j = l << 1; j <= n;) {
			if (j < n && v[a[j]] < v[a[j + 1]])
				j += 1;
			if (v[tmp] < v[a[j]]) {
				a[i] = a[j];
				i = j;
				j += j;
			} else
				break;
		}
		a[i] = tmp;
	}
	for (; n > 1;) {
		tmp = a[n];
		a[n] = a[1];
		n -= 1;
		for (i = 1, j = 2; j <= n;) {
			if (j < n && v[a[j]] < v[a[j + 1]])
				j++;
			if (v[tmp] < v[a[j]]) {
				a[i] = a[j];
				i = j;
				j += j;
			} else
				break;
		}
		a[i] = tmp;
	}
}

#define SWAP(x, y)	do { size_t tmp_ = (x); (x) = (y); (y) = tmp_; } \
			while (0)

/* numpy's aquicksort (introsort) of the indices t[0..num) by v. */
static void
aquick(const int64_t *v, size_t *t, size_t num)
{
	size_t *pl = t, *pr = t + num - 1, *stack[QSSTACK], **sptr = stack;
	size_t *pm, *pi, *pj, *pk, vi;
	int depth[QSSTACK], *psdepth = depth, cdepth = 0;
	int64_t vp;
	size_t u = num;

	if (num < 2)
		return;
	while (u >>= 1)
		cdepth++;
	cdepth *= 2;
	for (;;) {
		if (cdepth < 0) {
			aheap(v, pl, (size_t)(pr - pl) + 1);
			goto pop;
		}
		while (pr - pl > SMALLQS) {
			pm = pl + ((pr - pl) >> 1);
			if (v[*pm] < v[*pl])
				SWAP(*pm, *pl);
			if (v[*pr] < v[*pm])
				SWAP(*pr, *pm);
			if (v[*pm] < v[*pl])
				SWAP(*pm, *pl);
			vp = v[*pm];
			pi = pl;
			pj = pr - 1;
			SWAP(*pm, *pj);
			for (;;) {
				do
					++pi;
				while (v[*pi] < vp);
				do
					--pj;
				while (vp < v[*pj]);
				if (pi >= pj)
					break;
				SWAP(*pi, *pj);
			}
			pk = pr - 1;
			SWAP(*pi, *pk);
			if (pi - pl < pr - pi) {
				*sptr++ = pi + 1;
				*sptr++ = pr;
				pr = pi - 1;
			} else {
				*sptr++ = pl;
				*sptr++ = pi - 1;
				pl = pi + 1;
			}
			*psdepth++ = --cdepth;
		}
		for (pi = pl + 1; pi <= pr; ++pi) {
			vi = *pi;
			vp = v[vi];
			pj = pi;
			pk = pi - 1;
			while (pj > pl && vp < v[*pk])
				*pj-- = *pk--;
			*pj = vi;
		}
pop:
		if (sptr == stack)
			break;
		pr = *(--sptr);
		pl = *(--sptr);
		cdepth = *(--psdepth);
	}
}

static int
cmpv(size_t a, size_t b, void *arg)
{
	const int64_t *v = arg;

	return (v[a] > v[b]) - (v[a] < v[b]);
}

static int
cmpi(const void *a, const void *b)
{
	const int *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* pandas' quantile p of the n sorted values v (linear). */
static double
quant(const int *v, size_t n, double p)
{
	double x = p * (double)(n - 1), lo = floor(x);
	size_t i = (size_t)lo;

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (v[i + 1] - v[i]) * (x - lo);
}

/* One row of the summary: the queue lengths v of stream st. */
static void
summary(const struct grank *r, size_t st, int *v, size_t n, FILE *fp)
{
	double sum = 0, mean, m2 = 0;
	size_t i;

	qsort(v, n, sizeof(*v), cmpi);
	for (i = 0; i < n; i++)
		sum += v[i];
	mean = sum / (double)n;
	for (i = 0; i < n; i++)
		m2 += (v[i] - mean) * (v[i] - mean);
	fprintf(fp, "%s\t%lld\t%zu\t%.10g\t", r->label,
	    (long long)r->streams[st], n, mean);
	if (n > 1)
		fprintf(fp, "%.10g", sqrt(m2 / (double)(n - 1)));
	fprintf(fp, "\t%d\t%.10g\t%.10g\t%.10g\t%d\n", v[0],
	    quant(v, n, .25), quant(v, n, .5), quant(v, n, .75), v[n - 1]);
}

/* The launches' streams: a kept GPU event's of the same correlation. */
static void
streamof(const struct grank *r, const size_t *ix, size_t n, int *st)
{
	size_t *by, nb, i, k;

	by = gpu_bycorr(r, R_GPU | R_KEEP | R_SYNC, R_GPU | R_KEEP, &nb);
	for (i = 0; i < n; i++)
		st[i] = (k = gpu_findcorr(r, by, nb, ROW(r, ix[i])->corr)) ==
		    nb ? -1 : ROW(r, by[k])->stream;
	free(by);
}

void
gpu_queue(const struct grank *r, const struct gpu_opt *o, FILE *fp)
{
	size_t n = 0, nl = 0, i, k, *ix, *ord, *cnt, *pos;
	int64_t *ts;
	int *st, *len, *val;

	ix = xreallocarray(NULL, r->nrow + 1, sizeof(*ix));
	for (i = 0; i < r->nrow; i++)
		if ((ROW(r, i)->flags & (R_LAUNCH | R_IC | R_KEEP | R_GK)) ==
		    (R_LAUNCH | R_IC | R_KEEP))
			ix[nl++] = i;
	n = nl;
	for (i = 0; i < r->nrow; i++)
		if ((ROW(r, i)->flags & (R_GPU | R_KEEP | R_SYNC)) ==
		    (R_GPU | R_KEEP))
			ix[n++] = i;
	ts = xreallocarray(NULL, n + 1, sizeof(*ts));
	st = xreallocarray(NULL, n + 1, sizeof(*st));
	ord = xreallocarray(NULL, n + 1, sizeof(*ord));
	streamof(r, ix, nl, st);
	for (i = 0; i < n; i++) {
		ts[i] = ROW(r, ix[i])->ts;
		if (i >= nl)
			st[i] = ROW(r, ix[i])->stream;
		ord[i] = i;
	}
	if (o->hta)
		aquick(ts, ord, n);
	else
		sst_sort(ord, n, cmpv, ts);
	/* The lengths, grouped by stream in order. */
	cnt = xcalloc(r->nstream + 1, sizeof(*cnt));
	pos = xcalloc(r->nstream + 1, sizeof(*pos));
	len = xcalloc(r->nstream + 1, sizeof(*len));
	val = xreallocarray(NULL, n + 1, sizeof(*val));
	for (i = 0; i < n; i++)
		if (st[i] >= 0)
			cnt[st[i]]++;
	for (i = k = 0; i < r->nstream; i++) {
		pos[i] = k;
		k += cnt[i];
	}
	for (i = 0; i < n; i++) {
		int s = st[ord[i]];

		if (s < 0)
			continue;
		len[s] += ord[i] < nl ? 1 : -1;
		val[pos[s]++] = len[s];
	}
	/* Streams by number, as pandas groups them. */
	for (k = 0; k < r->nstream; k++) {
		size_t best = SIZE_MAX;

		for (i = 0; i < r->nstream; i++)
			if (cnt[i] > 0 && (best == SIZE_MAX ||
			    r->streams[i] < r->streams[best]))
				best = i;
		if (best == SIZE_MAX)
			break;
		summary(r, best, val + pos[best] - cnt[best], cnt[best], fp);
		cnt[best] = 0;
	}
	free(val);
	free(len);
	free(pos);
	free(cnt);
	free(ord);
	free(st);
	free(ts);
	free(ix);
}
