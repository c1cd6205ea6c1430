/*
 * htab.c: an interning hash table.  Each distinct key gets a dense id,
 * 0, 1, 2, ... in first-seen order, so callers keep their per-key data
 * in plain arrays indexed by id and iterate in first-seen order.  Keys
 * are copied into one growing arena; the table is open addressing with
 * linear probing over slots of 8 bytes: the top half of the key's hash
 * and where its entry is.  The top bits of the hash pick the slot, so
 * that the slot array doubles without hashing any key again or reading
 * the arena: a key's new slot is read off its tag.  An entry in
 * the arena is the id and the length of the key (4 bytes each), then
 * the key and a NUL, so that a lookup goes from the slot straight to
 * the bytes to compare: lookups are bound by cache misses, and the
 * slots are small so that more of them stay in the caches.
 */
#include <sys/mman.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <err.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "htab.h"
#include "util.h"

struct slot {
	uint32_t	tag;	/* hash >> 32 */
	uint32_t	ent;	/* entry offset / 8 + 1; 0: an empty slot */
};

/* An entry's head: id and key length; the key follows. */
struct head {
	uint32_t	id;
	uint32_t	len;
};

#define ALIGN(n)	(((n) + 7) & ~(size_t)7)
#define ENTRY(h, e)	((h)->arena + ((size_t)(e) - 1) * 8)

struct htab {
	struct slot	*slots;
	size_t		 nslots;	/* a power of two, at most 2^32 */
	unsigned	 shift;		/* tag >> shift: the home slot */
	uint32_t	*off;		/* entries (offset / 8) by id */
	size_t		 n;
	size_t		 cap;
	char		*arena;
	size_t		 alen;
	size_t		 acap;
};

static __dead void xfull(void);
static void	grow(struct htab *);
static struct slot *zeroed(size_t);
static size_t	lookup(const struct htab *, const void *, size_t, uint64_t,
		    size_t *);

struct htab *
ht_new(void)
{
	struct htab *h;

	h = xcalloc(1, sizeof(*h));
	h->nslots = 64;
	h->shift = 32 - 6;
	h->slots = zeroed(h->nslots);
	h->cap = 16;
	h->off = xreallocarray(NULL, h->cap, sizeof(*h->off));
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

/*
 * Empty h, keeping for the keys to come the memory its keys took (the
 * next ones would fault it in again page by page), no more: slots
 * beyond twice as many as they need are freed, and so are the pages of
 * the arena past them (madvise(2)).
 */
void
ht_clear(struct htab *h)
{
	uintptr_t a, e, pg;
	long sz;
	size_t n = 64;

	while (n < 2 * h->n)
		n *= 2;
	if (h->nslots > 2 * n) {
		free(h->slots);
		h->nslots = 2 * n;
		for (h->shift = 32; n > 0; n /= 2)
			h->shift--;
		h->slots = zeroed(h->nslots);
	} else
		memset(h->slots, 0, h->nslots * sizeof(*h->slots));
	if ((sz = sysconf(_SC_PAGESIZE)) > 0) {
		pg = (uintptr_t)sz;
		a = ((uintptr_t)h->arena + h->alen + pg - 1) / pg * pg;
		e = ((uintptr_t)h->arena + h->acap) / pg * pg;
		if (e > a && e - a >= HUGEPAGE)
			(void)madvise((void *)a, e - a, MADV_DONTNEED);
	}
	h->n = 0;
	h->alen = 0;
}

/* The 8 bytes at p as a word, in the machine's byte order. */
static inline uint64_t
rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

/* The 128-bit product of a and b, its halves folded together. */
static inline uint64_t
mum(uint64_t a, uint64_t b)
{
	u128 m = (u128)a * b;

	return (uint64_t)m ^ (uint64_t)(m >> 64);
}
#else
/* The same from 32-bit halves. */
static inline uint64_t
mum(uint64_t a, uint64_t b)
{
	uint64_t lo, hi, t, u;

	lo = (a & 0xffffffff) * (b & 0xffffffff);
	t = (a >> 32) * (b & 0xffffffff) + (lo >> 32);
	u = (a & 0xffffffff) * (b >> 32) + (t & 0xffffffff);
	hi = (a >> 32) * (b >> 32) + (t >> 32) + (u >> 32);
	lo = (u << 32) | (lo & 0xffffffff);
	return lo ^ hi;
}
#endif

/* Mix the 32 bytes at p into the two lanes *a and *b (ht_hash()). */
static inline void
block(const unsigned char *p, uint64_t *a, uint64_t *b)
{
	*a = mum(rd64(p) ^ 0xa0761d6478bd642fULL, rd64(p + 8) ^ *a);
	*b = mum(rd64(p + 16) ^ 0xe7037ed1a0b428dbULL, rd64(p + 24) ^ *b);
}

/*
 * The hash of lanes a and b, the last n (32 or fewer) bytes at p mixed
 * in, and len: sixteen more bytes mixed, then the last 1 to 16 read as
 * two words that may overlap each other or the bytes before them, or
 * byte by byte for 8 or fewer.
 */
static inline uint64_t
tail(const unsigned char *p, size_t n, uint64_t a, uint64_t b, size_t len)
{
	uint64_t v, w;

	if (n > 16) {
		a = mum(rd64(p) ^ 0xa0761d6478bd642fULL, rd64(p + 8) ^ a);
		p += 16;
		n -= 16;
	}
	if (n > 8) {
		v = rd64(p);
		w = rd64(p + n - 8);
	} else {
		for (v = 0, w = 0; n > 0; n--)
			v = v << 8 | p[n - 1];
	}
	a = mum(v ^ 0x8ebc6af09c88c6e3ULL, w ^ a ^ b);
	return mum(a ^ 0x589965cc75374cc3ULL, a ^ len);
}

/*
 * A fast 64-bit hash of a byte string (after wyhash): sixteen bytes at
 * a time are mixed by one 128-bit multiplication, in two lanes so that
 * the multiplications overlap (block()), then the last 32 or fewer
 * (tail()); the length is hashed first, which tells keys that read
 * alike apart.
 */
uint64_t
ht_hash(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t a = 0x9e3779b97f4a7c15ULL ^ len, b = 0x6a09e667f3bcc909ULL;
	size_t n;

	for (n = len; n > 32; p += 32, n -= 32)
		block(p, &a, &b);
	return tail(p, n, a, b, len);
}

/*
 * The hash of the bytes from start up to the first byte c before end,
 * found while they are mixed, and their length into *len; if there is
 * no c, 0 and SIZE_MAX.  The bytes are mixed as ht_hash() mixes them,
 * but 32 at a time while 32 or more are left (not more than 32) and the
 * length last only, so that no pass over them is needed to find c
 * first; with SSE2, each 32 bytes are looked at for c as they are read.
 * Not ht_hash(): the same bytes hash alike however they were found.
 */
uint64_t
ht_hashto(const void *start, const void *end, int c, size_t *len)
{
	const unsigned char *p = start, *q = start, *e = end, *f;
	uint64_t a = 0x9e3779b97f4a7c15ULL, b = 0x6a09e667f3bcc909ULL;
	size_t t;
#ifdef __SSE2__
	const __m128i cc = _mm_set1_epi8((char)c);
	unsigned m = 0;

	for (; e - q >= 32; q += 32) {
		m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(
		    (const __m128i *)q), cc)) |
		    (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(
		    (const __m128i *)(q + 16)), cc)) << 16;
		if (m != 0)
			break;
		block(q, &a, &b);
	}
	if (m != 0)
		t = (size_t)__builtin_ctz(m);
	else if ((f = memchr(q, c, (size_t)(e - q))) != NULL)
		t = (size_t)(f - q);
	else {
		*len = SIZE_MAX;
		return 0;
	}
#else
	if ((f = memchr(q, c, (size_t)(e - q))) == NULL) {
		*len = SIZE_MAX;
		return 0;
	}
	for (t = (size_t)(f - q); t >= 32; q += 32, t -= 32)
		block(q, &a, &b);
#endif
	*len = (size_t)(q - p) + t;
	return tail(q, t, a, b, *len);
}

/*
 * n empty slots, written (xhugezero(), not calloc()): a fresh mapping
 * that calloc() leaves untouched would first be read by lookups, mapping
 * the zero page, and each page written after that is a second fault that
 * flushes the other threads' TLBs.
 */
static struct slot *
zeroed(size_t n)
{
	return xhugezero(n, sizeof(struct slot));
}

/*
 * The table cannot take another key: its 32-bit offsets or its slots
 * are used up.  That is out of memory of the table's kind, fatal as it
 * is in xmalloc(): the interning functions never fail otherwise.
 */
static __dead void
xfull(void)
{
	errx(1, "hash table full");
}

/*
 * Double the slot array.  Each key goes to the home slot its tag gives,
 * one more bit of it, in the order of the old slots: so both arrays are
 * read and written in order, and the keys stay where they are.
 */
static void
grow(struct htab *h)
{
	struct slot *old = h->slots;
	size_t i, j, n = h->nslots;

	if (h->shift == 0)
		xfull();
	h->nslots *= 2;
	h->shift--;
	h->slots = zeroed(h->nslots);
	for (i = 0; i < n; i++) {
		if (old[i].ent == 0)
			continue;
		j = old[i].tag >> h->shift;
		while (h->slots[j].ent != 0)
			j = (j + 1) & (h->nslots - 1);
		h->slots[j] = old[i];
	}
	free(old);
}

/*
 * The id of key, whose hash is hv, or (size_t)-1 with *slot set to the
 * empty slot where it would go.
 */
static size_t
lookup(const struct htab *h, const void *key, size_t len, uint64_t hv,
    size_t *slot)
{
	struct head hd;
	uint32_t e, tag = hv >> 32;
	size_t i = tag >> h->shift;

	for (; (e = h->slots[i].ent) != 0; i = (i + 1) & (h->nslots - 1)) {
		if (h->slots[i].tag != tag)
			continue;
		memcpy(&hd, ENTRY(h, e), sizeof(hd));
		if (hd.len == len && memcmp(ENTRY(h, e) + sizeof(hd), key,
		    len) == 0)
			return hd.id;
	}
	*slot = i;
	return (size_t)-1;
}

size_t
ht_find(const struct htab *h, const void *key, size_t len)
{
	size_t slot;

	return lookup(h, key, len, ht_hash(key, len), &slot);
}

size_t
ht_findh(const struct htab *h, const void *key, size_t len, uint64_t hv)
{
	size_t slot;

	return lookup(h, key, len, hv, &slot);
}

/*
 * With keys, the first 256 bytes of the entry of the first slot of that
 * hash (its length is not known before it is loaded).
 */
void
ht_prefetch(const struct htab *h, uint64_t hv, int keys)
{
	uint32_t e, tag = hv >> 32;
	size_t i = tag >> h->shift;

	if (!keys) {
		__builtin_prefetch(&h->slots[i]);
		return;
	}
	for (; (e = h->slots[i].ent) != 0; i = (i + 1) & (h->nslots - 1)) {
		if (h->slots[i].tag != tag)
			continue;
		__builtin_prefetch(ENTRY(h, e));
		__builtin_prefetch(ENTRY(h, e) + 64);
		__builtin_prefetch(ENTRY(h, e) + 128);
		__builtin_prefetch(ENTRY(h, e) + 192);
		return;
	}
}

size_t
ht_intern(struct htab *h, const void *key, size_t len, int *isnew)
{
	return ht_internh(h, key, len, ht_hash(key, len), isnew);
}

size_t
ht_internh(struct htab *h, const void *key, size_t len, uint64_t hv,
    int *isnew)
{
	struct head hd;
	size_t i, id, need;

	if ((id = lookup(h, key, len, hv, &i)) != (size_t)-1) {
		if (isnew != NULL)
			*isnew = 0;
		return id;
	}
	id = h->n++;
	if (h->n > h->cap) {
		h->off = xhugegrow(h->off, h->cap, 2 * h->cap,
		    sizeof(*h->off));
		h->cap *= 2;
	}
	need = ALIGN(sizeof(hd) + len + 1);
	if (len > UINT32_MAX - 16 || h->alen / 8 >= UINT32_MAX - 1)
		xfull();
	if (h->alen + need > h->acap) {
		while (h->alen + need > h->acap)
			h->acap *= 2;
		h->arena = xhugegrow(h->arena, h->alen, h->acap, 1);
	}
	hd.id = (uint32_t)id;
	hd.len = (uint32_t)len;
	memcpy(h->arena + h->alen, &hd, sizeof(hd));
	memcpy(h->arena + h->alen + sizeof(hd), key, len);
	h->arena[h->alen + sizeof(hd) + len] = '\0';
	h->off[id] = (uint32_t)(h->alen / 8);
	h->slots[i].tag = hv >> 32;
	h->slots[i].ent = h->alen / 8 + 1;
	h->alen += need;
	if (h->n * 2 > h->nslots)
		grow(h);
	if (isnew != NULL)
		*isnew = 1;
	return id;
}

const char *
ht_key(const struct htab *h, size_t id, size_t *len)
{
	struct head hd;

	memcpy(&hd, h->arena + (size_t)h->off[id] * 8, sizeof(hd));
	if (len != NULL)
		*len = hd.len;
	return h->arena + (size_t)h->off[id] * 8 + sizeof(hd);
}

size_t
ht_count(const struct htab *h)
{
	return h->n;
}
