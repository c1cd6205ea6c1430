/*
 * perf2sst: convert the text that perf script prints to an sst(5)
 * stream.  By default samples are collapsed by the rules of Ray's
 * perf.py; -F picks the rules and views of stackcollapse-perf.pl.  A
 * sample weighs 1 (unit none) or, with -F period, its header's period.
 * Lines are told apart and samples summed by common/formats/perfscan.c, each
 * distinct frame line parsed once by common/formats/perf.c.  gzip and zstd
 * input is decompressed as it is read.  An input with text but no
 * sample is an error that says what it looks like.  Long runs show
 * their progress on standard error when it is a terminal (-p: always,
 * -P: never).
 */
#define _GNU_SOURCE
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "lines.h"
#include "progress.h"
#include "perf.h"
#include "input.h"
#include "perfscan.h"

#define MAXWARN	10

struct conv {
	struct perf_view v;		/* -F */
	struct perfscan	*scan;
	const char	*name;		/* of the input */
	unsigned long long lineno;
	unsigned	 nwarn;
	int		 filtwarn;	/* the other events were warned of */
	int		 progress;	/* progress_open()'s force */
	int		 nfiles, nth;	/* files given; the one being read */
};

static void	warnline(struct conv *, const char *);
static void	said(struct conv *, int);
static void	readfile(struct conv *, const char *);
static void	nosample(struct conv *, enum sniff);
static __dead void usage(int);

/* Warn about the current line; only the first MAXWARN of an input. */
static void
warnline(struct conv *c, const char *msg)
{
	if (c->nwarn++ < MAXWARN) {
		progress_hide();
		warnx("%s:%llu: %s", c->name, c->lineno, msg);
	}
}

/* Say what perfscan found wrong with the current line, r. */
static void
said(struct conv *c, int r)
{
	if (r & (PERFSCAN_INF | PERFSCAN_OTHEREV))
		progress_hide();
	if (r & PERFSCAN_INF)
		errx(1, "%s:%llu: the weight of the sample's stack overflows "
		    "to inf", c->name, c->lineno);
	if (r & PERFSCAN_NOHEAD)
		warnline(c, "frame line without a sample header");
	if (r & PERFSCAN_NOSYMBOL)
		warnline(c, "frame line without a symbol");
	if (r & PERFSCAN_BADHEAD)
		warnline(c, "unrecognized sample header");
	if (r & PERFSCAN_BADLINE)
		warnline(c, "unrecognized line");
	if ((r & PERFSCAN_OTHEREV) && !c->filtwarn) {
		warnx("%s:%llu: skipping the samples of events other than %s",
		    c->name, c->lineno, perfscan_event(c->scan));
		c->filtwarn = 1;
	}
}

/*
 * Exit 1 for an input with text and no sample, saying what it looks
 * like (k, from its first bytes) when that is known.
 */
static void
nosample(struct conv *c, enum sniff k)
{
	unsigned long long nheads;
	const char *says;
	char msg[256];

	nheads = perfscan_counts(c->scan)->heads;
	says = sniff_says(k, msg, sizeof(msg));
	if (k != SN_PERF && says != NULL)
		errx(1, "%s: no perf samples: %s", c->name, says);
	if (k == SN_PERF && !c->v.fg)
		errx(1, "%s: no perf samples by perf.py's rules, which read "
		    "indented frame lines only: try -F comm", c->name);
	if (nheads > 0 && !c->v.fg)
		errx(1, "%s: no perf sample with frames: perf.py's rules "
		    "read samples with a call chain only (perf record -g)",
		    c->name);
	if (nheads > 0)
		errx(1, "%s: no complete perf sample (a blank line ends "
		    "each)", c->name);
	errx(1, "%s: no perf samples: not perf script output", c->name);
}

/* Convert one input; a sample cut off by its end counts by perf.py. */
static void
readfile(struct conv *c, const char *path)
{
	const struct perfscan_counts *n;
	struct progress *pr;
	struct lines *l;
	unsigned long long bytes = 0;
	enum sniff k;
	char *s;
	size_t len;
	int fd, r = 0;

	fd = xopen(path);
	l = lines_open(fd, path);
	c->name = lines_name(l);
	c->lineno = 0;
	c->nwarn = 0;
	pr = progress_open(fd, path, c->progress);
	if (c->nfiles > 1)
		progress_file(pr, (size_t)c->nth, (size_t)c->nfiles);
	perfscan_start(c->scan);
	while ((s = xlines_next(l, &len)) != NULL) {
		c->lineno++;
		progress_poll(pr, bytes += len + 1);
		if ((r = perfscan_line(c->scan, s, len)) & PERFSCAN_BINARY)
			break;
		said(c, r);
	}
	progress_close(pr);
	s = (char *)lines_head(l, &len);
	k = sniff(s, len);
	lines_close(l);
	if (fd != STDIN_FILENO)
		close(fd);
	if (r & PERFSCAN_BINARY)
		errx(1, "%s:%llu: binary data, not perf script output%s",
		    c->name, c->lineno, r & PERFSCAN_PERFDATA ?
		    " (run perf script on it)" : "");
	said(c, perfscan_end(c->scan));
	if (c->nwarn > MAXWARN)
		warnx("%s: %u more warnings", c->name, c->nwarn - MAXWARN);
	n = perfscan_counts(c->scan);
	if (n->text && n->samples == 0)
		nosample(c, k);
}

/* The usage line: on stdout for help (exit 0), else on stderr (2). */
static void
usage(int help)
{
	xusage(help, "usage: perf2sst [-hPps] [-F view] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct conv c;
	const char *bad;
	size_t i;
	int ch, sflag = 0;

	sst_init();
	memset(&c, 0, sizeof(c));
	c.progress = -1;
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "F:hPps")) != -1) {
		switch (ch) {
		case 'F':
			if (perf_view(&c.v, optarg, &bad) == -1)
				errx(2, "-F: unknown view: %s", bad);
			break;
		case 'h':
			usage(1);
		case 'P':
			c.progress = 0;
			break;
		case 'p':
			c.progress = 1;
			break;
		case 's':
			sflag = 1;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (c.v.ray && c.v.fg)
		errx(2, "-F: ray goes with no other view than period");

	c.scan = perfscan_new(&c.v, sflag);
	if (argc == 0)
		readfile(&c, NULL);
	c.nfiles = argc;
	for (i = 0; i < (size_t)argc; i++) {
		c.nth = (int)i + 1;
		readfile(&c, argv[i]);
	}
	perfscan_put(c.scan);
	xfshut(stdout, "stdout");
	perfscan_free(c.scan);
	return 0;
}
