/*
 * perf2sst: convert the text that perf script prints to an sst(5)
 * stream.  By default samples are collapsed by the rules of Ray's
 * perf.py; -F picks the rules and views of stackcollapse-perf.pl.  A
 * sample weighs 1 (unit none) or, with -F period, its header's period.
 * Each distinct frame line is parsed once (perf_frames_id(), in
 * common/perf.c), and records are keyed by thread and frames ids.
 * gzip and zstd input is decompressed as it is read.  An input with
 * text but no sample is an error that says what it looks like.
 */
#define _GNU_SOURCE
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"
#include "input.h"

#define MAXWARN	10
#define PLWS(c)	((c) == ' ' || ((c) >= '\t' && (c) <= '\r'))
#define PYWS(c)	(PLWS(c) || ((c) >= 0x1c && (c) <= 0x1f))

struct conv {
	struct perf_view v;		/* -F */
	struct perf_frames *fr;		/* frame lines to names ids */
	struct perf_recs *recs;		/* the records so far */
	const char	*name;		/* of the input */
	unsigned long long lineno;
	unsigned long long nsamples;	/* of the input */
	unsigned long long ntext;	/* its lines neither blank nor # */
	unsigned long long nheads;	/* its sample headers */
	unsigned	 nwarn;
	int		 hdr;		/* 0 none, 1 sample header, 2 skipped */
	int		 java;		/* the thread's name starts "java" */
	struct buf	 thread;	/* escaped */
	uint32_t	*ids;		/* the sample's names ids, leaf first */
	size_t		 nids, idcap;
	double		 w;
	enum sst_unit	 unit;
	struct buf	 filter;	/* -F: the one event kept */
	int		 hasfilter, filtwarn;
	struct buf	 tmp;
};

static void	warnline(struct conv *, const char *);
static void	setweight(struct conv *, const char *, size_t, double);
static void	endsample(struct conv *);
static void	push(struct conv *, uint32_t);
static void	rayline(struct conv *, const char *, size_t);
static int	fghead(struct conv *, const char *, size_t);
static void	fgline(struct conv *, const char *, size_t);
static void	readfile(struct conv *, const char *);
static void	nosample(struct conv *, enum sniff);
static __dead void usage(int);

/* Warn about the current line; only the first MAXWARN of an input. */
static void
warnline(struct conv *c, const char *msg)
{
	if (c->nwarn++ < MAXWARN)
		warnx("%s:%llu: %s", c->name, c->lineno, msg);
}

/* Weigh the next samples by the period per of event ev (-F period). */
static void
setweight(struct conv *c, const char *ev, size_t evn, double per)
{
	c->w = perf_weight(ev, evn, c->v.period ? per : 0, &c->unit);
}

/*
 * A sample ends: write it (-s) or add it to its record.  A sample whose
 * command perf.py reads as empty (a command with a space in it) folds
 * with its root frame first, as perf.py writes it: that frame is then
 * the thread, and the stack is the frames under it.
 */
static void
endsample(struct conv *c)
{
	if (!c->v.fg && c->thread.len == 0 && c->nids > 0) {
		perf_frames_stack(c->fr, &c->ids[c->nids - 1], 1,
		    &c->thread);
		c->nids--;
	}
	if (perf_recs_add(c->recs, c->thread.data, c->thread.len, c->ids,
	    c->nids, c->w, c->unit) == -1)
		errx(1, "%s:%llu: the weight of the sample's stack overflows "
		    "to inf", c->name, c->lineno);
	c->nids = 0;
	c->nsamples++;
}

/* Add a frame line's names to the sample. */
static void
push(struct conv *c, uint32_t id)
{
	if (c->nids == c->idcap) {
		c->idcap = c->idcap ? c->idcap * 2 : 256;
		c->ids = xreallocarray(c->ids, c->idcap, sizeof(*c->ids));
	}
	c->ids[c->nids++] = id;
}

/* One line by perf.py's rules (its lines lose trailing white space). */
static void
rayline(struct conv *c, const char *s, size_t n)
{
	const char *t, *ev = NULL;
	size_t i, j, evn = 0;
	double per = 0;
	uint32_t id;

	while (n > 0 && PYWS((unsigned char)s[n - 1]))
		n--;
	if (n == 0) {
		if (c->nids > 0) {
			endsample(c);
			buf_reset(&c->thread);
		}
		c->hdr = 0;
	} else if (s[0] == ' ' || s[0] == '\t') {
		if (!c->hdr) {
			warnline(c, "frame line without a sample header");
			c->hdr = 1;
		}
		for (t = s; PYWS((unsigned char)*t); t++)
			;
		if ((id = perf_frames_id(c->fr, t, s + n, 0)) == PERF_BADLINE)
			warnline(c, "frame line without a symbol");
		else
			push(c, id);
	} else {
		if (perf_rayhead(s, n, &i, &j)) {
			c->nheads++;
			buf_reset(&c->thread);
			esc_add(&c->thread, s + i, j - i);
			c->hdr = 1;
		} else if (s[0] != '#') {
			warnline(c, "unrecognized sample header");
			c->hdr = 1;
		}
		if (s[0] != '#') {
			perf_event(s, n, &ev, &evn, &per);
			setweight(c, ev, evn, per);
		}
	}
}

/* A sample header "comm pid[/tid] ..." by -F rules; 0 if not one. */
static int
fghead(struct conv *c, const char *s, size_t n)
{
	struct perf_head h;
	const char *ev = NULL;
	size_t evn = 0;
	double per = 0;

	if (!perf_fghead(s, n, &h))
		return 0;
	if (perf_event(s, n, &ev, &evn, &per)) {
		if (!c->hasfilter) {
			buf_add(&c->filter, ev, evn);
			c->hasfilter = 1;
		} else if (c->filter.len != evn ||
		    memcmp(c->filter.data, ev, evn) != 0) {
			if (!c->filtwarn++)
				warnx("%s:%llu: skipping the samples of events "
				    "other than %s", c->name, c->lineno,
				    c->filter.data);
			if (c->hdr == 0)
				c->hdr = 2;
			return 1;
		}
	}
	setweight(c, ev, evn, per);
	perf_fgthread(&c->tmp, s, &h, c->v.id);
	buf_reset(&c->thread);
	esc_add(&c->thread, c->tmp.data, c->tmp.len);
	c->java = strncmp(c->tmp.data, "java", 4) == 0;
	c->hdr = 1;
	c->nheads++;
	return 1;
}

/* One line by stackcollapse-perf.pl's rules. */
static void
fgline(struct conv *c, const char *s, size_t n)
{
	const char *t;
	uint32_t id;

	if (n > 0 && s[n - 1] == '\r')
		n--;
	if (n > 0 && s[0] == '#')
		return;
	if (n == 0) {
		if (c->hdr == 1)
			endsample(c);
		c->hdr = 0;
		return;
	}
	if (!PLWS(s[0]) && fghead(c, s, n))
		return;
	for (t = s; t < s + n && PLWS(*t); t++)
		;
	id = perf_frames_id(c->fr, t, s + n, c->java);
	if (id == PERF_BADLINE)
		warnline(c, "unrecognized line");
	else if (c->hdr != 1) {
		if (c->hdr == 0)
			warnline(c, "frame line without a sample header");
		c->hdr = 2;
	} else if (id != PERF_NOFRAME)
		push(c, id);
}

/*
 * Exit 1 for an input with text and no sample, saying what it looks
 * like (k, from its first bytes) when that is known.
 */
static void
nosample(struct conv *c, enum sniff k)
{
	const char *says;
	char msg[256];

	says = sniff_says(k, msg, sizeof(msg));
	if (k != SN_PERF && says != NULL)
		errx(1, "%s: no perf samples: %s", c->name, says);
	if (k == SN_PERF && !c->v.fg)
		errx(1, "%s: no perf samples by perf.py's rules, which read "
		    "indented frame lines only: try -F comm", c->name);
	if (c->nheads > 0 && !c->v.fg)
		errx(1, "%s: no perf sample with frames: perf.py's rules "
		    "read samples with a call chain only (perf record -g)",
		    c->name);
	if (c->nheads > 0)
		errx(1, "%s: no complete perf sample (a blank line ends "
		    "each)", c->name);
	errx(1, "%s: no perf samples: not perf script output", c->name);
}

/* Convert one input; a sample cut off by its end counts by perf.py. */
static void
readfile(struct conv *c, const char *path)
{
	struct lines *l;
	enum sniff k;
	char *s;
	size_t i, n;
	int fd, bin = 0;

	fd = xopen(path);
	l = lines_open(fd, path);
	c->name = lines_name(l);
	c->lineno = 0;
	c->nwarn = 0;
	c->nsamples = c->ntext = c->nheads = 0;
	c->hdr = 0;
	c->nids = 0;
	buf_reset(&c->thread);
	setweight(c, NULL, 0, 0);
	while (!bin && (s = lines_next(l, &n)) != NULL) {
		c->lineno++;
		if (n > 0 && s[0] != '#' && !c->ntext)
			for (i = 0; i < n && !c->ntext; i++)
				c->ntext = !PYWS((unsigned char)s[i]);
		if (!PLWS(s[0]) && memchr(s, '\0', n) != NULL)
			bin = strncmp(s, "PERFILE", 7) == 0 ? 2 : 1;
		else if (c->v.fg)
			fgline(c, s, n);
		else
			rayline(c, s, n);
	}
	s = (char *)lines_head(l, &n);
	k = sniff(s, n);
	lines_close(l);
	if (fd != STDIN_FILENO)
		close(fd);
	if (bin)
		errx(1, "%s:%llu: binary data, not perf script output%s",
		    c->name, c->lineno, bin == 2 ? " (run perf script on it)" :
		    "");
	if (!c->v.fg && c->nids > 0)
		endsample(c);
	if (c->nwarn > MAXWARN)
		warnx("%s: %u more warnings", c->name, c->nwarn - MAXWARN);
	if (c->ntext && c->nsamples == 0)
		nosample(c, k);
}

static __dead void
usage(int status)
{
	fprintf(status ? stderr : stdout,
	    "usage: perf2sst [-hs] [-F view] [file ...]\n");
	exit(status);
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
	for (i = 1; i < (size_t)argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0)
			usage(0);
	while ((ch = getopt(argc, argv, "F:hs")) != -1) {
		switch (ch) {
		case 'F':
			if (perf_view(&c.v, optarg, &bad) == -1)
				errx(2, "-F: unknown view: %s", bad);
			break;
		case 'h':
			usage(0);
		case 's':
			sflag = 1;
			break;
		default:
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	if (c.v.ray && c.v.fg)
		errx(2, "-F: ray goes with no other view than period");

	c.fr = perf_frames_new(c.v.fg, c.v.flags);
	c.recs = perf_recs_new(c.fr, sflag);
	buf_init(&c.thread);
	buf_init(&c.filter);
	buf_init(&c.tmp);
	if (argc == 0)
		readfile(&c, NULL);
	for (i = 0; i < (size_t)argc; i++)
		readfile(&c, argv[i]);
	perf_recs_put(c.recs);
	fshut(stdout, "stdout");
	perf_recs_free(c.recs);
	perf_frames_free(c.fr);
	free(c.ids);
	buf_free(&c.thread);
	buf_free(&c.filter);
	buf_free(&c.tmp);
	return 0;
}
