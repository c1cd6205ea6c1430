/*
 * sst-callers: the caller chains of a function in an sst(5) stream.
 * For each record whose stack holds a frame of the given name, the
 * chain runs from the root to the deepest such frame (with -O the
 * outermost), cut to the frames nearest to it by -d.  Records with the
 * same chain and thread (with -T the same chain) are grouped, and the
 * groups are written as chain rows, heaviest first, for sst-tree(1).
 * Weights are summed exactly as the reference Python scripts sum them,
 * sample after sample.
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

struct opts {
	const char	*name;		/* escaped */
	size_t		 namelen;
	long long	 depth;		/* 0: the whole chain */
	int		 allthreads;	/* -T */
	int		 shallow;	/* -O */
	int		 unit;		/* of every input */
};

static size_t	plainname(const char *, size_t, struct buf *);
static void	readfile(struct chains *, struct frames *, struct opts *,
		    const char *);
static __dead void usage(int);

/*
 * The thread name without its "\e" escapes (nothing), which sst-flatten
 * appends to tell apart profiles of the same name: chains are grouped by
 * the name, as the reference groups them.
 */
static size_t
plainname(const char *s, size_t n, struct buf *b)
{
	size_t i;

	buf_reset(b);
	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n && s[i + 1] == 'e') {
			i++;
			continue;
		}
		buf_addc(b, s[i]);
		if (s[i] == '\\' && i + 1 < n)
			buf_addc(b, s[++i]);
	}
	return b->len;
}

/* Add the caller chains of the records of one input. */
static void
readfile(struct chains *c, struct frames *f, struct opts *o,
    const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	struct buf name;
	const char *chain;
	size_t pos, n, a, len;
	int fd;

	buf_init(&name);
	fd = xopen(path);
	rd = rec_open(fd, path);
	rec_oneunit(rd, &o->unit);
	while (xrec_read(rd, &r)) {
		chains_kind(c, &r);
		if (r.samples == 0)
			continue;
		frames_split(f, r.stack, r.stacklen);
		pos = frames_find(f, r.stack, o->name, o->namelen,
		    !o->shallow);
		if (pos == (size_t)-1)
			continue;
		/* Python: if len(chain) > d: chain = chain[-d:] */
		n = pos + 1;
		a = 0;
		if (o->depth > 0 && n > (unsigned long long)o->depth)
			a = n - (size_t)o->depth;
		else if (o->depth < 0)
			a = (unsigned long long)-o->depth < n ?
			    (size_t)-o->depth : n;
		chain = frames_span(f, r.stack, a, pos + 1, &len);
		r.threadlen = plainname(r.thread, r.threadlen, &name);
		if (chains_add(c, name.data, o->allthreads ? 0 : r.threadlen,
		    chain, len, &r) == -1)
			xrec_fail(rd, "a caller chain: %s", chains_over(c));
	}
	rec_close(rd);
	buf_free(&name);
	if (fd != STDIN_FILENO)
		close(fd);
}

static __dead void
usage(int help)
{
	xusage(help,
	    "usage: sst-callers [-hOT] [-d depth] name [file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct opts o;
	struct chains *c;
	struct frames f;
	struct buf name;
	int ch, i;

	sst_init();
	memset(&o, 0, sizeof(o));
	o.unit = -1;
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "d:hOT")) != -1) {
		switch (ch) {
		case 'd':
			o.depth = xoptnum("-d", optarg, -LLONG_MAX, LLONG_MAX);
			break;
		case 'h':
			usage(1);
		case 'O':
			o.shallow = 1;
			break;
		case 'T':
			o.allthreads = 1;
			break;
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
	o.name = name.data;
	o.namelen = name.len;
	memset(&f, 0, sizeof(f));
	c = chains_new();
	if (argc == 1)
		readfile(c, &f, &o, NULL);
	for (i = 1; i < argc; i++)
		readfile(c, &f, &o, argv[i]);
	chains_put(c, -1);
	chains_free(c);
	frames_free(&f);
	buf_free(&name);
	xfshut(stdout, "stdout");
	return 0;
}
