/*
 * foldin.h: the lines of an input of folded stacks read, as Python
 * reads a text file, and what they were (collapsed2sst) (foldin.c).
 */
#ifndef FOLDIN_H
#define FOLDIN_H

#include <stddef.h>

#include "buf.h"

/* What a line was to the function given it. */
enum foldin_kind {
	FOLDIN_BLANK,		/* nothing to read */
	FOLDIN_READ,		/* a stack read */
	FOLDIN_SKIPPED		/* text that is no folded stack */
};

/* The lines of an input by what they were. */
struct foldin_count {
	unsigned long long text;	/* not blank */
	unsigned long long read;
	unsigned long long skipped;
};

/* Given each line s[0..n) of the input name, line number lineno. */
typedef enum foldin_kind (*foldin_fn)(void *, const char *,
		    unsigned long long, const char *, size_t);

/*
 * Read the input path (NULL or "-": standard input) line by line, a
 * lone CR also ending a line as in Python text files, each given to fn
 * without its line end; its progress line as progress_open() forces it
 * (file k of n when n > 1).  The lines counted into *c; 0, or -1 when
 * some text was read and no stack, with "PATH: no folded stack read:
 * why" in the buffer.
 */
int	 foldin_read(const char *, int, size_t, size_t, foldin_fn, void *,
	    struct foldin_count *, struct buf *);

#endif /* FOLDIN_H */
