/*
 * timeline.c: the bars of a timeline (sst-timeline(1)).  Records with a
 * start are kept, their stacks copied, then sorted by thread and start
 * (a shorter stack first at equal starts, so that a span comes before
 * the spans it encloses) and joined: frame k of a record extends the
 * open bar of depth k when the frames from the root to k are the same
 * and the record starts no later than the bar ends, else a new bar
 * begins there and the deeper ones close.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sst.h"
#include "timeline.h"

/* A record with a start, its stack copied. */
struct ev {
	double	 start, end;
	uint64_t samples;
	char	*stack;
	size_t	 stacklen;
	char	*locs;		/* empty when the record has none */
	size_t	 locslen;
	size_t	 thread;
};

struct timeline {
	struct htab	*threads;	/* escaped names, first-seen order */
	struct ev	*ev;
	size_t		 nev, capev;
	struct tl_bar	*bar;
	size_t		 nbar, capbar;
	size_t		*depth;		/* by thread: its rows */
	double		 t0, t1;
};

static int	bystart(size_t, size_t, void *);
static struct tl_bar *newbar(struct timeline *);

struct timeline *
tl_new(void)
{
	struct timeline *t;

	t = xcalloc(1, sizeof(*t));
	t->threads = ht_new();
	return t;
}

void
tl_free(struct timeline *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nev; i++) {
		free(t->ev[i].stack);
		free(t->ev[i].locs);
	}
	free(t->ev);
	free(t->bar);
	free(t->depth);
	ht_free(t->threads);
	free(t);
}

void
tl_add(struct timeline *t, const struct sst_rec *r)
{
	struct ev *e;

	if (r->stacklen == 0 || r->samples == 0)
		return;
	if (t->nev == t->capev) {
		t->capev = t->capev ? t->capev * 2 : 1024;
		t->ev = xreallocarray(t->ev, t->capev, sizeof(*t->ev));
	}
	e = &t->ev[t->nev++];
	e->start = r->start;
	e->end = r->start + (r->weight > 0 ? r->weight : 0);
	e->samples = r->samples;
	e->stack = xmemdup(r->stack, r->stacklen);
	e->stacklen = r->stacklen;
	e->locs = xmemdup(r->locs, r->locslen);
	e->locslen = r->locslen;
	e->thread = ht_intern(t->threads, r->thread, r->threadlen, NULL);
	if (t->nev == 1 || e->start < t->t0)
		t->t0 = e->start;
	if (t->nev == 1 || e->end > t->t1)
		t->t1 = e->end;
}

size_t
tl_count(const struct timeline *t)
{
	return t->nev;
}

size_t
tl_nthreads(const struct timeline *t)
{
	return ht_count(t->threads);
}

const char *
tl_thread(const struct timeline *t, size_t i, size_t *n)
{
	return ht_key(t->threads, i, n);
}

size_t
tl_depth(const struct timeline *t, size_t i)
{
	return t->depth[i];
}

void
tl_span(const struct timeline *t, double *t0, double *t1)
{
	*t0 = t->t0;
	*t1 = t->t1;
}

/* Room for one more bar. */
static struct tl_bar *
newbar(struct timeline *t)
{
	if (t->nbar == t->capbar) {
		t->capbar = t->capbar ? t->capbar * 2 : 1024;
		t->bar = xreallocarray(t->bar, t->capbar, sizeof(*t->bar));
	}
	return &t->bar[t->nbar];
}

/* By thread, then start, then the shorter stack first. */
static int
bystart(size_t a, size_t b, void *arg)
{
	const struct ev *x = (struct ev *)arg + a, *y = (struct ev *)arg + b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->stacklen < y->stacklen ? -1 : x->stacklen > y->stacklen;
}

const struct tl_bar *
tl_bars(struct timeline *t, size_t *nbar)
{
	struct frames fr, fl;
	struct ev *e;
	struct tl_bar *b;
	size_t *ix, i, k, nopen = 0, *open = NULL, cap = 0, a, z, plen;
	size_t cur = (size_t)-1;

	memset(&fr, 0, sizeof(fr));
	memset(&fl, 0, sizeof(fl));
	ix = xreallocarray(NULL, t->nev, sizeof(*ix));
	for (i = 0; i < t->nev; i++)
		ix[i] = i;
	sst_sort(ix, t->nev, bystart, t->ev);
	free(t->depth);
	t->nbar = 0;
	t->depth = xcalloc(ht_count(t->threads), sizeof(*t->depth));
	/*
	 * open[3k], open[3k + 1], open[3k + 2]: the bar of depth k still
	 * growing, the record that began it and the length of the frames
	 * from the root to it in that record's stack.
	 */
	for (i = 0; i < t->nev; i++) {
		e = &t->ev[ix[i]];
		if (e->thread != cur) {
			cur = e->thread;
			nopen = 0;
		}
		frames_split(&fr, e->stack, e->stacklen);
		frames_split(&fl, e->locs, e->locslen);
		if (fr.n * 3 > cap) {
			cap = fr.n * 3;
			open = xreallocarray(open, cap, sizeof(*open));
		}
		for (k = 0; k < fr.n; k++) {
			plen = fr.off[k + 1] - 1;
			if (k < nopen && open[3 * k + 2] == plen &&
			    memcmp(t->ev[open[3 * k + 1]].stack, e->stack,
			    plen) == 0) {
				b = &t->bar[open[3 * k]];
				if (e->start <= b->x1 + 1e-9 * fmax(1,
				    fabs(b->x1))) {
					b->x1 = fmax(b->x1, e->end);
					b->samples += e->samples;
					continue;
				}
			}
			b = newbar(t);
			a = fr.off[k];
			z = fr.off[k + 1] - 1;
			b->thread = cur;
			b->depth = k;
			b->x0 = e->start;
			b->x1 = e->end;
			b->samples = e->samples;
			b->name = e->stack + a;
			b->namelen = z - a;
			b->file = "";
			b->filelen = 0;
			if (fl.n > 0)
				b->file = frames_span(&fl, e->locs, k, k + 1,
				    &b->filelen);
			open[3 * k] = t->nbar++;
			open[3 * k + 1] = ix[i];
			open[3 * k + 2] = plen;
			nopen = k + 1;
			if (k + 1 > t->depth[cur])
				t->depth[cur] = k + 1;
		}
		nopen = fr.n;
	}
	free(open);
	free(ix);
	frames_free(&fr);
	frames_free(&fl);
	*nbar = t->nbar;
	return t->bar;
}

