/*
 * htab.c: an interning hash table.  Each distinct key gets a dense id,
 * 0, 1, 2, ... in first-seen order, so callers keep their per-key data
 * in plain arrays indexed by id and iterate in first-seen order.  Keys
 * are copied into one growing arena; the table is open addressing with
 * linear probing over (hash, id) slots.
 */
#include <stdlib.h>
#include <string.h>

#include "sst.h"

struct slot {
	uint64_t	hash;
	size_t		id;	/* id + 1; 0 marks an empty slot */
};

struct htab {
	struct slot	*slots;
	size_t		 nslots;	/* a power of two */
	size_t		*off;		/* key offsets into arena, by id */
	size_t		 n;
	size_t		 cap;
	char		*arena;
	size_t		 alen;
	size_t		 acap;
};

static void	grow(struct htab *);

struct htab *
ht_new(void)
{
	struct htab *h;

	h = xcalloc(1, sizeof(*h));
	h->nslots = 64;
	h->slots = xcalloc(h->nslots, sizeof(*h->slots));
	h->cap = 16;
	h->off = xreallocarray(NULL, h->cap + 1, sizeof(*h->off));
	h->off[0] = 0;
	h->acap = 1024;
	h->arena = xmalloc(h->acap);
	return h;
}

void
ht_free(struct htab *h)
{
	if (h == NULL)
		return;
	free(h->slots);
	free(h->off);
	free(h->arena);
	free(h);
}

/* A fast 64-bit hash of a byte string, eight bytes at a time. */
uint64_t
ht_hash(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, v;

	while (len >= 8) {
		memcpy(&v, p, 8);
		h = (h ^ v) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
		p += 8;
		len -= 8;
	}
	v = 0;
	memcpy(&v, p, len);
	h = (h ^ v) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 29;
	h *= 0x9e3779b97f4a7c15ULL;
	h ^= h >> 32;
	return h;
}

/* Double the slot array and re-insert every id. */
static void
grow(struct htab *h)
{
	struct slot *old = h->slots;
	size_t i, j, n = h->nslots;

	h->nslots *= 2;
	h->slots = xcalloc(h->nslots, sizeof(*h->slots));
	for (i = 0; i < n; i++) {
		if (old[i].id == 0)
			continue;
		j = old[i].hash & (h->nslots - 1);
		while (h->slots[j].id != 0)
			j = (j + 1) & (h->nslots - 1);
		h->slots[j] = old[i];
	}
	free(old);
}

size_t
ht_find(const struct htab *h, const void *key, size_t len)
{
	uint64_t hv = ht_hash(key, len);
	size_t i = hv & (h->nslots - 1), id;

	for (; h->slots[i].id != 0; i = (i + 1) & (h->nslots - 1)) {
		if (h->slots[i].hash != hv)
			continue;
		id = h->slots[i].id - 1;
		if (h->off[id + 1] - h->off[id] - 1 == len &&
		    memcmp(h->arena + h->off[id], key, len) == 0)
			return id;
	}
	return (size_t)-1;
}

size_t
ht_intern(struct htab *h, const void *key, size_t len, int *isnew)
{
	uint64_t hv = ht_hash(key, len);
	size_t i = hv & (h->nslots - 1), id;

	for (; h->slots[i].id != 0; i = (i + 1) & (h->nslots - 1)) {
		if (h->slots[i].hash != hv)
			continue;
		id = h->slots[i].id - 1;
		if (h->off[id + 1] - h->off[id] - 1 == len &&
		    memcmp(h->arena + h->off[id], key, len) == 0) {
			if (isnew != NULL)
				*isnew = 0;
			return id;
		}
	}
	id = h->n++;
	h->slots[i].hash = hv;
	h->slots[i].id = id + 1;
	if (h->n >= h->cap) {
		h->cap *= 2;
		h->off = xreallocarray(h->off, h->cap + 1, sizeof(*h->off));
	}
	if (h->alen + len + 1 > h->acap) {
		while (h->alen + len + 1 > h->acap)
			h->acap *= 2;
		h->arena = xreallocarray(h->arena, h->acap, 1);
	}
	memcpy(h->arena + h->alen, key, len);
	h->arena[h->alen + len] = '\0';
	h->alen += len + 1;
	h->off[id + 1] = h->alen;
	if (h->n * 2 > h->nslots)
		grow(h);
	if (isnew != NULL)
		*isnew = 1;
	return id;
}

const char *
ht_key(const struct htab *h, size_t id, size_t *len)
{
	if (len != NULL)
		*len = h->off[id + 1] - h->off[id] - 1;
	return h->arena + h->off[id];
}

size_t
ht_count(const struct htab *h)
{
	return h->n;
}
