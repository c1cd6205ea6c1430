/*
 * perfscan.h: the text perf script prints, read line by line into
 * samples summed as sst(5) records (perf2sst): each line is told to be
 * a sample header, a frame line, a blank line that ends a sample or
 * something else, by the rules of Ray's perf.py or, with a view of
 * -F, of stackcollapse-perf.pl.  What is wrong with a line comes back
 * as flags, for the caller to say.
 */
#ifndef PERFSCAN_H
#define PERFSCAN_H
#include "perf.h"

/* Flags of perfscan_line() and perfscan_end(). */
#define PERFSCAN_NOHEAD	0x01	/* a frame line without a sample header */
#define PERFSCAN_NOSYMBOL 0x02	/* a frame line without a symbol (perf.py) */
#define PERFSCAN_BADHEAD 0x04	/* an unrecognized sample header (perf.py) */
#define PERFSCAN_BADLINE 0x08	/* an unrecognized line (-F) */
#define PERFSCAN_OTHEREV 0x10	/* a header of another event, skipped (-F) */
#define PERFSCAN_INF	0x20	/* a sample's stack weighs inf in all */
#define PERFSCAN_BINARY	0x40	/* binary data, not read */
#define PERFSCAN_PERFDATA 0x80	/* with PERFSCAN_BINARY: perf.data */

/* What an input held so far. */
struct perfscan_counts {
	unsigned long long samples;
	unsigned long long text;	/* a line neither blank nor '#' */
	unsigned long long heads;	/* sample headers */
};

struct perfscan;
/*
 * A reader of samples by the view v (perf.py's rules unless v->fg);
 * with each, a sample is written as a record as soon as it ends.
 */
struct perfscan *perfscan_new(const struct perf_view *, int);
/* Start an input: no sample, no header, nothing counted. */
void	 perfscan_start(struct perfscan *);
/*
 * Read line s[0..n) (without its newline; s[n] is NUL, as xlines_next()
 * leaves it); the PERFSCAN_* flags of it, or 0.  A line of binary data
 * is not read, and the input should go no further.
 */
int	 perfscan_line(struct perfscan *, const char *, size_t);
/* End an input: a sample cut off by its end counts by perf.py's rules. */
int	 perfscan_end(struct perfscan *);
const struct perfscan_counts *perfscan_counts(const struct perfscan *);
/* With -F, the event of the first sample header that names one. */
const char *perfscan_event(const struct perfscan *);
/* Write the records to standard output in first-seen order. */
void	 perfscan_put(struct perfscan *);
void	 perfscan_free(struct perfscan *);

#endif
