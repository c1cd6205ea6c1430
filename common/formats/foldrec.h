/*
 * foldrec.h: lines of folded stacks ("root;...;leaf weight") read, and
 * summed into sst(5) records by stack at each candidate scale to
 * seconds, until the median weight picks one (collapsed2sst).
 */
#ifndef FOLDREC_H
#define FOLDREC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "rec.h"

#define FOLDREC_NSMAX	2	/* candidate scales at most */
/* A weight above this makes a line's weight nanoseconds, not counts. */
#define FOLDREC_NSMIN	100000

/* What foldrec_parse() found on a line. */
enum foldrec_kind {
	FOLDREC_BLANK,		/* nothing but white space */
	FOLDREC_OK,		/* a stack and its weight */
	FOLDREC_NOSPACE,	/* no space before a weight: malformed */
	FOLDREC_BADWEIGHT	/* a weight that is no finite number */
};

/* A line read. */
struct foldrec_line {
	const char	*stack;		/* without the frames' offsets */
	size_t		 stackn;
	double		 w;		/* the weight as Python reads it */
	int		 isint;		/* the weight is an int literal */
	int		 iscnt;		/* 1 a count, 0 not, -1 past 2^64 - 1 */
	uint64_t	 cnt;		/* the count if iscnt is 1, else 1 */
};

/* The numbers of a record. */
struct foldrec_rec {
	uint64_t	 samples;
	double		 weight;
	int		 hasper;	/* every sample weighs per */
	double		 per;
};

/* Flags of foldrec_add(): what overflowed. */
#define FOLDREC_BIGCNT	0x01		/* a sample count past 2^64 - 1 */
#define FOLDREC_INF(i)	(0x02 << (i))	/* the weight at scale i: inf */

/*
 * The record of a line alone at scale sc: with counting, a count is
 * that many samples of sc each, else the line is one sample.
 */
void	 foldrec_linerec(const struct foldrec_line *, double, int,
	    struct foldrec_rec *);

struct foldrecs;
/*
 * A table of the lines' records at the scales sc[0..nsc) (nsc at most
 * FOLDREC_NSMAX): one per distinct stack, or with each one per line.
 */
struct foldrecs *foldrec_new(const double *, int, int);
/*
 * Read line s[0..n) (without its line end) into *l; its stack is s or
 * is in the table's scratch space until the next line read.
 */
enum foldrec_kind foldrec_parse(struct foldrecs *, struct foldrec_line *,
	    const char *, size_t);
/* Add a line; the FOLDREC_BIGCNT and FOLDREC_INF flags of it, or 0. */
int	 foldrec_add(struct foldrecs *, const struct foldrec_line *);
/*
 * Count a line for foldrec_pick() only: the caller keeps it (records
 * are not to be read from the table then).
 */
void	 foldrec_note(struct foldrecs *, const struct foldrec_line *);
/*
 * The scale the median weight picks: with two, the second (counts)
 * when sorted(weights)[n // 2] is at most FOLDREC_NSMIN, else the
 * first (nanoseconds); with one, that one (0).
 */
int	 foldrec_pick(const struct foldrecs *);
/* How many records there are, in first-seen order. */
size_t	 foldrec_count(const struct foldrecs *);
/*
 * Record i at scale sel into *r, counts as samples if counting; its
 * stack (as foldrec_parse() left it) is returned, its length in *n.
 */
const char *foldrec_get(const struct foldrecs *, size_t, int, int,
	    struct foldrec_rec *, size_t *);
void	 foldrec_free(struct foldrecs *);
/*
 * The record of stack k[0..n) in unit u into the sst_rec, its stack k or
 * made in the second buffer (fold_field()); with setthread its thread is
 * k's first frame (made in the first buffer), else the first buffer as
 * it is.
 */
void	 foldrec_make(struct buf *, struct buf *, int, const char *,
	    size_t, const struct foldrec_rec *, enum sst_unit,
	    struct sst_rec *);
/* Write that record (foldrec_make()) to the file. */
void	 foldrec_put(FILE *, struct buf *, struct buf *, int, const char *,
	    size_t, const struct foldrec_rec *, enum sst_unit);
/*
 * The candidate scales to seconds into sc (FOLDREC_NSMAX): ns and
 * 1/freq, or with a -u unit name that unit's alone (*ucount: a count is
 * N samples); how many, or -1 for an unknown unit.
 */
int	 foldrec_scales(const char *, long long, double *, int *,
	    enum sst_unit *);

#endif
