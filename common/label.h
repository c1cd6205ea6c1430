/*
 * label.h: the prefix that keeps the threads of several files apart
 * (cpuprofile2sst, nsys2sst; trace2sst's rule).  Needs sst.h first.
 */
#ifndef LABEL_H
#define LABEL_H

/*
 * Append to b the escaped prefix of the threads of the file at path:
 * "LABEL: " when label is not NULL, else, when force is set, "BASE: "
 * with BASE the file's name without directories up to its first '.'
 * ("stdin" for "-"), else nothing.
 */
void	 label_prefix(struct buf *, const char *, const char *, int);

#endif
