/*
 * catmap.c: categories of functions (sst-categories), read from a JSON
 * object that maps each category name to a list of function names.
 * jsmn tokenizes the text (JSMN_STRICT and JSMN_PARENT_LINKS are set in
 * the Makefile); what it lets pass, such as the separators between
 * tokens, is checked here.  Names are kept escaped as in sst(5).
 * Errors are returned: -1 and a message "NAME: what" in a buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <jsmn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catmap.h"
#include "util.h"
#include "buf.h"
#include "esc.h"
#include "htab.h"

/* Where a load keeps its message. */
struct msg {
	char		*err;
	size_t		 errlen;
	const char	*name;
};

static int	fail(const struct msg *, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));
static char	*slurp(const char *, size_t *, const struct msg *);
static int	skipws(const char *, int);
static int	gap(const char *, const struct msg *, int, int, int);
static int	jstr(struct buf *, const char *, const jsmntok_t *);
static void	pututf8(struct buf *, unsigned long);
static int	readcats(struct catmap *, const char *, size_t,
		    const jsmntok_t *, int **, const struct msg *);
static int	readfuncs(struct catmap *, const char *, const jsmntok_t *,
		    const int *, const struct msg *);

/* An empty map. */
void
catmap_init(struct catmap *c)
{
	c->names = ht_new();
	c->func = ht_new();
	c->fcat = NULL;
}

/* The message "NAME: " and fmt into m's buffer; returns -1. */
static int
fail(const struct msg *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(m->err, m->errlen, "%s: ", m->name);
	if (n < 0 || (size_t)n >= m->errlen)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(m->err + n, m->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * The whole file path ("-": standard input), NUL-terminated; its length
 * in *len.  NULL if it cannot be read.
 */
static char *
slurp(const char *path, size_t *len, const struct msg *m)
{
	struct buf b;
	ssize_t n;
	int fd, e;

	fd = STDIN_FILENO;
	if (strcmp(path, "-") != 0 && (fd = open(path, O_RDONLY)) == -1) {
		fail(m, "%s", strerror(errno));
		return NULL;
	}
	buf_init(&b);
	do {
		buf_grow(&b, 65536);
		n = read(fd, b.data + b.len, 65536);
		if (n > 0)
			b.len += (size_t)n;
	} while (n > 0);
	e = errno;
	if (fd != STDIN_FILENO)
		close(fd);
	if (n == -1) {
		buf_free(&b);
		fail(m, "%s", strerror(e));
		return NULL;
	}
	b.data[b.len] = '\0';
	*len = b.len;
	return b.data;
}

/* The offset of the first byte at or after i that is not white space. */
static int
skipws(const char *s, int i)
{
	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
		i++;
	return i;
}

/*
 * Check that js[from..to) is white space around the separator sep (no
 * separator if 0), which jsmn does not check; -1 if not.
 */
static int
gap(const char *js, const struct msg *m, int from, int to, int sep)
{
	from = skipws(js, from);
	if ((sep != 0 && js[from++] != sep) || skipws(js, from) != to)
		return fail(m, "not valid JSON");
	return 0;
}

/* Append the string token t of js to b, decoded and escaped; -1 if bad. */
static int
jstr(struct buf *b, const char *js, const jsmntok_t *t)
{
	struct buf d;
	const char *s = js + t->start, *e = js + t->end;
	unsigned long cp, lo;
	char *p;

	buf_init(&d);
	for (; s < e; s++) {
		if ((unsigned char)*s < 0x20) {
			buf_free(&d);
			return -1;
		}
		if (*s != '\\') {
			buf_addc(&d, *s);
			continue;
		}
		p = strchr("b\bf\fn\nr\rt\t", *++s);
		if (*s != 'u') {
			buf_addc(&d, p != NULL ? p[1] : *s);
			continue;
		}
		cp = strtoul((char [5]){ s[1], s[2], s[3], s[4], 0 }, NULL, 16);
		s += 4;
		if (cp >= 0xd800 && cp < 0xdc00 && e - s > 6 && s[1] == '\\' &&
		    s[2] == 'u' && (lo = strtoul((char [5]){ s[3], s[4], s[5],
		    s[6], 0 }, NULL, 16)) >= 0xdc00 && lo < 0xe000) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			s += 6;
		}
		pututf8(&d, cp);
	}
	if (d.len == 0 && t->parent > 0)	/* a function, not a key */
		buf_adds(b, "\\e");
	else
		esc_add(b, d.data, d.len);
	buf_free(&d);
	return 0;
}

/* Append code point cp as UTF-8 (a lone surrogate as WTF-8). */
static void
pututf8(struct buf *b, unsigned long cp)
{
	static const unsigned char lead[] = { 0, 0, 0xc0, 0xe0, 0xf0 };
	char s[4];
	int i, n;

	n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
	for (i = n - 1; i > 0; i--, cp >>= 6)
		s[i] = (char)(0x80 | (cp & 0x3f));
	s[0] = (char)(lead[n] | cp);
	buf_add(b, s, (size_t)n);
}

/*
 * The categories of the object t[0] (of js[0..len)) into c's names,
 * and val[ci] the token of the last list of category ci; separators
 * checked.  0, or -1 and a message.
 */
static int
readcats(struct catmap *c, const char *js, size_t len, const jsmntok_t *t,
    int **valp, const struct msg *m)
{
	struct buf b;
	size_t ci;
	int i, k, n, pos, isnew, rc = -1;

	buf_init(&b);
	pos = t[0].start + 1;
	for (k = 1, n = 0; n < t[0].size; k += 2 + t[k + 1].size, n++) {
		if (gap(js, m, pos, t[k].start - 1, n > 0 ? ',' : 0) == -1)
			goto out;
		buf_reset(&b);
		if (t[k].size != 1 || jstr(&b, js, &t[k]) == -1) {
			fail(m, "not valid JSON");
			goto out;
		}
		ci = ht_intern(c->names, b.data, b.len, &isnew);
		if (isnew)
			*valp = xreallocarray(*valp, ci + 1, sizeof(**valp));
		(*valp)[ci] = k + 1;
		if (t[k + 1].type != JSMN_ARRAY) {
			fail(m, "category %s: not a list", b.data);
			goto out;
		}
		if (gap(js, m, t[k].end + 1, t[k + 1].start, ':') == -1)
			goto out;
		pos = t[k + 1].start + 1;
		for (i = k + 2; i < k + 2 + t[k + 1].size; i++) {
			if (t[i].type != JSMN_STRING) {
				fail(m, "category %s: not a list of strings",
				    b.data);
				goto out;
			}
			if (gap(js, m, pos, t[i].start - 1,
			    i > k + 2 ? ',' : 0) == -1)
				goto out;
			pos = t[i].end + 1;
		}
		if (gap(js, m, pos, t[k + 1].end - 1, 0) == -1)
			goto out;
		pos = t[k + 1].end;
	}
	if (gap(js, m, pos, t[0].end - 1, 0) == -1 ||
	    gap(js, m, t[0].end, (int)len, 0) == -1)
		goto out;
	rc = 0;
out:
	buf_free(&b);
	return rc;
}

/*
 * Each function of the last list val[ci] of each category ci into c's
 * functions, belonging to ci.  0, or -1 and a message.
 */
static int
readfuncs(struct catmap *c, const char *js, const jsmntok_t *t,
    const int *val, const struct msg *m)
{
	struct buf b;
	size_t ci, fi, nc;
	int i, isnew;

	buf_init(&b);
	nc = ht_count(c->names);
	for (ci = 0; ci < nc; ci++)
		for (i = val[ci] + 1; i <= val[ci] + t[val[ci]].size; i++) {
			buf_reset(&b);
			if (jstr(&b, js, &t[i]) == -1) {
				buf_free(&b);
				return fail(m, "not valid JSON");
			}
			fi = ht_intern(c->func, b.data, b.len, &isnew);
			if (isnew)
				c->fcat = xreallocarray(c->fcat, fi + 1,
				    sizeof(*c->fcat));
			c->fcat[fi] = ci;
		}
	buf_free(&b);
	return 0;
}

/*
 * Read the categories from the JSON text js (named name in messages):
 * the last list given for a category wins but the category keeps its
 * first place, and a function listed in several categories belongs to
 * the last of them, as when the reference fills its dictionaries.
 */
int
catmap_load(struct catmap *c, const char *js, size_t len, const char *name,
    char *err, size_t errlen)
{
	struct msg m = { err, errlen, name };
	jsmn_parser jp;
	jsmntok_t *t = NULL;
	int nt, *val = NULL, rc = -1;

	if (len > INT_MAX)
		return fail(&m, "file too large");
	jsmn_init(&jp);
	if ((nt = jsmn_parse(&jp, js, len, NULL, 0)) > 0) {
		t = xreallocarray(NULL, (size_t)nt, sizeof(*t));
		jsmn_init(&jp);
		nt = jsmn_parse(&jp, js, len, t, (unsigned)nt);
	}
	if (nt <= 0)
		fail(&m, "not valid JSON");
	else if (t[0].type != JSMN_OBJECT)
		fail(&m, "not a JSON object");
	else if (gap(js, &m, 0, t[0].start, 0) == 0 &&
	    readcats(c, js, len, t, &val, &m) == 0 &&
	    readfuncs(c, js, t, val, &m) == 0)
		rc = 0;
	free(val);
	free(t);
	return rc;
}

/* The same with the text of the file path. */
int
catmap_loadfile(struct catmap *c, const char *path, char *err,
    size_t errlen)
{
	struct msg m = { err, errlen, path };
	char *js;
	size_t len;
	int rc;

	if ((js = slurp(path, &len, &m)) == NULL)
		return -1;
	rc = catmap_load(c, js, len, path, err, errlen);
	free(js);
	return rc;
}

/* Free what the map holds. */
void
catmap_free(struct catmap *c)
{
	ht_free(c->names);
	ht_free(c->func);
	free(c->fcat);
}
