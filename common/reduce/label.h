/*
 * label.h: the prefix that keeps the threads of several files apart
 * (trace2sst, cpuprofile2sst, nsys2sst): one rule for a file's base
 * name, and the loop over the files of a producer.
 */
#ifndef LABEL_H
#define LABEL_H

#include <stddef.h>

#include "buf.h"

/*
 * Append to b (raw, not escaped) the base name of the file at path: its
 * name without directories up to the first '.' after its first
 * character (a name that starts with '.' keeps it: ".x.json" is
 * ".x"), or "stdin" for standard input ("-" or NULL).
 */
void	 label_base(struct buf *, const char *);
/*
 * Append to b the escaped prefix of the threads of the file at path:
 * "LABEL: " when label is not NULL, else, when force is set, "BASE: "
 * with BASE its label_base(), else nothing.
 */
void	 label_prefix(struct buf *, const char *, const char *, int);

/* How label_each() runs convert(). */
struct label_run {
	int		 progress;	/* progress_open()'s force */
	size_t		 nth, nfiles;	/* file nth (from 1) of nfiles */
};

/*
 * Call convert(path, label, force, s, run) for each of the n files
 * path, or for "-" when there are none; force is set when there are
 * more than one; run->nth and run->nfiles say which file it is (0 of 0
 * for standard input alone).  The options are the program's to read
 * (cpuprofile2sst, nsys2sst).
 */
void	 label_each(int, char *[], const char *, int, int,
	    struct label_run *, void (*)(const char *, const char *, int,
	    int, const struct label_run *));

#endif
