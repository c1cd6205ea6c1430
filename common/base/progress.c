/*
 * progress.c: a progress line on standard error for long runs: how much
 * of the input has been read, the percentage when its size is known (a
 * regular file), and the rate.  The line appears once a run has taken a
 * second (from its first progress_open(), so that a run of many short
 * files shows it too) and is redrawn at most four times a second, in
 * place, with a carriage return; by default only when standard error is
 * a terminal and standard output is not (records would scroll over it),
 * so never in pipes, logs or tests.  At the end it is erased from a
 * terminal, and ended with a newline elsewhere.  One line at most is
 * shown at a time.  The amount is given (progress_update()), or polled
 * (progress_poll(), cheap enough for every line): then it is the offset
 * of the descriptor where it has one, which a compressed file's size
 * matches.  It is bytes, or a count of something else (rows) with a
 * total (progress_total()); one of several files is numbered
 * (progress_file()).  A script that keeps a program's messages in a
 * file can have the line go to another descriptor, the one that
 * SST_PROGRESS_FD names (a terminal, say), which is then the one tested.
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "util.h"

#define DELAY	1.0		/* seconds before the first line */
#define EVERY	0.25		/* seconds between two lines */
#define POLLS	256		/* progress_poll() calls a clock reading */
#define MIB	1048576.0

struct progress {
	char		*name;
	int		 fd;
	int		 seekable;	/* a regular file: its offset polled */
	int		 polled;	/* amounts from progress_poll() */
	unsigned long long size;	/* 0: unknown */
	unsigned long long done;
	char		*unit;		/* of done and size, NULL: bytes */
	size_t		 file, nfiles;	/* file of nfiles, 0 of 0: one */
	unsigned	 polls;		/* since the clock was read */
	double		 start;
	double		 next;		/* time of the next line */
	int		 tty;
};

static double	 now(void);
static void	 tick(struct progress *);
static void	 draw(struct progress *, double);
static void	 erase(void);
static FILE	*outfp(void);

static int	 shown;		/* width of the line on the screen, or 0 */
static int	 showntty;
static double	 runstart;	/* of the first progress_open(), or 0 */
static FILE	*out;		/* where the line goes, once known */

/* Seconds on the monotonic clock. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The stream of the line: standard error, or the descriptor that
 * SST_PROGRESS_FD names when it is an open one other than 0 to 2.
 */
static FILE *
outfp(void)
{
	const char *s, *e;
	long long fd;
	FILE *fp;

	if (out != NULL)
		return out;
	out = stderr;
	if ((s = getenv("SST_PROGRESS_FD")) == NULL || *s == '\0')
		return out;
	fd = strtonum(s, 3, INT_MAX, &e);
	if (e == NULL && fcntl((int)fd, F_GETFD) != -1 &&
	    (fp = fdopen((int)fd, "w")) != NULL)
		out = fp;
	return out;
}

struct progress *
progress_open(int fd, const char *name, int force)
{
	struct progress *pr;
	struct stat st;
	int tty;

	tty = isatty(fileno(outfp()));
	if (force == 0 || (force < 0 && (!tty || isatty(STDOUT_FILENO))))
		return NULL;
	pr = xcalloc(1, sizeof(*pr));
	if (name == NULL || strcmp(name, "-") == 0)
		name = "<stdin>";
	pr->name = xstrdup(name);
	pr->fd = fd;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		pr->size = st.st_size;
		pr->seekable = lseek(fd, 0, SEEK_CUR) != -1;
	}
	pr->tty = tty;
	pr->start = now();
	if (runstart == 0)
		runstart = pr->start;
	pr->next = runstart + DELAY;
	return pr;
}

void
progress_total(struct progress *pr, unsigned long long total,
    const char *unit)
{
	if (pr == NULL)
		return;
	free(pr->unit);
	pr->unit = unit != NULL ? xstrdup(unit) : NULL;
	pr->size = total;
	pr->seekable = 0;
}

void
progress_file(struct progress *pr, size_t i, size_t n)
{
	if (pr == NULL)
		return;
	pr->file = i;
	pr->nfiles = n;
}

void
progress_update(struct progress *pr, unsigned long long done)
{
	if (pr == NULL)
		return;
	pr->done = done;
	tick(pr);
}

void
progress_poll(struct progress *pr, unsigned long long done)
{
	off_t off;

	if (pr == NULL)
		return;
	pr->done = done;
	pr->polled = 1;
	if (++pr->polls < POLLS)
		return;
	pr->polls = 0;
	if (now() < pr->next)
		return;
	if (pr->seekable && (off = lseek(pr->fd, 0, SEEK_CUR)) != -1)
		pr->done = (unsigned long long)off;
	tick(pr);
}

/* Draw the line if it is time to. */
static void
tick(struct progress *pr)
{
	double t;

	if ((t = now()) < pr->next)
		return;
	pr->next = t + EVERY;
	draw(pr, t);
}

/* Write the line for time t over the one shown. */
static void
draw(struct progress *pr, double t)
{
	char line[320], name[256];
	double amt, rate, total;
	const char *u;
	int n;

	if (pr->nfiles > 0)
		snprintf(name, sizeof(name), "%s (%zu of %zu)", pr->name,
		    pr->file, pr->nfiles);
	else
		snprintf(name, sizeof(name), "%s", pr->name);
	amt = pr->unit != NULL ? (double)pr->done : pr->done / MIB;
	total = pr->unit != NULL ? (double)pr->size : pr->size / MIB;
	u = pr->unit != NULL ? pr->unit : "MiB";
	rate = t > pr->start ? amt / (t - pr->start) : 0;
	if (pr->size > 0)
		n = snprintf(line, sizeof(line), pr->unit != NULL ?
		    "%s: %s: %.0f of %.0f %s (%.0f%%), %.0f %s/s" :
		    "%s: %s: %.1f of %.1f %s (%.0f%%), %.1f %s/s",
		    getprogname(), name, amt, total, u,
		    100.0 * pr->done / pr->size, rate, u);
	else
		n = snprintf(line, sizeof(line), pr->unit != NULL ?
		    "%s: %s: %.0f %s, %.0f %s/s" : "%s: %s: %.1f %s, %.1f %s/s",
		    getprogname(), name, amt, u, rate, u);
	if (n < 0)
		return;
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	fprintf(out, "\r%s%*s", line, shown > n ? shown - n : 0, "");
	fflush(out);
	shown = n > shown ? n : shown;
	showntty = pr->tty;
}

/* Erase the line shown, leaving the cursor at the start of it. */
static void
erase(void)
{
	fprintf(out, "\r%*s\r", shown, "");
	fflush(out);
	shown = 0;
}

void
progress_close(struct progress *pr)
{
	off_t off;

	if (pr == NULL)
		return;
	if (shown > 0) {
		if (pr->tty)
			erase();
		else {
			if (pr->polled && pr->seekable &&
			    (off = lseek(pr->fd, 0, SEEK_CUR)) != -1)
				pr->done = (unsigned long long)off;
			draw(pr, now());
			fputc('\n', out);
			fflush(out);
			shown = 0;
		}
	}
	free(pr->name);
	free(pr->unit);
	free(pr);
}

void
progress_hide(void)
{
	if (shown == 0)
		return;
	if (showntty)
		erase();
	else {
		fputc('\n', out);
		fflush(out);
		shown = 0;
	}
}
