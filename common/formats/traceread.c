/*
 * traceread.c: reading one trace event (trace.c): the tokens, the
 * times as integer nanoseconds (trace_ns()), the categories of -c, -C
 * and -g, the names and Python frames (pyframe()), and the members of
 * an event into the reader's struct event (readevent()).
 */
#define _GNU_SOURCE		/* memmem */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "util.h"
#include "buf.h"
#include "json.h"
#include "htab.h"
#include "trace.h"
#include "traceint.h"

static void	 getid(struct trace *, enum json_tok, struct buf *,
		    const char *);
static int64_t	 getns(struct trace *, enum json_tok, const char *);
static void	 digit(char, char *, size_t *, long *, int *);
static int	 nsfast(const char *, size_t, int64_t *);
static int	 nsround(const char *, size_t, long, int, int, int64_t *);
static int	 nsgeneral(const char *, size_t, int64_t *);
static void	 readargs(struct trace *);
static uint32_t	 strid(struct trace *);
static enum gcat gpucat(const char *, size_t);
static int	 hascat(const char *, size_t, const char *);
static size_t	 funcpart(const char *, size_t, size_t *);
static void	 unaddress(struct buf *, const char *, size_t);

/* The next token; a tokenizer error fails (tr_fail()). */
enum json_tok
tr_next(struct trace *t)
{
	enum json_tok tok;

	if ((tok = json_next(t->j)) == JT_ERROR)
		tr_fail(t, "%s", json_errmsg(t->j));
	return tok;
}

/* Skip a value whose first token tok was just read. */
void
tr_skip(struct trace *t, enum json_tok tok)
{
	if (json_skip(t->j, tok) == -1)
		tr_fail(t, "%s", json_errmsg(t->j));
}

/* A pid or tid, number or string, into b behind a type byte. */
static void
getid(struct trace *t, enum json_tok tok, struct buf *b, const char *what)
{
	const char *s;
	size_t n;

	if (tok != JT_STR && tok != JT_NUM)
		tr_fail(t, "%s: expected a number or a string", what);
	s = json_text(t->j, &n);
	buf_reset(b);
	buf_addc(b, tok == JT_STR ? 's' : 'n');
	buf_add(b, s, n);
}

/* A time in microseconds (a number, or a string holding one) in ns. */
static int64_t
getns(struct trace *t, enum json_tok tok, const char *what)
{
	const char *s;
	size_t n;
	int64_t v;

	if (tok != JT_NUM && tok != JT_STR)
		tr_fail(t, "%s: expected a number", what);
	s = json_text(t->j, &n);
	if (trace_ns(s, n, &v) == -1) {
		if (tok == JT_STR)
			tr_fail(t, "%s: expected a number, not \"%s\"",
			    what, s);
		tr_fail(t, "%s: %s out of range", what, s);
	}
	return v;
}

/*
 * Add a digit of a number to dig: leading zeros only move the point
 * (*pt), digits past the 64th only tell whether they are all zero.
 */
static void
digit(char c, char *dig, size_t *nd, long *pt, int *rest)
{
	if (*nd == 0 && c == '0')
		(*pt)--;
	else if (*nd < 64)
		dig[(*nd)++] = c;
	else if (c != '0')
		*rest = 1;
}

/*
 * The usual number: up to 15 digits, then at most 3 decimals, in ns
 * into *out; -1 for any other form (nsgeneral() reads those).
 */
static int
nsfast(const char *s, size_t n, int64_t *out)
{
	const char *e = s + n, *p;
	uint64_t v = 0, f = 0;
	size_t nd = 0;

	for (p = s; p < e && *p >= '0' && *p <= '9' && p - s < 15; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (p == s || (p < e && (*p != '.' || e - p <= 1 || e - p > 4)))
		return -1;
	if (p < e)
		for (p++; p < e && *p >= '0' && *p <= '9'; p++)
			f = f * 10 + (uint64_t)(*p - '0'), nd++;
	if (p != e || (nd == 0 && e[-1] == '.'))
		return -1;
	for (; nd < 3; nd++)
		f *= 10;
	*out = (int64_t)(v * 1000 + f);
	return 0;
}

/*
 * The value of the digits dig[0..nd), pt of them before the point,
 * rest if digits past them were not all zero, rounded half to even,
 * negated if neg, into *out; -1 past 64 bits.
 */
static int
nsround(const char *dig, size_t nd, long pt, int rest, int neg,
    int64_t *out)
{
	uint64_t v = 0;
	size_t i;
	int up = 0;

	if (nd == 0 || pt < 0) {
		*out = 0;
		return 0;
	}
	if (pt > 19)
		return -1;
	for (i = 0; (long)i < pt; i++)
		v = v * 10 + (i < nd ? (uint64_t)(dig[i] - '0') : 0);
	/* What is left rounds half to even. */
	if ((size_t)pt < nd) {
		for (i = (size_t)pt + 1; i < nd; i++)
			if (dig[i] != '0')
				rest = 1;
		if (dig[pt] > '5' || (dig[pt] == '5' && (rest || (v & 1))))
			up = 1;
	}
	v += (uint64_t)up;
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* Any JSON number s[0..n) (sign, fraction, exponent) in ns into *out. */
static int
nsgeneral(const char *s, size_t n, int64_t *out)
{
	const char *e = s + n, *p = s, *ip, *ie, *fp = NULL, *fe = NULL;
	char dig[64];
	size_t nd = 0;
	long long x = 0;
	long pt;
	int neg = 0, esign = 1, rest = 0;

	if (p < e && *p == '-')
		neg = *p++ == '-';
	for (ip = p; p < e && *p >= '0' && *p <= '9'; p++)
		;
	if ((ie = p) == ip)
		return -1;
	if (p < e && *p == '.') {
		for (fp = ++p; p < e && *p >= '0' && *p <= '9'; p++)
			;
		if ((fe = p) == fp)
			return -1;
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		if (++p < e && (*p == '+' || *p == '-'))
			esign = *p++ == '-' ? -1 : 1;
		if (p == e)
			return -1;
		for (; p < e && *p >= '0' && *p <= '9'; p++)
			if (x < 100000)
				x = x * 10 + (*p - '0');
	}
	if (p != e)
		return -1;
	/* pt digits of dig stand before the point of the value in ns. */
	pt = (long)(ie - ip) + 3 + (long)(esign * x);
	for (p = ip; p < ie; p++)
		digit(*p, dig, &nd, &pt, &rest);
	for (p = fp; fp != NULL && p < fe; p++)
		digit(*p, dig, &nd, &pt, &rest);
	return nsround(dig, nd, pt, rest, neg, out);
}

int
trace_ns(const char *s, size_t n, int64_t *out)
{
	if (n > 0 && n <= 19 && nsfast(s, n, out) == 0)
		return 0;
	return nsgeneral(s, n, out);
}

struct htab *
trace_cats(const char *list)
{
	struct htab *h = ht_new();
	const char *p, *e;

	for (p = list;; p = e + 1) {
		if ((e = strchr(p, ',')) == NULL)
			e = p + strlen(p);
		if (e > p)
			ht_intern(h, p, (size_t)(e - p), NULL);
		if (*e == '\0')
			break;
	}
	return h;
}

int
trace_catok(const struct trace_opt *o, const char *cat, size_t n)
{
	const char *p, *e, *end = cat + n;
	int inkeep = 0;

	if (o->keep == NULL && o->drop == NULL)
		return 1;
	for (p = cat;; p = e + 1) {
		if ((e = memchr(p, ',', (size_t)(end - p))) == NULL)
			e = end;
		if (o->drop != NULL &&
		    ht_find(o->drop, p, (size_t)(e - p)) != (size_t)-1)
			return 0;
		if (o->keep != NULL &&
		    ht_find(o->keep, p, (size_t)(e - p)) != (size_t)-1)
			inkeep = 1;
		if (e == end)
			break;
	}
	return o->keep == NULL || inkeep;
}

/* The members of args that matter: name (of M events), correlation. */
static void
readargs(struct trace *t)
{
	enum json_tok tok;
	const char *k;
	size_t n;
	long long v;

	while ((tok = tr_next(t)) == JT_KEY) {
		k = json_text(t->j, &n);
		if (n == 4 && memcmp(k, "name", 4) == 0) {
			if ((tok = tr_next(t)) == JT_STR)
				t->ev.aname = strid(t);
			else
				tr_skip(t, tok);
		} else if (n == 11 && memcmp(k, "correlation", 11) == 0) {
			tok = tr_next(t);
			if (tok == JT_NUM && json_int(t->j, &v) == 0) {
				t->ev.corr = v;
				t->ev.hascorr = 1;
			} else
				tr_skip(t, tok);
		} else
			tr_skip(t, tok);
	}
}

/* The id of the string just read in the names table. */
static uint32_t
strid(struct trace *t)
{
	const char *v;
	size_t n, id;

	v = json_text(t->j, &n);
	if ((id = ht_intern(t->names, v, n, NULL)) >= t->pylow)
		tr_failx(t, "%s: too many names", json_name(t->j));
	return (uint32_t)id;
}

/*
 * Whether categories cat[0..n) hold one of GPU work, of a launch or of
 * a launch-to-GPU flow (the first such in the list).
 */
static enum gcat
gpucat(const char *cat, size_t n)
{
	const char *p, *e, *end = cat + n;

	for (p = cat;; p = e + 1) {
		if ((e = memchr(p, ',', (size_t)(end - p))) == NULL)
			e = end;
		if ((e - p == 6 && memcmp(p, "kernel", 6) == 0) ||
		    (e - p == 10 && memcmp(p, "gpu_memcpy", 10) == 0) ||
		    (e - p == 10 && memcmp(p, "gpu_memset", 10) == 0))
			return GC_GPU;
		if ((e - p == 12 && memcmp(p, "cuda_runtime", 12) == 0) ||
		    (e - p == 11 && memcmp(p, "cuda_driver", 11) == 0))
			return GC_LAUNCH;
		if (e - p == 4 && memcmp(p, "ac2g", 4) == 0)
			return GC_FLOW;
		if (e == end)
			return GC_NONE;
	}
}

/* Whether categories cat[0..n) (comma-separated) list c. */
static int
hascat(const char *cat, size_t n, const char *c)
{
	const char *p, *e, *end = cat + n;
	size_t cn = strlen(c);

	for (p = cat;; p = e + 1) {
		if ((e = memchr(p, ',', (size_t)(end - p))) == NULL)
			e = end;
		if ((size_t)(e - p) == cn && memcmp(p, c, cn) == 0)
			return 1;
		if (e == end)
			return 0;
	}
}

/*
 * Where FUNC starts in a name s[0..n) of the form "PATH(LINE): FUNC"
 * (PATH and FUNC not empty, LINE decimal digits, the first such "("),
 * with the place of that "(" in *paren; or 0 if it has not that form.
 */
static size_t
funcpart(const char *s, size_t n, size_t *paren)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		if (s[i] != '(')
			continue;
		for (j = i + 1; j < n && s[j] >= '0' && s[j] <= '9'; j++)
			;
		if (j > i + 1 && j + 3 < n && s[j] == ')' && s[j + 1] == ':' &&
		    s[j + 2] == ' ') {
			*paren = i;
			return j + 3;
		}
	}
	return 0;
}

/* s[0..n) into b without its " at 0x" and hexadecimal digits. */
static void
unaddress(struct buf *b, const char *s, size_t n)
{
	const char *e = s + n, *p, *h;

	buf_reset(b);
	while ((p = memmem(s, (size_t)(e - s), " at 0x", 6)) != NULL) {
		for (h = p + 6; h < e && ((*h >= '0' && *h <= '9') ||
		    (*h >= 'a' && *h <= 'f') || (*h >= 'A' && *h <= 'F')); h++)
			;
		buf_add(b, s, (size_t)((h > p + 6 ? p : h) - s));
		s = h;
	}
	buf_add(b, s, (size_t)(e - s));
}

/*
 * The frame of name id raw as a python_function's: "PATH(LINE): FUNC"
 * is FUNC (without addresses) at PATH:LINE, any other name the name
 * without addresses.  Worked out once per name.
 */
uint32_t
tr_pyframe(struct trace *t, uint32_t raw)
{
	struct buf *b = &t->scratch[0], *f = &t->scratch[1];
	const char *s;
	size_t n, fs, cap, p, paren = 0;
	uint32_t key[2], id;

	if (raw < t->cookcap && t->cook[raw] != 0)
		return t->cook[raw] - 1;
	s = ht_key(t->names, raw, &n);
	buf_reset(b);
	buf_add(b, s, n);
	fs = funcpart(b->data, b->len, &paren);
	unaddress(f, b->data + fs, b->len - fs);
	id = (uint32_t)ht_intern(t->names, f->data, f->len, NULL);
	if (id >= t->pylow)
		tr_failx(t, "%s: too many names", json_name(t->j));
	if (fs > 0) {
		b->data[paren] = ':';		/* PATH(LINE) as PATH:LINE */
		key[0] = id;
		key[1] = (uint32_t)ht_intern(t->locs, b->data, fs - 3, NULL);
		p = ht_intern(t->pyf, key, sizeof(key), NULL);
		if (p >= t->pycap) {
			t->pycap = xgrowcap(t->pycap, p + 1, 256);
			t->pyname = xreallocarray(t->pyname, t->pycap,
			    sizeof(*t->pyname));
			t->pyloc = xreallocarray(t->pyloc, t->pycap,
			    sizeof(*t->pyloc));
		}
		t->pyname[p] = key[0];
		t->pyloc[p] = key[1];
		id = NAMEMASK - 1 - (uint32_t)p;
		if (id <= ht_count(t->names))
			tr_failx(t, "%s: too many names", json_name(t->j));
		if (id < t->pylow)
			t->pylow = id;
	}
	if (raw >= t->cookcap) {
		cap = xgrowcap(t->cookcap, raw + 1, 256);
		t->cook = xreallocarray(t->cook, cap, sizeof(*t->cook));
		memset(t->cook + t->cookcap, 0,
		    (cap - t->cookcap) * sizeof(*t->cook));
		t->cookcap = cap;
	}
	t->cook[raw] = id + 1;
	return id;
}

/*
 * The name id of frame id, and in *loc its location's id in the locs
 * table, or NONE.
 */
uint32_t
tr_frameof(const struct trace *t, uint32_t id, uint32_t *loc)
{
	if (id < t->pylow) {
		*loc = NONE;
		return id;
	}
	*loc = t->pyloc[NAMEMASK - 1 - id];
	return t->pyname[NAMEMASK - 1 - id];
}

/* Read one event object, its '{' just read, and act on it. */
void
tr_readevent(struct trace *t)
{
	struct event *ev = &t->ev;
	enum json_tok tok;
	const char *k;
	long long id;
	size_t n;

	ev->ph = 0;
	ev->name = ev->aname = NONE;
	ev->kept = t->nocatok;
	ev->gpu = GC_NONE;
	ev->py = 0;
	buf_reset(&ev->pid);
	buf_reset(&ev->tid);
	ev->hasts = ev->hasdur = ev->hascorr = ev->hasid = 0;
	ev->corr = 0;
	while ((tok = tr_next(t)) == JT_KEY) {
		k = json_text(t->j, &n);
		if (n == 2 && memcmp(k, "ph", 2) == 0) {
			if (tr_next(t) != JT_STR)
				tr_fail(t, "ph: expected a string");
			k = json_text(t->j, &n);
			ev->ph = n == 1 ? (unsigned char)k[0] : n == 0 ? 0 : -1;
		} else if (n == 4 && memcmp(k, "name", 4) == 0) {
			if ((tok = tr_next(t)) == JT_STR)
				ev->name = strid(t);
			else
				tr_skip(t, tok);
		} else if (n == 3 && memcmp(k, "cat", 3) == 0) {
			if ((tok = tr_next(t)) == JT_STR) {
				k = json_text(t->j, &n);
				ev->kept = trace_catok(t->opt, k, n);
				ev->gpu = gpucat(k, n);
				ev->py = hascat(k, n, "python_function");
			} else
				tr_skip(t, tok);
		} else if (n == 3 && memcmp(k, "pid", 3) == 0)
			getid(t, tr_next(t), &ev->pid, "pid");
		else if (n == 3 && memcmp(k, "tid", 3) == 0)
			getid(t, tr_next(t), &ev->tid, "tid");
		else if (n == 2 && memcmp(k, "ts", 2) == 0) {
			ev->ts = getns(t, tr_next(t), "ts");
			ev->hasts = 1;
		} else if (n == 3 && memcmp(k, "dur", 3) == 0) {
			ev->dur = getns(t, tr_next(t), "dur");
			if (ev->dur < 0)
				tr_fail(t, "dur: negative duration");
			ev->hasdur = 1;
		} else if (n == 4 && memcmp(k, "args", 4) == 0) {
			if ((tok = tr_next(t)) == JT_OBJ)
				readargs(t);
			else
				tr_skip(t, tok);
		} else if (n == 2 && memcmp(k, "id", 2) == 0 && t->opt->gpu) {
			tok = tr_next(t);
			if (tok == JT_NUM && json_int(t->j, &id) == 0) {
				ev->id = id;
				ev->hasid = 1;
			} else
				tr_skip(t, tok);
		} else
			tr_skip(t, tr_next(t));
	}
	/* A missing pid or tid is an empty one. */
	if (ev->pid.len == 0)
		buf_addc(&ev->pid, 'm');
	if (ev->tid.len == 0)
		buf_addc(&ev->tid, 'm');
	tr_dispatch(t);
}
