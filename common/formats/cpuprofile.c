/*
 * cpuprofile.c: read a Chrome or node .cpuprofile (the Profile type of
 * the DevTools protocol: "nodes", each with "id", "callFrame" and
 * "children" or "parent", "samples", "timeDeltas", "startTime",
 * "endTime") from the streaming tokenizer and hand out one sst record
 * per distinct stack.  The members may come in any order: node writes
 * its nodes before its samples, Chrome DevTools sometimes after.  The
 * older format (a "head" node whose "children" are nodes, absolute
 * "timestamps") is read too.
 *
 * A frame is callFrame.functionName, "(anonymous)" where it is empty;
 * the "(root)" node (the node without a parent) is left out, the others
 * ("(program)", "(idle)", "(garbage collector)") are frames like any
 * other.  Its location is url:line:col with the 0-based lineNumber and
 * columnNumber made 1-based, and each left empty where it is negative
 * or missing.
 *
 * Weights: timeDeltas[i] is the time from sample i-1 (or startTime) to
 * sample i, in microseconds.  As in Chrome DevTools (and speedscope's
 * importer), sample i lasts until sample i+1 and so gets timeDeltas[i+1];
 * the last sample gets the time up to endTime (none if endTime is
 * missing or earlier).  In the older format sample i gets
 * timestamps[i+1] - timestamps[i], the last one none unless there is
 * one timestamp more than samples.  A negative weight is an error.
 * Weights are summed per stack in integer microseconds and made seconds
 * at the end.  One record per sample carries its start (sst(5)'s eighth
 * field): the sum of the deltas up to it, the time since startTime (in
 * the older format the time since the first sample).
 *
 * Parents that form a cycle, and a stack deeper than SST_MAXDEPTH
 * frames, are errors naming the node; depths are worked out in one walk
 * (linear in the nodes: ptree.c).
 *
 * Memory: the nodes (names and urls), and 16 bytes per sample, since
 * samples and their times may come in either order.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "json.h"
#include "esc.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "ptree.h"
#include "spd.h"
#include "cpuprofile.h"

#define KEYMAX		32
#define NONE		((size_t)-1)

struct node {
	long long	 id;
	size_t		 parent;	/* index, or NONE */
	size_t		 noff, nlen;	/* escaped name in the arena */
	size_t		 uoff, ulen;	/* escaped url in the arena */
	long long	 line, col;	/* 0-based; < 0: none */
	uint64_t	 n;		/* samples */
	long long	 us;		/* their summed weight */
	long long	 d0;		/* the weight of the first */
	int		 uniform;	/* every weight is d0 */
	size_t		 stack;		/* its stack's index, once known */
};

/* A link between nodes: one end known by index, the other by id. */
struct edge {
	long long	 id;
	size_t		 ix;
};

/* A growable array. */
struct arr {
	void		*v;
	size_t		 n, cap;
};

/* A growable array of integers read from the input. */
struct ints {
	long long	*v;
	size_t		 n, cap;
	int		 seen;
};

/* One distinct stack. */
struct stk {
	uint64_t	 n;
	long long	 us;
	long long	 d0;
	int		 uniform;
};

struct cp {
	struct json	*j;
	jmp_buf		 jb;
	char		*err;
	size_t		 errlen;
	struct buf	 arena;
	struct arr	 nodes;		/* struct node */
	struct htab	*ids;		/* node id (8 bytes) -> ht id */
	struct arr	 byid;		/* ht id -> node index (size_t) */
	struct arr	 kids;		/* child id, parent index */
	struct arr	 parents;	/* parent id, child index */
	struct arr	 stacks;	/* struct stk */
	struct arr	 order;		/* node indices by first sample */
	struct ints	 samples, deltas, stamps;
	long long	 start, end;
	int		 hasstart, hasend, hasnodes;
	int		 persample;
};

static __dead void fail(struct cp *, int, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));
static void	*grow(struct arr *, size_t);
static enum json_tok ok(struct cp *, enum json_tok);
static enum json_tok next(struct cp *);
static enum json_tok key(struct cp *, char *);
static enum json_tok member(struct cp *, char *);
static long long xint(struct cp *, enum json_tok, const char *);
static void	 readints(struct cp *, enum json_tok, struct ints *,
		    const char *);
static void	 readstr(struct cp *, enum json_tok, size_t *, size_t *, int);
static int	 readframe(struct cp *, size_t, const char *, enum json_tok);
static size_t	 readnode(struct cp *, enum json_tok, size_t);
static void	 readtop(struct cp *);
static size_t	 findnode(struct cp *, long long);
static void	 linknodes(struct cp *);
static void	 depths(struct cp *);
static long long weight(struct cp *, size_t);
static void	 count(struct cp *);
static void	 stackof(struct cp *, size_t, struct buf *, struct buf *);
static struct htab *stacks(struct cp *);
static void	 recof(struct cp *, struct htab *, size_t, long long *,
		    struct sst_rec *);
static void	 emitall(struct cp *, const char *, size_t, spd_emit, void *);
static int	 digits(const char *, size_t);
static long long since(struct cp *, size_t, long long *);

/*
 * Record the message (at the last token's position if at) and jump back
 * to cpuprof_read().
 */
static __dead void
fail(struct cp *c, int at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (at)
		n = snprintf(c->err, c->errlen, "%s:%llu:%llu: ",
		    json_name(c->j), json_line(c->j), json_col(c->j));
	else
		n = snprintf(c->err, c->errlen, "%s: ", json_name(c->j));
	if (n < 0 || (size_t)n >= c->errlen)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	longjmp(c->jb, 1);
}

/* Room for one more element of size sz at the end of a; returns it. */
static void *
grow(struct arr *a, size_t sz)
{
	if (a->n == a->cap)
		a->v = xgrow(a->v, &a->cap, a->n + 1, 64, sz);
	return (char *)a->v + sz * a->n++;
}

/* Token t, unless it is the tokenizer's error: that fails. */
static enum json_tok
ok(struct cp *c, enum json_tok t)
{
	if (t == JT_ERROR)
		fail(c, 1, "%s", json_errmsg(c->j));
	return t;
}

/* The next token. */
static enum json_tok
next(struct cp *c)
{
	return ok(c, json_next(c->j));
}

/*
 * The key of the next member into k (KEYMAX bytes; longer keys read as
 * ""): JT_KEY, or JT_OBJ_END at the end of the object.
 */
static enum json_tok
key(struct cp *c, char *k)
{
	return ok(c, json_key(c->j, k, KEYMAX));
}

/* The key of the next member into k and the first token of its value. */
static enum json_tok
member(struct cp *c, char *k)
{
	return ok(c, json_member(c->j, k, KEYMAX));
}

/* The integer of token t, what naming the member. */
static long long
xint(struct cp *c, enum json_tok t, const char *what)
{
	long long v;

	if (t != JT_NUM || json_int(c->j, &v) == -1)
		fail(c, 1, "%s: expected an integer", what);
	return v;
}

/* An array of integers whose first token t was read into a. */
static void
readints(struct cp *c, enum json_tok t, struct ints *a, const char *what)
{
	if (t != JT_ARR)
		fail(c, 1, "%s: expected an array", what);
	if (a->seen)
		fail(c, 1, "%s: given twice", what);
	a->seen = 1;
	while ((t = next(c)) != JT_ARR_END) {
		if (a->n == a->cap)
			a->v = xgrow(a->v, &a->cap, a->n + 1, 1024,
			    sizeof(*a->v));
		a->v[a->n++] = xint(c, t, what);
	}
}

/* String token t into the arena, escaped; an empty name: (anonymous). */
static void
readstr(struct cp *c, enum json_tok t, size_t *off, size_t *len, int name)
{
	const char *s;
	size_t n;

	if (t != JT_STR)
		fail(c, 1, "expected a string");
	s = json_text(c->j, &n);
	*off = c->arena.len;
	if (name && n == 0)
		buf_adds(&c->arena, "(anonymous)");
	else
		esc_add(&c->arena, s, n);
	*len = c->arena.len - *off;
}

/* Member k (value token t) of a call frame of node i; 0 if not one. */
static int
readframe(struct cp *c, size_t i, const char *k, enum json_tok t)
{
	struct node *nd = (struct node *)c->nodes.v + i;
	size_t off, len;

	if (strcmp(k, "functionName") == 0) {
		readstr(c, t, &off, &len, 1);
		nd = (struct node *)c->nodes.v + i;
		nd->noff = off;
		nd->nlen = len;
	} else if (strcmp(k, "url") == 0) {
		readstr(c, t, &off, &len, 0);
		nd = (struct node *)c->nodes.v + i;
		nd->uoff = off;
		nd->ulen = len;
	} else if (strcmp(k, "lineNumber") == 0)
		nd->line = xint(c, t, "lineNumber");
	else if (strcmp(k, "columnNumber") == 0)
		nd->col = xint(c, t, "columnNumber");
	else
		return 0;
	return 1;
}

/*
 * Read the node whose first token t was read, a child of node parent
 * (NONE: not known yet); returns its index.
 */
static size_t
readnode(struct cp *c, enum json_tok t, size_t parent)
{
	struct node *nd;
	struct edge *e;
	enum json_tok u;
	char k[KEYMAX];
	size_t i, *bi;
	long long id = 0;
	int hasid = 0, isnew;

	if (t != JT_OBJ)
		fail(c, 1, "nodes: expected an object");
	nd = grow(&c->nodes, sizeof(*nd));
	i = c->nodes.n - 1;
	memset(nd, 0, sizeof(*nd));
	nd->parent = parent;
	nd->line = nd->col = -1;
	nd->noff = c->arena.len;
	buf_adds(&c->arena, "(anonymous)");
	nd->nlen = c->arena.len - nd->noff;
	while ((t = member(c, k)) != JT_OBJ_END) {
		if (strcmp(k, "id") == 0) {
			if (hasid)
				fail(c, 1, "id: given twice");
			id = xint(c, t, "id");
			ht_intern(c->ids, &id, sizeof(id), &isnew);
			if (!isnew)
				fail(c, 1, "node id %lld given twice", id);
			bi = grow(&c->byid, sizeof(*bi));
			*bi = i;
			hasid = 1;
		} else if (strcmp(k, "parent") == 0) {
			e = grow(&c->parents, sizeof(*e));
			e->id = xint(c, t, "parent");
			e->ix = i;
		} else if (strcmp(k, "children") == 0) {
			if (t != JT_ARR)
				fail(c, 1, "children: expected an array");
			while ((u = next(c)) != JT_ARR_END) {
				if (u == JT_OBJ) {
					readnode(c, u, i);
					continue;
				}
				e = grow(&c->kids, sizeof(*e));
				e->id = xint(c, u, "children");
				e->ix = i;
			}
		} else if (strcmp(k, "callFrame") == 0) {
			if (t != JT_OBJ)
				fail(c, 1, "callFrame: expected an object");
			while ((u = member(c, k)) != JT_OBJ_END)
				if (!readframe(c, i, k, u) &&
				    json_skip(c->j, u) == -1)
					fail(c, 1, "%s", json_errmsg(c->j));
		} else if (!readframe(c, i, k, t) && json_skip(c->j, t) == -1)
			fail(c, 1, "%s", json_errmsg(c->j));
	}
	if (!hasid)
		fail(c, 1, "a node without an id");
	((struct node *)c->nodes.v)[i].id = id;
	return i;
}

/* Read the top-level object. */
static void
readtop(struct cp *c)
{
	enum json_tok t;
	char k[KEYMAX];

	t = next(c);
	if (t == JT_ARR)
		fail(c, 1, "an array of trace events, not a .cpuprofile: "
		    "use trace2sst");
	if (t != JT_OBJ)
		fail(c, 1, "expected a .cpuprofile JSON object");
	while (key(c, k) != JT_OBJ_END) {
		if (strcmp(k, "traceEvents") == 0)
			fail(c, 1, "a Chrome trace, not a .cpuprofile: "
			    "use trace2sst");
		if (strcmp(k, "profiles") == 0 || strcmp(k, "shared") == 0 ||
		    strcmp(k, "$schema") == 0)
			fail(c, 1, "a speedscope file, not a .cpuprofile: "
			    "use sst-flatten");
		t = next(c);
		if (strcmp(k, "nodes") == 0) {
			if (t != JT_ARR)
				fail(c, 1, "nodes: expected an array");
			if (c->hasnodes)
				fail(c, 1, "nodes: given twice");
			while ((t = next(c)) != JT_ARR_END)
				readnode(c, t, NONE);
			c->hasnodes = 1;
		} else if (strcmp(k, "head") == 0) {
			if (c->hasnodes)
				fail(c, 1, "head: nodes given twice");
			readnode(c, t, NONE);
			c->hasnodes = 1;
		} else if (strcmp(k, "samples") == 0)
			readints(c, t, &c->samples, "samples");
		else if (strcmp(k, "timeDeltas") == 0)
			readints(c, t, &c->deltas, "timeDeltas");
		else if (strcmp(k, "timestamps") == 0)
			readints(c, t, &c->stamps, "timestamps");
		else if (strcmp(k, "startTime") == 0) {
			c->start = xint(c, t, "startTime");
			c->hasstart = 1;
		} else if (strcmp(k, "endTime") == 0) {
			c->end = xint(c, t, "endTime");
			c->hasend = 1;
		} else if (json_skip(c->j, t) == -1)
			fail(c, 1, "%s", json_errmsg(c->j));
	}
	if (next(c) != JT_EOF)
		fail(c, 1, "text after the JSON object");
	if (!c->hasnodes)
		fail(c, 0, "no \"nodes\": not a .cpuprofile");
	if (!c->samples.seen)
		fail(c, 0, "no \"samples\": not a .cpuprofile");
	if (c->stamps.seen && !c->deltas.seen) {
		if (c->stamps.n != c->samples.n &&
		    c->stamps.n != c->samples.n + 1)
			fail(c, 0, "%zu timestamps for %zu samples",
			    c->stamps.n, c->samples.n);
	} else if (c->deltas.n != c->samples.n)
		fail(c, 0, "%zu timeDeltas for %zu samples", c->deltas.n,
		    c->samples.n);
}

/* The index of the node with that id, or NONE. */
static size_t
findnode(struct cp *c, long long id)
{
	size_t h;

	if ((h = ht_find(c->ids, &id, sizeof(id))) == NONE)
		return NONE;
	return ((size_t *)c->byid.v)[h];
}

/* Give every node its parent from the children and parent members. */
static void
linknodes(struct cp *c)
{
	struct node *nd = c->nodes.v;
	struct edge *e;
	size_t i, k;

	for (i = 0; i < c->kids.n; i++) {
		e = (struct edge *)c->kids.v + i;
		if ((k = findnode(c, e->id)) == NONE)
			fail(c, 0, "node %lld: child %lld is no node",
			    nd[e->ix].id, e->id);
		if (nd[k].parent != NONE && nd[k].parent != e->ix)
			fail(c, 0, "node %lld has two parents", e->id);
		nd[k].parent = e->ix;
	}
	for (i = 0; i < c->parents.n; i++) {
		e = (struct edge *)c->parents.v + i;
		if ((k = findnode(c, e->id)) == NONE)
			fail(c, 0, "node %lld: parent %lld is no node",
			    nd[e->ix].id, e->id);
		if (nd[e->ix].parent != NONE && nd[e->ix].parent != k)
			fail(c, 0, "node %lld has two parents", nd[e->ix].id);
		nd[e->ix].parent = k;
	}
	depths(c);
}

/*
 * Check the parents (ptree.c works out the depths): a cycle of them
 * would loop forever when stacks are made, and a stack may not be
 * deeper than SST_MAXDEPTH.
 */
static void
depths(struct cp *c)
{
	struct node *nd = c->nodes.v;
	size_t i, bad, *par, *depth;
	enum ptree_err e;

	par = xreallocarray(NULL, c->nodes.n ? c->nodes.n : 1,
	    sizeof(*par));
	depth = xreallocarray(NULL, c->nodes.n ? c->nodes.n : 1,
	    sizeof(*depth));
	for (i = 0; i < c->nodes.n; i++)
		par[i] = nd[i].parent == NONE ? PTREE_NONE : nd[i].parent;
	e = ptree_depths(par, c->nodes.n, SST_MAXDEPTH, depth, &bad);
	free(par);
	free(depth);
	if (e == PTREE_CYCLE)
		fail(c, 0, "node %lld is its own ancestor", nd[bad].id);
	if (e == PTREE_DEEP)
		fail(c, 0, "node %lld: depth exceeds %d levels", nd[bad].id,
		    SST_MAXDEPTH);
}

/* The weight of sample i in microseconds (see the top of the file). */
static long long
weight(struct cp *c, size_t i)
{
	long long w, t, *v;
	size_t k;

	if (c->stamps.seen && !c->deltas.seen) {
		v = c->stamps.v;
		if (i + 1 >= c->stamps.n)
			return 0;
		if (__builtin_sub_overflow(v[i + 1], v[i], &w))
			fail(c, 0, "timestamps: overflow");
	} else if (i + 1 < c->deltas.n)
		w = c->deltas.v[i + 1];
	else {
		if (!c->hasstart || !c->hasend)
			return 0;
		t = c->start;
		for (k = 0; k < c->deltas.n; k++)
			if (__builtin_add_overflow(t, c->deltas.v[k], &t))
				fail(c, 0, "timeDeltas: overflow");
		if (__builtin_sub_overflow(c->end, t, &w))
			fail(c, 0, "endTime: overflow");
		return w > 0 ? w : 0;
	}
	if (w < 0)
		fail(c, 0, "sample %zu: negative time (%lld us): the samples "
		    "are out of order", i + 1, w);
	return w;
}

/* Count the samples per node, nodes in the order of their first. */
static void
count(struct cp *c)
{
	struct node *nd;
	size_t i, k, *o;
	long long w;

	for (i = 0; i < c->samples.n; i++) {
		if ((k = findnode(c, c->samples.v[i])) == NONE)
			fail(c, 0, "sample %zu: no node has id %lld", i + 1,
			    c->samples.v[i]);
		w = weight(c, i);
		c->samples.v[i] = (long long)k;	/* now its index */
		nd = (struct node *)c->nodes.v + k;
		if (nd->n == 0) {
			o = grow(&c->order, sizeof(*o));
			*o = k;
			nd->d0 = w;
			nd->uniform = 1;
		} else if (w != nd->d0)
			nd->uniform = 0;
		nd->n++;
		if (__builtin_add_overflow(nd->us, w, &nd->us))
			fail(c, 0, "sample %zu: overflow", i + 1);
	}
}

/* The stack and locations of node i (root left out) into s and l. */
static void
stackof(struct cp *c, size_t i, struct buf *s, struct buf *l)
{
	struct node *nd = c->nodes.v;
	size_t k, n = 0, *path = NULL, cap = 0;
	int hasloc = 0, first = 1;

	buf_reset(s);
	buf_reset(l);
	for (k = i; k != NONE && nd[k].parent != NONE; k = nd[k].parent) {
		if (n == cap)
			path = xgrow(path, &cap, n + 1, 64, sizeof(*path));
		path[n++] = k;
	}
	while (n-- > 0) {
		k = path[n];
		if (first)
			first = 0;
		else {
			buf_addc(s, ';');
			buf_addc(l, ';');
		}
		buf_add(s, c->arena.data + nd[k].noff, nd[k].nlen);
		buf_add(l, c->arena.data + nd[k].uoff, nd[k].ulen);
		buf_addc(l, ':');
		if (nd[k].line >= 0)
			buf_printf(l, "%lld", nd[k].line + 1);
		buf_addc(l, ':');
		if (nd[k].col >= 0)
			buf_printf(l, "%lld", nd[k].col + 1);
		buf_addc(l, ':');
		if (nd[k].ulen > 0 || nd[k].line >= 0 || nd[k].col >= 0)
			hasloc = 1;
	}
	if (!hasloc)
		buf_reset(l);
	free(path);
}

/*
 * The time of sample i from startTime (older format: from the first
 * sample) in microseconds; *at is the running sum of the deltas, for
 * calls in sample order.
 */
static long long
since(struct cp *c, size_t i, long long *at)
{
	if (c->stamps.seen && !c->deltas.seen)
		return c->stamps.v[i] - c->stamps.v[0];
	if (__builtin_add_overflow(*at, c->deltas.v[i], at))
		fail(c, 0, "timeDeltas: overflow");
	return *at;
}

/* The distinct stacks "stack TAB locs" by first sample, totals summed. */
static struct htab *
stacks(struct cp *c)
{
	struct buf s, l, key;
	struct htab *keys;
	struct node *nd = c->nodes.v;
	struct stk *st;
	size_t i, k, id;
	int isnew;

	buf_init(&s);
	buf_init(&l);
	buf_init(&key);
	keys = ht_new();
	for (i = 0; i < c->order.n; i++) {
		k = ((size_t *)c->order.v)[i];
		stackof(c, k, &s, &l);
		buf_reset(&key);
		buf_add(&key, s.data, s.len);
		buf_addc(&key, '\t');
		buf_add(&key, l.data, l.len);
		id = ht_intern(keys, key.data, key.len, &isnew);
		nd[k].stack = id;
		if (isnew) {
			st = grow(&c->stacks, sizeof(*st));
			st->n = 0;
			st->us = 0;
			st->d0 = nd[k].d0;
			st->uniform = 1;
		}
		st = (struct stk *)c->stacks.v + id;
		st->n += nd[k].n;
		if (__builtin_add_overflow(st->us, nd[k].us, &st->us))
			fail(c, 0, "overflow");
		if (!nd[k].uniform || nd[k].d0 != st->d0)
			st->uniform = 0;
	}
	buf_free(&s);
	buf_free(&l);
	buf_free(&key);
	return keys;
}

/* Record i (stack i of keys, or sample i) into r; *at: time up to it. */
static void
recof(struct cp *c, struct htab *keys, size_t i, long long *at,
    struct sst_rec *r)
{
	struct stk *st;
	size_t id, k, tab;

	if (c->persample)
		id = ((struct node *)c->nodes.v)[c->samples.v[i]].stack;
	else
		id = i;
	st = (struct stk *)c->stacks.v + id;
	r->stack = ht_key(keys, id, &k);
	tab = (size_t)((const char *)memchr(r->stack, '\t', k) - r->stack);
	r->stacklen = tab;
	r->locs = r->stack + tab + 1;
	r->locslen = k - tab - 1;
	if (c->persample) {
		r->samples = 1;
		r->hasperiod = 1;
		r->weight = r->period = (double)weight(c, i) / 1e6;
		r->hasstart = 1;
		r->start = (double)since(c, i, at) / 1e6;
		return;
	}
	r->samples = st->n;
	r->hasperiod = st->uniform;
	if (st->uniform) {
		r->period = (double)st->d0 / 1e6;
		r->weight = fmt_pysum(0, r->period, st->n);
	} else
		r->weight = (double)st->us / 1e6;
}

/*
 * Hand out one record per distinct stack, in first-seen order, or one
 * per sample in input order.
 */
static void
emitall(struct cp *c, const char *thr, size_t thrlen, spd_emit emit,
    void *arg)
{
	struct htab *keys;
	struct sst_rec r;
	size_t i, n;
	long long at = 0;

	memset(&r, 0, sizeof(r));
	r.thread = thr;
	r.threadlen = thrlen;
	r.unit = U_SECONDS;
	if (c->order.n == 0) {
		r.stack = r.locs = "";
		emit(&r, arg);
		return;
	}
	keys = stacks(c);
	n = c->persample ? c->samples.n : ht_count(keys);
	for (i = 0; i < n; i++) {
		recof(c, keys, i, &at, &r);
		emit(&r, arg);
	}
	ht_free(keys);
}

int
cpuprof_read(struct json *j, const char *thr, size_t thrlen, int persample,
    spd_emit emit, void *arg, char *err, size_t errlen)
{
	struct cp *c;
	volatile int rv = 0;

	c = xcalloc(1, sizeof(*c));
	c->j = j;
	c->err = err;
	c->errlen = errlen;
	c->persample = persample;
	buf_init(&c->arena);
	c->ids = ht_new();
	if (setjmp(c->jb) == 0) {
		readtop(c);
		linknodes(c);
		count(c);
		emitall(c, thr, thrlen, emit, arg);
	} else
		rv = -1;
	buf_free(&c->arena);
	ht_free(c->ids);
	free(c->nodes.v);
	free(c->byid.v);
	free(c->kids.v);
	free(c->parents.v);
	free(c->stacks.v);
	free(c->order.v);
	free(c->samples.v);
	free(c->deltas.v);
	free(c->stamps.v);
	free(c);
	return rv;
}

/* Whether s[0..n) is n >= 1 digits. */
static int
digits(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	while (n-- > 0)
		if (*s < '0' || *s++ > '9')
			return 0;
	return 1;
}

void
cpuprof_thread(struct buf *b, const char *path)
{
	const char *s, *f[7];
	size_t len[6], i;

	s = (s = strrchr(path, '/')) != NULL ? s + 1 : path;
	/* CPU.20261202.115905.15330.0.001.cpuprofile */
	f[0] = s;
	for (i = 0; i < 6; i++) {
		if ((f[i + 1] = strchr(f[i], '.')) == NULL)
			break;
		len[i] = (size_t)(f[i + 1] - f[i]);
		f[i + 1]++;
	}
	if (i == 6 && strcmp(f[6], "cpuprofile") == 0 &&
	    len[0] == 3 && memcmp(f[0], "CPU", 3) == 0 &&
	    digits(f[1], len[1]) && digits(f[2], len[2]) &&
	    digits(f[3], len[3]) && digits(f[4], len[4]) &&
	    digits(f[5], len[5])) {
		buf_adds(b, "Process ");
		buf_add(b, f[3], len[3]);
		buf_adds(b, " Thread ");
		buf_add(b, f[4], len[4]);
	} else
		buf_adds(b, "Profile");
}
