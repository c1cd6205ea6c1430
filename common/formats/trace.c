/*
 * trace.c: Chrome trace-event JSON to sst(5) records.
 *
 * The document (an object with "traceEvents", or a bare array of
 * events) is read token by token with json.c's pull tokenizer, so an
 * event may span many lines and the whole file may be one line.  Each
 * event keeps only what the rules need: X events and matched B/E pairs
 * become spans of their thread (pid, tid), M events name processes and
 * threads, everything else is skipped.
 *
 * Times are read from the decimal text, microseconds, as integer
 * nanoseconds, so that nesting compares exact values and self times add
 * up exactly whatever their order; weights are nanoseconds / 1e9.
 *
 * A span is one small entry (start, duration, name, input order: a
 * struct nest_span) in its thread's array, nested by the rules of the
 * engine trace2sst and nsys2sst share (nest.c): spans are taken by
 * start, longer first on equal starts, then input order; a span that
 * starts at or after the end of the innermost open span closes it, a
 * span that ends after its parent is cut to the parent's end, and self
 * time is the duration less the durations of the direct children; a B
 * event never closed ends at the thread's latest time.  Stacks are nodes
 * (thread, parent, name) of a hash table; the records of a thread come
 * out in the order their stacks were first entered.
 *
 * Memory: while a thread's X, B and E events come in time order and no
 * B is open, its pending spans that start before the latest event can
 * no longer be preceded, and are nested a batch at a time (tr_flush()) and
 * kept only in a spill (memory, then an unlinked temporary file).  A
 * thread that turns out not to be in order after that is "tainted": at
 * the end its spans are read back from the spill and it is nested again
 * from the start (reset(), readback()).  A thread never in order keeps
 * all its spans until the end (finish()).  The unit test checks that
 * any batch size gives the same records.
 *
 * Python frames: an event of category python_function named
 * "PATH(LINE): FUNC" is the frame FUNC at location PATH:LINE, as
 * sst-flatten gives py-spy's frames; " at 0x..." addresses are cut out
 * of the function name (pyframe()).  A frame with a location has an id
 * of its own, counted down from NAMEMASK, so that a span's name is a
 * frame: the names table's ids count up from 0 and the two must not
 * meet.  Kineto's pseudo-process "Spans" (its "PyTorch Profiler (N)"
 * span) is no thread of work and is left out (unless -A).
 *
 * With -g each GPU span (kernel, gpu_memcpy, gpu_memset) is also added
 * under the node of the launch (cuda_runtime, cuda_driver) that shares
 * its args.correlation (or, without one, the id of the ac2g flow event
 * at its start), on the launching thread, once the whole file is read.
 *
 * The parts: this file, the document and the dispatch of each event to
 * its thread; traceread.c, reading one event; tracenest.c, nesting (by
 * the rules of the engine, nest.c) and each thread's order state;
 * tracegpu.c, -g; traceout.c, the records.  traceint.h holds what they
 * share.
 *
 * Errors: tr_fail() and tr_failx() write the message and jump back to
 * trace_convert(), which frees everything and returns -1.
 */
#define _GNU_SOURCE		/* memmem */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "util.h"
#include "buf.h"
#include "json.h"
#include "htab.h"
#include "spill.h"
#include "trace.h"
#include "traceint.h"

static void	 vfail(struct trace *, int, const char *, va_list)
		    __attribute__((__format__(__printf__, 3, 0)));
static void	 addflow(struct trace *, uint32_t, int64_t, int64_t);
static void	 nonspan(struct trace *);
static size_t	 spanthread(struct trace *, int *);
static void	 complete(struct trace *, size_t, int, int, uint32_t);
static void	 begin(struct trace *, size_t, int, int, uint32_t);
static void	 end(struct trace *, size_t);
static void	 events(struct trace *, int);
static int	 member(struct trace *, const char *, size_t, int);
static void	 readdoc(struct trace *);
static void	 freetrace(struct trace *);
static __dead void refuse(struct trace *, enum json_tok);
static struct trace *newtrace(struct json *, const struct trace_opt *,
		    struct trace_stats *, char *, size_t);

/*
 * Write the message into t->err, at the last token's position as
 * xjson_fail() says it when at.
 */
static void
vfail(struct trace *t, int at, const char *fmt, va_list ap)
{
	int n = 0;

	if (at)
		n = snprintf(t->err, t->errlen, "%s:%llu:%llu: ",
		    json_name(t->j), json_line(t->j), json_col(t->j));
	if (n < 0 || (size_t)n >= t->errlen)
		n = 0;
	vsnprintf(t->err + n, t->errlen - (size_t)n, fmt, ap);
}

/* Fail at the last token ("NAME:LINE:COL: what"): to trace_convert(). */
void
tr_fail(struct trace *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(t, 1, fmt, ap);
	va_end(ap);
	longjmp(t->jb, 1);
}

/* Fail with the message as it is: back to trace_convert(). */
void
tr_failx(struct trace *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfail(t, 0, fmt, ap);
	va_end(ap);
	longjmp(t->jb, 1);
}

/* The thread of the current event, made on first sight. */
size_t
tr_thread(struct trace *t)
{
	struct buf *k = &t->ev.pid;
	size_t pid, id;
	int isnew;

	if (t->lid != NONE && k->len == t->lpid.len &&
	    t->ev.tid.len == t->ltid.len &&
	    memcmp(k->data, t->lpid.data, k->len) == 0 &&
	    memcmp(t->ev.tid.data, t->ltid.data, t->ev.tid.len) == 0)
		return t->lid;
	buf_reset(&t->lpid);
	buf_add(&t->lpid, k->data, k->len);
	buf_reset(&t->ltid);
	buf_add(&t->ltid, t->ev.tid.data, t->ev.tid.len);
	pid = ht_intern(t->pids, t->ev.pid.data, t->ev.pid.len, &isnew);
	if (isnew) {
		if (pid >= t->pcap)
			t->pname = xgrow(t->pname, &t->pcap, pid + 1, 16,
			    sizeof(*t->pname));
		t->pname[pid] = NONE;
	}
	buf_addc(k, '\0');
	buf_add(k, t->ev.tid.data, t->ev.tid.len);
	id = ht_intern(t->tids, k->data, k->len, &isnew);
	k->len -= t->ev.tid.len + 1;
	k->data[k->len] = '\0';
	if (isnew) {
		/* Made before the check, for freetrace(). */
		if (id >= t->thcap)
			t->th = xgrow(t->th, &t->thcap, id + 1, 16,
			    sizeof(*t->th));
		memset(&t->th[id], 0, sizeof(t->th[id]));
		t->th[id].state = TH_SORTED;
		t->th[id].pid = (uint32_t)pid;
		t->th[id].name = NONE;
		if (id >= NONE)
			tr_failx(t, "too many threads");
	}
	t->lid = id;
	return id;
}

/* Add a span to thread id. */
void
tr_addspan(struct trace *t, size_t id, int64_t start, int64_t dur,
    uint32_t name, uint32_t seq, int kind, int64_t corr)
{
	struct thread *th = &t->th[id];
	struct nest_span *sp;

	if (th->n == th->cap) {
		if (th->cap > UINT32_MAX / 2)
			tr_failx(t, "%s: too many spans in a thread",
			    json_name(t->j));
		th->cap = (uint32_t)xgrowcap(th->cap, th->n + 1, 1);
		th->sp = xreallocarray(th->sp, th->cap, sizeof(*th->sp));
	}
	if (name > NAMEMASK)
		tr_failx(t, "%s: too many names", json_name(t->j));
	sp = &th->sp[th->n++];
	sp->start = start;
	sp->dur = dur;
	sp->name = name | (uint32_t)kind << KINDSHIFT;
	sp->seq = seq;
	t->st->spans++;
	if (kind == K_CPU)
		return;
	tr_addcent(&t->cs, &t->ncs, &t->capcs, corr, seq);
	if (corr == NOCORR)
		t->needflows = 1;
	if (corr == NOCORR && kind == K_LAUNCH)
		tr_addcent(&t->nl, &t->nnl, &t->capnl, start, seq);
}

/*
 * An ac2g flow event with id fid at time ts of thread id (-g): kept in
 * a spill, to be looked up only if some span has no correlation id.
 */
static void
addflow(struct trace *t, uint32_t id, int64_t ts, int64_t fid)
{
	unsigned char k[20];

	memcpy(k, &id, 4);
	memcpy(k + 4, &ts, 8);
	memcpy(k + 12, &fid, 8);
	xspill_write(t->flowsp, k, sizeof(k));
}

/* The table of the flow events, from the spill. */
void
tr_flowtable(struct trace *t)
{
	unsigned char k[20];
	size_t c;

	t->flows = ht_new();
	xspill_rewind(t->flowsp);
	while (xspill_read(t->flowsp, k, sizeof(k)) == 0) {
		c = ht_intern(t->flows, k, 12, NULL);
		if (c >= t->flowcap)
			t->flowv = xgrow(t->flowv, &t->flowcap, c + 1, 256,
			    sizeof(*t->flowv));
		memcpy(&t->flowv[c], k + 12, 8);
	}
}

/* Act on the event just read, which is no X, B or E event. */
static void
nonspan(struct trace *t)
{
	struct event *ev = &t->ev;
	size_t id;

	if (ev->ph == 'M') {
		if (ev->aname == NONE)
			return;
		if (ev->name == t->pnid) {
			id = tr_thread(t);
			t->pname[t->th[id].pid] = ev->aname;
		} else if (ev->name == t->tnid) {
			id = tr_thread(t);
			t->th[id].name = ev->aname;
		}
	} else if (ev->ph != 0 && ev->hasts) {
		id = tr_thread(t);		/* may move t->th */
		nest_seen(&t->th[id].clock, ev->ts);
		if ((ev->ph == 's' || ev->ph == 'f') && ev->gpu == GC_FLOW &&
		    ev->hasid && t->flowsp != NULL)
			addflow(t, (uint32_t)id, ev->ts, ev->id);
	}
}

/*
 * The thread of the X, B or E event just read, its order state and
 * latest time updated; in *kept whether its span is kept (by -c, -C
 * and, without -A, not of Kineto's pseudo-process).
 */
static size_t
spanthread(struct trace *t, int *kept)
{
	struct event *ev = &t->ev;
	struct thread *th;
	size_t id;

	if (!ev->hasts)
		tr_fail(t, "%c event without ts", ev->ph);
	id = tr_thread(t);
	th = &t->th[id];
	nest_seen(&th->clock, ev->ts);
	if (th->hasmax && ev->ts < th->maxts && insorted(th))
		th->state = th->state == TH_FLUSHED ? TH_TAINTED :
		    TH_UNSORTED;
	if (!th->hasmax || ev->ts > th->maxts)
		th->maxts = ev->ts;
	th->hasmax = 1;
	*kept = ev->kept;
	if (!t->opt->allthreads && ev->pid.len == 6 &&
	    memcmp(ev->pid.data, "sSpans", 6) == 0)
		*kept = 0;		/* Kineto's pseudo-process */
	return id;
}

/* An X (complete) event of thread id: a span. */
static void
complete(struct trace *t, size_t id, int kept, int kind, uint32_t seq)
{
	struct event *ev = &t->ev;
	int64_t e;

	if (!ev->hasdur)
		ev->dur = 0;
	/* (INT64_MAX - ts overflowed for a negative ts.) */
	if (__builtin_add_overflow(ev->ts, ev->dur, &e))
		tr_fail(t, "ts + dur out of range");
	nest_seen(&t->th[id].clock, e);
	if (kept)
		tr_addspan(t, id, ev->ts, ev->dur, ev->name, seq, kind,
		    ev->corr);
}

/* A B event of thread id: opened, for the E that closes it. */
static void
begin(struct trace *t, size_t id, int kept, int kind, uint32_t seq)
{
	struct event *ev = &t->ev;
	struct thread *th = &t->th[id];
	struct bopen *b;

	if (th->nb == SST_MAXDEPTH)
		tr_fail(t, "spans nested deeper than %d levels (B events "
		    "without E)", SST_MAXDEPTH);
	if (th->nb == th->capb) {
		th->capb = (uint32_t)xgrowcap(th->capb, th->nb + 1, 2);
		th->b = xreallocarray(th->b, th->capb, sizeof(*th->b));
	}
	b = &th->b[th->nb++];
	b->start = ev->ts;
	b->name = ev->name;
	b->seq = seq;
	b->kept = kept;
	b->kind = kind;
	b->corr = ev->corr;
}

/* An E event of thread id: the span of the B it closes. */
static void
end(struct trace *t, size_t id)
{
	struct event *ev = &t->ev;
	struct thread *th = &t->th[id];
	struct bopen *b;
	int64_t dur;

	if (th->nb == 0) {
		t->st->unmatched++;
		return;
	}
	b = &th->b[--th->nb];
	if (ev->ts < b->start)
		tr_fail(t, "E event before its B");
	if (nest_dur(b->start, ev->ts, &dur) == -1)
		tr_fail(t, "E event: its span lasts past 2^63 - 1 ns");
	if (b->kept)
		tr_addspan(t, id, b->start, dur, b->name, b->seq, b->kind,
		    b->corr);
}

/* Act on the event just read. */
void
tr_dispatch(struct trace *t)
{
	struct event *ev = &t->ev;
	struct thread *th;
	size_t id;
	uint32_t seq;
	int kept, kind;

	if (t->seq == NONE)
		tr_failx(t, "%s: too many events", json_name(t->j));
	seq = t->seq++;
	if (ev->ph != 'X' && ev->ph != 'B' && ev->ph != 'E') {
		nonspan(t);
		return;
	}
	id = spanthread(t, &kept);
	if (ev->name == NONE)
		ev->name = t->emptyid;
	else if (ev->py && !t->opt->rawnames && ev->ph != 'E')
		ev->name = tr_pyframe(t, ev->name);
	kind = !t->opt->gpu ? K_CPU : ev->gpu == GC_GPU ? K_GPU :
	    ev->hascorr || ev->gpu == GC_LAUNCH ? K_LAUNCH : K_CPU;
	if (!ev->hascorr)
		ev->corr = NOCORR;
	if (ev->ph == 'X') {
		t->nspan++;
		complete(t, id, kept, kind, seq);
	} else if (ev->ph == 'B') {
		t->nspan++;
		begin(t, id, kept, kind, seq);
	} else
		end(t, id);
	th = &t->th[id];
	if (insorted(th) && th->nb == 0 &&
	    th->n >= (t->opt->batch > 0 ? t->opt->batch : FLUSHN))
		tr_flush(t, (uint32_t)id, ev->ts);
}

/*
 * The events of the array just opened; bare: the top-level array, whose
 * closing ']' may be missing, as the trace-event format allows.
 */
static void
events(struct trace *t, int bare)
{
	enum json_tok tok;

	for (;;) {
		tok = json_next(t->j);
		if (tok == JT_ERROR && bare && t->seq > 0 &&
		    strcmp(json_errmsg(t->j), "unexpected end of input") == 0) {
			t->partial = 1;
			return;
		}
		if (tok == JT_ERROR)
			tr_fail(t, "%s", json_errmsg(t->j));
		if (tok == JT_ARR_END)
			break;
		if (tok != JT_OBJ)
			tr_fail(t, "event: expected an object");
		tr_readevent(t);
	}
}

/*
 * A member k[0..n) of the top-level object, its key just read; got:
 * whether traceEvents was read before.  Whether it is traceEvents.
 */
static int
member(struct trace *t, const char *k, size_t n, int got)
{
	if (n == 11 && memcmp(k, "traceEvents", 11) == 0) {
		if (got)
			tr_fail(t, "traceEvents given twice");
		if (tr_next(t) != JT_ARR)
			tr_fail(t, "traceEvents: expected an array");
		events(t, 0);
		return 1;
	}
	if ((n == 7 && memcmp(k, "$schema", 7) == 0) ||
	    (n == 8 && memcmp(k, "profiles", 8) == 0) ||
	    (n == 6 && memcmp(k, "shared", 6) == 0))
		tr_fail(t, "speedscope JSON, not a trace: use sst-flatten");
	if ((n == 5 && memcmp(k, "nodes", 5) == 0) ||
	    (n == 10 && memcmp(k, "timeDeltas", 10) == 0))
		tr_fail(t, "a .cpuprofile, not a trace: use cpuprofile2sst");
	tr_skip(t, tr_next(t));
	return 0;
}

/* Read the document: its events into the threads' spans. */
static void
readdoc(struct trace *t)
{
	enum json_tok tok;
	const char *k;
	size_t n;
	int got = 0;

	if ((tok = json_next(t->j)) == JT_ERROR ||
	    (tok != JT_ARR && tok != JT_OBJ))
		refuse(t, tok);
	if (tok == JT_ARR)
		events(t, 1);
	else {
		while ((tok = tr_next(t)) == JT_KEY) {
			k = json_text(t->j, &n);
			got |= member(t, k, n, got);
		}
		if (!got)
			tr_fail(t, "no traceEvents: not a Chrome trace");
	}
	if (!t->partial && tr_next(t) != JT_EOF)
		tr_fail(t, "trailing data after JSON value");
	if (t->nspan == 0)
		tr_fail(t, "no spans (X events or B/E pairs) in the trace");
}

/* Free everything of t. */
static void
freetrace(struct trace *t)
{
	size_t i;

	for (i = 0; i < ht_count(t->tids); i++) {
		free(t->th[i].sp);
		free(t->th[i].b);
		nest_stackfree(&t->th[i].stk);
	}
	free(t->th);
	free(t->pname);
	ht_free(t->names);
	ht_free(t->locs);
	ht_free(t->pyf);
	free(t->pyname);
	free(t->pyloc);
	free(t->cook);
	ht_free(t->pids);
	ht_free(t->tids);
	ht_free(t->nodes);
	if (t->flowsp != NULL) {
		spill_free(t->flowsp);
		if (t->flows != NULL)
			ht_free(t->flows);
	}
	free(t->cs);
	free(t->ln);
	free(t->nl);
	free(t->flowv);
	spill_free(t->spill);
	free(t->gs);
	free(t->nthread);
	free(t->nparent);
	free(t->nname);
	free(t->ntot);
	free(t->nrank);
	free(t->ones);
	free(t->path);
	buf_free(&t->ev.pid);
	buf_free(&t->ev.tid);
	buf_free(&t->lpid);
	buf_free(&t->ltid);
	buf_free(&t->scratch[0]);
	buf_free(&t->scratch[1]);
	free(t);
}

const char *
trace_notrace(struct json *j, char *buf, size_t n)
{
	const char *head, *says;
	char msg[256];
	size_t len;
	enum sniff k;

	head = json_head(j, &len);
	k = sniff(head, len);
	if (k == SN_TRACE || k == SN_TRACEARRAY || sniff_reader(k) == NULL ||
	    (says = sniff_says(k, msg, sizeof(msg))) == NULL)
		return NULL;
	snprintf(buf, n, "%s: not a Chrome trace: %s", json_name(j), says);
	return buf;
}

/*
 * Fail for a document whose first token tok is no '[' or '{', saying
 * what it looks like and what reads it when that is known.
 */
static void
refuse(struct trace *t, enum json_tok tok)
{
	char msg[8192];		/* the file's name and what it is */

	if (trace_notrace(t->j, msg, sizeof(msg)) != NULL)
		tr_failx(t, "%s", msg);
	if (tok == JT_ERROR)
		tr_fail(t, "%s", json_errmsg(t->j));
	tr_fail(t, "not a Chrome trace: expected an object with "
	    "traceEvents or an array of events");
}

/* A new reader of j. */
static struct trace *
newtrace(struct json *j, const struct trace_opt *opt, struct trace_stats *st,
    char *err, size_t errlen)
{
	struct trace *t;

	t = xcalloc(1, sizeof(*t));
	t->j = j;
	t->opt = opt;
	t->st = st;
	t->err = err;
	t->errlen = errlen;
	t->names = ht_new();
	t->locs = ht_new();
	t->pyf = ht_new();
	t->pylow = NAMEMASK;
	t->pids = ht_new();
	t->tids = ht_new();
	t->nodes = ht_new();
	t->spill = spill_new(1 << 20);
	if (opt->gpu)
		t->flowsp = spill_new(1 << 20);
	buf_init(&t->ev.pid);
	buf_init(&t->ev.tid);
	buf_init(&t->lpid);
	buf_init(&t->ltid);
	buf_init(&t->scratch[0]);
	buf_init(&t->scratch[1]);
	t->lid = NONE;
	t->emptyid = (uint32_t)ht_intern(t->names, "", 0, NULL);
	t->pnid = (uint32_t)ht_intern(t->names, "process_name", 12, NULL);
	t->tnid = (uint32_t)ht_intern(t->names, "thread_name", 11, NULL);
	t->nocatok = trace_catok(opt, "", 0);
	return t;
}

int
trace_convert(struct json *j, const struct trace_opt *opt,
    const char *prefix, FILE *fp, struct trace_stats *st, char *err,
    size_t errlen)
{
	struct trace *t;
	size_t i;
	volatile int rv = 0;

	t = newtrace(j, opt, st, err, errlen);
	if (setjmp(t->jb) == 0) {
		readdoc(t);
		for (i = 0; i < ht_count(t->tids); i++)
			if (t->th[i].state == TH_TAINTED) {
				tr_readback(t);
				break;
			}
		for (i = 0; i < ht_count(t->tids); i++)
			tr_finish(t, (uint32_t)i);
		if (opt->gpu)
			tr_attach(t);
		tr_output(t, prefix, fp);
	} else
		rv = -1;
	freetrace(t);
	return rv;
}
