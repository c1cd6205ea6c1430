/*
 * perf2sst: convert the text that perf script prints to an sst(5)
 * stream.  By default samples are collapsed by the rules of Ray's
 * perf.py; -F picks the rules and views of stackcollapse-perf.pl.  A
 * sample weighs 1 (unit none) or, with -F period, its header's period.
 * Each distinct frame line is parsed once: a cache maps its text to the
 * id of its escaped frames, and records are keyed by thread and ids.
 */
#define _GNU_SOURCE
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"

#define MAXWARN	10
#define LCMAX	(1 << 18)	/* frame lines cached before a reset */
#define NOFRAME	UINT32_MAX	/* a frame line that adds no frame */
#define BADLINE	(UINT32_MAX - 1) /* a line that is no frame line */
#define PLWS(c)	((c) == ' ' || ((c) >= '\t' && (c) <= '\r'))
#define PYWS(c)	(PLWS(c) || ((c) >= 0x1c && (c) <= 0x1f))
#define DIGIT(c) ((c) >= '0' && (c) <= '9')

enum { ID_COMM, ID_PID, ID_TID };

struct acc {
	uint64_t	 n;
	double		 sum, per;
	int		 same;
};

struct cache {
	struct htab	*ht;		/* frame line texts */
	uint32_t	*id;		/* by line: names id, NOFRAME, BADLINE */
	size_t		 cap;
};

struct conv {
	int		 fg, ray, id, kernel, jit, addrs, period, sflag;
	struct htab	*names;		/* escaped frames joined by ';' */
	struct cache	 lc[2];		/* for other threads, for java */
	struct htab	*recs;		/* thread TAB names ids, unit */
	struct acc	*acc;
	size_t		 accap;
	const char	*name;		/* of the input */
	unsigned long long lineno;
	unsigned	 nwarn;
	int		 hdr;		/* 0 none, 1 sample header, 2 skipped */
	int		 java;		/* the thread's name starts "java" */
	struct buf	 thread;	/* escaped */
	uint32_t	*ids;		/* the sample's names ids, leaf first */
	size_t		 nids, idcap;
	double		 w;
	enum sst_unit	 unit;
	struct buf	 filter;	/* -F: the one event kept */
	int		 hasfilter, filtwarn;
	struct buf	 chunk, key, tmp;
};

static void	warnline(struct conv *, const char *);
static const char *lastpair(const char *, const char *, char, char);
static const char *stripoff(const char *, const char *);
static int	event(const char *, size_t, const char **, size_t *,
		    double *);
static void	setweight(struct conv *, const char *, size_t, double);
static void	addname(struct conv *, const char *, size_t);
static int	rayframe(struct conv *, const char *, const char *);
static void	fgpiece(struct conv *, const char *, const char *, int,
		    const char *, const char *, const char *, const char *);
static int	fgframe(struct conv *, const char *, const char *);
static uint32_t	frame(struct conv *, const char *, const char *, int);
static void	stack(struct conv *, const uint32_t *, size_t, struct buf *);
static void	endsample(struct conv *);
static void	push(struct conv *, uint32_t);
static void	rayline(struct conv *, const char *, size_t);
static int	fghead(struct conv *, const char *, size_t);
static void	fgline(struct conv *, const char *, size_t);
static void	readfile(struct conv *, const char *);
static void	view(struct conv *, char *);
static __dead void usage(void);

/* Warn about the current line; only the first MAXWARN of an input. */
static void
warnline(struct conv *c, const char *msg)
{
	if (c->nwarn++ < MAXWARN)
		warnx("%s:%llu: %s", c->name, c->lineno, msg);
}

/* The last "ab" in [s, e), or NULL. */
static const char *
lastpair(const char *s, const char *e, char a, char b)
{
	const char *p;

	while (e - s >= 2 && (p = memrchr(s + 1, b, (size_t)(e - s - 1)))) {
		if (p[-1] == a)
			return p - 1;
		e = p;
	}
	return NULL;
}

/* The end of [s, e) without a trailing "+0x" and lower-case hex digits. */
static const char *
stripoff(const char *s, const char *e)
{
	const char *q = e;

	while (q > s && (DIGIT(q[-1]) || (q[-1] >= 'a' && q[-1] <= 'f')))
		q--;
	if (q < e && q - s >= 3 && memcmp(q - 3, "+0x", 3) == 0)
		return q - 3;
	return e;
}

/* The event and period that end a header, "...: [period] event:". */
static int
event(const char *s, size_t n, const char **ev, size_t *evn, double *per)
{
	const char *e = s + n, *t, *w, *d;

	while (e > s && PLWS(e[-1]))
		e--;
	for (t = e; t > s && !PLWS(t[-1]); t--)
		;
	if (e - t < 2 || e[-1] != ':' || t == s)
		return 0;
	for (w = t; w > s && PLWS(w[-1]); w--)
		;
	for (d = w; d > s && DIGIT(d[-1]); d--)
		;
	*ev = t;
	*evn = (size_t)(e - 1 - t);
	if (d == w)
		return w > s && w[-1] == ':';
	for (t = d; t > s && PLWS(t[-1]); t--)
		;
	if (t == s || t[-1] != ':')
		return 0;
	for (; d < w; d++)
		*per = *per * 10 + (*d - '0');
	return 1;
}

/* Weigh the next samples by the period per of event ev (-F period). */
static void
setweight(struct conv *c, const char *ev, size_t evn, double per)
{
	const char *p;

	c->w = 1;
	c->unit = U_NONE;
	if (!c->period || per == 0)
		return;
	c->w = per;
	if ((p = memchr(ev, ':', evn)) != NULL)
		evn = (size_t)(p - ev);
	if ((evn == 9 && memcmp(ev, "cpu-clock", 9) == 0) ||
	    (evn == 10 && memcmp(ev, "task-clock", 10) == 0)) {
		c->w = per * 1e-9;
		c->unit = U_SECONDS;
	}
}

/* Add a frame name to the chunk, each ';' made ':', escaped. */
static void
addname(struct conv *c, const char *s, size_t n)
{
	const char *p, *e = s + n;

	if (c->chunk.len > 0)
		buf_addc(&c->chunk, ';');
	if (n == 0)
		buf_add(&c->chunk, "\\e", 2);
	while ((p = memchr(s, ';', (size_t)(e - s))) != NULL) {
		esc_add(&c->chunk, s, (size_t)(p - s));
		buf_addc(&c->chunk, ':');
		s = p + 1;
	}
	esc_add(&c->chunk, s, (size_t)(e - s));
}

/* The frame of a frame line "addr func (dso)" by perf.py's rules. */
static int
rayframe(struct conv *c, const char *t, const char *e)
{
	const char *sp, *r, *re, *d = NULL, *de = NULL, *b;

	if ((sp = memchr(t, ' ', (size_t)(e - t))) == NULL)
		return -1;
	r = sp + 1;
	re = e;
	if (re[-1] == ')' && (d = lastpair(r, re, ' ', '(')) != NULL) {
		re = d;
		for (d += 2, de = e - 1; d < de && PYWS((unsigned char)*d); d++)
			;
		while (de > d && PYWS((unsigned char)de[-1]))
			de--;
	}
	re = stripoff(r, re);
	if (re - r != 9 || memcmp(r, "[unknown]", 9) != 0) {
		addname(c, r, (size_t)(re - r));
		return 0;
	}
	buf_reset(&c->tmp);
	if (de != NULL && d < de && !(de - d == 7 &&
	    memcmp(d, "unknown", 7) == 0) && !(de - d == 9 &&
	    memcmp(d, "[unknown]", 9) == 0)) {
		b = memrchr(d, '/', (size_t)(de - d));
		b = b != NULL ? b + 1 : d;
		buf_adds(&c->tmp, "unk_");
		buf_add(&c->tmp, b, (size_t)(de - b));
		buf_adds(&c->tmp, "@0x");
	} else
		buf_adds(&c->tmp, "unk_0x");
	buf_add(&c->tmp, t, (size_t)(sp - t));
	addname(c, c->tmp.data, c->tmp.len);
	return 0;
}

/* One piece of a frame split at "->": tidied, annotated and added. */
static void
fgpiece(struct conv *c, const char *p, const char *e, int first,
    const char *pc, const char *pce, const char *mod, const char *me)
{
	struct buf *t = &c->tmp;
	const char *b, *q, *x;
	size_t i, j, mn = (size_t)(me - mod);

	buf_reset(t);
	if (e - p == 9 && memcmp(p, "[unknown]", 9) == 0) {
		buf_addc(t, '[');
		if (mn == 9 && memcmp(mod, "[unknown]", 9) == 0)
			buf_adds(t, "unknown");
		else {
			b = memrchr(mod, '/', mn);
			b = b != NULL ? b + 1 : mod;
			buf_add(t, b, (size_t)(me - b));
		}
		if (c->addrs) {
			buf_adds(t, " <");
			buf_add(t, pc, (size_t)(pce - pc));
			buf_addc(t, '>');
		}
		buf_addc(t, ']');
	} else
		buf_add(t, p, (size_t)(e - p));
	/* Go's "pkg.(*T).M" keeps its parentheses, others lose them. */
	q = memmem(t->data, t->len, ".(", 2);
	x = lastpair(t->data, t->data + t->len, ')', '.');
	for (i = 0; (q == NULL || x == NULL || x < q + 2) && i < t->len; i++)
		if (t->data[i] == '(' && strncmp(t->data + i + 1,
		    "anonymous namespace)", 20) != 0)
			t->len = i;
	for (i = j = 0; i < t->len; i++)
		if (t->data[i] != '"' && t->data[i] != '\'')
			t->data[j++] = t->data[i];
	t->len = j;
	t->data[j] = '\0';
	if (c->java && t->len > 0 && t->data[0] == 'L' &&
	    memchr(t->data, '/', t->len) != NULL)
		memmove(t->data, t->data + 1, t->len--);
	if (!first) {
		if (strstr(t->data, "_[i]") == NULL)
			buf_adds(t, "_[i]");
	} else if (c->kernel && mn > 0 && (*mod == '[' || (mn >= 7 &&
	    memcmp(me - 7, "vmlinux", 7) == 0)) &&
	    memmem(mod, mn, "unknown", 7) == NULL)
		buf_adds(t, "_[k]");
	else if (c->jit && strstr(t->data, "_[j]") == NULL)
		for (q = mod; (q = memmem(q, (size_t)(me - q), "/tmp/perf-",
		    10)) != NULL;) {
			for (x = q += 10; x < me && DIGIT(*x); x++)
				;
			if (x > q && me - x >= 4 && memcmp(x, ".map", 4) == 0) {
				buf_adds(t, "_[j]");
				break;
			}
		}
	addname(c, t->data, t->len);
}

/*
 * The frames of a frame line "pc func (mod)" by stackcollapse-perf.pl's
 * rules, its regular expression's backtracking included; -1 if none.
 */
static int
fgframe(struct conv *c, const char *s, const char *e)
{
	const char *a, *b, *w, *k, *r, *f, *fe, *p;
	int first;

	for (a = s; a < e && PLWS(*a); a++)
		;
	for (b = a; b < e && (DIGIT(*b) || *b == '_' ||
	    ((*b | 0x20) >= 'a' && (*b | 0x20) <= 'z')); b++)
		;
	for (w = b; w < e && PLWS(*w); w++)
		;
	if (b == a || (r = memrchr(s, ')', (size_t)(e - s))) == NULL ||
	    (k = lastpair(s, r, ' ', '(')) == NULL)
		return -1;
	if (k == b)
		b--;
	if (k < b || b == a)
		return -1;
	f = k > w ? w : k - 1;
	fe = stripoff(f, k);
	if (fe > f && *f == '(')
		return 0;
	while (fe - f >= 2 && fe[-2] == '-' && fe[-1] == '>')
		fe -= 2;
	for (first = 1; fe > f; first = 0) {
		p = memmem(f, (size_t)(fe - f), "->", 2);
		fgpiece(c, f, p ? p : fe, first, a, b, k + 2, r);
		if (p == NULL)
			break;
		f = p + 2;
	}
	return 0;
}

/* The names id of the frame line [t, e), parsed once, then cached. */
static uint32_t
frame(struct conv *c, const char *t, const char *e, int java)
{
	struct cache *lc = &c->lc[java];
	size_t id;
	int isnew;

	if (ht_count(lc->ht) >= LCMAX) {
		ht_free(lc->ht);
		lc->ht = ht_new();
	}
	id = ht_intern(lc->ht, t, (size_t)(e - t), &isnew);
	if (!isnew)
		return lc->id[id];
	if (id == lc->cap) {
		lc->cap = lc->cap ? lc->cap * 2 : 1024;
		lc->id = xreallocarray(lc->id, lc->cap, sizeof(*lc->id));
	}
	buf_reset(&c->chunk);
	if ((c->fg ? fgframe(c, t, e) : rayframe(c, t, e)) == -1)
		lc->id[id] = BADLINE;
	else if (c->chunk.len == 0)
		lc->id[id] = NOFRAME;
	else
		lc->id[id] = (uint32_t)ht_intern(c->names, c->chunk.data,
		    c->chunk.len, NULL);
	return lc->id[id];
}

/* Append the stack of names ids (leaf first) to b, root first. */
static void
stack(struct conv *c, const uint32_t *ids, size_t n, struct buf *b)
{
	const char *k;
	size_t len;

	while (n-- > 0) {
		k = ht_key(c->names, ids[n], &len);
		buf_add(b, k, len);
		if (n > 0)
			buf_addc(b, ';');
	}
}

/* A sample ends: write it (-s) or add it to its record. */
static void
endsample(struct conv *c)
{
	struct acc *a;
	size_t id, ks;
	int isnew;

	buf_reset(&c->key);
	buf_add(&c->key, c->thread.data, c->thread.len);
	buf_addc(&c->key, '\t');
	ks = c->key.len;
	if (c->sflag) {
		stack(c, c->ids, c->nids, &c->key);
		c->nids = 0;
		rec_write(stdout, &(struct sst_rec){ .thread = c->key.data,
		    .threadlen = ks - 1, .samples = 1, .weight = c->w,
		    .unit = c->unit, .hasperiod = 1, .period = c->w,
		    .stack = c->key.data + ks, .stacklen = c->key.len - ks,
		    .locs = "" });
		return;
	}
	buf_add(&c->key, c->ids, c->nids * sizeof(*c->ids));
	buf_addc(&c->key, '0' + (int)c->unit);
	c->nids = 0;
	id = ht_intern(c->recs, c->key.data, c->key.len, &isnew);
	if (isnew && id == c->accap) {
		c->accap = c->accap ? c->accap * 2 : 1024;
		c->acc = xreallocarray(c->acc, c->accap, sizeof(*c->acc));
	}
	a = &c->acc[id];
	if (isnew)
		*a = (struct acc){ .per = c->w, .same = 1 };
	else if (a->per != c->w)
		a->same = 0;
	a->n++;
	a->sum += c->w;
}

/* Add a frame line's names to the sample. */
static void
push(struct conv *c, uint32_t id)
{
	if (c->nids == c->idcap) {
		c->idcap = c->idcap ? c->idcap * 2 : 256;
		c->ids = xreallocarray(c->ids, c->idcap, sizeof(*c->ids));
	}
	c->ids[c->nids++] = id;
}

/* One line by perf.py's rules (its lines lose trailing white space). */
static void
rayline(struct conv *c, const char *s, size_t n)
{
	const char *t, *ev = NULL;
	size_t i, j, k, evn = 0;
	double per = 0;
	uint32_t id;

	while (n > 0 && PYWS((unsigned char)s[n - 1]))
		n--;
	if (n == 0) {
		if (c->nids > 0) {
			endsample(c);
			buf_reset(&c->thread);
		}
		c->hdr = 0;
	} else if (s[0] == ' ' || s[0] == '\t') {
		if (!c->hdr) {
			warnline(c, "frame line without a sample header");
			c->hdr = 1;
		}
		for (t = s; PYWS((unsigned char)*t); t++)
			;
		if ((id = frame(c, t, s + n, 0)) == BADLINE)
			warnline(c, "frame line without a symbol");
		else
			push(c, id);
	} else {
		for (i = 0; PYWS((unsigned char)s[i]); i++)
			;
		for (j = i; j < n && !PYWS((unsigned char)s[j]); j++)
			;
		for (k = j; k < n && PYWS((unsigned char)s[k]); k++)
			;
		if (k > j && k < n && DIGIT(s[k])) {
			buf_reset(&c->thread);
			esc_add(&c->thread, s + i, j - i);
			c->hdr = 1;
		} else if (s[0] != '#') {
			warnline(c, "unrecognized sample header");
			c->hdr = 1;
		}
		if (s[0] != '#') {
			event(s, n, &ev, &evn, &per);
			setweight(c, ev, evn, per);
		}
	}
}

/* A sample header "comm pid[/tid] ..." by -F rules; 0 if not one. */
static int
fghead(struct conv *c, const char *s, size_t n)
{
	const char *ev = NULL, *d1 = NULL, *d2 = NULL, *pid, *tid;
	size_t e, j = 0, k = 0, evn = 0, pidn, tidn;
	double per = 0;

	for (e = 2; e < n; e++) {
		if (!PLWS(s[e]))
			continue;
		for (j = e; j < n && PLWS(s[j]); j++)
			;
		for (d1 = s + j; j < n && DIGIT(s[j]); j++)
			;
		if (s + j == d1)
			continue;
		for (k = j; k < n && s[k] == '/'; k++)
			;
		for (d2 = s + k; k < n && DIGIT(s[k]); k++)
			;
		if (k < n && PLWS(s[k]))
			break;
	}
	if (e >= n)
		return 0;
	if (event(s, n, &ev, &evn, &per)) {
		if (!c->hasfilter) {
			buf_add(&c->filter, ev, evn);
			c->hasfilter = 1;
		} else if (c->filter.len != evn ||
		    memcmp(c->filter.data, ev, evn) != 0) {
			if (!c->filtwarn++)
				warnx("%s:%llu: skipping the samples of events "
				    "other than %s", c->name, c->lineno,
				    c->filter.data);
			if (c->hdr == 0)
				c->hdr = 2;
			return 1;
		}
	}
	setweight(c, ev, evn, per);
	pid = d1;
	pidn = (size_t)(s + j - d1);
	tid = d2;
	tidn = (size_t)(s + k - d2);
	if (tidn == 0 || (tidn == 1 && *tid == '0')) {
		tid = pid;
		tidn = pidn;
		pid = "?";
		pidn = 1;
	}
	buf_reset(&c->tmp);
	buf_add(&c->tmp, s, e);
	if (c->id != ID_COMM) {
		buf_addc(&c->tmp, '-');
		buf_add(&c->tmp, pid, pidn);
	}
	if (c->id == ID_TID) {
		buf_addc(&c->tmp, '/');
		buf_add(&c->tmp, tid, tidn);
	}
	for (j = 0; j < c->tmp.len; j++)
		if (c->tmp.data[j] == ' ')
			c->tmp.data[j] = '_';
	buf_reset(&c->thread);
	esc_add(&c->thread, c->tmp.data, c->tmp.len);
	c->java = strncmp(c->tmp.data, "java", 4) == 0;
	c->hdr = 1;
	return 1;
}

/* One line by stackcollapse-perf.pl's rules. */
static void
fgline(struct conv *c, const char *s, size_t n)
{
	const char *t;
	uint32_t id;

	if (n > 0 && s[n - 1] == '\r')
		n--;
	if (n > 0 && s[0] == '#')
		return;
	if (n == 0) {
		if (c->hdr == 1)
			endsample(c);
		c->hdr = 0;
		return;
	}
	if (!PLWS(s[0]) && fghead(c, s, n))
		return;
	for (t = s; t < s + n && PLWS(*t); t++)
		;
	if ((id = frame(c, t, s + n, c->java)) == BADLINE)
		warnline(c, "unrecognized line");
	else if (c->hdr != 1) {
		if (c->hdr == 0)
			warnline(c, "frame line without a sample header");
		c->hdr = 2;
	} else if (id != NOFRAME)
		push(c, id);
}

/* Convert one input; a sample cut off by its end counts by perf.py. */
static void
readfile(struct conv *c, const char *path)
{
	struct lines *l;
	char *s;
	size_t n;
	int fd, bin = 0;

	fd = xopen(path);
	l = lines_open(fd, path);
	c->name = lines_name(l);
	c->lineno = 0;
	c->nwarn = 0;
	c->hdr = 0;
	c->nids = 0;
	buf_reset(&c->thread);
	setweight(c, NULL, 0, 0);
	while (!bin && (s = lines_next(l, &n)) != NULL) {
		c->lineno++;
		if (!PLWS(s[0]) && memchr(s, '\0', n) != NULL)
			bin = strncmp(s, "PERFILE", 7) == 0 ? 2 : 1;
		else if (c->fg)
			fgline(c, s, n);
		else
			rayline(c, s, n);
	}
	lines_close(l);
	if (fd != STDIN_FILENO)
		close(fd);
	if (bin)
		errx(1, "%s:%llu: binary data, not perf script output%s",
		    c->name, c->lineno, bin == 2 ? " (run perf script on it)" :
		    "");
	if (!c->fg && c->nids > 0)
		endsample(c);
	if (c->nwarn > MAXWARN)
		warnx("%s: %u more warnings", c->name, c->nwarn - MAXWARN);
}

/* Apply a comma-separated list of -F keywords. */
static void
view(struct conv *c, char *arg)
{
	static const char *kw[] = { "addrs", "all", "comm", "jit", "kernel",
	    "period", "pid", "ray", "tid" };
	char *k;
	size_t i;

	while ((k = strsep(&arg, ",")) != NULL) {
		for (i = 0; i < 9 && strcmp(k, kw[i]) != 0; i++)
			;
		if (i == 9)
			errx(2, "-F: unknown view: %s", k);
		c->addrs |= i == 0;
		c->kernel |= i == 1 || i == 4;
		c->jit |= i == 1 || i == 3;
		c->period |= i == 5;
		c->ray |= i == 7;
		c->fg |= i != 5 && i != 7;
		if (i == 8 || (i == 6 && c->id == ID_COMM))
			c->id = i == 8 ? ID_TID : ID_PID;
	}
}

static __dead void
usage(void)
{
	fprintf(stderr, "usage: perf2sst [-s] [-F view] [file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct conv c;
	const char *k, *t;
	struct acc *a;
	size_t i, n;
	int ch;

	sst_init();
	memset(&c, 0, sizeof(c));
	while ((ch = getopt(argc, argv, "F:s")) != -1) {
		switch (ch) {
		case 'F':
			view(&c, optarg);
			break;
		case 's':
			c.sflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (c.ray && c.fg)
		errx(2, "-F: ray goes with no other view than period");

	c.names = ht_new();
	c.lc[0].ht = ht_new();
	c.lc[1].ht = ht_new();
	c.recs = ht_new();
	buf_init(&c.thread);
	buf_init(&c.filter);
	buf_init(&c.chunk);
	buf_init(&c.key);
	buf_init(&c.tmp);
	if (argc == 0)
		readfile(&c, NULL);
	for (i = 0; i < (size_t)argc; i++)
		readfile(&c, argv[i]);
	for (i = 0; i < ht_count(c.recs); i++) {
		k = ht_key(c.recs, i, &n);
		t = memchr(k, '\t', n);
		c.nids = (size_t)(k + n - t - 2) / sizeof(*c.ids);
		if (c.nids > c.idcap) {
			c.idcap = c.nids;
			c.ids = xreallocarray(c.ids, c.idcap, sizeof(*c.ids));
		}
		if (c.nids > 0)		/* c.ids may still be NULL */
			memcpy(c.ids, t + 1, c.nids * sizeof(*c.ids));
		buf_reset(&c.key);
		stack(&c, c.ids, c.nids, &c.key);
		a = &c.acc[i];
		rec_write(stdout, &(struct sst_rec){ .thread = k,
		    .threadlen = (size_t)(t - k), .samples = a->n,
		    .weight = a->sum, .unit = (enum sst_unit)(k[n - 1] - '0'),
		    .hasperiod = a->same, .period = a->per,
		    .stack = c.key.data, .stacklen = c.key.len, .locs = "" });
	}
	fshut(stdout, "stdout");
	for (i = 0; i < 2; i++) {
		ht_free(c.lc[i].ht);
		free(c.lc[i].id);
	}
	ht_free(c.names);
	ht_free(c.recs);
	free(c.acc);
	free(c.ids);
	buf_free(&c.thread);
	buf_free(&c.filter);
	buf_free(&c.chunk);
	buf_free(&c.key);
	buf_free(&c.tmp);
	return 0;
}
