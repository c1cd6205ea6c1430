/*
 * flame.c: the frame tree of sst-flame(1).  Nodes are interned by
 * (parent, function) in a hash table, so that a stack adds to the nodes
 * it shares with earlier ones; node 0 is the root, the nodes of threads
 * have FLAME_THREAD | thread id as their function.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"

/* The child of node p for function f, made if new. */
static uint32_t
child(struct flame *t, uint32_t p, uint32_t f)
{
	uint32_t k[2] = { p, f };
	size_t id;
	int isnew;

	id = ht_intern(t->h, k, sizeof(k), &isnew);
	if (!isnew)
		return (uint32_t)id;
	if (id >= FLAME_NONE - 1)
		errx(1, "too many frames");
	if (id == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 1024;
		t->parent = xreallocarray(t->parent, t->cap, sizeof(uint32_t));
		t->func = xreallocarray(t->func, t->cap, sizeof(uint32_t));
		t->w = xreallocarray(t->w, t->cap, sizeof(double));
		t->wa = xreallocarray(t->wa, t->cap, sizeof(double));
		t->samples = xreallocarray(t->samples, t->cap,
		    sizeof(uint64_t));
	}
	t->parent[id] = p;
	t->func[id] = f;
	t->w[id] = t->wa[id] = 0;
	t->samples[id] = 0;
	t->n = id + 1;
	return (uint32_t)id;
}

void
flame_init(struct flame *t)
{
	memset(t, 0, sizeof(*t));
	t->h = ht_new();
	child(t, FLAME_NONE, FLAME_NONE);
}

void
flame_free(struct flame *t)
{
	ht_free(t->h);
	free(t->parent);
	free(t->func);
	free(t->w);
	free(t->wa);
	free(t->samples);
	free(t->first);
	free(t->next);
	memset(t, 0, sizeof(*t));
}

/* Add a stack's weight to node nd. */
static void
addto(struct flame *t, uint32_t nd, double w, double wa, uint64_t samples)
{
	t->w[nd] += w;
	t->wa[nd] += wa;
	t->samples[nd] += samples;
}

void
flame_add(struct flame *t, uint32_t tid, const uint32_t *ids, size_t n,
    int reverse, double w, double wa, uint64_t samples)
{
	uint32_t nd = 0;
	size_t i;

	addto(t, nd, w, wa, samples);
	if (tid != FLAME_NONE) {
		nd = child(t, nd, FLAME_THREAD | tid);
		addto(t, nd, w, wa, samples);
	}
	for (i = 0; i < n; i++) {
		nd = child(t, nd, ids[reverse ? n - 1 - i : i]);
		addto(t, nd, w, wa, samples);
	}
}

void
flame_children(struct flame *t, sst_cmp cmp, void *arg)
{
	size_t i, j, k, *ix;

	free(t->first);
	free(t->next);
	t->first = xreallocarray(NULL, t->n, sizeof(*t->first));
	t->next = xreallocarray(NULL, t->n, sizeof(*t->next));
	ix = xreallocarray(NULL, t->n, sizeof(*ix));
	for (i = 0; i < t->n; i++) {
		t->first[i] = t->next[i] = FLAME_NONE;
		ix[i] = i;
	}
	/* Sorted all together, each node's children come in order. */
	sst_sort(ix + 1, t->n - 1, cmp, arg);
	for (k = t->n; k > 1; k--) {
		j = ix[k - 1];
		t->next[j] = t->first[t->parent[j]];
		t->first[t->parent[j]] = (uint32_t)j;
	}
	free(ix);
}

const char *
flame_name(const struct flame *t, const struct cg *g, uint32_t nd,
    size_t *len)
{
	uint32_t fn = t->func[nd];

	if (nd == 0) {
		*len = 3;
		return "all";
	}
	if (fn & FLAME_THREAD)
		return ht_key(g->threads.keys, fn & ~FLAME_THREAD, len);
	return cg_name(g, fn, len);
}

/* What byname() compares. */
struct names {
	const struct flame	*t;
	const struct cg		*g;
};

/* Siblings by name, then by file, then in first-seen order. */
static int
byname(size_t a, size_t b, void *arg)
{
	const struct names *o = arg;
	const char *ka, *kb;
	size_t la, lb;
	int c;

	ka = flame_name(o->t, o->g, (uint32_t)a, &la);
	kb = flame_name(o->t, o->g, (uint32_t)b, &lb);
	if ((c = memcmp(ka, kb, la < lb ? la : lb)) != 0)
		return c;
	if (la != lb)
		return la < lb ? -1 : 1;
	if (!(o->t->func[a] & FLAME_THREAD) && !(o->t->func[b] &
	    FLAME_THREAD)) {
		ka = cg_file(o->g, o->t->func[a], &la);
		kb = cg_file(o->g, o->t->func[b], &lb);
		if ((c = memcmp(ka, kb, la < lb ? la : lb)) != 0)
			return c;
		if (la != lb)
			return la < lb ? -1 : 1;
	}
	return a < b ? -1 : a > b;
}

void
flame_byname(struct flame *t, const struct cg *g)
{
	struct names o = { t, g };

	flame_children(t, byname, &o);
}
