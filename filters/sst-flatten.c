/*
 * sst-flatten: convert speedscope JSON profiles (py-spy's and every
 * other exporter's) to the sst stream, one record per distinct (thread,
 * stack) or, with -s, one per sample.  The JSON is read as a token
 * stream and never held whole: memory grows with distinct frames and
 * stacks only.  Long runs show their progress on standard error when it
 * is a terminal (-p: always, -P: never).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sst.h"

static void	emit(const struct sst_rec *, void *);
static void	flatten(const char *, int, int);
static __dead void usage(void);

static __dead void
usage(void)
{
	fprintf(stderr, "usage: %s [-Pps] [file ...]\n", getprogname());
	exit(2);
}

static void
emit(const struct sst_rec *r, void *arg)
{
	rec_write(arg, r);
}

/*
 * Convert one file ("-" for standard input); progress as for
 * progress_open().
 */
static void
flatten(const char *path, int persample, int progress)
{
	struct progress *pr;
	struct json *j;
	int fd;

	fd = xopen(path);
	j = json_open(fd, path);
	pr = progress_open(fd, path, progress);
	json_setprogress(j, pr);
	spd_flatten(j, persample, emit, stdout);
	progress_close(pr);
	json_close(j);
	if (fd != STDIN_FILENO)
		close(fd);
}

int
main(int argc, char *argv[])
{
	int ch, persample = 0, progress = -1;

	sst_init();
	while ((ch = getopt(argc, argv, "Pps")) != -1) {
		switch (ch) {
		case 'P':
			progress = 0;
			break;
		case 'p':
			progress = 1;
			break;
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
		flatten("-", persample, progress);
	for (; argc > 0; argc--, argv++)
		flatten(*argv, persample, progress);
	fshut(stdout, "stdout");
	return 0;
}
