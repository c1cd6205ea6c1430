/*
 * foldin.c: the lines of an input of folded stacks read as Python reads
 * a text file, where a lone CR also ends a line, each given to the
 * reader's function, with a progress line; and when text came and no
 * stack, what the input looks like instead (fold_notfolded()).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "lines.h"
#include "progress.h"
#include "folded.h"
#include "foldin.h"

/* Read path's lines to fn, counted into *c; -1 if no stack was read. */
int
foldin_read(const char *path, int force, size_t k, size_t n, foldin_fn fn,
    void *arg, struct foldin_count *c, struct buf *msg)
{
	struct lines *l;
	struct progress *pr;
	unsigned long long lineno = 0, bytes = 0;
	const char *head, *says = NULL;
	char *s, *e, *cr, why[256];
	size_t len;
	int fd;

	fd = xopen(path);
	l = lines_open(fd, path);
	pr = progress_open(fd, path, force);
	if (n > 1)
		progress_file(pr, k, n);
	memset(c, 0, sizeof(*c));
	while ((s = xlines_next(l, &len)) != NULL) {
		progress_poll(pr, bytes += len + 1);
		for (e = s + len;; s = cr + 1) {
			cr = memchr(s, '\r', (size_t)(e - s));
			switch (fn(arg, lines_name(l), ++lineno, s,
			    (size_t)((cr != NULL ? cr : e) - s))) {
			case FOLDIN_BLANK:
				break;
			case FOLDIN_READ:
				c->read++;
				c->text++;
				break;
			default:
				c->skipped++;
				c->text++;
			}
			if (cr == NULL || cr + 1 == e)
				break;
		}
	}
	progress_close(pr);
	if (c->text > 0 && c->read == 0) {
		head = lines_head(l, &len);
		says = fold_notfolded(head, len, why, sizeof(why));
		buf_reset(msg);
		buf_printf(msg, "%s: no folded stack read: %s", path != NULL &&
		    strcmp(path, "-") != 0 ? path : "<stdin>", says);
	}
	lines_close(l);
	if (fd != STDIN_FILENO)
		close(fd);
	return says != NULL ? -1 : 0;
}
