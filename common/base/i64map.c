/*
 * i64map.c: a hash map from 64-bit integer keys to three 64-bit values:
 * open addressing with linear probing in a power-of-2 table kept at most
 * three quarters full, keys spread by Fibonacci hashing, and deletion by
 * moving the later slots of the cluster back (no tombstones), so that a
 * map whose keys come and go (what waits for its other half) stays as
 * small as what is in it at once.  The key that marks an empty slot is
 * kept beside the table.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "i64map.h"

#define MINCAP	16

void
im_init(struct i64map *m)
{
	memset(m, 0, sizeof(*m));
}

/* The home slot of key k. */
static inline size_t
home(const struct i64map *m, uint64_t k)
{
	return (size_t)((k * 0x9e3779b97f4a7c15ULL) >> 32) & (m->cap - 1);
}

int64_t *
im_find(const struct i64map *m, uint64_t k)
{
	size_t i;

	if (k == IM_EMPTY)
		return m->hasx ? (int64_t *)(uintptr_t)m->xv : NULL;
	if (m->cap == 0)
		return NULL;
	for (i = home(m, k); m->s[i].key != IM_EMPTY; i = (i + 1) &
	    (m->cap - 1))
		if (m->s[i].key == k)
			return m->s[i].v;
	return NULL;
}

/* Twice the slots, the keys placed again. */
static void
grow(struct i64map *m)
{
	struct imslot *old = m->s;
	size_t oc = m->cap, i, j;

	m->cap = oc == 0 ? MINCAP : xgrowcap(oc, oc + 1, MINCAP);
	m->s = xreallocarray(NULL, m->cap, sizeof(*m->s));
	for (i = 0; i < m->cap; i++)
		m->s[i].key = IM_EMPTY;
	for (i = 0; i < oc; i++) {
		if (old[i].key == IM_EMPTY)
			continue;
		for (j = home(m, old[i].key); m->s[j].key != IM_EMPTY;
		    j = (j + 1) & (m->cap - 1))
			;
		m->s[j] = old[i];
	}
	free(old);
}

int64_t *
im_put(struct i64map *m, uint64_t k, int *isnew)
{
	size_t i;

	if (isnew != NULL)
		*isnew = 0;
	if (k == IM_EMPTY) {
		if (!m->hasx) {
			m->hasx = 1;
			m->n++;
			memset(m->xv, 0, sizeof(m->xv));
			if (isnew != NULL)
				*isnew = 1;
		}
		return m->xv;
	}
	if ((m->n + 1) * 4 > m->cap * 3)
		grow(m);
	for (i = home(m, k); m->s[i].key != IM_EMPTY; i = (i + 1) &
	    (m->cap - 1))
		if (m->s[i].key == k)
			return m->s[i].v;
	m->s[i].key = k;
	memset(m->s[i].v, 0, sizeof(m->s[i].v));
	m->n++;
	if (isnew != NULL)
		*isnew = 1;
	return m->s[i].v;
}

int
im_del(struct i64map *m, uint64_t k)
{
	size_t i, j, h, mask = m->cap - 1;

	if (k == IM_EMPTY) {
		if (!m->hasx)
			return -1;
		m->hasx = 0;
		m->n--;
		return 0;
	}
	if (m->n == 0 || m->cap == 0)
		return -1;
	for (i = home(m, k); m->s[i].key != k; i = (i + 1) & mask)
		if (m->s[i].key == IM_EMPTY)
			return -1;
	/*
	 * Move back each later key of the cluster whose home is not
	 * cyclically in (i, j]: it would no longer be found past the hole.
	 */
	for (j = i;;) {
		m->s[i].key = IM_EMPTY;
		for (;;) {
			j = (j + 1) & mask;
			if (m->s[j].key == IM_EMPTY) {
				m->n--;
				return 0;
			}
			h = home(m, m->s[j].key);
			if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
				continue;
			break;
		}
		m->s[i] = m->s[j];
		i = j;
	}
}

int64_t *
im_next(const struct i64map *m, size_t *pos, uint64_t *k)
{
	for (; *pos < m->cap; (*pos)++)
		if (m->s[*pos].key != IM_EMPTY) {
			*k = m->s[*pos].key;
			return m->s[(*pos)++].v;
		}
	if (*pos == m->cap && m->hasx) {
		(*pos)++;
		*k = IM_EMPTY;
		return (int64_t *)(uintptr_t)m->xv;
	}
	return NULL;
}

size_t
im_count(const struct i64map *m)
{
	return m->n;
}

void
im_clear(struct i64map *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		m->s[i].key = IM_EMPTY;
	m->n = 0;
	m->hasx = 0;
}

void
im_free(struct i64map *m)
{
	free(m->s);
	im_init(m);
}

int
im_bitset(struct i64map *m, int64_t x)
{
	uint64_t u = (uint64_t)x, bit;
	int64_t *w;
	int was;

	w = im_put(m, u / 192, NULL);
	bit = 1ULL << (u % 192 % 64);
	was = ((uint64_t)w[u % 192 / 64] & bit) != 0;
	w[u % 192 / 64] = (int64_t)((uint64_t)w[u % 192 / 64] | bit);
	return was;
}

int
im_bittest(const struct i64map *m, int64_t x)
{
	uint64_t u = (uint64_t)x;
	const int64_t *w;

	if ((w = im_find(m, u / 192)) == NULL)
		return 0;
	return ((uint64_t)w[u % 192 / 64] >> (u % 192 % 64) & 1) != 0;
}
