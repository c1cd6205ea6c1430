/*
 * sst-flatten: convert speedscope JSON profiles (py-spy's and every
 * other exporter's) to the sst stream, one record per distinct (thread,
 * stack) or, with -s, one per sample.  The JSON is read as a token
 * stream and never held whole: memory grows with distinct frames and
 * stacks only.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sst.h"

static void	emit(const struct sst_rec *, void *);
static void	flatten(const char *, int);
static __dead void usage(void);

static __dead void
usage(void)
{
	fprintf(stderr, "usage: %s [-s] [file ...]\n", getprogname());
	exit(2);
}

static void
emit(const struct sst_rec *r, void *arg)
{
	rec_write(arg, r);
}

/* Convert one file ("-" for standard input). */
static void
flatten(const char *path, int persample)
{
	struct json *j;
	int fd;

	fd = xopen(path);
	j = json_open(fd, path);
	spd_flatten(j, persample, emit, stdout);
	json_close(j);
	if (fd != STDIN_FILENO)
		close(fd);
}

int
main(int argc, char *argv[])
{
	int ch, persample = 0;

	sst_init();
	while ((ch = getopt(argc, argv, "s")) != -1) {
		switch (ch) {
		case 's':
			persample = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		flatten("-", persample);
	for (; argc > 0; argc--, argv++)
		flatten(*argv, persample);
	fshut(stdout, "stdout");
	return 0;
}
