/*
 * sst-callees: the callee chains of a function in an sst(5) stream.
 * For each record whose stack holds a frame of the given name, the
 * chain runs from the shallowest such frame to the leaf, cut to the
 * frames nearest to it by -d.  Records with the same chain are grouped,
 * whatever their thread, and the groups are written as chain rows,
 * heaviest first, for sst-tree(1).  A chain of one frame means that the
 * function itself was the leaf.  Weights are summed exactly as the
 * reference Python scripts sum them, sample after sample.
 */
#include <err.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "recread.h"
#include "chain.h"
#include "kind.h"

static void	readfile(struct chains *, struct frames *,
		    const struct buf *, long long, const char *);
static __dead void usage(int);

static int	unit = -1;	/* of every input */

/* Add the callee chains of the records of one input. */
static void
readfile(struct chains *c, struct frames *f, const struct buf *name,
    long long depth, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	const char *chain;
	size_t pos, n, b, len;
	int fd;

	fd = xopen(path);
	rd = rec_open(fd, path);
	rec_oneunit(rd, &unit);
	while (xrec_read(rd, &r)) {
		chains_kind(c, &r);
		if (r.samples == 0)
			continue;
		frames_split(f, r.stack, r.stacklen);
		pos = frames_find(f, r.stack, name->data, name->len, 0);
		if (pos == (size_t)-1)
			continue;
		/* Python: if len(chain) > d: chain = chain[:d] */
		n = f->n - pos;
		b = f->n;
		if (depth > 0 && n > (unsigned long long)depth)
			b = pos + (size_t)depth;
		else if (depth < 0)
			b = (unsigned long long)-depth < n ?
			    f->n - (size_t)-depth : pos;
		chain = frames_span(f, r.stack, pos, b, &len);
		if (chains_add(c, "", 0, chain, len, &r) == -1)
			xrec_fail(rd, "a callee chain: %s", chains_over(c));
	}
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst-callees [-h] [-d depth] name [file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct chains *c;
	struct frames f;
	struct buf name;
	long long depth = 0;
	int ch, i;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "d:h")) != -1) {
		switch (ch) {
		case 'd':
			depth = xoptnum("-d", optarg, -LLONG_MAX, LLONG_MAX);
			break;
		case 'h':
			usage(1);
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage(0);

	buf_init(&name);
	esc_name(&name, argv[0], strlen(argv[0]));
	memset(&f, 0, sizeof(f));
	c = chains_new();
	if (argc == 1)
		readfile(c, &f, &name, depth, NULL);
	for (i = 1; i < argc; i++)
		readfile(c, &f, &name, depth, argv[i]);
	chains_put(c, -1);
	chains_free(c);
	frames_free(&f);
	buf_free(&name);
	xfshut(stdout, "stdout");
	return 0;
}
