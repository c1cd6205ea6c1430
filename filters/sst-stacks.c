/*
 * sst-stacks: every distinct stack of an sst(5) stream, whatever its
 * thread, with its samples and weight, written as chain rows, heaviest
 * first (with -n only the first N), for sst-tree(1).  Weights are summed
 * exactly as the reference Python scripts sum them, sample after sample.
 */
#include <err.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "rec.h"
#include "recread.h"
#include "chain.h"

static void	readfile(struct chains *, int *, const char *);
static __dead void usage(int);

/* Add the stacks of the records of one input; one unit in them all. */
static void
readfile(struct chains *c, int *unit, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	int fd;

	fd = xopen(path);
	rd = rec_open(fd, path);
	rec_oneunit(rd, unit);
	while (xrec_read(rd, &r))
		if (r.samples > 0 &&
		    chains_add(c, "", 0, r.stack, r.stacklen, &r) == -1)
			xrec_fail(rd, "a stack: %s", chains_over(c));
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst-stacks [-h] [-n num] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct chains *c;
	long long max = -1;
	int ch, i, unit = -1;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "hn:")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		case 'n':
			max = xoptnum("-n", optarg, 0, LLONG_MAX);
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;

	c = chains_new();
	if (argc == 0)
		readfile(c, &unit, NULL);
	for (i = 0; i < argc; i++)
		readfile(c, &unit, argv[i]);
	chains_put(c, max);
	chains_free(c);
	xfshut(stdout, "stdout");
	return 0;
}
