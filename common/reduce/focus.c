/*
 * focus.c: pprof's frame filters over the sst(5) stream.  Each record
 * is looked at alone: its frames (root first) are matched one by one
 * against a POSIX extended regular expression, decoded from the
 * stream's escaping (a record without locations has an empty location
 * for every frame), and the record is kept, dropped or cut.  One record
 * in, at most one out, so the filters stream.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "recread.h"
#include "chain.h"
#include "focus.h"

struct focus {
	enum focus_op	 op;
	int		 flags;
	regex_t		 re;
	struct frames	 fs;		/* frames of the stack */
	struct frames	 fl;		/* entries of the locations */
	struct buf	 name;		/* a decoded name */
	struct buf	 stack;		/* the kept frames */
	struct buf	 locs;
	unsigned char	*keep;		/* by frame */
	size_t		 cap;
};

static int	match(struct focus *, const struct sst_rec *, size_t);
static void	rebuild(struct focus *, struct sst_rec *);

struct focus *
focus_new(enum focus_op op, const char *ere, int flags, char *err,
    size_t errlen)
{
	struct focus *f;
	int e;

	f = xcalloc(1, sizeof(*f));
	f->op = op;
	f->flags = flags;
	if ((e = regcomp(&f->re, ere, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(e, &f->re, err, errlen);
		free(f);
		return NULL;
	}
	buf_init(&f->name);
	buf_init(&f->stack);
	buf_init(&f->locs);
	return f;
}

void
focus_free(struct focus *f)
{
	if (f == NULL)
		return;
	regfree(&f->re);
	frames_free(&f->fs);
	frames_free(&f->fl);
	buf_free(&f->name);
	buf_free(&f->stack);
	buf_free(&f->locs);
	free(f->keep);
	free(f);
}

/* Whether frame i of r (split into f->fs and f->fl) matches. */
static int
match(struct focus *f, const struct sst_rec *r, size_t i)
{
	const struct frames *fr;
	const char *s;
	regmatch_t m;
	size_t n;

	if (f->flags & FOCUS_LOC) {
		fr = &f->fl;
		s = r->locs;
		if (fr->n == 0) {
			s = "";
			n = 0;
		} else {
			s += fr->off[i];
			n = fr->off[i + 1] - 1 - fr->off[i];
		}
	} else {
		fr = &f->fs;
		s = r->stack + fr->off[i];
		n = fr->off[i + 1] - 1 - fr->off[i];
	}
	buf_reset(&f->name);
	buf_grow(&f->name, n + 1);
	n = esc_decode(f->name.data, s, n);
	f->name.data[n] = '\0';
	m.rm_so = 0;
	m.rm_eo = (regoff_t)n;
	return regexec(&f->re, f->name.data, 1, &m, REG_STARTEND) == 0;
}

/* Point r at its frames flagged in f->keep. */
static void
rebuild(struct focus *f, struct sst_rec *r)
{
	size_t i, a, b;
	int first;

	buf_reset(&f->stack);
	buf_reset(&f->locs);
	for (first = 1, i = 0; i < f->fs.n; i++) {
		if (!f->keep[i])
			continue;
		if (!first) {
			buf_addc(&f->stack, ';');
			if (f->fl.n > 0)
				buf_addc(&f->locs, ';');
		}
		first = 0;
		a = f->fs.off[i];
		b = f->fs.off[i + 1] - 1;
		buf_add(&f->stack, r->stack + a, b - a);
		if (f->fl.n > 0) {
			a = f->fl.off[i];
			b = f->fl.off[i + 1] - 1;
			buf_add(&f->locs, r->locs + a, b - a);
		}
	}
	r->stack = f->stack.data;
	r->stacklen = f->stack.len;
	r->locs = f->locs.data;
	r->locslen = f->locs.len;
}

int
focus_apply(struct focus *f, struct sst_rec *r)
{
	size_t i, n, k;
	int inv = (f->flags & FOCUS_INV) != 0, any;

	frames_split(&f->fs, r->stack, r->stacklen);
	frames_split(&f->fl, r->locs, r->locslen);
	n = f->fs.n;
	switch (f->op) {
	case FOCUS_KEEP:
	case FOCUS_DROP:
		for (any = 0, i = 0; i < n && !any; i++)
			any = match(f, r, i);
		return (any != inv) == (f->op == FOCUS_KEEP);
	case FOCUS_HIDE:
		if (n > f->cap) {
			f->cap = n;
			f->keep = xreallocarray(f->keep, n, 1);
		}
		for (k = 0, i = 0; i < n; i++)
			k += f->keep[i] = match(f, r, i) == inv;
		if (k == n)
			return 1;
		if (k == 0)
			return 0;
		rebuild(f, r);
		return 1;
	case FOCUS_PRUNE:
		for (i = n; i > 0 && !match(f, r, i - 1); i--)
			;
		if (i == 0 || i == n)
			return 1;
		/* Frames 0 to i - 1 stay: a prefix of both fields. */
		r->stacklen = f->fs.off[i] - 1;
		if (r->locslen > 0)
			r->locslen = f->fl.off[i] - 1;
		return 1;
	case FOCUS_FROM:
		for (i = 0; i < n && !match(f, r, i); i++)
			;
		if (i == n)
			return 0;
		r->stack += f->fs.off[i];
		r->stacklen -= f->fs.off[i];
		if (r->locslen > 0) {
			r->locs += f->fl.off[i];
			r->locslen -= f->fl.off[i];
		}
		return 1;
	}
	return 1;
}

int
focus_file(struct focus *f, const char *path, struct buf *err)
{
	struct sst_reader *rd;
	struct sst_rec r;
	char msg[512];
	int rc;

	if ((rd = rec_openfile(path, msg, sizeof(msg))) == NULL) {
		buf_reset(err);
		buf_adds(err, msg);
		return -1;
	}
	while ((rc = rec_read(rd, &r)) == 1)
		if (focus_apply(f, &r))
			rec_write(stdout, &r);
	if (rc == -1) {
		buf_reset(err);
		buf_adds(err, rec_error(rd));
	}
	rec_close(rd);
	return rc;
}

int
focus_run(enum focus_op op, int flags, int argc, char *argv[],
    struct buf *err, int *status)
{
	struct focus *f;
	char msg[256];
	int i, rc = 0;

	if ((f = focus_new(op, argv[0], flags, msg, sizeof(msg))) == NULL) {
		buf_reset(err);
		buf_adds(err, argv[0]);
		buf_adds(err, ": ");
		buf_adds(err, msg);
		*status = 2;
		return -1;
	}
	*status = 1;
	if (argc == 1)
		rc = focus_file(f, NULL, err);
	for (i = 1; i < argc && rc == 0; i++)
		rc = focus_file(f, argv[i], err);
	focus_free(f);
	return rc;
}
