/*
 * spdq.c: the handoff of the speedscope reader (spd.c): the reading
 * thread's hits and misses queued in blocks (q*), and the thread that
 * converts, looks up and interns them, in order (intaker(), intake()).
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

#include "util.h"
#include "buf.h"
#include "json.h"
#include "htab.h"
#include "zlist.h"
#include "varint.h"
#include "compact.h"
#include "digits.h"
#include "spdint.h"

static uint64_t	 keyof(struct spd *, const struct rawk *, struct qplace *);
#ifndef SST_ONETHREAD
static void	*intaker(void *);
#endif
static void	 qprep(struct spd *, struct qahead *, const unsigned char *);
static void	 intake(struct spd *, struct qblock *);
static const unsigned char *qskip(const unsigned char *,
		    const unsigned char *);

/* Hand over a sample found in cache slot slot. */
void
sp_qhit(struct spd *s, size_t slot)
{
	unsigned char *q = sp_qroom(s, 3);
	uint16_t v = (uint16_t)slot;

	q[0] = Q_HIT;
	memcpy(q + 1, &v, sizeof(v));
}

/* Hand over raw text raw of a sample, to take cache slot slot. */
void
sp_qraw(struct spd *s, size_t slot, const struct qplace *pl, const char *raw)
{
	unsigned char *q = sp_qroom(s, 3 + sizeof(*pl) + pl->len + 1);
	uint16_t v = (uint16_t)slot;

	q[0] = Q_RAW;
	memcpy(q + 1, &v, sizeof(v));
	memcpy(q + 3, pl, sizeof(*pl));
	memcpy(q + 3 + sizeof(*pl), raw, pl->len);
	q[3 + sizeof(*pl) + pl->len] = ']';
}

/* Hand over key key of a sample read token by token. */
void
sp_qkey(struct spd *s, const struct qplace *pl, const char *key)
{
	unsigned char *q = sp_qroom(s, 1 + sizeof(*pl) + pl->len);

	q[0] = Q_KEY;
	memcpy(q + 1, pl, sizeof(*pl));
	memcpy(q + 1 + sizeof(*pl), key, pl->len);
}

/*
 * Hand over sample r, converted to the key in s->chk by sp_rawkey(), to
 * take cache slot slot: with its largest index's place, and the key's
 * hash (that of its leaf is made over there, see sp_intern()).
 */
void
sp_qconv(struct spd *s, size_t slot, const struct json_raw *r)
{
	struct qplace pl;
	unsigned char *q;
	uint64_t h;
	uint16_t v = (uint16_t)slot;

	pl.len = (uint32_t)s->chk.key.len;
	pl.rtag = sp_rawtag(r);
	pl.off = json_rawplace(s->j, r, &pl.line, &pl.col);
	h = keyof(s, &s->chk, &pl);
	q = sp_qroom(s, 3 + sizeof(pl) + sizeof(h) + pl.len);
	q[0] = Q_CONV;
	memcpy(q + 1, &v, sizeof(v));
	memcpy(q + 3, &pl, sizeof(pl));
	memcpy(q + 3 + sizeof(pl), &h, sizeof(h));
	memcpy(q + 3 + sizeof(pl) + sizeof(h), s->chk.key.data, pl.len);
}

/*
 * Of key rk, made of a sample's raw text whose '[' is at pl's place:
 * its largest index and that index's place, into pl, and the key's hash
 * (none with leaves: sp_intern() cuts the key to its leaf and hashes that).
 */
static uint64_t
keyof(struct spd *s, const struct rawk *rk, struct qplace *pl)
{
	pl->max = rk->max;
	pl->hasidx = rk->at != (size_t)-1;
	if (pl->hasidx)
		pl->col += 1 + rk->at;
	return s->qp->leaf ? 0 : ht_hash(rk->key.data, rk->key.len);
}

/*
 * Whether the interning thread is QLAG blocks or more behind: then the
 * samples not in the cache are converted here (this thread would
 * wait, the other one would not; so z200k's misses, 27% of its
 * samples).  Built with SPD_CONVERT (test_spdconv), always.
 */
int
sp_qlags(struct spd *s)
{
#ifdef SPD_CONVERT
	(void)s;
	return 1;
#else
	return s->qon && s->qi - atomic_load_explicit(&s->qtaken,
	    memory_order_relaxed) >= QLAG;
#endif
}

/*
 * The blocks of samples handed over, in one region of QROOM bytes each,
 * in huge pages: the reading thread writes them, and faulting in a
 * block page by page as it grew took that thread some 3% of z50k.
 */
void
sp_qinit(struct spd *s)
{
	size_t i;

	s->qmem = xhuge(QBLOCKS, QROOM);
	for (i = 0; i < QBLOCKS; i++) {
		s->q[i].b.data = s->qmem + i * QROOM;
		s->q[i].b.cap = QROOM;
		buf_reset(&s->q[i].b);
		atomic_init(&s->q[i].full, 0);
	}
}

/* Whether p lies in the blocks' region (else it was allocated apart). */
int
sp_inqmem(const struct spd *s, const char *p)
{
	return p >= s->qmem && p < s->qmem + QBLOCKS * QROOM;
}

/*
 * Room for n more bytes in the block being filled: a block in the
 * region that needs more (a sample of many frames) is moved out of it.
 */
unsigned char *
sp_qroom(struct spd *s, size_t n)
{
	struct buf *b = &s->q[s->qi % QBLOCKS].b, nb;

	/* buf_grow()'s test, without a call for each sample. */
	if (b->len + n + 1 > b->cap) {
		if (sp_inqmem(s, b->data)) {
			buf_init(&nb);
			buf_grow(&nb, b->len + n);
			memcpy(nb.data, b->data, b->len);
			nb.len = b->len;
			*b = nb;
		} else
			buf_grow(b, n);
	}
	b->len += n;
	return (unsigned char *)b->data + b->len - n;
}

/* A sample handed over: hand the block over if it is full. */
void
sp_qdone(struct spd *s)
{
	if (s->q[s->qi % QBLOCKS].b.len >= QBLOCK)
		sp_qhand(s, 0);
}

/*
 * Hand over the block being filled (the last of the array if last) and
 * start filling the next one.  The first full block of an array starts
 * the thread that takes them in; the last one, if the thread has not
 * started, is taken in here, so that a small array does not wait for a
 * thread (nor does the fuzzers' build, SST_ONETHREAD, ever start it).
 * So is every block if the thread cannot start.  The thread is waited
 * for at the end of the array.
 */
void
sp_qhand(struct spd *s, int last)
{
	struct qblock *q = &s->q[s->qi % QBLOCKS];

	q->last = last;
#ifndef SST_ONETHREAD
	if (!s->qon && !last) {
		s->qstart = s->qi;
		atomic_store(&s->qtaken, s->qi);
		s->qon = pthread_create(&s->qth, NULL, intaker, s) == 0;
		/* That thread starts the reads ahead (json_lazyahead()). */
		json_lazyahead(s->j, s->qon);
	}
#endif
	if (!s->qon) {
		intake(s, q);
		buf_reset(&q->b);
		return;
	}
	sp_aset(s, &q->full, 1);
	q = &s->q[++s->qi % QBLOCKS];
	if (last) {
		pthread_join(s->qth, NULL);
		s->qon = 0;
		json_lazyahead(s->j, 0);
	} else
		sp_await(s, &q->full, 0);
	buf_reset(&q->b);
}

#ifndef SST_ONETHREAD
/* The thread that takes in the samples handed over, block after block. */
static void *
intaker(void *arg)
{
	struct spd *s = arg;
	struct qblock *q;
	size_t i = s->qstart;
	int last;

	do {
		q = &s->q[i++ % QBLOCKS];
		json_kick(s->j);
		sp_await(s, &q->full, 1);
		intake(s, q);
		last = q->last;
		atomic_store_explicit(&s->qtaken, i, memory_order_relaxed);
		sp_aset(s, &q->full, 0);
	} while (!last);
	return NULL;
}

#endif

/*
 * Make the key of entry e (Q_RAW: convert its raw text; Q_CONV: the key
 * and hash it holds) ahead of taking it in, and start loading its table
 * slot.
 */
static void
qprep(struct spd *s, struct qahead *a, const unsigned char *e)
{
	a->e = e;
	memcpy(&a->pl, e + 3, sizeof(a->pl));
	if (*e == Q_CONV) {
		memcpy(&a->khash, e + 3 + sizeof(a->pl), sizeof(a->khash));
		a->key = (const char *)e + 3 + sizeof(a->pl) +
		    sizeof(a->khash);
		a->klen = a->pl.len;
	} else {
		if (sp_rawkey((const char *)e + 3 + sizeof(a->pl), a->pl.len,
		    &a->rk) == -1)
			sp_xfail("internal error: a sample checked is not in "
			    "key form");
		a->key = a->rk.key.data;
		a->klen = a->rk.key.len;
		a->khash = keyof(s, &a->rk, &a->pl);
	}
	if (!s->qp->leaf)
		ht_prefetch(s->qp->stacks, a->khash, 0);
}

/*
 * Take in a block of samples: the stack id of each, looked up or
 * interned, paired with its weight if the weights came first, kept in
 * order.  Raw text is converted two entries ahead and its table entry
 * loaded one ahead (as sp_rawbatch() does the cache's).
 */
static void
intake(struct spd *s, struct qblock *q)
{
	struct prof *p = s->qp;
	struct qplace pl;
	struct qahead *a;
	const unsigned char *x, *nx, *af, *end;
	uint16_t slot;
	size_t id, i;
	double w;
	int isnew;

	end = (unsigned char *)q->b.data + q->b.len;
	for (i = 0; i < 3; i++)
		s->qa[i].e = NULL;
	x = q->b.len > 0 ? (unsigned char *)q->b.data : NULL;
	if ((nx = qskip(x, end)) != NULL && MADEAHEAD(*nx))
		qprep(s, &s->qa[1], nx);
	for (i = 0; x != NULL; i++, x = nx, nx = af) {
		if ((af = qskip(nx, end)) != NULL && MADEAHEAD(*af))
			qprep(s, &s->qa[(i + 2) % 3], af);
		if (nx != NULL && MADEAHEAD(*nx) && !p->leaf)
			ht_prefetch(p->stacks, s->qa[(i + 1) % 3].khash, 1);
		a = &s->qa[i % 3];
		switch (*x) {
		case Q_SAME:
			id = s->qprev;
			break;
		case Q_HIT:
			memcpy(&slot, x + 1, sizeof(slot));
			id = s->tid[slot];
			break;
		case Q_RAW:
		case Q_CONV:
			if (a->e != x)
				qprep(s, a, x);
			memcpy(&slot, x + 1, sizeof(slot));
			id = sp_intern(p, a->key, a->klen, a->khash,
			    a->pl.off | RAWTAG, a->pl.rtag, &isnew);
			if (isnew)
				sp_notemax(p, a->pl.max, a->pl.hasidx,
				    a->pl.line, a->pl.col);
			if (slot != NOSLOT)
				s->tid[slot] = (uint32_t)id;
			break;
		default:
			memcpy(&pl, x + 1, sizeof(pl));
			sp_notemax(p, pl.max, pl.hasidx, pl.line, pl.col);
			id = sp_intern(p, (const char *)x + 1 + sizeof(pl),
			    pl.len, ht_hash(x + 1 + sizeof(pl), pl.len), pl.off,
			    0, NULL);
			break;
		}
		s->qprev = (uint32_t)id;
		if (p->hasw && !p->bad) {
			if (sp_getseq(s, p->wts, &w, sizeof(w)) == -1)
				p->bad = 1;
			else {
				sp_addsample(s, p, id, w, p->tsum);
				p->tsum += w;
			}
		}
		sp_putseq(s, p->sids, &s->qprev, sizeof(s->qprev));
	}
}

/* The entry after entry e (or NULL) of a block that ends at end, or NULL. */
static const unsigned char *
qskip(const unsigned char *e, const unsigned char *end)
{
	struct qplace pl;

	if (e == NULL)
		return NULL;
	switch (*e) {
	case Q_SAME:
		e += 1;
		break;
	case Q_HIT:
		e += 3;
		break;
	case Q_RAW:
		memcpy(&pl, e + 3, sizeof(pl));
		e += 3 + sizeof(pl) + pl.len + 1;
		break;
	case Q_CONV:
		memcpy(&pl, e + 3, sizeof(pl));
		e += 3 + sizeof(pl) + sizeof(uint64_t) + pl.len;
		break;
	default:
		memcpy(&pl, e + 1, sizeof(pl));
		e += 1 + sizeof(pl) + pl.len;
		break;
	}
	return e < end ? e : NULL;
}
