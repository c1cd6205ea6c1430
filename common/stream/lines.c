/*
 * lines.c: a fast line reader over a file descriptor.  It reads big
 * blocks with read(2) and hands out each line in place, NUL-terminated
 * and without its newline; a line longer than the buffer grows it.
 * Bytes come through input.c, so gzip and zstd input is decompressed.
 *
 * Lines are text: a line longer than SST_MAXLINE bytes (which would
 * otherwise be buffered whole, however long) and a NUL byte in a line
 * are errors that name the line, the latter saying what the input looks
 * like when its first bytes tell.  An error (those, or one of reading)
 * ends the lines: lines_next() returns NULL and lines_error() the
 * message; xlines_next() is the reader that exits with it instead.
 */
#include <err.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lines.h"
#include "util.h"
#include "buf.h"
#include "progress.h"
#include "input.h"

#define LINES_BUFSZ	(1 << 20)

struct lines {
	struct input	*in;
	const char	*name;
	char		*buf;
	size_t		 cap;
	size_t		 start;	/* first unread byte */
	size_t		 end;	/* end of valid data */
	int		 eof;
	unsigned long long lineno;
	struct buf	 err;		/* an error's message, or empty */
};

struct lines *
lines_open(int fd, const char *name)
{
	struct lines *l;

	l = xcalloc(1, sizeof(*l));
	l->in = input_open(fd);
	l->name = (name == NULL || strcmp(name, "-") == 0) ? "<stdin>" : name;
	l->cap = LINES_BUFSZ;
	l->buf = xmalloc(l->cap + 1);
	buf_init(&l->err);
	return l;
}

static int	 fill(struct lines *);
static void	 fail(struct lines *, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));
static void	 toolong(struct lines *);
static void	 nulbyte(struct lines *);

/*
 * Move unread bytes to the front, grow if full, and read more: 1 if
 * some came, 0 at the end, -1 on an error (failed).
 */
static int
fill(struct lines *l)
{
	ssize_t n;

	if (l->start > 0) {
		memmove(l->buf, l->buf + l->start, l->end - l->start);
		l->end -= l->start;
		l->start = 0;
	}
	if (l->end == l->cap) {
		l->cap = xgrowcap(l->cap, l->cap + 1, LINES_BUFSZ);
		l->buf = xreallocarray(l->buf, l->cap + 1, 1);
	}
	if ((n = input_read(l->in, l->buf + l->end, l->cap - l->end)) == -1) {
		fail(l, "%s", input_errmsg(l->in));
		return -1;
	}
	if (n == 0)
		l->eof = 1;
	l->end += (size_t)n;
	return n > 0;
}

/*
 * Keep the message "NAME:LINE: what" about the line being read, and end
 * the lines: lines_next() returns NULL from now on.
 */
static void
fail(struct lines *l, const char *fmt, ...)
{
	va_list ap;

	buf_reset(&l->err);
	buf_printf(&l->err, "%s:%llu: ", l->name, l->lineno + 1);
	va_start(ap, fmt);
	buf_vprintf(&l->err, fmt, ap);
	va_end(ap);
	l->start = l->end = 0;
	l->eof = 1;
}

/* The line being read is longer than SST_MAXLINE: fail. */
static void
toolong(struct lines *l)
{
	fail(l, "line longer than %lu MB", SST_MAXLINE >> 20);
}

/* The line being read holds a NUL byte: fail. */
static void
nulbyte(struct lines *l)
{
	const char *head, *says;
	char buf[256];
	size_t n;

	head = input_head(l->in, &n);
	if ((says = sniff_says(sniff(head, n), buf, sizeof(buf))) == NULL)
		says = "binary data, not text";
	fail(l, "a NUL byte: %s", says);
}

char *
lines_next(struct lines *l, size_t *len)
{
	char *p, *nl;
	size_t off = 0;

	for (;;) {
		p = l->buf + l->start;
		nl = memchr(p + off, '\n', l->end - l->start - off);
		if (nl != NULL)
			break;
		if (l->eof) {
			if (l->start == l->end)
				return NULL;
			/* A last line without a newline. */
			nl = l->buf + l->end;
			l->end++;
			break;
		}
		off = l->end - l->start;
		if (off > SST_MAXLINE) {
			toolong(l);
			return NULL;
		}
		if (fill(l) == -1)
			return NULL;
	}
	*len = (size_t)(nl - p);
	if (*len > SST_MAXLINE) {
		toolong(l);
		return NULL;
	}
	if (memchr(p, '\0', *len) != NULL) {
		nulbyte(l);
		return NULL;
	}
	*nl = '\0';
	l->start = (size_t)(nl - l->buf) + 1;
	l->lineno++;
	return p;
}

/* lines_next(), exiting 1 with the message of an error. */
char *
xlines_next(struct lines *l, size_t *len)
{
	char *p;

	if ((p = lines_next(l, len)) == NULL && l->err.len > 0) {
		progress_hide();
		errx(1, "%s", l->err.data);
	}
	return p;
}

const char *
lines_error(const struct lines *l)
{
	return l->err.len > 0 ? l->err.data : NULL;
}

unsigned long long
lines_lineno(const struct lines *l)
{
	return l->lineno;
}

const char *
lines_name(const struct lines *l)
{
	return l->name;
}

const char *
lines_head(const struct lines *l, size_t *n)
{
	return input_head(l->in, n);
}

void
lines_close(struct lines *l)
{
	if (l == NULL)
		return;
	input_close(l->in);
	free(l->buf);
	buf_free(&l->err);
	free(l);
}
