/*
 * folded.h: folded stacks "root;...;leaf weight" (collapsed2sst)
 * (folded.c).
 */
#ifndef FOLDED_H
#define FOLDED_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "fmt.h"

/* The length of s[0..n) without trailing white space (Python's). */
size_t	 fold_rstrip(const char *, size_t);
/*
 * A weight as Python's int() or float() reads it into *w, and in *isint
 * whether it is an int literal; the buffer is scratch space.  0 ok, -1
 * if it is not a finite number.
 */
int	 fold_weight(const char *, size_t, double *, int *, struct buf *);
/*
 * The weight s[0..n) (valid for fold_weight()) as a count: 1 and *v
 * when it is a non-negative int literal, 0 when not, -1 when it passes
 * 2^64 - 1.
 */
int	 fold_count(const char *, size_t, uint64_t *);
/*
 * The stack s[0..n) without each frame's trailing "+0x<hex>", in the
 * buffer, or s if no frame has one; its length in *len.
 */
const char *fold_strip(struct buf *, const char *, size_t, size_t *);
/* Into the buffer (reset): a stack as an sst(5) stack field. */
void	 fold_stack(struct buf *, const char *, size_t);
/*
 * A stack as an sst(5) stack field: s itself when it is one, else made
 * in the buffer (fold_stack()); its length in *len.
 */
const char *fold_field(struct buf *, const char *, size_t, size_t *);
/*
 * The scale to seconds (or none) and the unit of a unit name of -u,
 * count being the scale of "count"; -1 if there is no such unit.
 */
int	 fold_unit(const char *, double, double *, enum sst_unit *);
/* Where something first happened: file and line, or none (0). */
struct fold_place {
	const char	*name;
	unsigned long long line;
};
/* Note the place p of an event unless one is noted. */
void	 fold_placeat(struct fold_place *, const char *, unsigned long long);
/* The weights of the lines, for their median. */
struct fold_med {
	double		 w;
	size_t		 i;		/* line number, to break ties */
	int		 isint;		/* an int literal, not a float */
};
struct fold_meds {
	struct fold_med	*m;
	size_t		 n, cap;
};
/* Add the next line's weight, an int literal (1) or not (0). */
void	 fold_medadd(struct fold_meds *, double, int);
/*
 * sorted(weights)[n // 2] into the buffer as Python prints the int or
 * float read; NULL if there is none.  The weights get reordered.
 */
char	*fold_median(struct fold_meds *, char *, size_t);

/*
 * Why an input's first bytes, of which no folded stack was read, are
 * not folded stacks: sniff()'s message (in the buffer) or a fixed text.
 */
const char *fold_notfolded(const char *, size_t, char *, size_t);
/* Into the buffer: "N lines, median weight W, unit U" (-V); it. */
char	*fold_summary(struct fold_meds *, const char *, char *, size_t);

#endif /* FOLDED_H */
