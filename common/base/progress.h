/*
 * progress.h: a progress line on standard error for long runs
 * (progress.c).
 */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct progress;
/*
 * For input fd called name; force 1: show it, 0: never, -1: only if
 * standard error is a terminal and standard output is not.  NULL when
 * there is none to show.
 */
struct progress *progress_open(int, const char *, int);
/* The first n bytes of the input have been read. */
void	 progress_update(struct progress *, unsigned long long);
/*
 * The same, cheap enough for every line (the clock is read once in 256
 * calls): of a regular file, the descriptor's offset is taken instead of
 * n (so a compressed file's percentage is right), else n.
 */
void	 progress_poll(struct progress *, unsigned long long);
/* Counts are of unit ("rows"), total of them (0: unknown), not bytes. */
void	 progress_total(struct progress *, unsigned long long, const char *);
/* The input is file i (from 1) of the n given. */
void	 progress_file(struct progress *, size_t, size_t);
void	 progress_close(struct progress *);
/* Take the line off the screen before a message. */
void	 progress_hide(void);

#endif /* PROGRESS_H */
