/*
 * sst2collapsed: write an sst(5) stream as folded stacks, one
 * "thread;root;...;leaf count" line per distinct line text, in the
 * order in which each was first seen, as flamegraph.pl and
 * collapsed2sst(1) read them.  With -w the count is the weight, and
 * the records must all have one unit.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "recread.h"
#include "htab.h"
#include "fmt.h"
#include "tally.h"

struct fold {
	struct tally	 lines;		/* the text of each line, no count */
	int		 tflag, wflag;
	int		 unit;		/* with -w: of every input */
	struct buf	 key;
};

static void	addname(struct buf *, const char *, size_t);
static void	readfile(struct fold *, const char *);
static void	putweight(double);
static __dead void usage(int);

/* Add a decoded name, with ';' as ':' and line ends as spaces. */
static void
addname(struct buf *b, const char *s, size_t n)
{
	size_t i, k;

	buf_grow(b, n);
	k = esc_decode(b->data + b->len, s, n);
	for (i = b->len; i < b->len + k; i++) {
		if (b->data[i] == ';')
			b->data[i] = ':';
		else if (b->data[i] == '\n' || b->data[i] == '\r')
			b->data[i] = ' ';
	}
	b->len += k;
	b->data[b->len] = '\0';
}

/* Add the records of one input to the lines. */
static void
readfile(struct fold *f, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	const char *p, *q, *e;
	int fd;

	fd = xopen(path);
	rd = rec_open(fd, path);
	if (f->wflag)
		rec_oneunit(rd, &f->unit);
	while (xrec_read(rd, &r)) {
		if (r.samples == 0)
			continue;
		buf_reset(&f->key);
		if (!f->tflag)
			addname(&f->key, r.thread, r.threadlen);
		/* Every frame, an empty one after the last ';' too. */
		e = r.stack + r.stacklen;
		for (p = r.stack, q = NULL; r.stacklen > 0 && q != e; ) {
			if ((q = memchr(p, ';', (size_t)(e - p))) == NULL)
				q = e;
			if (p > r.stack || !f->tflag)
				buf_addc(&f->key, ';');
			addname(&f->key, p, (size_t)(q - p));
			if (q != e)
				p = q + 1;
		}
		tally_add(&f->lines, f->key.data, f->key.len, &r);
		if (f->lines.over != NULL)
			xrec_fail(rd, "a line: %s", f->lines.over);
	}
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* An integral weight as an integer, any other as the shortest text. */
static void
putweight(double w)
{
	char b[FMTBUF];

	if (w == floor(w) && fabs(w) < 18446744073709551616.0)
		printf("%.0f", w + 0.0);
	else
		fputs(fmt_double(b, sizeof(b), w), stdout);
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst2collapsed [-hTw] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct fold f;
	const char *k;
	size_t i, n;
	int ch;

	sst_init();
	memset(&f, 0, sizeof(f));
	f.unit = -1;
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "hTw")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		case 'T':
			f.tflag = 1;
			break;
		case 'w':
			f.wflag = 1;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;

	tally_init(&f.lines);
	buf_init(&f.key);
	if (argc == 0)
		readfile(&f, NULL);
	for (i = 0; i < (size_t)argc; i++)
		readfile(&f, argv[i]);
	for (i = 0; i < tally_count(&f.lines); i++) {
		k = ht_key(f.lines.keys, i, &n);
		fwrite(k, 1, n, stdout);
		putchar(' ');
		if (f.wflag)
			putweight(f.lines.weight[i]);
		else
			printf("%llu", (unsigned long long)f.lines.samples[i]);
		putchar('\n');
	}
	xfshut(stdout, "stdout");
	tally_free(&f.lines);
	buf_free(&f.key);
	return 0;
}
