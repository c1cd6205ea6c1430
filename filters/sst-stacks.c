/*
 * sst-stacks: every distinct stack of an sst(5) stream, whatever its
 * thread, with its samples and weight, written as chain rows, heaviest
 * first, for sst-tree(1).  Weights are summed exactly as the reference
 * Python scripts sum them, sample after sample.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"

static void	readfile(struct chains *, const char *);
static __dead void usage(void);

/* Add the stacks of the records of one input. */
static void
readfile(struct chains *c, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	int fd;

	fd = xopen(path);
	rd = rec_open(fd, path);
	while (rec_read(rd, &r))
		if (r.samples > 0)
			chains_add(c, "", 0, r.stack, r.stacklen, &r);
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

static __dead void
usage(void)
{
	fprintf(stderr, "usage: sst-stacks [file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct chains *c;
	int i;

	sst_init();
	if (getopt(argc, argv, "") != -1)
		usage();
	argc -= optind;
	argv += optind;

	c = chains_new();
	if (argc == 0)
		readfile(c, NULL);
	for (i = 0; i < argc; i++)
		readfile(c, argv[i]);
	chains_put(c);
	chains_free(c);
	fshut(stdout, "stdout");
	return 0;
}
