/*
 * sst2pprof: write an sst(5) stream as pprof's profile.proto, gzip
 * compressed, to standard output (never a terminal): one Sample per
 * record, its samples and weight as its values, its thread as the label
 * "thread" (common/formats/pprofw.c says how).  Same input, same bytes.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "rec.h"
#include "recread.h"
#include "pprof.h"

static void	readfile(struct pprofw *, int *, const char *);
static __dead void usage(int);

/* Add the records of one input ("-" or NULL: standard input). */
static void
readfile(struct pprofw *w, int *unit, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	const char *why;
	int fd;

	fd = xopen(path);
	rd = rec_open(fd, path);
	rec_oneunit(rd, unit);
	while (xrec_read(rd, &r))
		if (pprofw_add(w, &r, &why) == -1)
			xrec_fail(rd, "%s", why);
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst2pprof [-h] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct pprofw *w;
	int ch, i, unit = -1;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "h")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (isatty(STDOUT_FILENO))
		errx(1, "standard output is a terminal: a profile.proto is "
		    "binary, redirect it to a file");
	w = pprofw_new();
	if (argc == 0)
		readfile(w, &unit, NULL);
	for (i = 0; i < argc; i++)
		readfile(w, &unit, argv[i]);
	if (pprofw_put(w, stdout, "stdout") == -1)
		errx(1, "stdout: gzip compression failed");
	xfshut(stdout, "stdout");
	pprofw_free(w);
	return 0;
}
