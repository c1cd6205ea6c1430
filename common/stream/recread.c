/*
 * recread.c: the reader of the sst stream (see sst(5)): lines from
 * lines.c, each parsed by rec.c or, in the compact form, by compact.c;
 * a first line that is no record named by what it looks like (sniff()).
 * Errors end the input and are returned (rec_error()); xrec_read() and
 * xrec_fail() exit with them.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recread.h"
#include "util.h"
#include "buf.h"
#include "lines.h"
#include "progress.h"
#include "input.h"
#include "compact.h"

struct sst_reader {
	struct lines	*lines;
	const char	*line;		/* the last line read */
	size_t		 len;
	int		*unit;		/* NULL, or the one unit allowed */
	struct cpr	*cp;		/* the compact form's, once seen */
	int		 compact;	/* the last record was compact */
	int		 nostacks;	/* rec_nostacks() */
	int		 done;		/* an error ended the input */
	int		 fd;		/* rec_openfile()'s, or -1 */
	struct buf	 err;		/* its message */
};

/*
 * What a first line that is no record says about the input, if its
 * first bytes look like another format: the program that reads it.
 */
static const char *
notsst(struct sst_reader *r, char *buf, size_t n)
{
	const char *head;
	size_t len;
	enum sniff k;

	head = lines_head(r->lines, &len);
	switch (k = sniff(head, len)) {
	case SN_SST:
	case SN_EMPTY:
	case SN_TEXT:
		return NULL;
	case SN_JSON:
		return "this is JSON, not an sst(5) stream: sst-flatten reads "
		    "speedscope JSON, trace2sst Chrome trace events";
	default:
		if (sniff_reader(k) == NULL)
			return NULL;
		snprintf(buf, n, "this looks like %s, not an sst(5) stream: "
		    "%s", sniff_what(k), sniff_reader(k));
		return buf;
	}
}

struct sst_reader *
rec_open(int fd, const char *name)
{
	struct sst_reader *r;

	r = xcalloc(1, sizeof(*r));
	r->lines = lines_open(fd, name);
	r->fd = -1;
	buf_init(&r->err);
	return r;
}

struct sst_reader *
rec_openfile(const char *path, char *msg, size_t mlen)
{
	struct sst_reader *r;
	int fd;

	if (path == NULL || strcmp(path, "-") == 0)
		return rec_open(STDIN_FILENO, path);
	if ((fd = open(path, O_RDONLY)) == -1) {
		snprintf(msg, mlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	r = rec_open(fd, path);
	r->fd = fd;
	return r;
}

void
rec_oneunit(struct sst_reader *r, int *unit)
{
	r->unit = unit;
}

int
rec_seterror(struct sst_reader *r, const char *fmt, ...)
{
	va_list ap;

	buf_reset(&r->err);
	buf_printf(&r->err, "%s:%llu: ", lines_name(r->lines),
	    lines_lineno(r->lines));
	va_start(ap, fmt);
	buf_vprintf(&r->err, fmt, ap);
	va_end(ap);
	r->done = 1;
	return -1;
}

const char *
rec_error(const struct sst_reader *r)
{
	return r->err.len > 0 ? r->err.data : NULL;
}

void
xrec_fail(struct sst_reader *r, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: %s:%llu: ", getprogname(),
	    lines_name(r->lines), lines_lineno(r->lines));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

int
rec_read(struct sst_reader *r, struct sst_rec *rec)
{
	const char *why, *what;
	char *line, buf[256];
	size_t len;
	enum cp_kind k;

	if (r->done)
		return 0;
	for (;;) {
		if ((line = lines_next(r->lines, &len)) == NULL) {
			if ((why = lines_error(r->lines)) == NULL)
				return 0;
			buf_reset(&r->err);
			buf_adds(&r->err, why);
			r->done = 1;
			return -1;
		}
		r->line = line;
		r->len = len;
		if (!cp_isline(line, len)) {
			r->compact = 0;
			if (rec_parse(line, len, rec, &why) == 0)
				break;
			if (lines_lineno(r->lines) == 1 &&
			    (what = notsst(r, buf, sizeof(buf))) != NULL)
				why = what;
			return rec_seterror(r, "%s", why);
		}
		if (r->cp == NULL) {
			r->cp = cpr_new();
			if (r->nostacks)
				cpr_lazy(r->cp);
		}
		if ((k = cpr_line(r->cp, line, len, rec, &why)) == CP_ERR)
			return rec_seterror(r, "%s", why);
		if (k == CP_REC) {
			r->compact = 1;
			break;
		}
	}
	if (r->unit != NULL && rec->samples > 0) {
		if (*r->unit == -1)
			*r->unit = (int)rec->unit;
		else if (*r->unit != (int)rec->unit)
			return rec_seterror(r, "unit %s after unit %s: a "
			    "reducer adds weights of one unit only",
			    rec_unitname(rec->unit),
			    rec_unitname((enum sst_unit)*r->unit));
	}
	return 1;
}

/*
 * rec_read(), exiting 1 on an error as xrec_fail() does (after standard
 * output is flushed, a line of progress hidden).
 */
int
xrec_read(struct sst_reader *r, struct sst_rec *rec)
{
	int k;

	if ((k = rec_read(r, rec)) != -1)
		return k;
	fflush(stdout);
	progress_hide();
	fprintf(stderr, "%s: %s\n", getprogname(), r->err.data);
	exit(1);
}

void
rec_nostacks(struct sst_reader *r)
{
	r->nostacks = 1;
	if (r->cp != NULL)
		cpr_lazy(r->cp);
}

const char *
rec_leaf(const struct sst_reader *r, const struct sst_rec *rec, size_t *len,
    const char **loc, size_t *llen)
{
	if (r->compact)
		return cpr_leaf(r->cp, len, loc, llen);
	if (rec->stacklen == 0)
		return NULL;
	*loc = rec_last(rec->locs, rec->locslen, llen);
	return rec_last(rec->stack, rec->stacklen, len);
}

const char *
rec_line(const struct sst_reader *r, size_t *len)
{
	if (r->compact)
		return cpr_text(r->cp, len);
	*len = r->len;
	return r->line;
}

void
rec_close(struct sst_reader *r)
{
	if (r == NULL)
		return;
	lines_close(r->lines);
	if (r->fd != -1)
		close(r->fd);
	cpr_free(r->cp);
	buf_free(&r->err);
	free(r);
}
