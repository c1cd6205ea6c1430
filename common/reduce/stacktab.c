/*
 * stacktab.c: a table of stacks as a tree (a trie) of interned frames.
 * A distinct stack is a path from the root: each node is its parent's
 * id and its frame's id, 8 bytes, found by an open-addressed table of
 * node ids (4 bytes, at most three quarters full); a path's depth is
 * walked, not kept.  Frames are interned once in a struct htab.  Memory
 * follows the distinct prefixes, not the bytes of the stacks: a reducer
 * that held every stack's text keeps an id.
 *
 * A node's slot comes from the hash of its path (its frame and its
 * parent's path hash), not of its parent's id, as in flame.c: once a
 * stack's frames are interned, the slots of all its levels are known,
 * and the slots, and the nodes in them, are loaded levels ahead of the
 * lookups; looked up one after the other, each level waited on two
 * cache misses (half of sst-merge's time on a million-node tree).
 * Path hashes are not kept: the table's growth makes them again from
 * the root down (a parent's id is below its children's).
 *
 * Records of a stream often share a long prefix with the record before
 * them, so the path of the last stack interned is kept with where each
 * of its frames ends: a new stack walks the tree only from where it
 * parts from the last one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "htab.h"
#include "rec.h"
#include "stacktab.h"

struct node {
	uint32_t	parent;
	uint32_t	frame;
};

#define AHEAD		8	/* levels whose slots are loaded ahead */
#define ROOTHASH	0x9e3779b9u
/* 8 bits of a path hash, not its slot's: a node is read on a match only. */
#define TAG(h)		((unsigned char)((h) >> 24))

struct stacktab {
	struct htab	*frames;
	struct node	*nodes;		/* by id; nodes[0] is the root */
	size_t		 n;
	size_t		 cap;
	uint32_t	*slots;		/* node id + 1; 0: empty */
	unsigned char	*tags;		/* by slot: TAG() of its path hash */
	size_t		 mask;		/* slots - 1, a power of two less 1 */
	/* The last stack interned: its text, and its path's nodes. */
	struct buf	 last;
	uint32_t	*path;		/* path[i]: node after frame i */
	uint32_t	*ph;		/* ph[i]: its path hash */
	uint32_t	*fid;		/* fid[i]: frame i's id */
	size_t		*ends;		/* ends[i]: offset just past frame i */
	size_t		 plen;
	size_t		 pcap;
	uint32_t	*walk;		/* stk_text()'s frames, leaf first */
	size_t		 wcap;
};

static size_t	mismatch(const char *, const char *, size_t);
static uint32_t	pathhash(uint32_t, uint32_t);
static void	rehash(struct stacktab *);
static uint32_t	child(struct stacktab *, uint32_t, uint32_t, uint32_t);
static void	room(struct stacktab *, size_t);

struct stacktab *
stk_new(void)
{
	struct stacktab *t;

	t = xcalloc(1, sizeof(*t));
	t->frames = ht_new();
	t->cap = 1024;
	t->nodes = xreallocarray(NULL, t->cap, sizeof(*t->nodes));
	t->nodes[0].parent = 0;
	t->nodes[0].frame = 0;
	t->n = 1;
	t->mask = 2047;
	t->slots = xcalloc(t->mask + 1, sizeof(*t->slots));
	t->tags = xcalloc(t->mask + 1, 1);
	buf_init(&t->last);
	return t;
}

void
stk_free(struct stacktab *t)
{
	if (t == NULL)
		return;
	ht_free(t->frames);
	free(t->nodes);
	free(t->slots);
	free(t->tags);
	free(t->path);
	free(t->ph);
	free(t->fid);
	free(t->ends);
	free(t->walk);
	buf_free(&t->last);
	free(t);
}

/* How many of the first n bytes of a and b are the same. */
static size_t
mismatch(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y) {
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return i + (size_t)__builtin_ctzll(x ^ y) / 8;
#else
			break;
#endif
		}
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* The path hash of frame f's node under a node of path hash ph. */
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

/* Double the slots and place every node again, by its path hash. */
static void
rehash(struct stacktab *t)
{
	uint32_t *h;
	size_t i, j;

	free(t->slots);
	free(t->tags);
	t->mask = t->mask * 2 + 1;
	t->slots = xcalloc(t->mask + 1, sizeof(*t->slots));
	t->tags = xcalloc(t->mask + 1, 1);
	h = xreallocarray(NULL, t->n, sizeof(*h));
	h[0] = ROOTHASH;
	for (i = 1; i < t->n; i++) {
		h[i] = pathhash(h[t->nodes[i].parent], t->nodes[i].frame);
		j = h[i] & t->mask;
		while (t->slots[j] != 0)
			j = (j + 1) & t->mask;
		t->slots[j] = (uint32_t)i + 1;
		t->tags[j] = TAG(h[i]);
	}
	free(h);
}

/* Frame id frame's node under node parent, made if new; h: its path hash. */
static uint32_t
child(struct stacktab *t, uint32_t parent, uint32_t frame, uint32_t h)
{
	uint32_t id;
	size_t j;

	j = h & t->mask;
	while ((id = t->slots[j]) != 0) {
		id--;
		if (t->tags[j] == TAG(h) && t->nodes[id].parent == parent &&
		    t->nodes[id].frame == frame)
			return id;
		j = (j + 1) & t->mask;
	}
	if (t->n >= UINT32_MAX - 1)
		xnoroom("stack table full");
	if (t->n == t->cap) {
		t->cap *= 2;
		t->nodes = xreallocarray(t->nodes, t->cap, sizeof(*t->nodes));
	}
	id = (uint32_t)t->n++;
	t->nodes[id].parent = parent;
	t->nodes[id].frame = frame;
	t->slots[j] = id + 1;
	t->tags[j] = TAG(h);
	if (t->n * 4 > t->mask * 3)
		rehash(t);
	return id;
}

/* Room for n frames in the last path's arrays. */
static void
room(struct stacktab *t, size_t n)
{
	if (n <= t->pcap)
		return;
	t->pcap = xgrowcap(t->pcap, n, 64);
	t->path = xreallocarray(t->path, t->pcap, sizeof(*t->path));
	t->ph = xreallocarray(t->ph, t->pcap, sizeof(*t->ph));
	t->fid = xreallocarray(t->fid, t->pcap, sizeof(*t->fid));
	t->ends = xreallocarray(t->ends, t->pcap, sizeof(*t->ends));
}

uint32_t
stk_intern(struct stacktab *t, const char *s, size_t n)
{
	const char *p, *e, *semi;
	size_t i, l, m, keep, same;
	uint32_t id, h, k;

	if (n == 0)
		return STK_ROOT;
	/* The frames of the last stack that end before the two part. */
	same = mismatch(s, t->last.data, n < t->last.len ? n : t->last.len);
	keep = 0;
	if (same == n && same == t->last.len)
		return t->path[t->plen - 1];
	while (keep < t->plen && (t->ends[keep] < same ||
	    (t->ends[keep] == same && (same == n || s[same] == ';') &&
	    (same == t->last.len || t->last.data[same] == ';'))))
		keep++;
	if (keep > 0 && t->ends[keep - 1] == n)
		return t->path[keep - 1];	/* a prefix of the last */
	/* The frames from there, interned, and their path hashes. */
	p = keep ? s + t->ends[keep - 1] + 1 : s;
	e = s + n;
	h = keep ? t->ph[keep - 1] : ROOTHASH;
	for (m = keep;; m++) {
		if ((semi = memchr(p, ';', (size_t)(e - p))) == NULL)
			semi = e;
		room(t, m + 1);
		t->fid[m] = (uint32_t)ht_intern(t->frames, p,
		    (size_t)(semi - p), NULL);
		t->ph[m] = h = pathhash(h, t->fid[m]);
		t->ends[m] = (size_t)(semi - s);
		if (semi == e)
			break;
		p = semi + 1;
	}
	m++;
	/* Then the walk, the slots and nodes of levels below loaded. */
	for (l = keep; l < m && l < keep + AHEAD; l++) {
		__builtin_prefetch(&t->slots[t->ph[l] & t->mask]);
		__builtin_prefetch(&t->tags[t->ph[l] & t->mask]);
	}
	id = keep ? t->path[keep - 1] : STK_ROOT;
	for (i = keep; i < m; i++) {
		if (i + AHEAD < m) {
			__builtin_prefetch(&t->slots[t->ph[i + AHEAD] &
			    t->mask]);
			__builtin_prefetch(&t->tags[t->ph[i + AHEAD] &
			    t->mask]);
		}
		if (i + AHEAD / 2 < m && (k = t->slots[t->ph[i + AHEAD / 2] &
		    t->mask]) != 0)
			__builtin_prefetch(&t->nodes[k - 1]);
		t->path[i] = id = child(t, id, t->fid[i], t->ph[i]);
	}
	t->plen = m;
	buf_reset(&t->last);
	buf_add(&t->last, s, n);
	return id;
}

void
stk_text(struct stacktab *t, uint32_t id, struct buf *b)
{
	const char *name;
	size_t d, len;

	for (d = 0; id != STK_ROOT; d++) {
		t->walk = xgrow(t->walk, &t->wcap, d + 1, 64,
		    sizeof(*t->walk));
		t->walk[d] = t->nodes[id].frame;
		id = t->nodes[id].parent;
	}
	while (d-- > 0) {
		name = ht_key(t->frames, t->walk[d], &len);
		buf_add(b, name, len);
		if (d > 0)
			buf_addc(b, ';');
	}
}

uint32_t
stk_depth(const struct stacktab *t, uint32_t id)
{
	uint32_t d;

	for (d = 0; id != STK_ROOT; d++)
		id = t->nodes[id].parent;
	return d;
}

uint32_t
stk_parent(const struct stacktab *t, uint32_t id)
{
	return t->nodes[id].parent;
}

uint32_t
stk_frame(const struct stacktab *t, uint32_t id)
{
	return t->nodes[id].frame;
}

const char *
stk_name(const struct stacktab *t, uint32_t frame, size_t *len)
{
	return ht_key(t->frames, frame, len);
}

size_t
stk_count(const struct stacktab *t)
{
	return t->n;
}

size_t
stk_nframes(const struct stacktab *t)
{
	return ht_count(t->frames);
}

/* How many ';'-separated pieces the n bytes at s hold. */
size_t
stack_pieces(const char *s, size_t n)
{
	const char *e = s + n;
	size_t k = 1;

	while ((s = memchr(s, ';', (size_t)(e - s))) != NULL) {
		s++;
		k++;
	}
	return k;
}

/* Into b, r's frames each with its location: "frame TAB loc;...". */
void
stack_zip(struct buf *b, const struct sst_rec *r)
{
	const char *f = r->stack, *fe = f + r->stacklen, *l = r->locs;
	const char *le = l + r->locslen, *p, *q;

	buf_reset(b);
	for (;;) {
		if ((p = memchr(f, ';', (size_t)(fe - f))) == NULL)
			p = fe;
		if ((q = memchr(l, ';', (size_t)(le - l))) == NULL)
			q = le;
		buf_add(b, f, (size_t)(p - f));
		buf_addc(b, '\t');
		buf_add(b, l, (size_t)(q - l));
		if (p == fe)
			break;
		buf_addc(b, ';');
		f = p + 1;
		l = q + 1;
	}
}

/* Split stack_zip()'s text z into frames (kept in z) and locations (to l). */
void
stack_unzip(struct buf *z, struct buf *l)
{
	char *p, *w, *e, *tab, *semi;

	buf_reset(l);
	p = w = z->data;
	e = p + z->len;
	for (;;) {
		tab = memchr(p, '\t', (size_t)(e - p));
		if ((semi = memchr(tab, ';', (size_t)(e - tab))) == NULL)
			semi = e;
		memmove(w, p, (size_t)(tab - p));
		w += tab - p;
		buf_add(l, tab + 1, (size_t)(semi - tab - 1));
		if (semi == e)
			break;
		*w++ = ';';
		buf_addc(l, ';');
		p = semi + 1;
	}
	z->len = (size_t)(w - z->data);
	*w = '\0';
}
