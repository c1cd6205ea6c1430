/*
 * catmap.c: categories of functions (sst-categories), read from a JSON
 * object that maps each category name to a list of function names.
 * jsmn tokenizes the text (JSMN_STRICT and JSMN_PARENT_LINKS are set in
 * the Makefile); what it lets pass, such as the separators between
 * tokens, is checked here.  Names are kept escaped as in sst(5).
 */
#include <err.h>
#include <jsmn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"

static char	*slurp(const char *, size_t *);
static int	skipws(const char *, int);
static void	gap(const char *, const char *, int, int, int);
static int	jstr(struct buf *, const char *, const jsmntok_t *);
static void	pututf8(struct buf *, unsigned long);

/* An empty map. */
void
catmap_init(struct catmap *c)
{
	c->names = ht_new();
	c->func = ht_new();
	c->fcat = NULL;
}

/* The whole file path, NUL-terminated; its length in *len. */
static char *
slurp(const char *path, size_t *len)
{
	struct buf b;
	ssize_t n;
	int fd;

	buf_init(&b);
	fd = xopen(path);
	do {
		buf_grow(&b, 65536);
		if ((n = read(fd, b.data + b.len, 65536)) == -1)
			err(1, "%s", path);
		b.len += (size_t)n;
	} while (n > 0);
	if (fd != STDIN_FILENO)
		close(fd);
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
 * separator if 0), which jsmn does not check.
 */
static void
gap(const char *js, const char *name, int from, int to, int sep)
{
	from = skipws(js, from);
	if ((sep != 0 && js[from++] != sep) || skipws(js, from) != to)
		errx(1, "%s: not valid JSON", name);
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
 * Read the categories from the JSON text js (named name in messages):
 * the last list given for a category wins but the category keeps its
 * first place, and a function listed in several categories belongs to
 * the last of them, as when the reference fills its dictionaries.
 */
void
catmap_xload(struct catmap *c, const char *js, size_t len,
    const char *name)
{
	jsmn_parser jp;
	jsmntok_t *t = NULL;
	struct buf b;
	size_t ci, fi, nc;
	int nt, i, k, m, pos, *val = NULL, isnew;

	if (len > INT_MAX)
		errx(1, "%s: file too large", name);
	jsmn_init(&jp);
	if ((nt = jsmn_parse(&jp, js, len, NULL, 0)) > 0) {
		t = xreallocarray(NULL, (size_t)nt, sizeof(*t));
		jsmn_init(&jp);
		nt = jsmn_parse(&jp, js, len, t, (unsigned)nt);
	}
	if (nt <= 0)
		errx(1, "%s: not valid JSON", name);
	if (t[0].type != JSMN_OBJECT)
		errx(1, "%s: not a JSON object", name);
	gap(js, name, 0, t[0].start, 0);
	buf_init(&b);
	pos = t[0].start + 1;
	for (k = 1, m = 0; m < t[0].size; k += 2 + t[k + 1].size, m++) {
		gap(js, name, pos, t[k].start - 1, m > 0 ? ',' : 0);
		buf_reset(&b);
		if (t[k].size != 1 || jstr(&b, js, &t[k]) == -1)
			errx(1, "%s: not valid JSON", name);
		ci = ht_intern(c->names, b.data, b.len, &isnew);
		if (isnew)
			val = xreallocarray(val, ci + 1, sizeof(*val));
		val[ci] = k + 1;
		if (t[k + 1].type != JSMN_ARRAY)
			errx(1, "%s: category %s: not a list", name, b.data);
		gap(js, name, t[k].end + 1, t[k + 1].start, ':');
		pos = t[k + 1].start + 1;
		for (i = k + 2; i < k + 2 + t[k + 1].size; i++) {
			if (t[i].type != JSMN_STRING)
				errx(1, "%s: category %s: not a list of "
				    "strings", name, b.data);
			gap(js, name, pos, t[i].start - 1, i > k + 2 ? ',' : 0);
			pos = t[i].end + 1;
		}
		gap(js, name, pos, t[k + 1].end - 1, 0);
		pos = t[k + 1].end;
	}
	gap(js, name, pos, t[0].end - 1, 0);
	gap(js, name, t[0].end, (int)len, 0);
	nc = ht_count(c->names);
	for (ci = 0; ci < nc; ci++)
		for (i = val[ci] + 1; i <= val[ci] + t[val[ci]].size; i++) {
			buf_reset(&b);
			if (jstr(&b, js, &t[i]) == -1)
				errx(1, "%s: not valid JSON", name);
			fi = ht_intern(c->func, b.data, b.len, &isnew);
			if (isnew)
				c->fcat = xreallocarray(c->fcat, fi + 1,
				    sizeof(*c->fcat));
			c->fcat[fi] = ci;
		}
	buf_free(&b);
	free(val);
	free(t);
}

/* The same with the text of the file path. */
void
catmap_xloadfile(struct catmap *c, const char *path)
{
	char *js;
	size_t len;

	js = slurp(path, &len);
	catmap_xload(c, js, len, path);
	free(js);
}

/* Free what the map holds. */
void
catmap_free(struct catmap *c)
{
	ht_free(c->names);
	ht_free(c->func);
	free(c->fcat);
}
