/*
 * lines.c: a fast line reader over a file descriptor.  It reads big
 * blocks with read(2) and hands out each line in place, NUL-terminated
 * and without its newline; a line longer than the buffer grows it.
 * Bytes come through input.c, so gzip and zstd input is decompressed.
 *
 * Lines are text: a line longer than SST_MAXLINE bytes (which would
 * otherwise be buffered whole, however long) and a NUL byte in a line
 * are errors that name the line (exit 1), the latter saying what the
 * input looks like when its first bytes tell.
 */
#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"
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
	return l;
}

/* Move unread bytes to the front, grow if full, and read more. */
static int	 fill(struct lines *);
static __dead void toolong(const struct lines *);
static __dead void nulbyte(const struct lines *);

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
		l->cap *= 2;
		l->buf = xreallocarray(l->buf, l->cap + 1, 1);
	}
	if ((n = input_read(l->in, l->buf + l->end, l->cap - l->end)) == -1) {
		progress_hide();
		errx(1, "%s:%llu: %s", l->name, l->lineno + 1,
		    input_errmsg(l->in));
	}
	if (n == 0)
		l->eof = 1;
	l->end += (size_t)n;
	return n > 0;
}

/* The line being read is longer than SST_MAXLINE: exit 1. */
static __dead void
toolong(const struct lines *l)
{
	progress_hide();
	errx(1, "%s:%llu: line longer than %lu MB", l->name, l->lineno + 1,
	    SST_MAXLINE >> 20);
}

/* The line being read holds a NUL byte: exit 1. */
static __dead void
nulbyte(const struct lines *l)
{
	const char *head, *says;
	char buf[256];
	size_t n;

	head = input_head(l->in, &n);
	if ((says = sniff_says(sniff(head, n), buf, sizeof(buf))) == NULL)
		says = "binary data, not text";
	progress_hide();
	errx(1, "%s:%llu: a NUL byte: %s", l->name, l->lineno + 1, says);
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
		if (off > SST_MAXLINE)
			toolong(l);
		fill(l);
	}
	*len = (size_t)(nl - p);
	if (*len > SST_MAXLINE)
		toolong(l);
	if (memchr(p, '\0', *len) != NULL)
		nulbyte(l);
	*nl = '\0';
	l->start = (size_t)(nl - l->buf) + 1;
	l->lineno++;
	return p;
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
	free(l);
}
