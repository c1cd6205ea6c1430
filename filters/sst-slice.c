/*
 * sst-slice: keep the records of an sst(5) stream that start in a time
 * window.  The window -t FROM,TO is half-open, [FROM, TO), in seconds
 * from the profile's start or, with a '%' after a bound, in percent of
 * the stream's span: from the earliest start to the latest end (start
 * plus weight for seconds, the start for other units).  Records are
 * copied unchanged; a record with no samples and no start (a thread's
 * declaration) always passes.  With a percentage the input is read
 * twice, standard input through a temporary file in $TMPDIR (or /tmp),
 * unlinked as soon as it is made, so that no exit leaves it behind.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "rec.h"
#include "recread.h"
#include "fmt.h"

/* A bound of the window: seconds, percent, or none (open). */
struct bound {
	int	 set;
	int	 pct;
	double	 v;
};

struct slice {
	struct bound	 from, to;
	double		 lo, hi;	/* the window in seconds */
	double		 first, last;	/* the span of the stream */
	int		 seen;
};

static void	bound(struct bound *, const char *, size_t);
static int	started(struct sst_reader *, const struct sst_rec *);
static void	pass(struct slice *, int, const char *, int, FILE *);
static double	secs(const struct slice *, const struct bound *, double);
static __dead void usage(int);
static FILE	*tmpf(void);

/* Parse one bound, s[0..n): empty, a number, or a number and '%'. */
static void
bound(struct bound *b, const char *s, size_t n)
{
	char buf[64], *end;

	memset(b, 0, sizeof(*b));
	if (n == 0)
		return;
	if (n >= sizeof(buf))
		errx(2, "-t: bound too long: %.*s", (int)n, s);
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[n - 1] == '%') {
		b->pct = 1;
		buf[--n] = '\0';
	}
	b->v = strtod(buf, &end);
	if (n == 0 || *end != '\0' || !isfinite(b->v) || b->v < 0 ||
	    (b->pct && b->v > 100))
		errx(2, "-t: expected seconds >= 0 or a percentage from 0%% "
		    "to 100%%, got %.*s", (int)(n + b->pct), s);
	b->set = 1;
}

/* Whether r has a start; 0 for a declaration, else an error. */
static int
started(struct sst_reader *rd, const struct sst_rec *r)
{
	if (r->hasstart)
		return 1;
	if (r->samples == 0 && r->stacklen == 0)
		return 0;
	xrec_fail(rd, "a record with no start time: sst-slice reads the "
	    "per-sample or per-span streams of -s (sst-flatten -s, "
	    "trace2sst -s)");
}

/*
 * One pass over input fd called name: measure the span (measure), with
 * a copy of the records to copy if not NULL, or write the records of
 * the window.
 */
static void
pass(struct slice *s, int fd, const char *name, int measure, FILE *copy)
{
	struct sst_reader *rd;
	struct sst_rec r;
	double end;

	rd = rec_open(fd, name);
	while (xrec_read(rd, &r)) {
		if (copy != NULL)
			rec_write(copy, &r);
		if (!started(rd, &r)) {
			if (!measure)
				rec_write(stdout, &r);
			continue;
		}
		if (measure) {
			end = r.start + (r.unit == U_SECONDS ? r.weight : 0);
			if (!s->seen || r.start < s->first)
				s->first = r.start;
			if (!s->seen || end > s->last)
				s->last = end;
			s->seen = 1;
		} else if (r.start >= s->lo && r.start < s->hi)
			rec_write(stdout, &r);
	}
	rec_close(rd);
}

/* The seconds of bound b, def if it is not set (or the end, 100%). */
static double
secs(const struct slice *s, const struct bound *b, double def)
{
	if (!b->set || (b->pct && b->v == 100 && def > 0))
		return def;
	if (b->pct)
		return s->first + (s->last - s->first) * b->v / 100;
	return b->v;
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst-slice [-t from,to] [file ...]\n");
}

/* An unlinked temporary file in $TMPDIR (or /tmp). */
static FILE *
tmpf(void)
{
	const char *dir;
	struct buf path;
	FILE *fp;
	int fd;

	if ((dir = getenv("TMPDIR")) == NULL || *dir == '\0')
		dir = "/tmp";
	buf_init(&path);
	buf_printf(&path, "%s/sst-slice.XXXXXX", dir);
	if ((fd = mkstemp(path.data)) == -1)
		err(1, "temporary file in %s", dir);
	unlink(path.data);
	buf_free(&path);
	if ((fp = fdopen(fd, "w+")) == NULL)
		err(1, "fdopen");
	return fp;
}

int
main(int argc, char *argv[])
{
	struct slice s;
	const char *win = NULL, *comma, *path;
	FILE *tmp;
	int ch, i, pct, fd;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "ht:")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		case 't':
			win = optarg;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	memset(&s, 0, sizeof(s));
	if (win != NULL) {
		if ((comma = strchr(win, ',')) == NULL)
			errx(2, "-t: expected from,to, got %s", win);
		bound(&s.from, win, (size_t)(comma - win));
		bound(&s.to, comma + 1, strlen(comma + 1));
	}
	pct = s.from.pct || s.to.pct;
	if (!pct && s.from.set && s.to.set && s.from.v > s.to.v)
		errx(2, "-t: from %g is after to %g", s.from.v, s.to.v);

	for (i = 0; i < (argc ? argc : 1); i++) {
		path = argc ? argv[i] : "-";
		fd = xopen(path);
		tmp = NULL;
		if (pct) {
			/* Standard input is kept for the second pass. */
			if (fd == STDIN_FILENO)
				tmp = tmpf();
			s.seen = 0;
			pass(&s, fd, path, 1, tmp);
			if (tmp != NULL) {
				if (fflush(tmp) == EOF || ferror(tmp))
					err(1, "temporary file");
				rewind(tmp);
				fd = fileno(tmp);
			} else if (lseek(fd, 0, SEEK_SET) == -1)
				err(1, "%s", path);
		}
		s.lo = secs(&s, &s.from, -INFINITY);
		s.hi = secs(&s, &s.to, INFINITY);
		pass(&s, fd, path, 0, NULL);
		if (tmp != NULL)
			fclose(tmp);
		else if (fd != STDIN_FILENO)
			close(fd);
	}
	xfshut(stdout, "stdout");
	return 0;
}
