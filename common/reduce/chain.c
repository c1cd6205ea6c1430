/*
 * chain.c: chain rows, the output of sst-callers(1), sst-callees(1) and
 * sst-stacks(1) and the input of sst-tree(1).  A chain is a run of
 * frames of a stack; records are grouped by (thread, chain), each group
 * with its samples and its weight added sample by sample in stream
 * order, and the groups are written heaviest first as
 *
 *	samples TAB weight TAB unit TAB thread TAB chain [TAB spans]
 *
 * with the names escaped as in the stream, and the sixth field when the
 * records were those of a timed stream (kind.h), so that sst-tree(1)
 * counts spans and not samples; chainrow_parse() reads such a
 * row back, and chainset_read() reads a file of them whole.  The frames
 * helpers split a stack field into frames and find a frame by its
 * escaped name.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chain.h"
#include "util.h"
#include "buf.h"
#include "lines.h"
#include "esc.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "tally.h"
#include "kind.h"

struct chains {
	struct tally	 tally;		/* by "thread TAB chain", escaped */
	struct buf	 key;
	enum sst_unit	 unit;		/* of the last record added */
	struct kind	 kind;		/* of the records added */
};

int
chainrow_parse(const char *line, size_t len, struct chainrow *r,
    const char **why)
{
	const char *f[6], *e = line + len, *t;
	size_t fl[6];
	int i;

	f[0] = line;
	for (i = 1; i < 5; i++) {
		if ((f[i] = memchr(f[i - 1], '\t', (size_t)(e - f[i - 1]))) ==
		    NULL) {
			*why = "expected 5 TAB-separated fields";
			return -1;
		}
		fl[i - 1] = (size_t)(f[i]++ - f[i - 1]);
	}
	fl[4] = (size_t)(e - f[4]);
	r->timed = 0;
	if ((t = memchr(f[4], '\t', fl[4])) != NULL) {
		f[5] = t + 1;
		fl[5] = (size_t)(e - f[5]);
		fl[4] = (size_t)(t - f[4]);
		if (fl[5] != 5 || memcmp(f[5], "spans", 5) != 0) {
			*why = "expected 5 TAB-separated fields, or 6 with "
			    "spans last";
			return -1;
		}
		r->timed = 1;
	}
	*why = NULL;
	if (fmt_strtou64(f[0], fl[0], &r->samples) == -1)
		*why = "bad sample count";
	else if (fmt_strtod(f[1], fl[1], &r->weight) == -1)
		*why = "bad weight";
	else if (rec_parseunit(f[2], fl[2], &r->unit) == -1)
		*why = "bad unit";
	else if (esc_valid(f[3], fl[3]) == -1 || esc_valid(f[4], fl[4]) == -1)
		*why = "bad escape sequence";
	r->thread = f[3];
	r->threadlen = fl[3];
	r->chain = f[4];
	r->chainlen = fl[4];
	return *why == NULL ? 0 : -1;
}

int
chainset_read(struct chainset *cs, const char *path, char *msg, size_t mlen)
{
	struct lines *l;
	const char *why;
	char *line;
	size_t len;
	int fd, rc = 0;

	fd = STDIN_FILENO;
	if (path != NULL && strcmp(path, "-") != 0 &&
	    (fd = open(path, O_RDONLY)) == -1) {
		snprintf(msg, mlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	l = lines_open(fd, path);
	while ((line = lines_next(l, &len)) != NULL) {
		if (cs->n == cs->cap) {
			cs->cap = xgrowcap(cs->cap, cs->n + 1, 64);
			cs->rows = xreallocarray(cs->rows, cs->cap,
			    sizeof(*cs->rows));
			cs->lines = xreallocarray(cs->lines, cs->cap,
			    sizeof(*cs->lines));
		}
		cs->lines[cs->n] = xmemdup(line, len);
		if (chainrow_parse(cs->lines[cs->n], len, &cs->rows[cs->n],
		    &why) == -1) {
			snprintf(msg, mlen, "%s:%llu: %s", lines_name(l),
			    lines_lineno(l), why);
			rc = -1;
		} else if (cs->n > 0 &&
		    cs->rows[cs->n].unit != cs->rows[0].unit) {
			snprintf(msg, mlen, "%s:%llu: unit %s after unit %s: "
			    "rows of one unit only", lines_name(l),
			    lines_lineno(l),
			    rec_unitname(cs->rows[cs->n].unit),
			    rec_unitname(cs->rows[0].unit));
			rc = -1;
		}
		if (rc == -1) {
			free(cs->lines[cs->n]);
			break;
		}
		cs->n++;
	}
	if (rc == 0 && lines_error(l) != NULL) {
		snprintf(msg, mlen, "%s", lines_error(l));
		rc = -1;
	}
	lines_close(l);
	if (fd != STDIN_FILENO)
		close(fd);
	return rc;
}

void
chainset_free(struct chainset *cs)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		free(cs->lines[i]);
	free(cs->lines);
	free(cs->rows);
	memset(cs, 0, sizeof(*cs));
}

const char *
chainset_common(const struct chainset *cs, int last, size_t *len)
{
	const struct chainrow *r;
	const char *p, *f = NULL, *q;
	size_t i, n;

	for (i = 0; i < cs->n; i++) {
		r = &cs->rows[i];
		if (r->chainlen == 0)
			continue;
		if (last) {
			for (p = r->chain + r->chainlen; p > r->chain &&
			    p[-1] != ';'; p--)
				;
			n = (size_t)(r->chain + r->chainlen - p);
		} else {
			p = r->chain;
			q = memchr(p, ';', r->chainlen);
			n = q != NULL ? (size_t)(q - p) : r->chainlen;
		}
		if (f == NULL) {
			f = p;
			*len = n;
		} else if (n != *len || memcmp(p, f, n) != 0)
			return NULL;
	}
	return f;
}

const char *
chainset_name(const struct chainset *cs, int last, int first,
    struct buf *b)
{
	const char *f = NULL;
	size_t n;

	if (last)
		f = chainset_common(cs, 1, &n);
	if (f == NULL && first)
		f = chainset_common(cs, 0, &n);
	if (f == NULL)
		return NULL;
	buf_reset(b);
	buf_grow(b, n + 1);
	n = esc_decode(b->data, f, n);
	b->data[n] = '\0';
	return b->data;
}

const char *
chain_shortthread(const char *s, size_t len, size_t *olen)
{
	const char *q1, *q2;

	*olen = len;
	for (q1 = s + len; q1 > s && q1[-1] != '"'; q1--)
		;
	if (q1-- == s)
		return s;
	for (q2 = q1; q2 > s && q2[-1] != '"'; q2--)
		;
	*olen = (size_t)(q1 - q2);
	return q2;
}

void
frames_split(struct frames *f, const char *s, size_t n)
{
	const char *p, *e = s + n;

	f->n = 0;
	if (n == 0)
		return;
	for (p = s;; p++) {
		if (f->n + 2 > f->cap)
			f->off = xgrow(f->off, &f->cap, f->n + 2, 64,
			    sizeof(*f->off));
		f->off[f->n++] = (size_t)(p - s);
		if ((p = memchr(p, ';', (size_t)(e - p))) == NULL)
			break;
	}
	f->off[f->n] = n + 1;
}

size_t
frames_find(const struct frames *f, const char *s, const char *name,
    size_t len, int last)
{
	size_t i, k;

	for (k = 0; k < f->n; k++) {
		i = last ? f->n - 1 - k : k;
		if (f->off[i + 1] - 1 - f->off[i] == len &&
		    memcmp(s + f->off[i], name, len) == 0)
			return i;
	}
	return (size_t)-1;
}

const char *
frames_span(const struct frames *f, const char *s, size_t a, size_t b,
    size_t *len)
{
	if (a >= b) {
		*len = 0;
		return s;
	}
	*len = f->off[b] - 1 - f->off[a];
	return s + f->off[a];
}

void
frames_free(struct frames *f)
{
	free(f->off);
	memset(f, 0, sizeof(*f));
}

struct chains *
chains_new(void)
{
	struct chains *c;

	c = xcalloc(1, sizeof(*c));
	tally_init(&c->tally);
	kind_init(&c->kind);
	buf_init(&c->key);
	return c;
}

int
chains_add(struct chains *c, const char *thread, size_t tlen,
    const char *chain, size_t clen, const struct sst_rec *r)
{
	buf_reset(&c->key);
	buf_add(&c->key, thread, tlen);
	buf_addc(&c->key, '\t');
	buf_add(&c->key, chain, clen);
	c->unit = r->unit;
	kind_add(&c->kind, r);
	tally_add(&c->tally, c->key.data, c->key.len, r);
	return c->tally.over != NULL ? -1 : 0;
}

void
chains_kind(struct chains *c, const struct sst_rec *r)
{
	kind_add(&c->kind, r);
}

const char *
chains_over(const struct chains *c)
{
	return c->tally.over;
}

void
chains_put(const struct chains *c, long long max)
{
	char wb[FMTBUF];
	size_t *ix, i, n = tally_count(&c->tally);

	ix = tally_sort(&c->tally);
	if (max >= 0 && (unsigned long long)max < n)
		n = (size_t)max;
	for (i = 0; i < n; i++) {
		fmt_double(wb, sizeof(wb), c->tally.weight[ix[i]]);
		printf("%llu\t%s\t%s\t%s%s\n",
		    (unsigned long long)c->tally.samples[ix[i]], wb,
		    rec_unitname(c->unit), ht_key(c->tally.keys, ix[i], NULL),
		    kind_timed(&c->kind, c->unit) ? "\tspans" : "");
	}
	free(ix);
}

void
chains_free(struct chains *c)
{
	if (c == NULL)
		return;
	tally_free(&c->tally);
	buf_free(&c->key);
	free(c);
}

/* Does r hold more than one frame?  (Its chain has a ';'.) */
int
chainrow_deep(const struct chainrow *r)
{
	return memchr(r->chain, ';', r->chainlen) != NULL;
}

/* How many of k rows Python's rows[:num] keeps. */
size_t
chain_shown(int hasnum, long long num, size_t k)
{
	if (!hasnum)
		return k;
	if (num >= 0)
		return (unsigned long long)num < k ? (size_t)num : k;
	return (unsigned long long)-num < k ? k - (size_t)-num : 0;
}

/* s[0, n) decoded from its escapes into b; its length in *len. */
static const char *
chain_decode(struct buf *b, const char *s, size_t n, size_t *len)
{
	buf_reset(b);
	buf_grow(b, n + 1);
	*len = esc_decode(b->data, s, n);
	return b->data;
}

/* Write the short thread name of r to fp, decoded in scratch. */
void
chainrow_putthread(FILE *fp, const struct chainrow *r, struct buf *scratch)
{
	const char *s;
	size_t len;

	s = chain_decode(scratch, r->thread, r->threadlen, &len);
	s = chain_shortthread(s, len, &len);
	fwrite(s, 1, len, fp);
}

/* Write the frames of r to fp, one a line, indented and marked as m says. */
void
chainrow_putframes(FILE *fp, const struct chainrow *r, int indent,
    enum chainmark m, const char *name, struct buf *scratch)
{
	const char *p, *e, *q, *s;
	size_t d, len;
	int hit;

	p = r->chain;
	e = p + r->chainlen;
	for (d = 0; r->chainlen > 0; d++, p = q + 1) {
		if ((q = memchr(p, ';', (size_t)(e - p))) == NULL)
			q = e;
		s = chain_decode(scratch, p, (size_t)(q - p), &len);
		fprintf(fp, "%*s", indent + 2 * (int)d, "");
		if (m == CM_LAST)
			hit = q == e;
		else if (m == CM_NAME)
			hit = strlen(name) == len &&
			    memcmp(s, name, len) == 0;
		else
			hit = d == 0;
		if (hit)
			fputs("** ", fp);
		else if (m == CM_CALLEE && q == e)
			fputs("-> ", fp);
		fwrite(s, 1, len, fp);
		fputs(hit ? " **\n" : "\n", fp);
		if (q == e)
			break;
	}
}
