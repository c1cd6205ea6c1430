/*
 * flame.c: the frame tree of sst-flame(1): node 0 is the root, the
 * nodes of threads have FLAME_THREAD | thread id as their function.
 *
 * The tree is not built while the stacks are read: a stream of 296,000
 * distinct stacks of little shared prefix made 6.2 million nodes (170
 * MB) of which the picture draws a few thousand.  flame_add() keeps
 * each distinct path (thread node and functions, in the tree's order)
 * once, as varints in a struct seqtab (a "key"), with its samples, and
 * appends the record to a log: its key and weights (8 bytes each, none
 * when the weight is its key's first).  flame_prune() then builds the
 * tree level by level from the root: the keys still alive each step
 * one function down, found under their node by a table of the level
 * alone, and the log is read in order to add each record's weight to
 * its key's node, so that every node sums the same doubles in the same
 * order as one summed record by record (the picture keeps its bytes).
 * Nodes narrower than the narrowest drawn end their keys: only the
 * drawn nodes and their children are made, and the log and the keys
 * alive shrink as they go, so the work is that of walking every alive
 * key's frames once.  Memory: the keys (a byte or two a frame), the log,
 * and a level's nodes.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "svg.h"
#include "util.h"
#include "buf.h"
#include "rec.h"
#include "fmt.h"
#include "htab.h"
#include "seqtab.h"
#include "sort.h"

/* A level of flame_prune(): its nodes, the alive keys. */
struct lv {
	uint32_t	*parent;	/* by node: index in the level above */
	uint32_t	*func;
	double		*w, *wa;
	uint64_t	*s;
	uint32_t	*fin, *pfin;	/* final id or FLAME_NONE, and above */
	unsigned char	*shown, *pshown;
	size_t		 n, cap;
	uint32_t	*slot;		/* node + 1 by hash of (parent, func) */
	size_t		 nslot;
	uint32_t	*key;		/* alive keys, in order */
	const unsigned char **at;	/* where each is in its path */
	uint32_t	*nd;		/* its node */
	size_t		 nk;
	uint32_t	*knode;		/* by key: its node, or FLAME_NONE */
};

/* The hash of function f under node p. */
static uint32_t
pathhash(uint32_t p, uint32_t f)
{
	uint64_t x = (uint64_t)p << 32 | f;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (uint32_t)x;
}

/* Room for node n + 1 in the final tree. */
static void
more(struct flame *t)
{
	size_t c;

	if (t->n < t->cap)
		return;
	c = xgrowcap(t->cap, t->n + 1, 1024);
	t->node = xreallocarray(t->node, c, sizeof(*t->node));
	t->w = xreallocarray(t->w, c, sizeof(*t->w));
	t->samples = xreallocarray(t->samples, c, sizeof(*t->samples));
	if (t->wa != NULL)
		t->wa = xreallocarray(t->wa, c, sizeof(*t->wa));
	t->cap = c;
}

void
flame_init(struct flame *t)
{
	memset(t, 0, sizeof(*t));
	t->keys = seq_new();
	more(t);
	t->node[0].parent = t->node[0].func = FLAME_NONE;
	t->w[0] = 0;
	t->samples[0] = 0;
	t->n = 1;
}

void
flame_free(struct flame *t)
{
	seq_free(t->keys);
	free(t->node);
	free(t->w);
	free(t->wa);
	free(t->samples);
	free(t->first);
	free(t->next);
	free(t->ks);
	free(t->kw);
	free(t->log);
	free(t->path);
	memset(t, 0, sizeof(*t));
}

/* Append n bytes at p to the log. */
static void
logadd(struct flame *t, const void *p, size_t n)
{
	if (t->loglen + n > t->logcap) {
		t->logcap = xgrowcap(t->logcap, t->loglen + n, 65536);
		t->log = xreallocarray(t->log, t->logcap, 1);
	}
	memcpy(t->log + t->loglen, p, n);
	t->loglen += n;
}

/*
 * Keep the stack's path (root first; reverse: ids leaf first) as a key,
 * and log the record: varint key << 2 | 2 if wa is there | 1 if w is
 * the key's first weight, then w unless so, then wa if there.
 */
void
flame_add(struct flame *t, uint32_t tid, const uint32_t *ids, size_t n,
    int reverse, double w, double wa, uint64_t samples)
{
	unsigned char b[10 + 2 * sizeof(double)], *e = b;
	size_t i, l, m = n + (tid != FLAME_NONE), had;
	uint32_t k;
	uint64_t x;

	if (m > SIZE_MAX / 2 / sizeof(*t->path))
		xnoroom("stack too deep");
	t->path = xgrow(t->path, &t->pathcap, m + 1, 64, sizeof(*t->path));
	for (l = 0; l < m; l++) {
		i = tid != FLAME_NONE ? l - 1 : l;
		t->path[l] = tid != FLAME_NONE && l == 0 ? FLAME_THREAD | tid :
		    ids[reverse ? n - 1 - i : i];
	}
	had = seq_count(t->keys);
	k = seq_intern(t->keys, t->path, m);
	if (k >= t->kcap) {
		t->kcap = xgrowcap(t->kcap, (size_t)k + 1, 1024);
		t->ks = xreallocarray(t->ks, t->kcap, sizeof(*t->ks));
		t->kw = xreallocarray(t->kw, t->kcap, sizeof(*t->kw));
	}
	if (seq_count(t->keys) > had) {
		t->ks[k] = 0;
		t->kw[k] = w;
	}
	t->ks[k] += samples;
	x = (uint64_t)k << 2 | (wa != 0) << 1 |
	    (memcmp(&w, &t->kw[k], sizeof(w)) == 0);
	for (; x >= 0x80; x >>= 7)
		*e++ = (unsigned char)(x | 0x80);
	*e++ = (unsigned char)x;
	if (memcmp(&w, &t->kw[k], sizeof(w)) != 0) {
		memcpy(e, &w, sizeof(w));
		e += sizeof(w);
	}
	if (wa != 0) {
		memcpy(e, &wa, sizeof(wa));
		e += sizeof(wa);
		t->haswa = 1;
	}
	logadd(t, b, (size_t)(e - b));
}

/*
 * Add each logged record's weights to its key's node (l->knode) in the
 * level's sums, in order, and drop from the log the records whose key
 * has none.
 */
static void
replay(struct flame *t, struct lv *l)
{
	unsigned char *p = t->log, *e = p + t->loglen, *o = p, *q;
	uint64_t x;
	uint32_t nd;
	double w, wa = 0;
	int s;

	while (p < e) {
		q = p;
		for (x = 0, s = 0; *p & 0x80; s += 7)
			x |= (uint64_t)(*p++ & 0x7f) << s;
		x |= (uint64_t)*p++ << s;
		if (x & 1)
			w = t->kw[x >> 2];
		else {
			memcpy(&w, p, sizeof(w));
			p += sizeof(w);
		}
		if (x & 2) {
			memcpy(&wa, p, sizeof(wa));
			p += sizeof(wa);
		}
		if ((nd = l->knode[x >> 2]) == FLAME_NONE)
			continue;
		l->w[nd] += w;
		if (x & 2)
			l->wa[nd] += wa;
		if (o != q)
			memmove(o, q, (size_t)(p - q));
		o += p - q;
	}
	t->loglen = (size_t)(o - t->log);
}

/* Level node of function f under node p of the level above, made if new. */
static uint32_t
lvnode(struct lv *l, uint32_t p, uint32_t f)
{
	size_t k;
	uint32_t nd;

	for (k = pathhash(p, f) & (l->nslot - 1); l->slot[k] != 0;
	    k = (k + 1) & (l->nslot - 1)) {
		nd = l->slot[k] - 1;
		if (l->parent[nd] == p && l->func[nd] == f)
			return nd;
	}
	if (l->n == l->cap) {
		l->cap = xgrowcap(l->cap, l->n + 1, 1024);
		l->parent = xreallocarray(l->parent, l->cap, sizeof(uint32_t));
		l->func = xreallocarray(l->func, l->cap, sizeof(uint32_t));
		l->w = xreallocarray(l->w, l->cap, sizeof(double));
		l->wa = xreallocarray(l->wa, l->cap, sizeof(double));
		l->s = xreallocarray(l->s, l->cap, sizeof(uint64_t));
		l->fin = xreallocarray(l->fin, l->cap, sizeof(uint32_t));
		l->pfin = xreallocarray(l->pfin, l->cap, sizeof(uint32_t));
		l->shown = xreallocarray(l->shown, l->cap, 1);
		l->pshown = xreallocarray(l->pshown, l->cap, 1);
	}
	nd = (uint32_t)l->n++;
	l->slot[k] = nd + 1;
	l->parent[nd] = p;
	l->func[nd] = f;
	l->w[nd] = l->wa[nd] = 0;
	l->s[nd] = 0;
	return nd;
}

/*
 * The next level's nodes: each alive key one function down (a key at
 * its path's end leaves), its samples to its node.
 */
static void
step(struct flame *t, struct lv *l)
{
	const unsigned char *e;
	size_t i, j;
	uint32_t k, nd;

	l->nslot = 16;
	while (l->nslot < 2 * l->nk)
		l->nslot *= 2;
	l->slot = xreallocarray(l->slot, l->nslot, sizeof(*l->slot));
	memset(l->slot, 0, l->nslot * sizeof(*l->slot));
	l->n = 0;
	for (i = j = 0; i < l->nk; i++) {
		k = l->key[i];
		(void)seq_bytes(t->keys, k, &e);
		if (l->at[i] == e) {
			l->knode[k] = FLAME_NONE;
			continue;
		}
		nd = lvnode(l, l->nd[i], seq_next(&l->at[i]));
		l->s[nd] += t->ks[k];
		l->knode[k] = nd;
		l->key[j] = k;
		l->at[j] = l->at[i];
		l->nd[j++] = nd;
	}
	l->nk = j;
}

/*
 * The level's nodes that can be seen, into the final tree: those whose
 * parent is drawn; drawn if w / total * span >= minwidth, as
 * flame_walk() tests.  The keys of nodes not drawn leave, unless all.
 */
static void
keep(struct flame *t, struct lv *l, double total, double span,
    double minwidth, int all)
{
	size_t i, j;
	uint32_t nd, id;
	double d;

	for (nd = 0; nd < l->n; nd++) {
		l->fin[nd] = FLAME_NONE;
		l->shown[nd] = 0;
		if (!(l->func[nd] & FLAME_THREAD) &&
		    (d = fabs(l->w[nd] - l->wa[nd])) > t->maxdelta)
			t->maxdelta = d;
		if (!l->pshown[l->parent[nd]])
			continue;
		if (t->n >= 0x3fffffffu)
			xnoroom("too many frames");
		more(t);
		l->fin[nd] = id = (uint32_t)t->n++;
		t->node[id].parent = l->pfin[l->parent[nd]];
		t->node[id].func = l->func[nd];
		t->w[id] = l->w[nd];
		if (t->wa != NULL)
			t->wa[id] = l->wa[nd];
		t->samples[id] = l->s[nd];
		l->shown[nd] = l->w[nd] / total * span >= minwidth;
	}
	for (i = j = 0; i < l->nk; i++) {
		if (!all && !l->shown[l->nd[i]]) {
			l->knode[l->key[i]] = FLAME_NONE;
			continue;
		}
		l->key[j] = l->key[i];
		l->at[j] = l->at[i];
		l->nd[j++] = l->nd[i];
	}
	l->nk = j;
}

/*
 * Renumber the nodes in depth-first order (children in the order of
 * their ids), so that flame_walk() reads them mostly in a row, not
 * level by level as flame_prune() makes them: a tree of millions of
 * nodes (--minwidth 0) took a second more to walk.  Parents come
 * before children in both orders; the arrays are permuted in place.
 */
static void
preorder(struct flame *t)
{
	uint32_t *a, *pos, p, j;
	struct fnode nt;
	double d;
	uint64_t u;
	size_t i;

	a = xreallocarray(NULL, t->n, sizeof(*a));
	pos = xreallocarray(NULL, t->n, sizeof(*pos));
	/* a: each subtree's size, from the leaves up. */
	for (i = 0; i < t->n; i++)
		a[i] = 1;
	for (i = t->n; i-- > 1; )
		a[t->node[i].parent] += a[i];
	/* Then where each node goes, a its next child's place. */
	pos[0] = 0;
	a[0] = 1;
	for (i = 1; i < t->n; i++) {
		p = t->node[i].parent;
		pos[i] = a[p];
		a[p] += a[i];
		a[i] = pos[i] + 1;
	}
	free(a);
	for (i = 1; i < t->n; i++)
		t->node[i].parent = pos[t->node[i].parent];
	/* Each node to its place, along the cycles of pos. */
	for (i = 0; i < t->n; i++)
		while ((j = pos[i]) != i) {
			nt = t->node[i], t->node[i] = t->node[j];
			t->node[j] = nt;
			d = t->w[i], t->w[i] = t->w[j], t->w[j] = d;
			u = t->samples[i], t->samples[i] = t->samples[j];
			t->samples[j] = u;
			if (t->wa != NULL) {
				d = t->wa[i], t->wa[i] = t->wa[j];
				t->wa[j] = d;
			}
			pos[i] = pos[j], pos[j] = j;
		}
	free(pos);
}

void
flame_prune(struct flame *t, double total, double span, double minwidth)
{
	struct lv l;
	size_t k, nk = seq_count(t->keys);
	const unsigned char *e;
	unsigned char *sw;
	uint32_t *fw;
	int all = t->haswa;

	memset(&l, 0, sizeof(l));
	l.key = xreallocarray(NULL, nk + 1, sizeof(*l.key));
	l.at = xreallocarray(NULL, nk + 1, sizeof(*l.at));
	l.nd = xreallocarray(NULL, nk + 1, sizeof(*l.nd));
	l.knode = xcalloc(nk + 1, sizeof(*l.knode));
	/* The root: every record's, every key's (knode 0). */
	t->n = 1;
	if (t->haswa && t->wa == NULL)
		t->wa = xreallocarray(NULL, t->cap, sizeof(*t->wa));
	l.nslot = 16;
	l.slot = xcalloc(l.nslot, sizeof(*l.slot));
	(void)lvnode(&l, 0, FLAME_NONE);
	replay(t, &l);
	t->w[0] = l.w[0];
	if (t->wa != NULL)
		t->wa[0] = l.wa[0];
	t->samples[0] = 0;
	for (k = 0; k < nk; k++) {
		t->samples[0] += t->ks[k];
		l.knode[k] = FLAME_NONE;
		l.at[l.nk] = seq_bytes(t->keys, (uint32_t)k, &e);
		l.key[l.nk] = (uint32_t)k;
		l.nd[l.nk] = 0;
		l.nk += l.at[l.nk] < e;
	}
	l.fin[0] = 0;
	l.shown[0] = 1;
	t->maxdelta = 0;
	while (l.nk > 0) {
		sw = l.pshown, l.pshown = l.shown, l.shown = sw;
		fw = l.pfin, l.pfin = l.fin, l.fin = fw;
		step(t, &l);
		replay(t, &l);
		keep(t, &l, total, span, minwidth, all);
	}
	preorder(t);
	free(l.parent);
	free(l.func);
	free(l.w);
	free(l.wa);
	free(l.s);
	free(l.fin);
	free(l.pfin);
	free(l.shown);
	free(l.pshown);
	free(l.slot);
	free(l.key);
	free(l.at);
	free(l.nd);
	free(l.knode);
	seq_free(t->keys);
	t->keys = seq_new();
	t->loglen = 0;
}

/*
 * Link each node's children in the order of ix[1 .. n) (all the nodes
 * but the root, sorted together: so each node's children come in
 * order), and free ix.
 */
static void
link(struct flame *t, size_t *ix)
{
	size_t i, j, k;

	free(t->first);
	free(t->next);
	t->first = xhuge(t->n, sizeof(*t->first));
	t->next = xhuge(t->n, sizeof(*t->next));
	for (i = 0; i < t->n; i++)
		t->first[i] = t->next[i] = FLAME_NONE;
	for (k = t->n; k > 1; k--) {
		j = ix[k - 1];
		t->next[j] = t->first[t->node[j].parent];
		t->first[t->node[j].parent] = (uint32_t)j;
	}
	free(ix);
}

void
flame_children(struct flame *t, sst_cmp cmp, void *arg)
{
	size_t i, *ix;

	ix = xhuge(t->n, sizeof(*ix));
	for (i = 0; i < t->n; i++)
		ix[i] = i;
	sst_sort(ix + 1, t->n - 1, cmp, arg);
	link(t, ix);
}

const char *
flame_name(const struct flame *t, const struct cg *g, uint32_t nd,
    size_t *len)
{
	uint32_t fn = t->node[nd].func;

	if (nd == 0) {
		*len = 3;
		return "all";
	}
	if (fn & FLAME_THREAD)
		return ht_key(g->threads.keys, fn & ~FLAME_THREAD, len);
	return cg_name(g, fn, len);
}

/* Keys "name TAB file" (or thread names) of table arg in byte order. */
static int
bykey(size_t a, size_t b, void *arg)
{
	const struct htab *h = arg;
	const char *ka, *kb;
	size_t la, lb;
	int c;

	ka = ht_key(h, a, &la);
	kb = ht_key(h, b, &lb);
	if ((c = memcmp(ka, kb, la < lb ? la : lb)) != 0)
		return c;
	return la < lb ? -1 : la > lb;
}

/* rank[id] for the keys of h in byte order; free() it. */
static size_t *
ranks(const struct htab *h)
{
	size_t i, n = ht_count(h), *ix, *rank;

	ix = xreallocarray(NULL, n + 1, sizeof(*ix));
	rank = xreallocarray(NULL, n + 1, sizeof(*rank));
	for (i = 0; i < n; i++)
		ix[i] = i;
	sst_sort(ix, n, bykey, (void *)h);
	for (i = 0; i < n; i++)
		rank[ix[i]] = i;
	free(ix);
	return rank;
}

/*
 * Functions and threads are ranked by name once (threads after the
 * functions); the nodes are then sorted by the rank of theirs and by
 * id, a counting sort: as many counts as ranks, in two passes.
 */
void
flame_byname(struct flame *t, const struct cg *g)
{
	size_t *fr, *tr, *at, *ix, *key, i, nf, nr;
	uint32_t f;

	nf = ht_count(g->funcs);
	nr = nf + ht_count(g->threads.keys);
	fr = ranks(g->funcs);
	tr = ranks(g->threads.keys);
	key = xhuge(t->n, sizeof(*key));
	at = xcalloc(nr + 1, sizeof(*at));
	for (i = 1; i < t->n; i++) {
		f = t->node[i].func;
		key[i] = f & FLAME_THREAD ? nf + tr[f & ~FLAME_THREAD] : fr[f];
		at[key[i] + 1]++;
	}
	/* at[r]: where the nodes of rank r start, after the root. */
	at[0] = 1;
	for (i = 1; i <= nr; i++)
		at[i] += at[i - 1];
	ix = xhuge(t->n, sizeof(*ix));
	ix[0] = 0;
	for (i = 1; i < t->n; i++)
		ix[at[key[i]]++] = i;
	free(at);
	free(key);
	free(fr);
	free(tr);
	link(t, ix);
}

void
flame_subtitle(struct buf *b, const struct cg *g)
{
	char t[FMTBUF];

	buf_reset(b);
	buf_adds(b, svg_weight(t, sizeof(t), g->total, g->unit));
	if (g->diff)
		buf_adds(b, " after (widths), red: grew, blue: shrank");
	else
		buf_printf(b, ", %llu samples, unit %s",
		    (unsigned long long)g->samples, rec_unitname(g->unit));
}

void
flame_diffcolor(char *c, size_t clen, double delta, double maxdelta)
{
	size_t l = (size_t)(210 * (1 - fabs(delta) / maxdelta));

	snprintf(c, clen, delta > 0 ? "#ff%02zx%02zx" : "#%02zx%02zxff", l, l);
}

/* A frame of flame_walk()'s path from the root. */
struct level {
	uint32_t	 nd;
	uint32_t	 next;		/* its next child to visit */
	double		 x;		/* where that child goes */
	double		 mw;		/* narrow children merged so far */
	size_t		 nm;
};

void
flame_walk(const struct flame *t, double x, double total, double span,
    double minwidth, flame_draw draw, void *arg)
{
	struct level *st = NULL, *l;
	size_t n = 0, cap = 0;
	double cw;
	uint32_t c = 0;

	cw = t->w[0] / total * span;
	for (;;) {
		draw(arg, c, n, x, cw, 0);
		if (n == cap)
			st = xgrow(st, &cap, n + 1, 64, sizeof(*st));
		st[n++] = (struct level){ c, t->first[c], x, 0, 0 };
		/* Up to the next child wide enough, leaving done frames. */
		for (;;) {
			l = &st[n - 1];
			if ((c = l->next) == FLAME_NONE) {
				if (l->nm > 0 && l->mw >= minwidth)
					draw(arg, l->nd, n, l->x, l->mw, l->nm);
				if (--n == 0) {
					free(st);
					return;
				}
				continue;
			}
			l->next = t->next[c];
			cw = t->w[c] / total * span;
			if (cw >= minwidth)
				break;
			l->mw += cw;
			l->nm++;
		}
		x = l->x;
		l->x += cw;
	}
}
