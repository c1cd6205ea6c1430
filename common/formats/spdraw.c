/*
 * spdraw.c: the raw text cache of the speedscope reader (spd.c): the
 * samples read as raw text (rawbatch(), rawhead()), the cache of the
 * texts sampled most (rc*), and the raw text of a miss checked and
 * converted to its key (rawcheck(), rawkey(), stackkey()).
 */
#include <err.h>
#include <math.h>
#include <pthread.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "json.h"
#include "zlist.h"
#include "varint.h"
#include "compact.h"
#include "digits.h"
#include "spdint.h"

static uint64_t	 rawhash(const struct json_raw *);
static void	 rawhead(struct spd *, size_t);
static size_t	 rcfind(struct spd *, uint64_t, const char *, size_t);
static size_t	 rcput(struct spd *, uint64_t, const char *, size_t);
static int	 rawcheck(const char *, size_t, struct rawk *);

/*
 * The hash of a sample's raw text r, which picks its cache slot and
 * tells texts apart before their bytes are compared: ht_hashto()'s,
 * made as its end was found (json_rawarrays(), or readstack()).  Built
 * with SPD_COLLIDE (test_spdcollide), the texts of a length share one,
 * so that the cache meets heads that say "maybe" of another text at
 * every turn.
 */
static inline uint64_t
rawhash(const struct json_raw *r)
{
#ifdef SPD_COLLIDE
	return r->len * 0x9e3779b97f4a7c15ULL;
#else
	return r->hash;
#endif
}

/*
 * The tag of a sample's raw text r (see sp_intern()): the top half of its
 * ht_hashto(), whatever rawhash() gives the cache.
 */
inline uint32_t
sp_rawtag(const struct json_raw *r)
{
	return (uint32_t)(r->hash >> 32);
}

/*
 * Hash the raw text of sample i of s->rb and start loading its cache
 * set: both heads, and as much of both slots' text as the sample has.
 * Loading the text only when a head says it may be there would wait on
 * the head first.
 */
static void
rawhead(struct spd *s, size_t i)
{
	const char *x;
	size_t m, slot;

	s->rh[i] = rawhash(&s->rb[i]);
	slot = s->rh[i] & (RCSLOTS - 2);
	__builtin_prefetch(&s->rct[slot]);
	x = s->rctext + slot * RCTEXT;
	for (m = 0; m < s->rb[i].len && m < RCTEXT; m += 64) {
		__builtin_prefetch(x + m);
		__builtin_prefetch(x + RCTEXT + m);
	}
}

/*
 * Hand over samples s->rb[0..n) (json_rawarrays(), json_rawarray()) by
 * their raw text while that can be: the same as the sample's before
 * it, found in the cache, or else checked to be in key form, to be
 * converted and looked up by the interning thread (converted here
 * while that thread lags, see sp_qlags()).  Returns how many were; the
 * next one, if any, is to be read token by token.  The cache
 * waits on memory, so each sample is hashed RHASH samples ahead and its
 * cache set loaded.
 */
size_t
sp_rawbatch(struct spd *s, size_t n)
{
	const struct json_raw *r = s->rb;
	struct qplace pl;
	size_t i, k, slot;

	for (i = 0; i < n && i < RHASH; i++)
		rawhead(s, i);
	for (i = 0; i < n; i++) {
		if ((k = i + RHASH) < n)
			rawhead(s, k);
		if (i > 0 && r[i].len == r[i - 1].len &&
		    s->rh[i] == s->rh[i - 1] &&
		    memcmp(r[i].p, r[i - 1].p, r[i].len) == 0)
			*sp_qroom(s, 1) = Q_SAME;
		else if ((slot = rcfind(s, s->rh[i], r[i].p, r[i].len)) !=
		    NOSLOT)
			sp_qhit(s, slot);
		else if (sp_qlags(s)) {
			if (sp_rawkey(r[i].p, r[i].len, &s->chk) == -1)
				break;
			sp_qconv(s, rcput(s, s->rh[i], r[i].p, r[i].len),
			    &r[i]);
		} else if (rawcheck(r[i].p, r[i].len, &s->chk) == 0) {
			pl.len = (uint32_t)r[i].len;
			pl.rtag = sp_rawtag(&r[i]);
			pl.off = json_rawplace(s->j, &r[i], &pl.line, &pl.col);
			sp_qraw(s, rcput(s, s->rh[i], r[i].p, r[i].len), &pl,
			    r[i].p);
		} else
			break;
		sp_qdone(s);
	}
	return i;
}

/*
 * Forget the raw text cache: a new generation, and when they wrap
 * round, heads cleared so that none is of the new one.
 */
void
sp_rcnext(struct spd *s)
{
	if (++s->rcgen == 0) {
		memset(s->rct, 0, RCSLOTS * sizeof(*s->rct));
		s->rcgen = 1;
	}
}

/* The cache slot of raw text raw of len bytes (hash h), or NOSLOT. */
static size_t
rcfind(struct spd *s, uint64_t h, const char *raw, size_t len)
{
	struct rctag *t;
	size_t i, slot = h & (RCSLOTS - 2);

	for (i = 0, t = &s->rct[slot]; i < 2; i++, t++)
		if (t->gen == s->rcgen && t->hash == h >> 32 && t->len == len &&
		    memcmp(s->rctext + (slot + i) * RCTEXT, raw, len) == 0) {
			t->hits += t->hits < UINT8_MAX;
			return slot + i;
		}
	return NOSLOT;
}

/*
 * The cache slot that raw text raw of len bytes (hash h), not found
 * there, takes, or NOSLOT: of the two of its set, the one of fewer
 * hits, once misses have taken them back.  The stack id of the slot is
 * known when the interning thread has looked the text up.
 */
static size_t
rcput(struct spd *s, uint64_t h, const char *raw, size_t len)
{
	struct rctag *t;
	size_t slot = h & (RCSLOTS - 2);

	if (len == 0 || len > RCTEXT)
		return NOSLOT;
	t = &s->rct[slot];
	if (t[1].gen != s->rcgen || (t->gen == s->rcgen && t[1].hits <
	    t->hits)) {
		t++;
		slot++;
	}
	if (t->gen == s->rcgen && t->hits > 0) {
		t->hits--;
		return NOSLOT;
	}
	t->hash = (uint32_t)(h >> 32);
	t->gen = s->rcgen;
	t->len = (uint16_t)len;
	t->hits = 1;
	memcpy(s->rctext + slot * RCTEXT, raw, len);
	return slot;
}

/*
 * Make h's key of the raw text q[0..len) of a sample if that is in key
 * form: indices of no more digits than they need, each followed by a
 * ',' but the last.  Its largest index and the offset of the first
 * place it is at are noted.  Anything else, even a valid spelling, is
 * -1, left to the tokens, which say what is wrong where.  q[len] is the
 * array's ']' (json_rawarray(), json_rawnext()), which ends the digits
 * of the last index.  An index of d digits takes d varint bytes or
 * fewer.  While 8 bytes up to that ']' can be read, an index of 7
 * digits or fewer is read 8 bytes at a time (digits.h): its length is
 * that of the run of digits, with no branch that depends on it; so is
 * its varint of one byte or two, which writes a byte more.
 */
int
sp_rawkey(const char *q, size_t len, struct rawk *h)
{
	const unsigned char *b = (const unsigned char *)q, *e = b + len, *u, *d;
	unsigned char *k, *k0;
	uint32_t max = 0;
	uint64_t v, w, m;
	size_t n;
	unsigned c;

	buf_reset(&h->key);
	buf_grow(&h->key, len + 1);
	k = k0 = (unsigned char *)h->key.data;
	h->at = (size_t)-1;
	for (u = b; u < e; u++) {
		d = u;
		if (e - u >= 7) {
			w = load64(u);
			m = nondigits(w);
			n = m != 0 ? (size_t)__builtin_ctzll(m) >> 3 : 8;
			if (n == 0 || (n > 1 && *u == '0'))
				return -1;
			if (n < 8) {
				v = digitsval(w ^ ZEROS, n);
				u += n;
				goto ended;
			}
		}
		if ((v = (unsigned)*u - '0') > 9)
			return -1;
		while ((c = (unsigned)*++u - '0') <= 9)
			v = v * 10 + c;
		if (u - d > 10 || (*d == '0' && u - d > 1) ||
		    v > UINT32_MAX - 1)
			return -1;
ended:
		if (u < e && (*u != ',' || u + 1 == e))
			return -1;
		if (v > max || h->at == (size_t)-1) {
			max = (uint32_t)v;
			h->at = (size_t)(d - b);
		}
		if (v < 1 << 14) {
			/* One or two bytes, without a branch on which. */
			k[0] = (unsigned char)(v | (v > 0x7f) << 7);
			k[1] = (unsigned char)(v >> 7);
			k += 1 + (v > 0x7f);
		} else
			k += varint_put(k, v);
	}
	h->max = max;
	h->key.len = (size_t)(k - k0);
	return 0;
}

#ifdef __SSE2__
/* Bits of the digits, commas and zeros of the 16 bytes at q. */
static inline void
classify16(const char *q, unsigned *d, unsigned *c, unsigned *z)
{
	__m128i x = _mm_loadu_si128((const __m128i *)q);

	*d = (unsigned)_mm_movemask_epi8(_mm_and_si128(
	    _mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)),
	    _mm_cmplt_epi8(x, _mm_set1_epi8('9' + 1))));
	*c = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x,
	    _mm_set1_epi8(',')));
	*z = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x,
	    _mm_set1_epi8('0')));
}

#endif

/*
 * 0 if raw text q[0..len) is in key form, as sp_rawkey() would find (q[len]
 * is not a digit); -1 if not.  With SSE2, from bit masks of the digits,
 * commas and zeros, 64 bytes at a time: nothing else, no comma first,
 * last or after a comma, no zero that starts a number followed by a
 * digit; a run of 10 digits or more (which may be too big) is left to
 * sp_rawkey() itself, as is everything without SSE2, converted into
 * scratch.
 */
static int
rawcheck(const char *q, size_t len, struct rawk *scratch)
{
#ifdef __SSE2__
	char tail[64];
	const char *w;
	uint64_t D, C, Z, V, pd = 0, pc = 1, plz = 0, run, lz;
	unsigned d, c, z;
	size_t o, i, k;

	if (len > 0 && q[len - 1] == ',')
		return -1;
	/* pd: the digits before; pc, plz: a comma, a leading zero last. */
	for (o = 0; o < len; o += 64) {
		w = q + o;
		if (len - o < 64) {
			memset(tail, 0, sizeof(tail));
			memcpy(tail, w, len - o);
			w = tail;
			V = ((uint64_t)1 << (len - o)) - 1;
		} else
			V = ~(uint64_t)0;
		D = C = Z = 0;
		for (i = 0; i < 4; i++) {
			classify16(w + 16 * i, &d, &c, &z);
			D |= (uint64_t)d << (16 * i);
			C |= (uint64_t)c << (16 * i);
			Z |= (uint64_t)z << (16 * i);
		}
		D &= V;
		C &= V;
		Z &= V;
		lz = Z & ~(D << 1 | pd >> 63);
		if ((D | C) != V || (C & (C << 1 | pc)) != 0 ||
		    (D & (lz << 1 | plz)) != 0)
			return -1;
		for (run = D, k = 1; k < 10; k++)
			run &= D << k | pd >> (64 - k);
		if (run != 0)
			return sp_rawkey(q, len, scratch);
		pd = D;
		pc = C >> 63;
		plz = lz >> 63;
	}
	return 0;
#else
	return sp_rawkey(q, len, scratch);
#endif
}

/*
 * Note the largest index max (if hasidx) of a new stack, at line and
 * col, as reading its tokens would: the first place of a larger one than
 * any before.
 */
void
sp_notemax(struct prof *p, uint32_t max, int hasidx, unsigned long long line,
    unsigned long long col)
{
	if (hasidx && (!p->hasidx || max > p->maxidx)) {
		p->hasidx = 1;
		p->maxidx = max;
		p->idxline = line;
		p->idxcol = col;
	}
}

/* Write the key of the stack s->stk[0 .. n - 1] into s->key. */
void
sp_stackkey(struct spd *s, size_t n)
{
	unsigned char *q, *q0;
	size_t i;

	buf_reset(&s->key);
	buf_grow(&s->key, n * VARINT_MAX);
	q = q0 = (unsigned char *)s->key.data;
	for (i = 0; i < n; i++)
		q += varint_put(q, s->stk[i]);
	s->key.len = (size_t)(q - q0);
}
