/*
 * trace.h: Chrome trace-event JSON (PyTorch profiler, Kineto, Chrome,
 * node, clang -ftime-trace) read as spans and written as sst(5) records
 * (trace2sst).
 */
#ifndef TRACE_H
#define TRACE_H

#include <stdint.h>
#include <stdio.h>
#include "json.h"
#include "htab.h"

struct htab;
struct json;

/* What to write. */
struct trace_opt {
	int		 persample;	/* one record per span (-s) */
	int		 gpu;		/* GPU spans under their launch (-g) */
	int		 start;		/* -s: eighth field, start seconds */
	int		 rawnames;	/* python_function names as
					   written (-K) */
	int		 allthreads;	/* keep Kineto's pseudo-process (-A) */
	struct htab	*keep;		/* categories kept (-c), or NULL */
	struct htab	*drop;		/* categories dropped (-C), or NULL */
	size_t		 batch;		/* spans of a sorted thread nested at
					   once (0: the default, 256) */
};

/* What was repaired, for the program's warnings. */
struct trace_stats {
	uint64_t	 spans;		/* spans read (X and B/E pairs) */
	uint64_t	 clipped;	/* spans cut to their parent's end */
	uint64_t	 unclosed;	/* B events without an E */
	uint64_t	 unmatched;	/* E events without a B */
	uint64_t	 records;	/* records written */
};

/*
 * Read the trace of j and write its records to fp, every thread field
 * starting with prefix (NULL: none); add to *st.  0, or -1 with nothing
 * written and a message in err[0..errlen): malformed input, or a
 * document that is not a trace, with its position ("NAME:LINE:COL:
 * what", as xjson_fail() says it), or a limit passed.
 */
int	 trace_convert(struct json *, const struct trace_opt *,
	    const char *, FILE *, struct trace_stats *, char *, size_t);

/*
 * The JSON number s[0..n), in microseconds, as integer nanoseconds,
 * rounded half to even: 0 ok, -1 if s is no number or out of range.
 */
int	 trace_ns(const char *, size_t, int64_t *);

/* The categories of a comma-separated list into a new table. */
struct htab *trace_cats(const char *);
/*
 * Whether an event of categories cat[0..n) (comma-separated, as Chrome
 * writes them) is kept by opt's -c and -C.
 */
int	 trace_catok(const struct trace_opt *, const char *, size_t);

/*
 * When the first bytes of j's document look like another format that a
 * program reads: "NAME: not a Chrome trace: what it is and what reads
 * it" in buf (n bytes), returned; else NULL.
 */
const char *trace_notrace(struct json *, char *, size_t);

#endif
