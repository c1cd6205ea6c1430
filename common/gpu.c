/*
 * gpu.c: read a Chrome/Kineto trace for the GPU analyses of sst-gpu.
 *
 * An event counts, as for HolisticTraceAnalysis (HTA), when it has a dur
 * and a cat other than Trace and python_function.  It is on the GPU when
 * its args.stream is an integer; HTA's "GPU kernel" is one with a stream
 * >= 0 and an args.correlation >= 0 (or named Event Sync or Context
 * Sync); everything else is on the CPU side.  Only what an analysis uses
 * is kept, in a compact row of 32 bytes: GPU events, events with a
 * correlation (the runtime calls), user annotations and ProfilerStep
 * spans; other CPU events (cpu_op, python_function) are read and
 * dropped, so memory grows with the GPU work of the trace, not its size.
 *
 * A view keeps only the rows it reads (sst-gpu -F temporal the GPU
 * events, -F launch those and the launch calls), and with hta the ones
 * the step trimming reads.
 *
 * Times are kept as integer ticks: nanoseconds read exactly from the
 * decimal text, or with hta whole microseconds the way HTA rounds them
 * (the start rounded up, the end, start plus dur in double precision,
 * rounded down).  gpu_trim() then correlates runtime calls with GPU
 * events and, with hta and two ProfilerStep names or more, keeps what
 * HTA keeps: CPU events that start before the last step, and GPU kernels
 * launched by them.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sst.h"
#include "gpu.h"
#include "input.h"

/* The state of one event being read. */
struct ev {
	struct buf	 name, cat;
	double		 dts, ddur;
	int64_t		 nts, ndur;	/* exact ns */
	int64_t		 stream, corr;
	int		 hasts, hasdur, hascat, hasstream, weird;
};

struct rd {
	struct json	*j;
	struct grank	*r;
	const struct gpu_opt *o;
	struct htab	*steps;
	struct ev	 ev;
	int64_t		 rank;
	int		 hasrank;
	size_t		 nev;		/* events with ts, dur and cat */
};

/* The calls that launch GPU work (HTA's runtime launch events). */
static const char *launches[] = {
	"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel",
	"cuLaunchKernelEx", "cudaMemcpyAsync", "cudaMemsetAsync",
	"hipLaunchKernel", "hipExtModuleLaunchKernel", "hipMemsetAsync",
	"hipMemcpyAsync", "hipMemcpyWithStream", NULL
};

/* The next token; a malformed document is a located error. */
static enum json_tok
next(struct rd *d)
{
	enum json_tok tok;

	if ((tok = json_next(d->j)) == JT_ERROR)
		xjson_fail(d->j, "%s", json_errmsg(d->j));
	return tok;
}

static void
skip(struct rd *d, enum json_tok tok)
{
	if (json_skip(d->j, tok) == -1)
		xjson_fail(d->j, "%s", json_errmsg(d->j));
}

/* The number text s (n bytes) in thousandths, rounded; -1 if too big. */
static int
milli(const char *s, size_t n, int64_t *v)
{
	double d;
	int64_t x = 0;
	size_t i = 0;
	int neg = 0, k, up = 0;

	if (i < n && s[i] == '-')
		neg = 1, i++;
	for (; i < n && isdigit((unsigned char)s[i]); i++) {
		if (x > (INT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (s[i] - '0');
	}
	if (x > INT64_MAX / 1000)
		return -1;
	x *= 1000;
	if (i < n && s[i] == '.')
		for (i++, k = 100; i < n && isdigit((unsigned char)s[i]);
		    i++, k /= 10) {
			if (k > 0)
				x += (s[i] - '0') * k;
			else if (k == 0 && s[i] >= '5')
				up = 1, k = -1;
		}
	if (i < n) {	/* an exponent: the double will do */
		d = strtod(s, NULL);
		if (!(fabs(d) * 1000 < 9e18))
			return -1;
		*v = llround(d * 1000);
		return 0;
	}
	x += up;
	*v = neg ? -x : x;
	return 0;
}

/* A number of the event: ts or dur. */
static void
evnum(struct rd *d, const char *what, double *dv, int64_t *nv)
{
	const char *s;
	size_t n;

	if (next(d) != JT_NUM)
		xjson_fail(d->j, "%s: expected a number", what);
	s = json_text(d->j, &n);
	if (d->o->hta ? json_double(d->j, dv) == -1 || !isfinite(*dv) :
	    milli(s, n, nv) == -1)
		xjson_fail(d->j, "%s: %s out of range", what, s);
	if (memchr(s, '.', n) != NULL || memchr(s, 'e', n) != NULL ||
	    memchr(s, 'E', n) != NULL)
		d->r->floats = 1;
}

/* The args of an event: stream and correlation. */
static void
readargs(struct rd *d)
{
	struct ev *e = &d->ev;
	enum json_tok tok;
	const char *k;
	long long v;
	size_t n;

	while ((tok = next(d)) == JT_KEY) {
		k = json_text(d->j, &n);
		if ((n == 6 && memcmp(k, "stream", 6) == 0) ||
		    (n == 11 && memcmp(k, "correlation", 11) == 0)) {
			int isstream = n == 6;

			tok = next(d);
			if (tok == JT_NUM && json_int(d->j, &v) == 0) {
				if (isstream)
					e->stream = v, e->hasstream = 1;
				else
					e->corr = v;
			} else {
				if (isstream && tok != JT_NULL)
					e->weird = 1;
				skip(d, tok);
			}
		} else
			skip(d, next(d));
	}
}

/* Whether s (n bytes) is ProfilerStep#N. */
static int
isstep(const char *s, size_t n)
{
	return n > 13 && memcmp(s, "ProfilerStep#", 13) == 0 &&
	    isdigit((unsigned char)s[13]);
}

/* Whether the cat of e is c. */
static int
iscat(const struct ev *e, const char *c)
{
	return e->cat.len == strlen(c) && memcmp(e->cat.data, c,
	    e->cat.len) == 0;
}

/* The index of stream s in r's streams. */
static uint16_t
streamix(struct rd *d, int64_t s)
{
	struct grank *r = d->r;
	size_t i;

	for (i = 0; i < r->nstream; i++)
		if (r->streams[i] == s)
			return (uint16_t)i;
	if (r->nstream == UINT16_MAX)
		xjson_fail(d->j, "more than %d streams", UINT16_MAX - 1);
	r->streams = xreallocarray(r->streams, r->nstream + 1,
	    sizeof(*r->streams));
	r->streams[r->nstream] = s;
	return (uint16_t)r->nstream++;
}

/*
 * Whether the view needs an event of flags f and correlation corr: its
 * own events, and with hta what the step trimming needs (the steps and
 * the runtime calls, whose correlations keep GPU events).
 */
static int
needed(const struct gpu_opt *o, unsigned f, int64_t corr)
{
	int cpucorr = !(f & R_GK) && corr != -1;

	if (o->hta && ((f & R_STEP) || (cpucorr && o->view != GV_ANN &&
	    o->view != GV_CPUANN)))
		return 1;
	switch (o->view) {
	case GV_ANN:
		return (f & R_GANN) != 0;
	case GV_CPUANN:
		return (f & R_ANN) != 0;
	case GV_LAUNCH:
	case GV_QUEUE:
		return (f & (R_GPU | R_LAUNCH)) != 0;
	case GV_IDLE:
		return (f & R_GPU) || cpucorr;
	default:
		return (f & R_GPU) != 0;
	}
}

/* The flags of the event just read, 0 if it is not kept. */
static unsigned
evflags(struct rd *d)
{
	struct ev *e = &d->ev;
	const char *nm = e->name.data;
	unsigned f = 0;
	size_t i;

	if (!e->hasts || !e->hasdur || !e->hascat)
		return 0;
	d->nev++;
	if (iscat(e, "Trace") || iscat(e, "python_function"))
		return 0;
	if (e->hasstream)
		f |= R_GPU;
	if (e->weird)
		f |= R_WEIRD;
	if ((e->hasstream && e->stream >= 0 && e->corr >= 0) ||
	    strcmp(nm, "Event Sync") == 0 || strcmp(nm, "Context Sync") == 0)
		f |= R_GK;
	if (iscat(e, "cuda_sync"))
		f |= R_SYNC;
	if (iscat(e, "user_annotation"))
		f |= R_ANN;
	if (iscat(e, "gpu_user_annotation"))
		f |= R_GANN;
	if (isstep(nm, e->name.len))
		f |= R_STEP;
	if (nm[0] == 'c' || nm[0] == 'h')	/* cuda..., cu..., hip... */
		for (i = 0; launches[i] != NULL; i++)
			if (strcmp(nm, launches[i]) == 0)
				f |= R_LAUNCH;
	if (!needed(d->o, f, e->corr))
		return 0;
	return f | R_KEEP;
}

/* Keep the event just read if an analysis needs it. */
static void
keep(struct rd *d)
{
	struct ev *e = &d->ev;
	struct grank *r = d->r;
	struct grow *w;
	unsigned f;
	int64_t ts, end;

	if ((f = evflags(d)) == 0)
		return;
	if (d->o->hta) {
		if (!(fabs(e->dts) < 9e18 && fabs(e->dts + e->ddur) < 9e18))
			xjson_fail(d->j, "ts out of range");
		ts = (int64_t)ceil(e->dts);
		end = (int64_t)floor(e->dts + e->ddur);
	} else {
		if (e->ndur < 0)
			xjson_fail(d->j, "dur: negative duration");
		if (e->nts > INT64_MAX - e->ndur)
			xjson_fail(d->j, "ts + dur out of range");
		ts = e->nts;
		end = e->nts + e->ndur;
	}
	if ((r->nrow & ((1 << GBLK) - 1)) == 0) {
		r->blk = xreallocarray(r->blk, r->nblk + 1, sizeof(*r->blk));
		r->blk[r->nblk++] = xreallocarray(NULL, 1 << GBLK,
		    sizeof(struct grow));
	}
	w = ROW(r, r->nrow++);
	memset(w, 0, sizeof(*w));
	w->ts = ts;
	w->end = end;
	w->corr = e->corr;
	w->name = (uint32_t)ht_intern(r->names, e->name.data, e->name.len,
	    NULL);
	if (f & R_GPU) {
		w->stream = streamix(d, e->stream);
		f |= (unsigned)gpu_ktype(e->name.data, e->name.len,
		    (f & R_SYNC) != 0) << R_TYPE;
	}
	w->flags = (uint16_t)f;
	if ((f & R_STEP) && !(f & R_GK))
		ht_intern(d->steps, e->name.data, e->name.len, NULL);
}

/* One element of traceEvents. */
static void
readevent(struct rd *d)
{
	struct ev *e = &d->ev;
	enum json_tok tok;
	const char *k;
	size_t n;

	buf_reset(&e->name);
	buf_reset(&e->cat);
	e->hasts = e->hasdur = e->hascat = e->hasstream = e->weird = 0;
	e->corr = -1;
	while ((tok = next(d)) == JT_KEY) {
		k = json_text(d->j, &n);
		if ((n == 4 && memcmp(k, "name", 4) == 0) ||
		    (n == 3 && memcmp(k, "cat", 3) == 0)) {
			struct buf *b = n == 4 ? &e->name : &e->cat;

			if ((tok = next(d)) == JT_STR) {
				k = json_text(d->j, &n);
				buf_reset(b);
				buf_add(b, k, n);
				if (b == &e->cat)
					e->hascat = 1;
			} else
				skip(d, tok);
		} else if (n == 2 && memcmp(k, "ts", 2) == 0) {
			evnum(d, "ts", &e->dts, &e->nts);
			e->hasts = 1;
		} else if (n == 3 && memcmp(k, "dur", 3) == 0) {
			evnum(d, "dur", &e->ddur, &e->ndur);
			e->hasdur = 1;
		} else if (n == 4 && memcmp(k, "args", 4) == 0) {
			if ((tok = next(d)) == JT_OBJ)
				readargs(d);
			else
				skip(d, tok);
		} else
			skip(d, next(d));
	}
	keep(d);
}

/* The events array, its '[' just read. */
static void
events(struct rd *d)
{
	enum json_tok tok;

	while ((tok = next(d)) != JT_ARR_END) {
		if (tok == JT_OBJ)
			readevent(d);
		else
			skip(d, tok);
	}
}

/*
 * Exit 1 for a document whose first token tok is no '[' or '{', saying
 * what it looks like and what reads it when that is known.
 */
static void
refuse(struct json *j, enum json_tok tok)
{
	const char *head, *says;
	char msg[256];
	size_t n;
	enum sniff k;

	head = json_head(j, &n);
	k = sniff(head, n);
	if (k != SN_TRACE && k != SN_TRACEARRAY && sniff_reader(k) != NULL &&
	    (says = sniff_says(k, msg, sizeof(msg))) != NULL) {
		fflush(stdout);
		errx(1, "%s: not a Chrome trace: %s", json_name(j), says);
	}
	if (tok == JT_ERROR)
		xjson_fail(j, "%s", json_errmsg(j));
	xjson_fail(j, "not a Chrome trace: expected an object with "
	    "traceEvents or an array of events");
}

/* distributedInfo, its '{' just read: the rank. */
static void
distinfo(struct rd *d)
{
	enum json_tok tok;
	const char *k;
	long long v;
	size_t n;

	while ((tok = next(d)) == JT_KEY) {
		k = json_text(d->j, &n);
		if (n == 4 && memcmp(k, "rank", 4) == 0) {
			tok = next(d);
			if (tok == JT_NUM && json_int(d->j, &v) == 0)
				d->rank = v, d->hasrank = 1;
			else
				skip(d, tok);
		} else
			skip(d, next(d));
	}
}

void
gpu_read(struct grank *r, struct json *j, const struct gpu_opt *o,
    const char *label)
{
	struct rd d;
	enum json_tok tok;
	const char *k;
	char num[32];
	size_t n;
	int got = 0;

	memset(r, 0, sizeof(*r));
	memset(&d, 0, sizeof(d));
	d.j = j;
	d.r = r;
	d.o = o;
	d.steps = ht_new();
	r->names = ht_new();
	buf_init(&d.ev.name);
	buf_init(&d.ev.cat);
	if ((tok = json_next(j)) != JT_ARR && tok != JT_OBJ)
		refuse(j, tok);
	if (tok == JT_ARR) {
		events(&d);
		got = 1;
	} else if (tok == JT_OBJ) {
		while ((tok = next(&d)) == JT_KEY) {
			k = json_text(j, &n);
			if (n == 11 && memcmp(k, "traceEvents", 11) == 0) {
				if (next(&d) != JT_ARR)
					xjson_fail(j, "traceEvents: expected "
					    "an array");
				events(&d);
				got = 1;
			} else if (n == 15 &&
			    memcmp(k, "distributedInfo", 15) == 0) {
				if ((tok = next(&d)) == JT_OBJ)
					distinfo(&d);
				else
					skip(&d, tok);
			} else if ((n == 7 && memcmp(k, "$schema", 7) == 0) ||
			    (n == 8 && memcmp(k, "profiles", 8) == 0) ||
			    (n == 6 && memcmp(k, "shared", 6) == 0))
				xjson_fail(j, "speedscope JSON, not a trace: "
				    "use sst-flatten");
			else if ((n == 5 && memcmp(k, "nodes", 5) == 0) ||
			    (n == 10 && memcmp(k, "timeDeltas", 10) == 0))
				xjson_fail(j, "a .cpuprofile, not a trace: "
				    "use cpuprofile2sst");
			else
				skip(&d, next(&d));
		}
	}
	if (!got)
		xjson_fail(j, "not a Chrome trace: expected an object with "
		    "traceEvents or an array of events");
	if (next(&d) != JT_EOF)
		xjson_fail(j, "trailing data after JSON value");
	if (d.nev == 0)
		xjson_fail(j, "no events with ts, dur and cat in the trace");
	r->nsteps = ht_count(d.steps);
	if (d.hasrank) {
		snprintf(num, sizeof(num), "%lld", (long long)d.rank);
		r->label = xstrdup(num);
	} else
		r->label = xstrdup(label != NULL ? label : "0");
	ht_free(d.steps);
	buf_free(&d.ev.name);
	buf_free(&d.ev.cat);
}

static int
cmpcorr(size_t a, size_t b, void *arg)
{
	const struct grank *r = arg;
	int64_t x = ROW(r, a)->corr, y = ROW(r, b)->corr;

	return (x > y) - (x < y);
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
 * several with one correlation, the last in the trace is the one).
 */
static void
correlate(struct grank *r)
{
	size_t *ix, n, i, k, g;

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
}

static int
cmpi64(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
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

void
gpu_trim(struct grank *r, const struct gpu_opt *o)
{
	int64_t last = INT64_MIN, *cs;
	size_t i, n = 0;

	if (r->nrow > UINT32_MAX)
		errx(1, "%s: too many events", r->label);
	if (o->view == GV_IDLE)
		r->ic = xreallocarray(NULL, r->nrow + 1, sizeof(*r->ic));
	if (o->view == GV_IDLE || o->view == GV_QUEUE)
		correlate(r);
	if (!o->hta || r->nsteps < 2)
		return;
	for (i = 0; i < r->nrow; i++)
		if ((ROW(r, i)->flags & (R_STEP | R_GK)) == R_STEP &&
		    ROW(r, i)->ts > last)
			last = ROW(r, i)->ts;
	cs = xreallocarray(NULL, r->nrow + 1, sizeof(*cs));
	for (i = 0; i < r->nrow; i++) {
		struct grow *w = ROW(r, i);

		if (w->flags & R_GK)
			continue;
		if (w->ts < last)
			cs[n++] = w->corr;
		else
			w->flags &= ~R_KEEP;
	}
	qsort(cs, n, sizeof(*cs), cmpi64);
	for (i = 0; i < r->nrow; i++) {
		struct grow *w = ROW(r, i);

		if ((w->flags & R_GK) && !has(cs, n, w->corr))
			w->flags &= ~R_KEEP;
	}
	free(cs);
}

void
gpu_free(struct grank *r)
{
	size_t i;

	for (i = 0; i < r->nblk; i++)
		free(r->blk[i]);
	free(r->blk);
	free(r->ic);
	free(r->label);
	free(r->streams);
	if (r->names != NULL)
		ht_free(r->names);
	memset(r, 0, sizeof(*r));
}

const char *
gpu_name(const struct grank *r, uint32_t id)
{
	size_t n;

	return ht_key(r->names, id, &n);
}

/*
 * The type of a GPU event named s (n bytes): communication (NCCL or
 * HCCL collectives), memory (copies and sets), computation (the rest);
 * cuda_sync events (sync) are none of them.
 */
int
gpu_ktype(const char *s, size_t n, int sync)
{
	if (sync)
		return KT_SYNC;
	if ((n >= 4 && (memcmp(s, "nccl", 4) == 0 ||
	    memcmp(s, "hccl", 4) == 0)) || memmem(s, n, "ncclKernel", 10))
		return KT_COMM;
	if (memmem(s, n, "Memcpy", 6) || memmem(s, n, "Memset", 6) ||
	    (n >= 3 && memcmp(s, "dma", 3) == 0))
		return KT_MEM;
	return KT_COMP;
}
