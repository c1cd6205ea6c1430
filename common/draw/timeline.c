/*
 * timeline.c: the bars of a timeline (sst-timeline(1)).  Records with a
 * start are kept, their stack and locations interned, then sorted by
 * thread and start (at equal starts in the order of a walk of the tree
 * of stacks, so that a span comes before the spans it encloses) and
 * measured: a record covers its own weight and the weights of the
 * records after it whose stacks extend its own, while each starts
 * before the time so covered ends, so that a span, whose record
 * weighs its self time, covers its children and is one bar.  Then
 * frame k of a record extends the open bar of depth k when the frames
 * from the root to k are the previous record's and the record starts
 * no later than the bar ends, else a new bar begins there and the
 * deeper ones close.  A closed bar goes to the view: clipped to its
 * window, and on each row the runs of bars narrower than a pixel are
 * merged into blocks of up to TL_BLOCK pixels, so that a row holds at
 * most about two marks a pixel whatever the number of records.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "rec.h"
#include "htab.h"
#include "sort.h"
#include "chain.h"
#include "timeline.h"

/* A record with a start. */
struct ev {
	double		 start, w, end;
	uint64_t	 samples;
	uint32_t	 key;		/* "stack\tlocs" in keys */
	uint32_t	 thread;
};

/* A record still enclosing those that follow, and its time so far. */
struct open {
	size_t		 ev;
	double		 sum;
};

struct timeline {
	struct htab	*threads;	/* escaped names, first seen */
	struct htab	*keys;		/* stacks and locations */
	size_t		*stacklen;	/* by key */
	size_t		 capkeys;
	struct ev	*ev;
	size_t		 nev, capev;
	size_t		*ix;		/* ev by thread and start */
	int		 settled;
	struct tl_bar	*bar;		/* the view */
	size_t		 nbar, capbar;
	struct tl_bar	*pend;		/* by depth: narrow ones */
	size_t		 cappend;
	double		 from, to, px;
	size_t		*depth;		/* by thread: its rows */
	double		 t0, t1;
	struct buf	 kb;
};

static int	bound(struct tl_window *, int, const char *, size_t, char *,
		    size_t);
static double	tol(double);
static int	bystart(size_t, size_t, void *);
static int	bydepth(size_t, size_t, void *);
static int	under(const struct timeline *, uint32_t, uint32_t);
static void	settle(struct timeline *);
static void	emit(struct timeline *, const struct tl_bar *);
static void	flush(struct timeline *);
static void	viewbar(struct timeline *, const struct tl_bar *);
static size_t	common(const struct frames *, const char *, size_t,
		    const char *, size_t);
static void	join(struct timeline *);

struct timeline *
tl_new(void)
{
	struct timeline *t;

	t = xcalloc(1, sizeof(*t));
	t->threads = ht_new();
	t->keys = ht_new();
	buf_init(&t->kb);
	return t;
}

void
tl_free(struct timeline *t)
{
	if (t == NULL)
		return;
	free(t->ev);
	free(t->ix);
	free(t->bar);
	free(t->pend);
	free(t->depth);
	free(t->stacklen);
	ht_free(t->threads);
	ht_free(t->keys);
	buf_free(&t->kb);
	free(t);
}

int
tl_add(struct timeline *t, const struct sst_rec *r, const char **why)
{
	struct ev *e;
	size_t key, th;
	int isnew;

	if (r->stacklen == 0 || r->samples == 0)
		return 0;
	if (t->nev == t->capev)
		t->ev = xgrow(t->ev, &t->capev, t->nev + 1, 1024,
		    sizeof(*t->ev));
	buf_reset(&t->kb);
	buf_add(&t->kb, r->stack, r->stacklen);
	buf_addc(&t->kb, '\t');
	buf_add(&t->kb, r->locs, r->locslen);
	key = ht_intern(t->keys, t->kb.data, t->kb.len, &isnew);
	th = ht_intern(t->threads, r->thread, r->threadlen, NULL);
	if (key >= UINT32_MAX || th >= UINT32_MAX) {
		*why = "too many stacks or threads to draw";
		return -1;
	}
	if (isnew) {
		if (key == t->capkeys)
			t->stacklen = xgrow(t->stacklen, &t->capkeys, key + 1,
			    1024, sizeof(*t->stacklen));
		t->stacklen[key] = r->stacklen;
	}
	e = &t->ev[t->nev++];
	e->start = r->start;
	e->w = r->weight > 0 ? r->weight : 0;
	e->end = e->start + e->w;
	e->samples = r->samples;
	e->key = (uint32_t)key;
	e->thread = (uint32_t)th;
	t->settled = 0;
	return 0;
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
	return t->depth != NULL ? t->depth[i] : 0;
}

void
tl_span(struct timeline *t, double *t0, double *t1)
{
	settle(t);
	*t0 = t->t0;
	*t1 = t->t1;
}

/* How far apart two times may be and still meet: rounding. */
static double
tol(double x)
{
	return 1e-9 * fmax(1, fabs(x));
}

/*
 * By thread, then start, then stack, a frame before the frames under
 * it (';' sorts first): a walk of the tree of stacks, so that at equal
 * starts a record comes right before those it encloses.
 */
static int
bystart(size_t a, size_t b, void *arg)
{
	const struct timeline *t = arg;
	const struct ev *x = &t->ev[a], *y = &t->ev[b];
	const char *s, *u;
	size_t i, m, n;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	s = ht_key(t->keys, x->key, NULL);
	u = ht_key(t->keys, y->key, NULL);
	m = t->stacklen[x->key];
	n = t->stacklen[y->key];
	for (i = 0; i < m && i < n && s[i] == u[i]; i++)
		;
	if (i == m || i == n)
		return m < n ? -1 : m > n;
	if (s[i] == ';' || u[i] == ';')
		return s[i] == ';' ? -1 : 1;
	return (unsigned char)s[i] < (unsigned char)u[i] ? -1 : 1;
}

/* The view's order: by thread, depth, then start. */
static int
bydepth(size_t a, size_t b, void *arg)
{
	const struct tl_bar *x = (struct tl_bar *)arg + a;
	const struct tl_bar *y = (struct tl_bar *)arg + b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	if (x->x0 != y->x0)
		return x->x0 < y->x0 ? -1 : 1;
	return 0;
}

/* Whether the stack of key b extends the stack of key a by frames. */
static int
under(const struct timeline *t, uint32_t a, uint32_t b)
{
	size_t m = t->stacklen[a], n = t->stacklen[b];
	const char *s = ht_key(t->keys, a, NULL), *u = ht_key(t->keys, b,
	    NULL);

	return n > m && u[m] == ';' && memcmp(s, u, m) == 0;
}

/*
 * Sort the records and measure what each covers: a stack of the
 * records still enclosing, each with its time so far; a record that
 * is not under the top, or starts after the top's time ends, closes it
 * and hands its time to the one below.
 */
static void
settle(struct timeline *t)
{
	struct open *op = NULL;
	struct ev *e, *c;
	size_t i, n = 0, cap = 0;
	uint32_t cur = 0;

	if (t->settled)
		return;
	free(t->ix);
	t->ix = xreallocarray(NULL, t->nev + 1, sizeof(*t->ix));
	for (i = 0; i < t->nev; i++)
		t->ix[i] = i;
	sst_sort(t->ix, t->nev, bystart, t);
	for (i = 0; i <= t->nev; i++) {
		e = i < t->nev ? &t->ev[t->ix[i]] : NULL;
		while (n > 0) {
			c = &t->ev[op[n - 1].ev];
			if (e != NULL && e->thread == cur &&
			    e->start <= c->start + op[n - 1].sum +
			    tol(c->start + op[n - 1].sum) &&
			    under(t, c->key, e->key))
				break;
			c->end = c->start + op[--n].sum;
			if (n > 0)
				op[n - 1].sum += op[n].sum;
		}
		if (e == NULL)
			break;
		if (n == cap)
			op = xgrow(op, &cap, n + 1, 64, sizeof(*op));
		op[n].ev = t->ix[i];
		op[n++].sum = e->w;
		cur = e->thread;
	}
	free(op);
	for (i = 0; i < t->nev; i++) {
		e = &t->ev[i];
		if (i == 0 || e->start < t->t0)
			t->t0 = e->start;
		if (i == 0 || e->end > t->t1)
			t->t1 = e->end;
	}
	t->settled = 1;
}

/* Append b to the view; a block spans what it shows. */
static void
emit(struct timeline *t, const struct tl_bar *b)
{
	struct tl_bar *d;

	if (t->nbar == t->capbar)
		t->bar = xgrow(t->bar, &t->capbar, t->nbar + 1, 1024,
		    sizeof(*t->bar));
	d = &t->bar[t->nbar++];
	*d = *b;
	if (d->count > 1) {
		d->start = d->x0;
		d->end = d->x1;
		d->name = d->file = "";
		d->namelen = d->filelen = 0;
	}
}

/* The end of a thread: its pending narrow bars and blocks go out. */
static void
flush(struct timeline *t)
{
	size_t k;

	for (k = 0; k < t->cappend; k++)
		if (t->pend[k].count > 0) {
			emit(t, &t->pend[k]);
			t->pend[k].count = 0;
		}
}

/*
 * A closed bar: clipped to the window, then drawn, or merged with the
 * narrow ones before it on its row when it is narrow, less than a
 * pixel after them and less than TL_BLOCK pixels after their start.
 */
static void
viewbar(struct timeline *t, const struct tl_bar *bar)
{
	struct tl_bar b = *bar, *p;
	size_t old;
	int narrow;

	if (b.x0 >= t->to || (b.x1 <= t->from && b.x0 < t->from))
		return;
	b.x0 = fmax(b.x0, t->from);
	b.x1 = fmin(b.x1, t->to);
	b.total = b.x1 - b.x0;
	if (b.depth >= t->cappend) {
		old = t->cappend;
		t->cappend = b.depth * 2 + 8;
		t->pend = xreallocarray(t->pend, t->cappend,
		    sizeof(*t->pend));
		memset(t->pend + old, 0, (t->cappend - old) *
		    sizeof(*t->pend));
	}
	p = &t->pend[b.depth];
	narrow = b.x1 - b.x0 < t->px;
	if (narrow && p->count > 0 && b.x0 - p->x1 < t->px &&
	    b.x0 - p->x0 < TL_BLOCK * t->px) {
		p->x1 = fmax(p->x1, b.x1);
		p->count++;
		p->total += b.total;
		p->samples += b.samples;
		return;
	}
	if (p->count > 0)
		emit(t, p);
	p->count = 0;
	if (narrow)
		*p = b;
	else
		emit(t, &b);
}

/* How many frames of f (stack s[0..n)) begin the stack p[0..m). */
static size_t
common(const struct frames *f, const char *s, size_t n, const char *p,
    size_t m)
{
	size_t i, k, z;

	for (i = 0; i < n && i < m && s[i] == p[i]; i++)
		;
	for (k = 0; k < f->n; k++) {
		z = f->off[k + 1] - 1;
		if (z > i || (z < m && p[z] != ';'))
			break;
	}
	return k;
}

/*
 * Join the sorted records into bars, thread by thread; each bar goes
 * to viewbar() when it closes, a thread's end flushes its rows.
 */
static void
join(struct timeline *t)
{
	struct frames fr, fl;
	struct tl_bar *open = NULL, *b;
	struct ev *e;
	const char *s, *prev = NULL;
	size_t i, k, j, keep, n, len, plen = 0, nopen = 0, cap = 0;
	uint32_t cur = 0;

	memset(&fr, 0, sizeof(fr));
	memset(&fl, 0, sizeof(fl));
	for (i = 0; i <= t->nev; i++) {
		e = i < t->nev ? &t->ev[t->ix[i]] : NULL;
		if (e == NULL || (i > 0 && e->thread != cur)) {
			for (k = 0; k < nopen; k++)
				viewbar(t, &open[k]);
			flush(t);
			nopen = 0;
			prev = NULL;
		}
		if (e == NULL)
			break;
		cur = e->thread;
		s = ht_key(t->keys, e->key, &len);
		n = t->stacklen[e->key];
		frames_split(&fr, s, n);
		keep = prev != NULL ? common(&fr, s, n, prev, plen) : 0;
		for (k = 0; k < keep && k < nopen; k++) {
			b = &open[k];
			if (e->start > b->x1 + tol(b->x1))
				break;
			b->x1 = b->end = fmax(b->x1, e->end);
			b->samples += e->samples;
		}
		for (j = k; j < nopen; j++)
			viewbar(t, &open[j]);
		if (fr.n > cap) {
			cap = fr.n * 2;
			open = xreallocarray(open, cap, sizeof(*open));
		}
		if (k < fr.n)
			frames_split(&fl, s + n + 1, len - n - 1);
		for (; k < fr.n; k++) {
			b = &open[k];
			memset(b, 0, sizeof(*b));
			b->thread = cur;
			b->depth = k;
			b->x0 = b->start = e->start;
			b->x1 = b->end = e->end;
			b->samples = e->samples;
			b->count = 1;
			b->name = s + fr.off[k];
			b->namelen = fr.off[k + 1] - 1 - fr.off[k];
			b->file = "";
			if (fl.n > 0)
				b->file = frames_span(&fl, s + n + 1, k, k + 1,
				    &b->filelen);
		}
		nopen = fr.n;
		if (nopen > t->depth[cur])
			t->depth[cur] = nopen;
		prev = s;
		plen = n;
	}
	free(open);
	frames_free(&fr);
	frames_free(&fl);
}

const struct tl_bar *
tl_view(struct timeline *t, double from, double to, double px, size_t *n)
{
	struct tl_bar *v;
	size_t i, *ix;

	settle(t);
	free(t->depth);
	t->depth = xcalloc(ht_count(t->threads) + 1, sizeof(*t->depth));
	t->nbar = 0;
	t->from = from;
	t->to = to;
	t->px = px;
	join(t);
	ix = xreallocarray(NULL, t->nbar + 1, sizeof(*ix));
	for (i = 0; i < t->nbar; i++)
		ix[i] = i;
	sst_sort(ix, t->nbar, bydepth, t->bar);
	v = xreallocarray(NULL, t->capbar + 1, sizeof(*v));
	for (i = 0; i < t->nbar; i++)
		v[i] = t->bar[ix[i]];
	free(t->bar);
	free(ix);
	t->bar = v;
	t->capbar++;
	*n = t->nbar;
	return t->bar;
}

/*
 * Parse bound i of -t, s[0..n): empty, seconds, or a percentage; 0 ok,
 * -1 with a message in msg.
 */
static int
bound(struct tl_window *w, int i, const char *s, size_t n, char *msg,
    size_t len)
{
	char buf[64], *end;

	w->set[i] = w->pct[i] = 0;
	if (n == 0)
		return 0;
	if (n >= sizeof(buf)) {
		snprintf(msg, len, "-t: bound too long: %.*s", (int)n, s);
		return -1;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[n - 1] == '%') {
		w->pct[i] = 1;
		buf[--n] = '\0';
	}
	w->v[i] = strtod(buf, &end);
	if (n == 0 || *end != '\0' || !isfinite(w->v[i]) || w->v[i] < 0 ||
	    (w->pct[i] && w->v[i] > 100)) {
		snprintf(msg, len, "-t: expected seconds >= 0 or a percentage "
		    "from 0%% to 100%%, got %.*s", (int)(n + w->pct[i]), s);
		return -1;
	}
	w->set[i] = 1;
	return 0;
}

int
tl_window(struct tl_window *w, const char *arg, char *msg, size_t len)
{
	const char *comma;

	if ((comma = strchr(arg, ',')) == NULL) {
		snprintf(msg, len, "-t: expected from,to, got %s", arg);
		return -1;
	}
	if (bound(w, 0, arg, (size_t)(comma - arg), msg, len) == -1 ||
	    bound(w, 1, comma + 1, strlen(comma + 1), msg, len) == -1)
		return -1;
	if (w->set[0] && w->set[1] && w->pct[0] == w->pct[1] &&
	    w->v[0] >= w->v[1]) {
		snprintf(msg, len, "-t: from %g is not before to %g", w->v[0],
		    w->v[1]);
		return -1;
	}
	return 0;
}

void
tl_inwindow(const struct tl_window *w, double t0, double t1, double *from,
    double *to)
{
	double *b[2] = { from, to };
	int i;

	for (i = 0; i < 2; i++) {
		if (!w->set[i])
			*b[i] = i == 0 ? t0 : t1;
		else if (!w->pct[i])
			*b[i] = w->v[i];
		else
			*b[i] = w->v[i] == 100 ? t1 : t0 + (t1 - t0) *
			    w->v[i] / 100;
	}
}
