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
 * events, -F launch those and the launch calls), and with hta or a step
 * range the ones the step trimming reads.  When every view asked for is
 * summarised as read (gpu_opt's live and sink: every view but idle,
 * without hta or a step range), each row goes to the sink and, for
 * temporal, kernel-types, overlap, launch and queue, to a spill (memory,
 * then a temporary file) instead, for the views to fall back on when the
 * trace is not in an order they can summarise as read; kernels and the
 * annotations need none.
 *
 * Times are kept as integer ticks: nanoseconds read exactly from the
 * decimal text (trace_ns(), as trace2sst reads them), or with hta whole
 * microseconds the way HTA rounds them (the start rounded up, the end,
 * start plus dur in double precision, rounded down).  gpu_trim()
 * (gputrim.c) then correlates runtime calls with GPU events and, with
 * hta and two ProfilerStep names or more, keeps what HTA keeps: CPU
 * events that start before the last step, and GPU kernels launched by
 * them; with a step range the same with the range's steps.
 *
 * Errors are returned: the reader jumps back to gpu_read() with the
 * message in the rank (gpu_errmsg()), the tokenizer still at the place
 * it is about.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "json.h"
#include "htab.h"
#include "spill.h"
#include "gpu.h"
#include "input.h"
#include "trace.h"

/* The categories that matter, as read. */
enum { C_OTHER, C_TRACE, C_PYFN, C_SYNC, C_ANN, C_GANN };

/* The state of one event being read. */
struct ev {
	struct buf	 name;
	double		 dts, ddur;
	int64_t		 nts, ndur;	/* exact ns */
	int64_t		 stream, corr;
	int		 hasts, hasdur, hascat, hasstream, weird, cat;
};

struct rd {
	jmp_buf		 jb;
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

static __dead void fail(struct rd *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));

/* An error at the tokenizer's place: back to gpu_read(). */
static __dead void
fail(struct rd *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->r->err, sizeof(d->r->err), fmt, ap);
	va_end(ap);
	d->r->errloc = 1;
	longjmp(d->jb, 1);
}

/* The next token; a malformed document is a located error. */
static enum json_tok
next(struct rd *d)
{
	enum json_tok tok;

	if ((tok = json_next(d->j)) == JT_ERROR)
		fail(d, "%s", json_errmsg(d->j));
	return tok;
}

/* Skip the value whose first token was tok (no call for a scalar). */
static inline void
skip(struct rd *d, enum json_tok tok)
{
	if (tok != JT_OBJ && tok != JT_ARR && tok != JT_KEY &&
	    tok != JT_ERROR)
		return;
	if (json_skip(d->j, tok) == -1)
		fail(d, "%s", json_errmsg(d->j));
}

/* A number of the event: ts or dur. */
static void
evnum(struct rd *d, const char *what, double *dv, int64_t *nv)
{
	const char *s;
	size_t n;

	if (next(d) != JT_NUM)
		fail(d, "%s: expected a number", what);
	if (d->o->hta ? json_double(d->j, dv) == 0 && isfinite(*dv) :
	    json_scaled(d->j, 3, nv) == 0)
		return;
	s = json_text(d->j, &n);
	if (d->o->hta || trace_ns(s, n, nv) == -1)
		fail(d, "%s: %s out of range", what, s);
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

/* The C_* of category s (n bytes). */
static int
catof(const char *s, size_t n)
{
	switch (n) {
	case 5:
		return memcmp(s, "Trace", 5) == 0 ? C_TRACE : C_OTHER;
	case 9:
		return memcmp(s, "cuda_sync", 9) == 0 ? C_SYNC : C_OTHER;
	case 15:
		if (memcmp(s, "python_function", 15) == 0)
			return C_PYFN;
		return memcmp(s, "user_annotation", 15) == 0 ? C_ANN :
		    C_OTHER;
	case 19:
		return memcmp(s, "gpu_user_annotation", 19) == 0 ? C_GANN :
		    C_OTHER;
	default:
		return C_OTHER;
	}
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
		fail(d, "more than %d streams", UINT16_MAX - 1);
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
	unsigned ann = (1u << GV_ANN) | (1u << GV_CPUANN);
	int cpucorr = !(f & R_GK) && corr != -1;

	if ((o->hta || o->steps) && ((f & R_STEP) || (cpucorr &&
	    (o->views & ~ann) != 0)))
		return 1;
	if (HASVIEW(o, GV_ANN) && (f & R_GANN))
		return 1;
	if (HASVIEW(o, GV_CPUANN) && (f & R_ANN))
		return 1;
	if ((HASVIEW(o, GV_LAUNCH) || HASVIEW(o, GV_QUEUE)) &&
	    (f & R_LAUNCH))
		return 1;
	if (HASVIEW(o, GV_IDLE) && cpucorr)
		return 1;
	return (f & R_GPU) && (o->views & ~ann) != 0;
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
	if (e->cat == C_TRACE || e->cat == C_PYFN)
		return 0;
	if (e->hasstream)
		f |= R_GPU;
	if (e->weird)
		f |= R_WEIRD;
	if ((e->hasstream && e->stream >= 0 && e->corr >= 0) ||
	    ((nm[0] == 'E' || nm[0] == 'C') && (strcmp(nm, "Event Sync") ==
	    0 || strcmp(nm, "Context Sync") == 0)))
		f |= R_GK;
	if (e->cat == C_SYNC)
		f |= R_SYNC;
	if (e->cat == C_ANN)
		f |= R_ANN;
	if (e->cat == C_GANN)
		f |= R_GANN;
	if (isstep(nm, e->name.len))
		f |= R_STEP;
	if (nm[0] == 'c' || nm[0] == 'h')	/* cuda..., cu..., hip... */
		for (i = 0; launches[i] != NULL; i++)
			if (strcmp(nm, launches[i]) == 0) {
				f |= R_LAUNCH;
				break;
			}
	if (!needed(d->o, f, e->corr))
		return 0;
	return f | R_KEEP;
}

/* The kernel type of the GPU event just read, cached by name id. */
static unsigned
ktypeof(struct rd *d, uint32_t id, unsigned f)
{
	struct grank *r = d->r;
	struct ev *e = &d->ev;
	size_t old = r->ntypecap;

	if (f & R_SYNC)
		return KT_SYNC;
	if (id >= r->ntypecap) {
		r->ntypecap = growcap(r->ntypecap, id + 1, 64);
		r->ntype = xreallocarray(r->ntype, r->ntypecap, 1);
		memset(r->ntype + old, 0, r->ntypecap - old);
	}
	if (r->ntype[id] == 0)
		r->ntype[id] = (uint8_t)(gpu_ktype(e->name.data, e->name.len,
		    0) + 1);
	return r->ntype[id] - 1u;
}

/* Room for one more row in memory. */
static struct grow *
newrow(struct grank *r)
{
	if ((r->nrow & ((1 << GBLK) - 1)) == 0) {
		r->blk = xreallocarray(r->blk, r->nblk + 1, sizeof(*r->blk));
		r->blk[r->nblk++] = xreallocarray(NULL, 1 << GBLK,
		    sizeof(struct grow));
	}
	return ROW(r, r->nrow++);
}

/* Keep the event just read if an analysis needs it. */
static void
keep(struct rd *d)
{
	struct ev *e = &d->ev;
	struct grank *r = d->r;
	struct grow w;
	unsigned f;

	if ((f = evflags(d)) == 0)
		return;
	if (HASVIEW(d->o, GV_IDLE) && r->nrow + r->nspilt >= UINT32_MAX)
		fail(d, "too many events");	/* idle's r->ic */
	memset(&w, 0, sizeof(w));
	if (d->o->hta) {
		if (!(fabs(e->dts) < 9e18 && fabs(e->dts + e->ddur) < 9e18))
			fail(d, "ts out of range");
		w.ts = (int64_t)ceil(e->dts);
		w.end = (int64_t)floor(e->dts + e->ddur);
	} else {
		if (e->ndur < 0)
			fail(d, "dur: negative duration");
		if (e->nts > INT64_MAX - e->ndur)
			fail(d, "ts + dur out of range");
		w.ts = e->nts;
		w.end = e->nts + e->ndur;
	}
	w.corr = e->corr;
	w.name = (uint32_t)ht_intern(r->names, e->name.data, e->name.len,
	    NULL);
	if (f & R_GPU) {
		w.stream = streamix(d, e->stream);
		f |= ktypeof(d, w.name, f) << R_TYPE;
	}
	w.flags = (uint16_t)f;
	if ((f & R_STEP) && !(f & R_GK))
		ht_intern(d->steps, e->name.data, e->name.len, NULL);
	if (d->o->sink != NULL)
		d->o->sink(d->o->sinkarg, &w);
	if (d->o->rows)
		*newrow(r) = w;
	else if (r->spill != NULL) {
		xspill_write(r->spill, &w, sizeof(w));
		r->nspilt++;
	}
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
	e->hasts = e->hasdur = e->hascat = e->hasstream = e->weird = 0;
	e->corr = -1;
	while ((tok = next(d)) == JT_KEY) {
		k = json_text(d->j, &n);
		if (n == 4 && memcmp(k, "name", 4) == 0) {
			if ((tok = next(d)) == JT_STR) {
				k = json_text(d->j, &n);
				buf_reset(&e->name);
				buf_add(&e->name, k, n);
			} else
				skip(d, tok);
		} else if (n == 3 && memcmp(k, "cat", 3) == 0) {
			if ((tok = next(d)) == JT_STR) {
				k = json_text(d->j, &n);
				e->cat = catof(k, n);
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
 * Fail for a document whose first token tok is no '[' or '{', saying
 * what it looks like and what reads it when that is known.
 */
static __dead void
refuse(struct rd *d, enum json_tok tok)
{
	if (trace_notrace(d->j, d->r->err, sizeof(d->r->err)) != NULL) {
		d->r->errloc = 0;
		longjmp(d->jb, 1);
	}
	if (tok == JT_ERROR)
		fail(d, "%s", json_errmsg(d->j));
	fail(d, "not a Chrome trace: expected an object with "
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

/* The keys of the top-level object, its '{' just read; 1 if events. */
static int
toplevel(struct rd *d)
{
	enum json_tok tok;
	const char *k;
	size_t n;
	int got = 0;

	while ((tok = next(d)) == JT_KEY) {
		k = json_text(d->j, &n);
		if (n == 11 && memcmp(k, "traceEvents", 11) == 0) {
			if (next(d) != JT_ARR)
				fail(d, "traceEvents: expected an array");
			events(d);
			got = 1;
		} else if (n == 15 && memcmp(k, "distributedInfo", 15) == 0) {
			if ((tok = next(d)) == JT_OBJ)
				distinfo(d);
			else
				skip(d, tok);
		} else if ((n == 7 && memcmp(k, "$schema", 7) == 0) ||
		    (n == 8 && memcmp(k, "profiles", 8) == 0) ||
		    (n == 6 && memcmp(k, "shared", 6) == 0))
			fail(d, "speedscope JSON, not a trace: use "
			    "sst-flatten");
		else if ((n == 5 && memcmp(k, "nodes", 5) == 0) ||
		    (n == 10 && memcmp(k, "timeDeltas", 10) == 0))
			fail(d, "a .cpuprofile, not a trace: use "
			    "cpuprofile2sst");
		else
			skip(d, next(d));
	}
	return got;
}

/* The document of d; its rank's label from label if it has none. */
static void
readdoc(struct rd *d, const char *label)
{
	enum json_tok tok;
	char num[32];
	int got = 0;

	if ((tok = json_next(d->j)) != JT_ARR && tok != JT_OBJ)
		refuse(d, tok);
	if (tok == JT_ARR) {
		events(d);
		got = 1;
	} else
		got = toplevel(d);
	if (!got)
		fail(d, "not a Chrome trace: expected an object with "
		    "traceEvents or an array of events");
	if (next(d) != JT_EOF)
		fail(d, "trailing data after JSON value");
	if (d->nev == 0)
		fail(d, "no events with ts, dur and cat in the trace");
	d->r->nsteps = ht_count(d->steps);
	if (d->hasrank) {
		snprintf(num, sizeof(num), "%lld", (long long)d->rank);
		d->r->label = xstrdup(num);
	} else
		d->r->label = xstrdup(label != NULL ? label : "0");
}

/* readdoc(), 0; -1 when it failed (the message in d's rank). */
static int
catchdoc(struct rd *d, const char *label)
{
	if (setjmp(d->jb) != 0)
		return -1;
	readdoc(d, label);
	return 0;
}

int
gpu_read(struct grank *r, struct json *j, const struct gpu_opt *o,
    const char *label)
{
	struct rd d;
	int ret;

	memset(r, 0, sizeof(*r));
	memset(&d, 0, sizeof(d));
	d.j = j;
	d.r = r;
	d.o = o;
	d.steps = ht_new();
	r->names = ht_new();
	if (!o->rows && o->spill)
		r->spill = spill_new(1 << 20);
	buf_init(&d.ev.name);
	ret = catchdoc(&d, label);
	ht_free(d.steps);
	buf_free(&d.ev.name);
	return ret;
}

const char *
gpu_errmsg(const struct grank *r, int *loc)
{
	*loc = r->errloc;
	return r->err;
}

void
gpu_load(struct grank *r)
{
	struct grow w;

	if (r->spill == NULL)
		return;
	xspill_rewind(r->spill);
	while (xspill_read(r->spill, &w, sizeof(w)) == 0)
		*newrow(r) = w;
	spill_free(r->spill);
	r->spill = NULL;
}

int
gpu_nextrow(struct grank *r, size_t *i, struct grow *w)
{
	if (r->spill == NULL) {
		if (*i >= r->nrow)
			return 0;
		*w = *ROW(r, (*i)++);
		return 1;
	}
	if (*i == 0)
		xspill_rewind(r->spill);
	if (*i >= r->nspilt || xspill_read(r->spill, w, sizeof(*w)) == -1)
		return 0;
	(*i)++;
	return 1;
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
	free(r->ntype);
	spill_free(r->spill);
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
