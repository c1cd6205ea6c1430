/*
 * gputrim.c: the joins and the step trimming of sst-gpu's rows: runtime
 * calls correlated with their GPU events (by sorted correlation: 8 bytes
 * a row, no hash table), and the window of CPU time a rank keeps, as
 * HolisticTraceAnalysis trims a trace (hta: up to the start of the last
 * ProfilerStep) or as a step range asks (from the start of its first
 * step to the end of its last), with the GPU events that the CPU events
 * kept launched; and the rows a view picks, in trace order or by start.
 * Errors are returned, in the rank (gpu_errmsg()).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "sort.h"
#include "gpu.h"

static int
cmpcorr(size_t a, size_t b, void *arg)
{
	const struct grank *r = arg;
	int64_t x = ROW(r, a)->corr, y = ROW(r, b)->corr;

	return (x > y) - (x < y);
}

static int
cmpts(size_t a, size_t b, void *arg)
{
	const struct grank *r = arg;
	int64_t x = ROW(r, a)->ts, y = ROW(r, b)->ts;

	return (x > y) - (x < y);
}

void
gpu_sortts(const struct grank *r, size_t *ix, size_t n)
{
	sst_sort(ix, n, cmpts, (void *)r);
}

size_t *
gpu_pick(const struct grank *r, unsigned want, unsigned not, int sorted,
    size_t *n)
{
	size_t *ix, i, k = 0;

	ix = xreallocarray(NULL, r->nrow + 1, sizeof(*ix));
	want |= R_KEEP;
	for (i = 0; i < r->nrow; i++)
		if ((ROW(r, i)->flags & want) == want &&
		    (ROW(r, i)->flags & not) == 0)
			ix[k++] = i;
	if (sorted)
		gpu_sortts(r, ix, k);
	*n = k;
	return ix;
}

size_t *
gpu_bycorr(const struct grank *r, unsigned mask, unsigned want, size_t *n)
{
	size_t *ix, i, k = 0;

	ix = xreallocarray(NULL, r->nrow + 1, sizeof(*ix));
	for (i = 0; i < r->nrow; i++)
		if ((ROW(r, i)->flags & mask) == want)
			ix[k++] = i;
	sst_sort(ix, k, cmpcorr, (void *)r);
	*n = k;
	return ix;
}

size_t
gpu_findcorr(const struct grank *r, const size_t *ix, size_t n, int64_t c)
{
	size_t lo = 0, hi = n, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (ROW(r, ix[m])->corr < c)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < n && ROW(r, ix[lo])->corr == c ? lo : n;
}

/*
 * Correlate runtime calls and GPU kernels both ways (HTA's rule: of
 * several with one correlation, the last in the trace is the one), and
 * fill r->ic if ic.
 */
static void
correlate(struct grank *r, int ic)
{
	size_t *ix, n, i, k, g;

	if (ic)
		r->ic = xreallocarray(r->ic, r->nrow + 1, sizeof(*r->ic));
	ix = gpu_bycorr(r, R_GK, R_GK, &n);
	for (i = 0; i < r->nrow; i++) {
		struct grow *w = ROW(r, i);

		if ((w->flags & R_GK) || w->corr == -1 ||
		    (k = gpu_findcorr(r, ix, n, w->corr)) == n)
			continue;
		while (k + 1 < n && ROW(r, ix[k + 1])->corr == w->corr)
			k++;
		g = ix[k];
		w->flags |= R_IC;
		ROW(r, g)->flags |= R_IC;
		if (r->ic != NULL) {
			r->ic[i] = (uint32_t)g;
			r->ic[g] = (uint32_t)i;
		}
	}
	free(ix);
	r->corred = 1;
}

void
gpu_correlate(struct grank *r, int ic)
{
	if (!r->corred || (ic && r->ic == NULL))
		correlate(r, ic);
}

/* Whether c is in the n sorted values v. */
static int
has(const int64_t *v, size_t n, int64_t c)
{
	size_t lo = 0, hi = n, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if (v[m] < c)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < n && v[lo] == c;
}

/* The N of a ProfilerStep#N name, -1 if too big. */
static long long
stepno(const char *s)
{
	long long v = 0;

	for (s += 13; isdigit((unsigned char)*s); s++) {
		if (v > (LLONG_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/*
 * The window of CPU time the trimming keeps, [*lo, *hi): with a step
 * range from the start of its first step to the end of its last, else
 * (hta) up to the start of the last step.  -1 if the range has none.
 */
static int
window(struct grank *r, const struct gpu_opt *o, int64_t *lo, int64_t *hi)
{
	size_t i;
	long long k;
	int any = 0;

	*lo = o->steps ? INT64_MAX : INT64_MIN;
	*hi = INT64_MIN;
	for (i = 0; i < r->nrow; i++) {
		const struct grow *w = ROW(r, i);

		if ((w->flags & (R_STEP | R_GK)) != R_STEP)
			continue;
		if (!o->steps) {
			if (w->ts > *hi)
				*hi = w->ts;
			continue;
		}
		k = stepno(gpu_name(r, w->name));
		if (k < o->first || k > o->last)
			continue;
		any = 1;
		if (w->ts < *lo)
			*lo = w->ts;
		if (w->end > *hi)
			*hi = w->end;
	}
	if (o->steps && !any) {
		if (o->first == o->last)
			snprintf(r->err, sizeof(r->err), "%s: no "
			    "ProfilerStep#%lld", r->label, o->first);
		else
			snprintf(r->err, sizeof(r->err), "%s: no "
			    "ProfilerStep#%lld to #%lld", r->label, o->first,
			    o->last);
		r->errloc = 0;
		return -1;
	}
	return 0;
}

int
gpu_trim(struct grank *r, const struct gpu_opt *o)
{
	int64_t lo, hi, *cs;
	size_t i, n = 0;

	if (r->nrow > UINT32_MAX) {
		snprintf(r->err, sizeof(r->err), "%s: too many events",
		    r->label);
		r->errloc = 0;
		return -1;
	}
	/* Spilt rows are correlated once loaded, if a view falls back. */
	if (r->spill == NULL && (HASVIEW(o, GV_IDLE) || HASVIEW(o, GV_QUEUE)))
		correlate(r, HASVIEW(o, GV_IDLE));
	if (!o->steps && (!o->hta || r->nsteps < 2))
		return 0;
	if (window(r, o, &lo, &hi) == -1)
		return -1;
	cs = xreallocarray(NULL, r->nrow + 1, sizeof(*cs));
	for (i = 0; i < r->nrow; i++) {
		struct grow *w = ROW(r, i);

		if (w->flags & R_GK)
			continue;
		if (w->ts >= lo && w->ts < hi)
			cs[n++] = w->corr;
		else
			w->flags &= ~R_KEEP;
	}
	qsort(cs, n, sizeof(*cs), sst_cmpi64);
	for (i = 0; i < r->nrow; i++) {
		struct grow *w = ROW(r, i);

		if ((w->flags & R_GK) && !has(cs, n, w->corr))
			w->flags &= ~R_KEEP;
	}
	free(cs);
	return 0;
}

