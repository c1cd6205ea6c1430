/*
 * pprof2sst: convert pprof's profile.proto, gzip-compressed or not, to
 * the sst stream: one record per distinct (thread, stack), in the order
 * in which each was first seen, the weight the value that -X names
 * (common/formats/pprofr.c says how).  Each input is read whole, decoded by
 * common/formats/pprof.c, its faults located by their offset.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "input.h"
#include "pprof.h"

static void	xread(const char *, struct buf *);
static __dead void bad(const char *, const struct buf *, const char *);
static void	convert(const char *, const char *);
static __dead void usage(int);

/* The whole input, decompressed, into b. */
static void
xread(const char *path, struct buf *b)
{
	struct input *in;
	ssize_t n;
	int fd;

	fd = xopen(path);
	in = input_open(fd);
	for (;;) {
		buf_grow(b, 1 << 16);
		if ((n = input_read(in, b->data + b->len, 1 << 16)) == -1)
			errx(1, "%s: %s", path ? path : "<stdin>",
			    input_errmsg(in));
		if (n == 0)
			break;
		b->len += (size_t)n;
	}
	input_close(in);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* Exit 1 on input b that is no profile, with what it looks like. */
static __dead void
bad(const char *name, const struct buf *b, const char *why)
{
	char msg[256];
	const char *says;
	enum sniff k;

	if (b->len == 0)
		errx(1, "%s: empty input", name);
	k = sniff(b->data, b->len < INPUT_HEADMAX ? b->len : INPUT_HEADMAX);
	/* A profile.proto that is cut or corrupt still looks like one. */
	if (k != SN_PPROF && (says = sniff_says(k, msg, sizeof(msg))) != NULL)
		errx(1, "%s: not a profile.proto: %s", name, says);
	if (k != SN_BINARY && k != SN_PPROF)
		errx(1, "%s: not a profile.proto: this looks like %s (%s)",
		    name, sniff_what(k), why);
	errx(1, "%s: %s", name, why);
}

/* Convert one file ("-" or NULL: standard input). */
static void
convert(const char *path, const char *x)
{
	struct pprof p;
	struct pprofr *c;
	struct buf data;
	const char *name;
	char err[256];
	size_t i;

	name = path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path;
	buf_init(&data);
	xread(path, &data);
	if (data.len == 0 || pprof_decode(&p, (const uint8_t *)data.data,
	    data.len, err, sizeof(err)) == -1)
		bad(name, &data, err);
	if (p.nst == 0)
		bad(name, &data, "no sample_type: not a profile.proto");
	if ((c = pprofr_new(&p, x, err, sizeof(err))) == NULL)
		errx(1, "%s: %s", name, err);
	for (i = 0; i < p.nsmp; i++)
		if (pprofr_add(c, i, err, sizeof(err)) == -1)
			errx(1, "%s: %s", name, err);
	pprofr_put(c, stdout);
	pprofr_free(c);
	pprof_free(&p);
	buf_free(&data);
}

static __dead void
usage(int help)
{
	xusage(help, "usage: pprof2sst [-h] [-X index] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	const char *x = NULL;
	int ch, i;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "hX:")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		case 'X':
			x = optarg;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		convert(NULL, x);
	for (i = 0; i < argc; i++)
		convert(argv[i], x);
	xfshut(stdout, "stdout");
	return 0;
}
