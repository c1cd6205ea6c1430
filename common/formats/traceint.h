/*
 * traceint.h: what the parts of trace2sst's reader share (trace.c,
 * traceread.c, tracenest.c, tracegpu.c, traceout.c): the spans, the
 * threads and their order state, the -g tables, the reader's state,
 * and the functions one part calls in another.  Not for use outside
 * them (trace.h is the interface).
 */
#ifndef TRACEINT_H
#define TRACEINT_H

#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"
#include "buf.h"
#include "json.h"
#include "htab.h"
#include "spill.h"
#include "nest.h"
#include "trace.h"

#define NONE	UINT32_MAX

/*
 * A span is a struct nest_span (nest.h), times in nanoseconds: its name
 * has its kind in the top 2 bits, its seq is its input order and, with
 * -g, the key of cs.
 */
#define KINDSHIFT	30
#define NAMEMASK	((1U << KINDSHIFT) - 1)
#define FLUSHN		256	/* pending spans of a sorted thread */
#define NOCORR		INT64_MIN	/* no correlation id */

/* An open B event. */
struct bopen {
	int64_t		 start;
	int64_t		 corr;
	uint32_t	 name;
	uint32_t	 seq;
	int		 kept;
	int		 kind;
};

/*
 * An open span is a struct nest_frame: its node is its stack's, its tag
 * its entry in gs with -g (else NONE), its order when it was taken.
 */

/* What categories say of an event, for -g (gpucat()). */
enum gcat {
	GC_NONE,
	GC_GPU,		/* kernel, gpu_memcpy, gpu_memset */
	GC_LAUNCH,	/* cuda_runtime, cuda_driver */
	GC_FLOW		/* ac2g: a launch-to-GPU flow event */
};

/* What -g does with a span. */
enum kind {
	K_CPU,
	K_LAUNCH,	/* has a correlation id */
	K_GPU		/* kernel, gpu_memcpy, gpu_memset */
};

/*
 * The order of a thread's X, B and E events so far.  While they come
 * in time order (TH_SORTED), the spans that start before the latest
 * event are nested as the input goes and written to the spill
 * (TH_FLUSHED once some were); if the thread turns out not to be
 * sorted after that (TH_TAINTED), they are read back and the thread
 * nested again; one never flushed keeps all its spans (TH_UNSORTED).
 */
enum thstate {
	TH_SORTED,
	TH_FLUSHED,
	TH_UNSORTED,
	TH_TAINTED
};

/* Whether thread th's events have come in time order so far. */
#define insorted(th)	((th)->state == TH_SORTED || (th)->state == TH_FLUSHED)

/* A thread (see enum thstate). */
struct thread {
	struct nest_clock clock;	/* latest time seen */
	int64_t		 maxts;		/* latest X, B or E ts */
	struct nest_span *sp;		/* pending */
	struct bopen	*b;		/* open B events, at most
					   SST_MAXDEPTH */
	struct nest_stack stk;		/* open spans */
	uint32_t	 n, cap;	/* of sp */
	uint32_t	 nb, capb;
	uint32_t	 pid;		/* id in the pids table */
	uint32_t	 name;		/* thread_name, or NONE */
	unsigned char	 hasmax;
	unsigned char	 state;		/* enum thstate */
};

/* A record of -s, or a span attached with -g. */
struct one {
	int64_t		 start;
	int64_t		 self;
	uint32_t	 thread;
	uint32_t	 node;
	uint64_t	 order;
};

/* A GPU span waiting for its launch (-g). */
struct gspan {
	int64_t		 corr;
	int64_t		 start;
	int64_t		 dur;
	int64_t		 self;		/* once closed */
	uint64_t	 order;		/* when taken */
	uint32_t	 name;
	uint32_t	 thread;
	uint32_t	 seq;
	uint32_t	 node;		/* on its stream */
	int		 dead;		/* of a thread nested again */
};

/*
 * -g: the correlation id of a launch or GPU span by its seq, and the
 * node of a launch once nested (else NONE); for a launch without one,
 * in nl, its start in corr.
 */
struct cent {
	int64_t		 corr;
	uint32_t	 seq;
	uint32_t	 node;
};

/* -g: a launch nested: its seq and its node. */
struct lnest {
	uint32_t	 seq;
	uint32_t	 node;
};

/* The event being read. */
struct event {
	int		 ph;		/* its one letter, 0 none, -1 longer */
	uint32_t	 name;		/* in the names table, or NONE */
	uint32_t	 aname;		/* args.name, or NONE */
	int		 kept;		/* by -c and -C */
	enum gcat	 gpu;		/* what its categories say */
	int		 py;		/* of category python_function */
	struct buf	 pid, tid;	/* type byte and text */
	int		 hasts, hasdur, hascorr, hasid;
	int64_t		 ts, dur, corr, id;	/* id: of a flow event */
};

struct trace {
	struct json		*j;
	jmp_buf			 jb;		/* where tr_fail() goes */
	char			*err;		/* its message */
	size_t			 errlen;
	const struct trace_opt	*opt;
	struct trace_stats	*st;
	struct htab		*names;		/* span and M names */
	struct htab		*locs;		/* Python frames' PATH:LINE */
	struct htab		*pyf;		/* Python frames: name, loc */
	uint32_t		*pyname, *pyloc;	/* by Python frame */
	size_t			 pycap;
	uint32_t		 pylow;		/* lowest Python frame id */
	uint32_t		*cook;		/* by name: 1 + its frame as a
						   python_function, or 0 */
	size_t			 cookcap;
	uint32_t		 pnid, tnid;	/* "process_name",
						   "thread_name" */
	uint32_t		 emptyid;	/* "" */
	int			 nocatok;	/* keep events without cat */
	struct buf		 lpid, ltid;	/* the last thread looked up */
	size_t			 lid;
	struct htab		*pids;		/* type byte + text */
	uint32_t		*pname;		/* by pid: process_name */
	size_t			 pcap;
	struct htab		*tids;		/* pid key, NUL, tid key */
	struct thread		*th;
	size_t			 thcap;
	struct spill		*spill;		/* spans nested early */
	struct cent		*cs;		/* -g: correlation ids */
	size_t			 ncs, capcs;
	struct lnest		*ln;		/* -g: launches nested */
	size_t			 nln, capln;
	struct cent		*nl;		/* -g: launches without id */
	size_t			 nnl, capnl;
	struct spill		*flowsp;	/* -g: the ac2g flow events */
	int			 needflows;	/* a span has no correlation */
	struct htab		*flows;		/* by thread and ts, made from
						   flowsp when needed */
	int64_t			*flowv;
	size_t			 flowcap;
	struct gspan		*gs;
	size_t			 ngs, capgs;
	struct htab		*nodes;		/* thread, parent, name */
	uint32_t		*nthread, *nparent, *nname;
	struct nest_tot		*ntot;		/* the spans ending there */
	uint64_t		*nrank;		/* when first entered */
	size_t			 ncap;
	struct one		*ones;		/* -s */
	size_t			 nones, capones;
	uint32_t		*path;		/* a stack, leaf first */
	size_t			 npath, cappath;
	uint64_t		 order;
	uint64_t		 rank;
	uint32_t		 seq;
	uint64_t		 nspan;		/* spans before -c, -C */
	int			 partial;	/* the array had no ']' */
	struct event		 ev;
	struct buf		 scratch[2];	/* tr_pyframe()'s */
};

__dead void tr_fail(struct trace *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
__dead void tr_failx(struct trace *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
enum json_tok tr_next(struct trace *);
void	 tr_skip(struct trace *, enum json_tok);
uint32_t	 tr_pyframe(struct trace *, uint32_t);
uint32_t	 tr_frameof(const struct trace *, uint32_t, uint32_t *);
void	 tr_readevent(struct trace *);
size_t	 tr_thread(struct trace *);
void	 tr_addspan(struct trace *, size_t, int64_t, int64_t, uint32_t,
		    uint32_t, int, int64_t);
void	 tr_addcent(struct cent **, size_t *, size_t *, int64_t,
		    uint32_t);
void	 tr_flowtable(struct trace *);
void	 tr_dispatch(struct trace *);
void	 tr_account(struct trace *, uint32_t, int64_t, int64_t,
		    uint64_t);
int	 tr_onecmp(const void *, const void *);
uint32_t	 tr_enter(struct trace *, uint32_t, uint32_t, uint32_t);
uint32_t	 tr_gpuspan(struct trace *, uint32_t, const struct nest_span *,
		    int64_t, uint32_t);
void	 tr_flush(struct trace *, uint32_t, int64_t);
void	 tr_readback(struct trace *);
void	 tr_finish(struct trace *, uint32_t);
void	 tr_attach(struct trace *);
void	 tr_output(struct trace *, const char *, FILE *);

#endif
