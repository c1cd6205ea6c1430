/*
 * scopedoc.h: a speedscope document made of sst(5) records, one sampled
 * profile per thread, as Python's json.dump() writes it (scopedoc.c):
 * sst2speedscope, and collapsed2sst -J.
 */
#ifndef SCOPEDOC_H
#define SCOPEDOC_H

#include <stddef.h>

#include "buf.h"
#include "rec.h"

struct scopedoc;
/*
 * A document of no record; its records wait in memory up to the size
 * given (SCOPEDOC_MEM at least), the rest in a temporary file.
 */
#define SCOPEDOC_MEM	(1 << 20)
struct scopedoc *scopedoc_new(size_t);
/*
 * Add a record (its stack as text); 0, or -1 with a message in the
 * buffer: a unit not its thread's, a thread's samples past 2^64 - 1, a
 * bad location.
 */
int	 scopedoc_add(struct scopedoc *, const struct sst_rec *, struct buf *);
/*
 * Before the first record: its weights are to be multiplied by one of
 * the nsc (at most SCOPEDOC_NSMAX) scales given, which one picked by
 * scopedoc_pick() after the last; each thread's total is kept at each.
 */
#define SCOPEDOC_NSMAX	2
void	 scopedoc_scales(struct scopedoc *, const double *, int);
/* After the last record: the scale (index) of the weights. */
void	 scopedoc_pick(struct scopedoc *, int);
/*
 * After the last record: number the threads (by name if sort, else in
 * the order first met) and the frames (in the order of first use).
 */
void	 scopedoc_end(struct scopedoc *, int);
/* Write the document, its name and exporter given, to standard output. */
void	 scopedoc_put(struct scopedoc *, const char *, const char *);
/*
 * To standard error, each line after the program's name prog: "N
 * frames, N profiles", then "THREAD: N samples" for each profile.
 */
void	 scopedoc_verbose(const struct scopedoc *, const char *);
void	 scopedoc_free(struct scopedoc *);

/* The options of a document: -D name, -e exporter, -S. */
struct scopedoc_opts {
	const char	*name;		/* NULL: the first input's name */
	const char	*exporter;
	int		 sort;		/* the profiles by name */
};
/* Take option ch (D, e or S) of getopt(3), its argument; 0 if not one. */
int	 scopedoc_opt(struct scopedoc_opts *, int, const char *);
/*
 * After the last record: number the threads and frames, and write the
 * document as the options say, the inputs being the files given (none:
 * standard input).
 */
void	 scopedoc_write(struct scopedoc *, const struct scopedoc_opts *,
	    int, char *const *);

#endif /* SCOPEDOC_H */
