/*
 * progress.c: a progress line on standard error for long runs: how much
 * of the input has been read, the percentage when its size is known (a
 * regular file), and the rate.  The line appears once a run has taken a
 * second and is redrawn at most four times a second, in place, with a
 * carriage return; by default only when standard error is a terminal
 * and standard output is not (records would scroll over it), so never in
 * pipes, logs or tests.  At the end it is erased from a terminal, and
 * ended with a newline elsewhere.  One line at most is shown at a time.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sst.h"

#define DELAY	1.0		/* seconds before the first line */
#define EVERY	0.25		/* seconds between two lines */
#define MIB	1048576.0

struct progress {
	char		*name;
	unsigned long long size;	/* 0: unknown */
	unsigned long long done;
	double		 start;
	double		 next;		/* time of the next line */
	int		 tty;
};

static double	 now(void);
static void	 draw(struct progress *, double);
static void	 erase(void);

static int	 shown;		/* width of the line on the screen, or 0 */
static int	 showntty;

/* Seconds on the monotonic clock. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct progress *
progress_open(int fd, const char *name, int force)
{
	struct progress *pr;
	struct stat st;
	int tty;

	tty = isatty(STDERR_FILENO);
	if (force == 0 || (force < 0 && (!tty || isatty(STDOUT_FILENO))))
		return NULL;
	pr = xcalloc(1, sizeof(*pr));
	if (name == NULL || strcmp(name, "-") == 0)
		name = "<stdin>";
	pr->name = xstrdup(name);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		pr->size = st.st_size;
	pr->tty = tty;
	pr->start = now();
	pr->next = pr->start + DELAY;
	return pr;
}

void
progress_update(struct progress *pr, unsigned long long done)
{
	double t;

	if (pr == NULL)
		return;
	pr->done = done;
	if ((t = now()) < pr->next)
		return;
	pr->next = t + EVERY;
	draw(pr, t);
}

/* Write the line for time t over the one shown. */
static void
draw(struct progress *pr, double t)
{
	char line[256];
	double mib = pr->done / MIB, rate;
	int n;

	rate = t > pr->start ? mib / (t - pr->start) : 0;
	if (pr->size > 0)
		n = snprintf(line, sizeof(line), "%s: %s: %.1f of %.1f MiB "
		    "(%.0f%%), %.1f MiB/s", getprogname(), pr->name, mib,
		    pr->size / MIB, 100.0 * pr->done / pr->size, rate);
	else
		n = snprintf(line, sizeof(line), "%s: %s: %.1f MiB, "
		    "%.1f MiB/s", getprogname(), pr->name, mib, rate);
	if (n < 0)
		return;
	if (n >= (int)sizeof(line))
		n = sizeof(line) - 1;
	fprintf(stderr, "\r%s%*s", line, shown > n ? shown - n : 0, "");
	fflush(stderr);
	shown = n > shown ? n : shown;
	showntty = pr->tty;
}

/* Erase the line shown, leaving the cursor at the start of it. */
static void
erase(void)
{
	fprintf(stderr, "\r%*s\r", shown, "");
	fflush(stderr);
	shown = 0;
}

void
progress_close(struct progress *pr)
{
	if (pr == NULL)
		return;
	if (shown > 0) {
		if (pr->tty)
			erase();
		else {
			draw(pr, now());
			fputc('\n', stderr);
			shown = 0;
		}
	}
	free(pr->name);
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
		fputc('\n', stderr);
		shown = 0;
	}
}
