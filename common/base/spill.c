/*
 * spill.c: an append-only byte store read back once, front to back.
 * It keeps up to a limit in memory and spills the rest to a temporary
 * file made with mkstemp(3) in $TMPDIR and unlinked at once, so that
 * nothing is left behind even when the program is killed.  The spill is
 * memory kept on disk: a temporary file that cannot be made, written or
 * read is fatal as running out of memory is (exit 1 with a message),
 * hence xspill_write(), xspill_rewind() and xspill_read().
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spill.h"
#include "util.h"
#include "buf.h"

struct spill {
	char	*mem;
	size_t	 lim;	/* bytes kept in memory at most */
	size_t	 len;	/* bytes in mem */
	size_t	 rpos;	/* read position in mem */
	FILE	*fp;	/* the overflow, or NULL */
	int	 reading;
};

static FILE	*xtmpf(void);

/* An anonymous temporary file in $TMPDIR (or /tmp). */
static FILE *
xtmpf(void)
{
	const char *dir;
	struct buf path;
	FILE *fp;
	int fd;

	if ((dir = getenv("TMPDIR")) == NULL || *dir == '\0')
		dir = "/tmp";
	buf_init(&path);
	buf_printf(&path, "%s/sst.XXXXXXXXXX", dir);
	if ((fd = mkstemp(path.data)) == -1)
		err(1, "%s", path.data);
	unlink(path.data);
	buf_free(&path);
	if ((fp = fdopen(fd, "w+")) == NULL)
		err(1, "fdopen");
	return fp;
}

struct spill *
spill_new(size_t lim)
{
	struct spill *s;

	s = xcalloc(1, sizeof(*s));
	s->lim = lim;
	s->mem = xmalloc(lim);
	return s;
}

void
xspill_write(struct spill *s, const void *p, size_t n)
{
	size_t k;

	if (s->fp == NULL) {
		k = s->lim - s->len;
		if (k > n)
			k = n;
		memcpy(s->mem + s->len, p, k);
		s->len += k;
		p = (const char *)p + k;
		n -= k;
		if (n == 0)
			return;
		s->fp = xtmpf();
	}
	if (fwrite(p, 1, n, s->fp) != n)
		err(1, "temporary file");
}

/* Switch from writing to reading from the start. */
void
xspill_rewind(struct spill *s)
{
	s->rpos = 0;
	s->reading = 1;
	if (s->fp != NULL) {
		if (fflush(s->fp) == EOF)
			err(1, "temporary file");
		rewind(s->fp);
	}
}

int
xspill_read(struct spill *s, void *p, size_t n)
{
	size_t k;

	k = s->len - s->rpos;
	if (k > n)
		k = n;
	memcpy(p, s->mem + s->rpos, k);
	s->rpos += k;
	p = (char *)p + k;
	n -= k;
	if (n == 0)
		return 0;
	if (s->fp == NULL || fread(p, 1, n, s->fp) != n) {
		if (s->fp != NULL && ferror(s->fp))
			err(1, "temporary file");
		return -1;
	}
	return 0;
}

/* Forget everything written; ready to write again. */
void
spill_clear(struct spill *s)
{
	s->len = 0;
	s->rpos = 0;
	s->reading = 0;
	if (s->fp != NULL) {
		fclose(s->fp);
		s->fp = NULL;
	}
}

void
spill_free(struct spill *s)
{
	if (s == NULL)
		return;
	spill_clear(s);
	free(s->mem);
	free(s);
}
