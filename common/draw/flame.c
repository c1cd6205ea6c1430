/*
 * flame.c: the frame tree of sst-flame(1).  Nodes are found by
 * (parent, function) in a hash table of node ids, so that a stack adds
 * to the nodes it shares with earlier ones; node 0 is the root, the
 * nodes of threads have FLAME_THREAD | thread id as their function.
 *
 * A node's slot comes from the hash of its path (its function and its
 * parent's path hash), not of its parent's id: so the slots of all the
 * levels of a stack are known from its function ids alone, before any
 * is looked up, and flame_add() loads them, and the nodes in them,
 * levels ahead.  Looked up one after the other, each level would wait
 * on two cache misses: millions of nodes do not fit in the caches.
 *
 * What a node keeps while the stacks are read is its key (8 bytes) and
 * its weight (8, and 8 more for countA in a diff), summed in the order
 * of the records as the picture has always summed them; path hashes are
 * made again when the table grows.  Sample counts, exact in any order,
 * are kept by the last node of each distinct stack only and summed up
 * the tree by flame_prune(), which then drops the table and every node
 * that cannot be seen: those under a frame narrower than the narrowest
 * drawn.  So a node costs 16 bytes while the stacks are read, and 7 to
 * 13 in the table (a 4-byte slot and an 8-bit tag, 3/4 to 3/8 full),
 * and only the picture's nodes are kept after.
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "util.h"
#include "htab.h"
#include "sort.h"

#define AHEAD		8	/* levels whose slots are loaded ahead */
#define ROOTHASH	0x9e3779b9u
/* 8 bits of a path hash, not its slot's: a probe reads a node on a match. */
#define TAG(h)		((unsigned char)((h) >> 24))
/* flame_prune()'s map: a drawn node, one not seen, the new id. */
#define SHOWN		0x80000000u
#define HIDDEN		0x40000000u
#define IDMASK		0x3fffffffu

/* The path hash of function f's node under a node of path hash ph. */
static uint32_t
pathhash(uint32_t ph, uint32_t f)
{
	uint64_t x = (uint64_t)ph << 32 | f;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return (uint32_t)x;
}

/*
 * Twice the slots, or enough for the nodes, every node in its slot;
 * the path hashes made again from the root down (a parent's id is
 * below its children's).
 */
static void
grow(struct flame *t)
{
	size_t i, k, need;
	uint32_t *h;

	free(t->slot);
	free(t->tag);
	/* At least twice the slots, and 4 / 3 of the nodes. */
	need = 4 * (t->n + 1) / 3 > t->nslot ? 4 * (t->n + 1) / 3 + 1 :
	    t->nslot + 1;
	t->nslot = xgrowcap(t->nslot, need, 1024);
	t->slot = xhugezero(t->nslot, sizeof(*t->slot));
	t->tag = xhugezero(t->nslot, 1);
	h = xreallocarray(NULL, t->n + 1, sizeof(*h));
	for (i = 0; i < t->n; i++) {
		h[i] = i == 0 ? ROOTHASH : pathhash(h[t->node[i].parent],
		    t->node[i].func);
		k = h[i] & (t->nslot - 1);
		while (t->slot[k] != 0)
			k = (k + 1) & (t->nslot - 1);
		t->slot[k] = (uint32_t)i + 1;
		t->tag[k] = TAG(h[i]);
	}
	free(h);
}

/*
 * Array p grown to n elements of size bytes by realloc(), its whole
 * huge pages advised to be huge (the nodes are read at random).
 */
static void *
hugere(void *p, size_t n, size_t size)
{
	uintptr_t a, e;

	p = xreallocarray(p, n, size);
#ifdef MADV_HUGEPAGE
	a = ((uintptr_t)p + HUGEPAGE - 1) & ~(uintptr_t)(HUGEPAGE - 1);
	e = ((uintptr_t)p + n * size) & ~(uintptr_t)(HUGEPAGE - 1);
	if (e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)a;
	(void)e;
#endif
	return p;
}

/*
 * Room for twice the nodes: realloc(), which moves big blocks without a
 * copy, so that growing never holds two copies of millions of nodes.
 */
static void
more(struct flame *t)
{
	size_t c = xgrowcap(t->cap, t->cap + 1, 1024);

	t->node = hugere(t->node, c, sizeof(*t->node));
	t->w = hugere(t->w, c, sizeof(*t->w));
	if (t->wa != NULL)
		t->wa = hugere(t->wa, c, sizeof(*t->wa));
	if (t->samples != NULL)
		t->samples = hugere(t->samples, c, sizeof(*t->samples));
	t->cap = c;
}

/*
 * The child of node p for function f, made if new; h is its path hash.
 * The table holds node ids only (open addressing, at most 3/4 full):
 * the keys are the nodes' parent and func.
 */
static uint32_t
child(struct flame *t, uint32_t p, uint32_t f, uint32_t h)
{
	const struct fnode *nd;
	size_t k;
	uint32_t id;

	if (4 * (t->n + 1) > 3 * t->nslot)
		grow(t);
	for (k = h & (t->nslot - 1); t->slot[k] != 0;
	    k = (k + 1) & (t->nslot - 1)) {
		if (t->tag[k] != TAG(h))
			continue;
		nd = &t->node[t->slot[k] - 1];
		if (nd->parent == p && nd->func == f)
			return t->slot[k] - 1;
	}
	if (t->n >= IDMASK)
		xnoroom("too many frames");
	id = (uint32_t)t->n;
	if (t->n == t->cap)
		more(t);
	t->slot[k] = id + 1;
	t->tag[k] = TAG(h);
	t->node[id].parent = p;
	t->node[id].func = f;
	t->w[id] = 0;
	if (t->wa != NULL)
		t->wa[id] = 0;
	if (t->samples != NULL)
		t->samples[id] = 0;
	t->n++;
	return id;
}

void
flame_init(struct flame *t)
{
	memset(t, 0, sizeof(*t));
	child(t, FLAME_NONE, FLAME_NONE, ROOTHASH);
}

void
flame_free(struct flame *t)
{
	free(t->slot);
	free(t->tag);
	free(t->node);
	free(t->ph);
	free(t->w);
	free(t->wa);
	free(t->samples);
	free(t->first);
	free(t->next);
	free(t->lid);
	free(t->ls);
	memset(t, 0, sizeof(*t));
}

/*
 * Add samples to the count of the stacks that end at node nd (a table
 * of its own, open addressing, at most half full, nd + 1 by slot).
 */
static void
addleaf(struct flame *t, uint32_t nd, uint64_t samples)
{
	size_t i, k, old;
	uint32_t *lid;
	uint64_t *ls;

	if (2 * (t->nleaf + 1) > t->lcap) {
		old = t->lcap;
		lid = t->lid;
		ls = t->ls;
		t->lcap = xgrowcap(old, 2 * (t->nleaf + 1), 1024);
		t->lid = xcalloc(t->lcap, sizeof(*t->lid));
		t->ls = xreallocarray(NULL, t->lcap, sizeof(*t->ls));
		for (i = 0; i < old; i++) {
			if (lid[i] == 0)
				continue;
			k = pathhash(ROOTHASH, lid[i]) & (t->lcap - 1);
			while (t->lid[k] != 0)
				k = (k + 1) & (t->lcap - 1);
			t->lid[k] = lid[i];
			t->ls[k] = ls[i];
		}
		free(lid);
		free(ls);
	}
	k = pathhash(ROOTHASH, nd + 1) & (t->lcap - 1);
	while (t->lid[k] != 0 && t->lid[k] != nd + 1)
		k = (k + 1) & (t->lcap - 1);
	if (t->lid[k] == 0) {
		t->lid[k] = nd + 1;
		t->ls[k] = 0;
		t->nleaf++;
	}
	t->ls[k] += samples;
}

/*
 * Add a stack's weight to node nd.  The countA array is made by the
 * first that is not 0 (outside a diff, none is: 8 bytes a node less).
 */
static void
addto(struct flame *t, uint32_t nd, double w, double wa)
{
	t->w[nd] += w;
	if (wa != 0) {
		if (t->wa == NULL) {
			t->wa = xreallocarray(NULL, t->cap, sizeof(double));
			memset(t->wa, 0, t->cap * sizeof(double));
		}
		t->wa[nd] += wa;
	}
}

/*
 * The stack's levels are looked up in turn, each under the node found
 * above it; the slots of the levels AHEAD below are loaded meanwhile,
 * and the nodes in the slots of those AHEAD / 2 below (see above).
 */
void
flame_add(struct flame *t, uint32_t tid, const uint32_t *ids, size_t n,
    int reverse, double w, double wa, uint64_t samples)
{
	uint32_t nd = 0, s, h = ROOTHASH, *fn;
	size_t i, l, m = n + (tid != FLAME_NONE);

	if (m > SIZE_MAX / 2 / sizeof(*t->ph))
		xnoroom("stack too deep");
	if (2 * m > t->phcap) {
		t->phcap = 2 * m;
		t->ph = xreallocarray(t->ph, t->phcap, sizeof(*t->ph));
	}
	/* Each level's function (fn), then its path hash (ph). */
	fn = t->ph + m;
	for (l = 0; l < m; l++) {
		i = tid != FLAME_NONE ? l - 1 : l;
		fn[l] = tid != FLAME_NONE && l == 0 ? FLAME_THREAD | tid :
		    ids[reverse ? n - 1 - i : i];
		t->ph[l] = h = pathhash(h, fn[l]);
	}
	addto(t, nd, w, wa);
	for (l = 0; t->slot != NULL && l < m && l < AHEAD; l++) {
		__builtin_prefetch(&t->slot[t->ph[l] & (t->nslot - 1)]);
		__builtin_prefetch(&t->tag[t->ph[l] & (t->nslot - 1)]);
	}
	for (l = 0; l < m; l++) {
		if (t->slot != NULL) {
			if (l + AHEAD < m) {
				__builtin_prefetch(&t->slot[t->ph[l + AHEAD] &
				    (t->nslot - 1)]);
				__builtin_prefetch(&t->tag[t->ph[l + AHEAD] &
				    (t->nslot - 1)]);
			}
			if (l + AHEAD / 2 < m && (s = t->slot[t->ph[l +
			    AHEAD / 2] & (t->nslot - 1)]) != 0)
				__builtin_prefetch(&t->node[s - 1]);
		}
		nd = child(t, nd, fn[l], t->ph[l]);
		addto(t, nd, w, wa);
	}
	if (samples > 0)
		addleaf(t, nd, samples);
}

/*
 * Which nodes can be seen, and where: by node, its new id (in the order
 * of the old ones), with SHOWN if it is drawn; or for a node that
 * cannot be seen, HIDDEN and the new id of its nearest seen ancestor.
 * The root is drawn, and under a drawn node each child is seen, drawn
 * if it is as wide as minwidth (the test of flame_walk()).
 */
static uint32_t *
visible(const struct flame *t, double total, double span, double minwidth,
    size_t *m)
{
	uint32_t *map, p;
	size_t i, k = 1;

	map = xreallocarray(NULL, t->n, sizeof(*map));
	map[0] = SHOWN;
	for (i = 1; i < t->n; i++) {
		p = map[t->node[i].parent];
		if (p & HIDDEN)
			map[i] = p;
		else if (!(p & SHOWN))
			map[i] = HIDDEN | (p & IDMASK);
		else
			map[i] = (uint32_t)k++ | (t->w[i] / total * span >=
			    minwidth ? SHOWN : 0);
	}
	*m = k;
	return map;
}

void
flame_prune(struct flame *t, double total, double span, double minwidth)
{
	uint32_t *map;
	uint64_t *s;
	size_t i, k, m;

	free(t->slot);
	free(t->tag);
	t->slot = NULL;
	t->tag = NULL;
	t->nslot = 0;
	map = visible(t, total, span, minwidth, &m);
	/*
	 * Each stack's samples to the nearest seen node, then up the tree
	 * of the seen ones.
	 */
	s = xcalloc(m, sizeof(*s));
	for (i = 0; i < t->lcap; i++)
		if (t->lid[i] != 0)
			s[map[t->lid[i] - 1] & IDMASK] += t->ls[i];
	free(t->lid);
	free(t->ls);
	t->lid = NULL;
	t->ls = NULL;
	t->nleaf = t->lcap = 0;
	/* The counts of an earlier flame_prune(), under it already. */
	for (i = 0; i < t->n && t->samples != NULL; i++)
		if (!(map[i] & HIDDEN))
			s[map[i] & IDMASK] += t->samples[i];
	/* The seen nodes moved down to their new ids. */
	for (i = 1; i < t->n; i++) {
		if (map[i] & HIDDEN)
			continue;
		k = map[i] & IDMASK;
		t->node[k].parent = map[t->node[i].parent] & IDMASK;
		t->node[k].func = t->node[i].func;
		t->w[k] = t->w[i];
		if (t->wa != NULL)
			t->wa[k] = t->wa[i];
	}
	free(map);
	for (k = m; k-- > 1; )
		s[t->node[k].parent] += s[k];
	free(t->samples);
	t->samples = s;
	t->n = t->cap = m;
	t->node = xreallocarray(t->node, m, sizeof(*t->node));
	t->w = xreallocarray(t->w, m, sizeof(*t->w));
	if (t->wa != NULL)
		t->wa = xreallocarray(t->wa, m, sizeof(*t->wa));
}

/*
 * Link each node's children in the order of ix[1 .. n) (all the nodes
 * but the root, sorted together: so each node's children come in
 * order), and free ix.  The table is dropped (see above).
 */
static void
link(struct flame *t, size_t *ix)
{
	size_t i, j, k;

	free(t->slot);
	free(t->tag);
	t->slot = NULL;
	t->tag = NULL;
	t->nslot = 0;
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
