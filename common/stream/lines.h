/*
 * lines.h: read lines from a file descriptor through a large buffer
 * (lines.c).
 */
#ifndef LINES_H
#define LINES_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The longest line a line reader accepts (as JSON_MAXTOKEN). */
#define SST_MAXLINE	(64UL << 20)
struct lines;
struct lines *lines_open(int, const char *);
/*
 * Returns a pointer to the next line without its newline, or NULL at
 * the end or on an error (a line too long, a NUL byte, a failed read):
 * then lines_error() is its message "NAME:LINE: what", else NULL.
 */
char	*lines_next(struct lines *, size_t *);
const char *lines_error(const struct lines *);
/* lines_next(), exiting 1 with the message ("prog: " before it). */
char	*xlines_next(struct lines *, size_t *);
unsigned long long lines_lineno(const struct lines *);
const char *lines_name(const struct lines *);
/* The first bytes read (up to INPUT_HEADMAX), for sniff() in input.h. */
const char *lines_head(const struct lines *, size_t *);
void	 lines_close(struct lines *);

#endif /* LINES_H */
