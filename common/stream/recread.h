/*
 * recread.h: the reader of the sst stream (recread.c).
 */
#ifndef RECREAD_H
#define RECREAD_H

#include <stddef.h>

#include "util.h"
#include "rec.h"

struct sst_reader;
struct sst_reader *rec_open(int, const char *);
/*
 * A reader of the file path (NULL or "-": standard input), which
 * rec_close() closes; NULL with "PATH: why" in msg if it cannot be
 * opened.
 */
struct sst_reader *rec_openfile(const char *, char *, size_t);
/*
 * 1: a record was read; 0: end of input; -1 on malformed input (or one
 * of lines_next()'s errors), and then rec_error() is the message
 * "NAME:LINE: what".  When the first line is no record but the input
 * looks like another format (input.h's sniff()), the message names the
 * program to use.  An error ends the input: 0 from then on.
 */
int	 rec_read(struct sst_reader *, struct sst_rec *);
const char *rec_error(const struct sst_reader *);
/*
 * An error of the program's about the last record: rec_error() becomes
 * "NAME:LINE: " and the message, and the input ends; returns -1.
 */
int	 rec_seterror(struct sst_reader *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
/* rec_read(), exiting 1 with the message ("prog: " before it). */
int	 xrec_read(struct sst_reader *, struct sst_rec *);
void	 rec_close(struct sst_reader *);
/* The line of the last record read, as it is (no newline). */
const char *rec_line(const struct sst_reader *, size_t *);
/*
 * The caller reads no stack or locs of the records (nor rec_line()'s
 * text, which still has them): in the compact form they are left empty
 * and not built.
 */
void	 rec_nostacks(struct sst_reader *);
/*
 * The leaf frame of the last record read, rec, and its location entry
 * (empty when the record has no locations); NULL when it has no frames.
 * Works after rec_nostacks().
 */
const char *rec_leaf(const struct sst_reader *, const struct sst_rec *,
	    size_t *, const char **, size_t *);
/*
 * From now on stop with an error at a record with samples whose unit
 * differs from *unit, naming both; *unit is -1 until such a record sets
 * it.  Readers of several inputs share one *unit (for reducers that add
 * weights); records of 0 samples (thread declarations) add nothing.
 */
void	 rec_oneunit(struct sst_reader *, int *);
/* Report "prog: NAME:LINE: message" about the last record; exit 1. */
__dead void xrec_fail(struct sst_reader *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));

#endif /* RECREAD_H */
