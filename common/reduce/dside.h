/*
 * dside.h: one side of a comparison (sst-diff): a stream's total, its
 * unit and its weights per function and per folded stack.
 */
#ifndef DSIDE_H
#define DSIDE_H

#include <stdio.h>

#include "buf.h"
#include "fmt.h"
#include "tally.h"

struct dside {
	const char	*path;		/* NULL or "-": standard input */
	struct tally	 fn;		/* by escaped function name */
	struct tally	 fold;		/* by folded line "thread;f;..." */
	int		 nofold;	/* keep no folded lines */
	size_t		*stamp;		/* by function: last record seen */
	size_t		 nstamp;
	double		 total;		/* every record's weight */
	int		 hasunit;	/* unit is set: a record was read */
	enum sst_unit	 unit;
};

void	 dside_init(struct dside *, const char *);
void	 dside_free(struct dside *);
/*
 * Read the stream: per function its self weight (the leaf's), or with
 * incl its inclusive weight, a record counting once for a function
 * however often it is on the stack.  -1 and a message in the buffer if
 * a record's unit differs from the first one's; a malformed record
 * exits 1 (rec_read).
 */
int	 dside_read(struct dside *, int, char *, size_t);
/* The weight of key in t, 0 if absent. */
double	 dside_value(const struct tally *, const char *, size_t);
/* Into the buffer: a decoded name for a folded line (';' as ':'). */
void	 dside_foldname(struct buf *, const char *, size_t);
/*
 * A side the comparison cannot use (path "-": "<stdin>"): its total
 * overflowed, or with gating it is 0.  0 ok, else -1 and the message.
 */
int	 dside_check(const struct dside *, const char *, int, char *, size_t);
/* Write a weight in its unit, signed if asked to (sst-diff's table). */
void	 dside_putval(FILE *, double, enum sst_unit, int);
/* Write "stack countA countB" lines of a and b, b's counts scaled. */
void	 dside_putfolded(FILE *, const struct dside *, const struct dside *,
	    double);

#endif
