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

/* How label_main() runs convert(). */
struct label_run {
	int		 progress;	/* progress_open()'s force */
	size_t		 nth, nfiles;	/* file nth (from 1) of nfiles */
};

/*
 * The main of a producer whose options are -H, -h, -L label, -P, -p and
 * -s (cpuprofile2sst, nsys2sst): parse them (--help too; usage(1)
 * prints the usage and exits 0, usage(0) exits 2), then call
 * convert(path, label, prefix, s, run) for each file, or "-", where s
 * is sflag when -s was given and 0 otherwise, and run holds
 * progress_open()'s force (1 with -p, 0 with -P, else -1) and the
 * file's place among those given (0 of 0 for standard input alone);
 * check stdout at the end.
 */
int	 label_main(int, char *[], void (*)(int),
	    void (*)(const char *, const char *, int, int,
	    const struct label_run *), int);

#endif
