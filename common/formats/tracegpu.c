/*
 * tracegpu.c: -g, the GPU spans attached under their launch: the
 * correlation ids of launches and GPU spans (addcent(), sortcents(),
 * findcent()), a GPU span opened on its stream (gpuspan()), the ac2g
 * flow events that stand in for a missing correlation id (corrof(),
 * flowlinks()), and the attachment once the file is read (attach()).
 */
#define _GNU_SOURCE		/* memmem */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "util.h"
#include "json.h"
#include "htab.h"
#include "trace.h"
#include "traceint.h"

static void	*grow(void *, size_t *, size_t, size_t);
static int	 gscmp(const void *, const void *);
static int	 centlt(const struct cent *, const struct cent *, int);
static void	 swapcent(struct cent *, struct cent *);
static void	 sortcents(struct cent *, size_t, int);
static size_t	 findcent(const struct cent *, size_t, int64_t, int);
static int64_t	 corrof(struct trace *, uint32_t, int64_t, int64_t);
static void	 flowlinks(struct trace *);

/*
 * Room for n + 1 elements of size sz in p of *cap: grown by half, so
 * that large arrays waste a third of their room at most.
 */
static void *
grow(void *p, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return p;
	*cap = *cap + *cap / 2 + 64;
	return xreallocarray(p, *cap, sz);
}

/* Append (corr, seq) to the array *a of *n entries. */
void
tr_addcent(struct cent **a, size_t *n, size_t *cap, int64_t corr,
    uint32_t seq)
{
	*a = grow(*a, cap, *n, sizeof(**a));
	(*a)[*n].corr = corr;
	(*a)[*n].seq = seq;
	(*a)[*n].node = NONE;
	(*n)++;
}

/*
 * With -g: a launch's node, or a GPU span to attach at the end (its
 * index in gs, else NONE).
 */
uint32_t
tr_gpuspan(struct trace *t, uint32_t id, const struct nest_span *s, int64_t end,
    uint32_t n)
{
	struct gspan *g;

	if (s->name >> KINDSHIFT == K_LAUNCH) {
		t->ln = grow(t->ln, &t->capln, t->nln, sizeof(*t->ln));
		t->ln[t->nln].seq = s->seq;
		t->ln[t->nln++].node = n;
		return NONE;
	}
	if (t->ngs >= NONE)
		tr_failx(t, "%s: too many GPU spans", json_name(t->j));
	t->gs = grow(t->gs, &t->capgs, t->ngs, sizeof(*t->gs));
	g = &t->gs[t->ngs];
	g->corr = NOCORR;
	g->start = s->start;
	g->dur = end - s->start;
	g->self = 0;
	g->order = 0;
	g->name = s->name & NAMEMASK;
	g->thread = id;
	g->seq = s->seq;
	g->node = n;
	g->dead = 0;
	return (uint32_t)t->ngs++;
}

/* GPU spans by thread, then in the engine's order (nest_cmp()). */
static int
gscmp(const void *a, const void *b)
{
	const struct gspan *x = a, *y = b;
	struct nest_span sx = { x->start, x->dur, 0, x->seq };
	struct nest_span sy = { y->start, y->dur, 0, y->seq };

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	return nest_cmp(&sx, &sy);
}

/* Whether x comes before y: by seq, or (bycorr) by corr then seq. */
static int
centlt(const struct cent *x, const struct cent *y, int bycorr)
{
	if (bycorr && x->corr != y->corr)
		return x->corr < y->corr;
	return x->seq < y->seq;
}

/* Swap two entries. */
static void
swapcent(struct cent *x, struct cent *y)
{
	struct cent tmp = *x;

	*x = *y;
	*y = tmp;
}

/*
 * Sort a[0..n) in place (no copy of the array, as qsort(3) may take):
 * quicksort on the median of three, the smaller part first, insertion
 * sort for short runs.
 */
static void
sortcents(struct cent *a, size_t n, int bycorr)
{
	size_t i, j, m;
	struct cent p;

	for (i = 1; i < n && !centlt(&a[i], &a[i - 1], bycorr); i++)
		;
	if (i >= n)
		return;		/* already in order, as usual: linear */
	while (n > 16) {
		m = n / 2;
		if (centlt(&a[m], &a[0], bycorr))
			swapcent(&a[m], &a[0]);
		if (centlt(&a[n - 1], &a[0], bycorr))
			swapcent(&a[n - 1], &a[0]);
		if (centlt(&a[n - 1], &a[m], bycorr))
			swapcent(&a[n - 1], &a[m]);
		p = a[m];
		i = 0;
		j = n - 1;
		for (;;) {
			while (centlt(&a[i], &p, bycorr))
				i++;
			while (centlt(&p, &a[j], bycorr))
				j--;
			if (i >= j)
				break;
			swapcent(&a[i++], &a[j--]);
		}
		if (j + 1 < n - j - 1) {
			sortcents(a, j + 1, bycorr);
			a += j + 1;
			n -= j + 1;
		} else {
			sortcents(a + j + 1, n - j - 1, bycorr);
			n = j + 1;
		}
	}
	for (i = 1; i < n; i++) {
		p = a[i];
		for (j = i; j > 0 && centlt(&p, &a[j - 1], bycorr); j--)
			a[j] = a[j - 1];
		a[j] = p;
	}
}

/*
 * In a[0..n) sorted as sortcents() sorts it, the first entry whose seq
 * (bycorr: correlation id) is v, or (size_t)-1.
 */
static size_t
findcent(const struct cent *a, size_t n, int64_t v, int bycorr)
{
	size_t lo = 0, hi = n, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if ((bycorr ? a[m].corr : (int64_t)a[m].seq) < v)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo < n && (bycorr ? a[lo].corr : (int64_t)a[lo].seq) == v)
		return lo;
	return (size_t)-1;
}

/*
 * The id of the ac2g flow event of thread th at time ts, when corr (a
 * span's own correlation id) is NOCORR.
 */
static int64_t
corrof(struct trace *t, uint32_t th, int64_t ts, int64_t corr)
{
	unsigned char k[12];
	size_t c;

	if (corr != NOCORR || t->flows == NULL)
		return corr;
	memcpy(k, &th, 4);
	memcpy(k + 4, &ts, 8);
	if ((c = ht_find(t->flows, k, sizeof(k))) == (size_t)-1)
		return NOCORR;
	return t->flowv[c];
}

/*
 * The flow table, and from it the correlation ids of the nested
 * launches that have none (cs sorted by seq).
 */
static void
flowlinks(struct trace *t)
{
	struct cent *c;
	size_t i, k;

	tr_flowtable(t);
	sortcents(t->nl, t->nnl, 0);
	for (i = 0; i < t->ncs; i++) {
		c = &t->cs[i];
		if (c->node == NONE || c->corr != NOCORR ||
		    (k = findcent(t->nl, t->nnl, c->seq, 0)) == (size_t)-1)
			continue;
		c->corr = corrof(t, t->nthread[c->node], t->nl[k].corr,
		    NOCORR);
	}
	free(t->nl);
	t->nl = NULL;
	t->nnl = t->capnl = 0;
}

/*
 * With -g: the launches by correlation id (of those sharing one, the
 * first in the input), then each GPU span under the node of its launch,
 * or on its stream if it has none: its time is counted once.
 */
void
tr_attach(struct trace *t)
{
	struct gspan *g;
	size_t i, j, k;
	uint32_t n;

	sortcents(t->cs, t->ncs, 0);
	for (i = k = 0; i < t->nln; i++) {
		/* A few steps on while ln is in seq order, else a search. */
		for (j = 0; j < 16 && k < t->ncs &&
		    t->cs[k].seq < t->ln[i].seq; j++)
			k++;
		if (k >= t->ncs || t->cs[k].seq != t->ln[i].seq)
			k = findcent(t->cs, t->ncs, t->ln[i].seq, 0);
		if (k == (size_t)-1)
			k = 0;
		else
			t->cs[k].node = t->ln[i].node;
	}
	free(t->ln);
	t->ln = NULL;
	t->nln = t->capln = 0;
	if (t->needflows)
		flowlinks(t);
	for (i = 0; i < t->ngs; i++) {
		g = &t->gs[i];
		k = findcent(t->cs, t->ncs, g->seq, 0);
		g->corr = corrof(t, g->thread, g->start,
		    k != (size_t)-1 ? t->cs[k].corr : NOCORR);
	}
	for (i = k = 0; i < t->ncs; i++)
		if (t->cs[i].node != NONE && t->cs[i].corr != NOCORR)
			t->cs[k++] = t->cs[i];
	t->ncs = k;
	sortcents(t->cs, t->ncs, 1);
	if (t->ngs > 1)
		qsort(t->gs, t->ngs, sizeof(*t->gs), gscmp);
	for (i = 0; i < t->ngs; i++) {
		g = &t->gs[i];
		if (g->dead)
			continue;
		if (g->corr == NOCORR || (k = findcent(t->cs, t->ncs, g->corr,
		    1)) == (size_t)-1) {
			tr_account(t, g->node, g->start, g->self, g->order);
			continue;
		}
		n = tr_enter(t, t->nthread[t->cs[k].node], t->cs[k].node,
		    g->name);
		tr_account(t, n, g->start, g->self, t->order++);
	}
}
