/*
 * spdout.c: the output of the speedscope reader (spd.c): records made
 * into text in batches (produce(), fill(), lines()) by a thread of
 * their own for a big profile (producer(), steal()) while the caller
 * takes them (consume(), emitprof()).
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
#include "rec.h"
#include "fmt.h"
#include "spill.h"
#include "zlist.h"
#include "varint.h"
#include "compact.h"
#include "digits.h"
#include "spdint.h"

static size_t	 keyids(uint32_t *, const char *, size_t);
static void	 produce(struct spd *, struct prof *, struct obatch *,
		    uint64_t *);
static void	 idsroom(struct obatch *, size_t);
static void	 addids(struct obatch *, struct orec *, const char *, size_t);
static void	 fill(struct spd *, struct prof *, struct obatch *);
static int	 hasstarts(const struct prof *);
static double	 startof(struct prof *, uint64_t);
static void	 lines(struct spd *, struct prof *, struct obatch *);
static void	 linehead(struct buf *, const struct prof *,
		    const struct sst_rec *);
#ifndef SST_ONETHREAD
static struct obatch *steal(struct spd *);
static void	*producer(void *);
#endif
static void	 consume(struct spd *, struct prof *, struct sst_rec *,
		    struct obatch *);

/*
 * The frame indices of a kept stack key (varints) of len bytes, into ids,
 * which has room for len (a varint takes a byte at least); returns how
 * many.
 */
static size_t
keyids(uint32_t *ids, const char *key, size_t len)
{
	const unsigned char *k = (const unsigned char *)key, *e = k + len;
	size_t n;
	uint64_t fr;

	for (n = 0; k < e; n++) {
		k = varint_get(k, e, &fr);
		ids[n] = (uint32_t)fr;
	}
	return n;
}

/* Frame id's name and location (sst_frames' text()). */
void
sp_frametext(const void *src, uint32_t id, const char **name, size_t *nlen,
    const char **loc, size_t *llen)
{
	const struct spd *s = src;

	*name = s->arena.data + s->noff[id];
	*nlen = s->loff[id] - s->noff[id];
	*loc = s->arena.data + s->loff[id];
	*llen = s->noff[id + 1] - s->loff[id];
}

/*
 * Copy n bytes from src to dst: the first first bytes (a multiple of
 * MOVE up to SLACK, s->first: the longest name or place, rounded up)
 * whole, then moves of MOVE bytes, so that the names and places of a
 * stack are copied without a branch that depends on their length, which
 * memcpy() and a loop would mispredict (places of 32 to 95 bytes,
 * copied in one move or two, cost z200k a quarter of its joins): up to
 * SLACK - 1 bytes past dst + n are written and past src + n read.
 */
static inline char *
move(char *dst, const char *src, size_t n, size_t first)
{
	size_t i;

	for (i = 0; i < first; i += MOVE)
		memcpy(dst + i, src + i, MOVE);
	for (; i < n; i += MOVE)
		memcpy(dst + i, src + i, MOVE);
	return dst + n;
}

/*
 * Append the names (which 0) or places (1) of frames ids[0 .. n - 1],
 * joined by ';' and ended by a NUL, to b; returns their length.  The
 * room is that of n of the longest (s->maxtext), or counted when that
 * is much more than needed.
 */
size_t
sp_joinframes(const struct spd *s, const uint32_t *ids, size_t n, int which,
    struct buf *b)
{
	const size_t *from = which ? s->loff : s->noff;
	const size_t *to = which ? s->noff + 1 : s->loff;
	size_t i, len = 0, first = s->first[which];
	char *q, *q0;

	if (s->maxtext[which] < BIGTEXT && n < BIGTEXT)
		len = n * (s->maxtext[which] + 1);
	else
		for (i = 0; i < n; i++)
			len += to[ids[i]] - from[ids[i]] + 1;
	buf_grow(b, len + 1 + SLACK);
	q = q0 = b->data + b->len;
	for (i = 0; i < n; i++) {
		q = move(q, s->arena.data + from[ids[i]],
		    to[ids[i]] - from[ids[i]], first);
		*q++ = ';';
	}
	if (n > 0)
		q--;
	*q = '\0';
	b->len += (size_t)(q - q0) + 1;
	return (size_t)(q - q0);
}

/*
 * Make the next records of p, *pos made so far, ready in batch b: each
 * record's numbers, its start (-s) and its frame ids in b's ids (a
 * record of the stack of the record before it shares them), until b is
 * full or the records end; with stacks as text, unless the writing
 * thread is to, make them into lines too.  A start or weight that
 * overflows ends the records at the one before it (see sp_xbadrec()).
 */
static void
produce(struct spd *s, struct prof *p, struct obatch *b, uint64_t *pos)
{
	struct orec *o;
	const unsigned char *c;
	const char *k;
	uint32_t id, last = UINT32_MAX;
	size_t len;
	double w;
	int starts = hasstarts(p);

	b->nrec = b->nids = b->cost = 0;
	b->end = 0;
	b->bad = OB_NONE;
	b->later = 0;
	buf_reset(&b->raw);
	while (b->nrec < OBRECS && b->cost < OBCOST) {
		o = &b->rec[b->nrec];
		if (!sp_nextrec(s, p, pos, &id, &o->n, &w)) {
			b->end = 1;
			break;
		}
		o->id = id;
		if (id == last) {
			o->later = o[-1].later == L_MADE ? L_MADE : L_SAME;
			o->rlen = o[-1].rlen;
			o->ioff = o[-1].ioff;
			o->nids = o[-1].nids;
		} else if (p->reread && !(p->offs[id] & ZLKEY)) {
			c = sp_rawof(s, p, id, &o->rlen);
			o->later = L_RAW;
			o->roff = b->raw.len;
			buf_add(&b->raw, c, o->rlen);
			/* The 7 bytes that sp_rekey() reads past its end. */
			buf_grow(&b->raw, 7);
			memset(b->raw.data + b->raw.len, 0, 7);
			b->later = 1;
		} else {
			k = sp_pkey(p, id, &len);
			o->later = L_MADE;
			addids(b, o, k, len);
		}
		last = id;
		b->cost += (o->later == L_MADE ? o->nids : o->rlen / RAWFRAME) +
		    1;
		o->period = w * p->factor;
		o->weight = fmt_pysum(0, o->period, o->n);
		if (starts && !isfinite(o->start = startof(p, *pos)))
			b->bad = OB_START;
		else if (!isfinite(o->weight))
			b->bad = OB_WEIGHT;
		if (b->bad != OB_NONE) {
			b->badpos = *pos;
			b->end = 1;
			break;
		}
		b->nrec++;
	}
	if (!s->ids && !b->bymain)
		lines(s, p, b);
}

/* Room in batch b for n more frame ids. */
static void
idsroom(struct obatch *b, size_t n)
{
	b->ids = xgrow(b->ids, &b->idscap, b->nids + n, 1, sizeof(*b->ids));
}

/* Record o of batch b gets the frame ids of key k of len bytes. */
static void
addids(struct obatch *b, struct orec *o, const char *k, size_t len)
{
	idsroom(b, len);
	o->ioff = b->nids;
	o->nids = keyids(b->ids + b->nids, k, len);
	b->nids += o->nids;
}

/*
 * The frame ids of the records of batch b of p (the bad one's too) that
 * produce() left to make from their samples' text, which takes time:
 * made by the thread that makes b's lines, or writes its records.
 */
static void
fill(struct spd *s, struct prof *p, struct obatch *b)
{
	struct orec *o, *e = b->rec + b->nrec + (b->bad != OB_NONE);

	for (o = b->rec; o < e; o++)
		if (o->later == L_RAW) {
			idsroom(b, o->rlen / 2 + 1);
			o->ioff = b->nids;
			o->nids = sp_rekey(s, p, o->id, (unsigned char *)
			    b->raw.data + o->roff, o->rlen, &b->key,
			    b->ids + b->nids);
			b->nids += o->nids;
		} else if (o->later == L_SAME) {
			o->ioff = o[-1].ioff;
			o->nids = o[-1].nids;
		}
	b->later = 0;
}

/* Whether p's records have starts (-s). */
static int
hasstarts(const struct prof *p)
{
	return p->cstarts != NULL || p->starts != NULL;
}

/* With -s: when record pos (from 1) of p began, in seconds or as read. */
static double
startof(struct prof *p, uint64_t pos)
{
	double t;

	if (p->cstarts != NULL)
		t = p->cstarts[pos - 1];
	else
		sp_xspill(p->starts, &t, sizeof(t));
	return (p->state == PS_EVENTS ? t : p->startv + t) * p->factor;
}

/*
 * Make the records of batch b of p into lines of the stream, laid out
 * as rec_write() writes them, in b's text.  A record of the stack of the
 * record before it copies that one's stack and places.
 */
static void
lines(struct spd *s, struct prof *p, struct obatch *b)
{
	struct sst_rec r;
	struct orec *o, *e = b->rec + b->nrec;
	struct buf *t = &b->text;
	const char *x;
	size_t n;

	if (b->later)
		fill(s, p, b);
	buf_reset(t);
	memset(&r, 0, sizeof(r));
	r.unit = p->unit;
	r.hasperiod = 1;
	for (o = b->rec; o < e; o++) {
		r.samples = o->n;
		r.weight = o->weight;
		r.period = o->period;
		linehead(t, p, &r);
		o->toff = t->len;
		if (o > b->rec && o->ioff == o[-1].ioff &&
		    o->nids == o[-1].nids) {
			o->tlen = o[-1].tlen;
			buf_grow(t, o->tlen);
			memcpy(t->data + t->len, t->data + o[-1].toff, o->tlen);
			t->len += o->tlen;
		} else {
			/* Each join ends in a NUL: a tab, then dropped. */
			sp_joinframes(s, b->ids + o->ioff, o->nids, 0, t);
			t->data[t->len - 1] = '\t';
			sp_joinframes(s, b->ids + o->ioff, o->nids, 1, t);
			t->len--;
			o->tlen = t->len - o->toff;
		}
		if (hasstarts(p)) {
			x = fmt_dshort(o->start, &n);
			buf_addc(t, '\t');
			buf_add(t, x, n);
		}
		buf_addc(t, '\n');
	}
}

/* Append record r's thread, its numbers and their tabs to t. */
static void
linehead(struct buf *t, const struct prof *p, const struct sst_rec *r)
{
	buf_grow(t, p->name.len + REC_NUMSZ + 2);
	memcpy(t->data + t->len, p->name.data, p->name.len);
	t->len += p->name.len;
	t->data[t->len++] = '\t';
	t->len += rec_nums(t->data + t->len, r);
	t->data[t->len++] = '\t';
}

/*
 * Wait until flag f (a block's or batch's full) is v, set by the other
 * thread (see sp_aset()).  That thread is about as fast, so f is looked at
 * for a while before sleeping: a block takes some 50 microseconds to
 * make, less than a sleep and a wakeup cost.
 */
void
sp_await(struct spd *s, atomic_int *f, int v)
{
	unsigned n;

	for (n = 0; n < OSPIN; n++)
		if (atomic_load(f) == v)
			return;
	pthread_mutex_lock(&s->omu);
	atomic_fetch_add(&s->osleep, 1);
	while (atomic_load(f) != v)
		pthread_cond_wait(&s->ocv, &s->omu);
	atomic_fetch_sub(&s->osleep, 1);
	pthread_mutex_unlock(&s->omu);
}

/*
 * Set flag f to v and wake the other thread if it sleeps (it counts
 * itself in before it looks, and looks with the mutex held).
 */
void
sp_aset(struct spd *s, atomic_int *f, int v)
{
	atomic_store(f, v);
	if (atomic_load(&s->osleep) > 0) {
		pthread_mutex_lock(&s->omu);
		pthread_cond_broadcast(&s->ocv);
		pthread_mutex_unlock(&s->omu);
	}
}

#ifndef SST_ONETHREAD
/*
 * The batch made last whose lines no thread has claimed, claimed for
 * the making thread; NULL if there is none (or the writing thread took
 * it first).
 */
static struct obatch *
steal(struct spd *s)
{
	struct obatch *b = NULL;
	size_t i;
	int z = 0;

	for (i = 0; i < OBATCHES; i++)
		if (atomic_load(&s->ob[i].full) &&
		    !atomic_load(&s->ob[i].claim) &&
		    (b == NULL || s->ob[i].seq > b->seq))
			b = &s->ob[i];
	if (b == NULL || !atomic_compare_exchange_strong(&b->claim, &z, 1))
		return NULL;
	return b;
}

/*
 * The thread that makes the records of s->op ready, batch after batch,
 * while the caller writes the batches before (see sp_emitprof()); while
 * they are all still to write, it makes the lines of the one it made
 * last, unless the caller has begun them.
 */
static void *
producer(void *arg)
{
	struct spd *s = arg;
	struct obatch *b, *x;
	uint64_t pos = 0, i = 0;

	do {
		b = &s->ob[i % OBATCHES];
		while (!s->ids && atomic_load(&b->full) &&
		    (x = steal(s)) != NULL) {
			lines(s, s->op, x);
			sp_aset(s, &x->lined, 1);
		}
		sp_await(s, &b->full, 0);
		/* Written, its lines claimed: no longer stolen. */
		atomic_store(&b->claim, 0);
		atomic_store(&b->lined, 0);
		b->seq = i++;
		b->bymain = 1;
		produce(s, s->op, b, &pos);
		sp_aset(s, &b->full, 1);
	} while (!b->end);
	return NULL;
}

#endif

/*
 * Hand batch b of p's records to s->text as lines, made now if the
 * batch says so, or, stacks as frame ids, one by one to s->emit as r;
 * then exit if a record could not be made.
 */
static void
consume(struct spd *s, struct prof *p, struct sst_rec *r, struct obatch *b)
{
	const struct orec *o, *e = b->rec + b->nrec;

	if (!s->ids) {
		if (b->bymain)
			lines(s, p, b);
		if (b->nrec > 0)
			s->text(b->text.data, b->text.len, b->nrec, s->arg);
	} else {
		if (b->later)
			fill(s, p, b);
		for (o = b->rec; o < e; o++) {
			s->fr.ids = b->ids + o->ioff;
			s->fr.n = o->nids;
			r->samples = o->n;
			r->period = o->period;
			r->weight = o->weight;
			r->start = o->start;
			s->emit(r, s->arg);
		}
	}
	if (b->bad != OB_NONE)
		sp_xbadrec(s, p, b);
}

/*
 * Write a profile's records.  They are made ready in batches
 * (produce(): the keys made into frame ids, the numbers made) and, with
 * stacks as text, made into lines (lines(): the names and places
 * joined), which s->text writes in one piece; with frame ids, each
 * record is handed to s->emit.  A profile of OTHREAD records or more
 * has them made ready by a thread of its own while the batches before
 * are written, in turns over OBATCHES batches; the writing thread makes
 * them into lines, but the making one, when all are still to write,
 * makes those of the one it made last (see steal()), and whichever
 * makes a batch's lines makes the frame ids left to make first (see
 * fill()).  The fuzzers' build (SST_ONETHREAD), whose allocator and err()
 * are for one thread, makes and writes them in turns, as does a profile
 * whose thread cannot start.
 */
void
sp_emitprof(struct spd *s, struct prof *p)
{
	struct sst_rec r;
	uint64_t pos = 0;
#ifndef SST_ONETHREAD
	struct obatch *b;
	size_t i;
	int end, z;
#endif

	if (p->hasidx && p->maxidx >= s->nframes)
		sp_xfail("%s:%llu:%llu: frame index %lu out of range "
		    "(%zu frames)", json_name(s->j), p->idxline, p->idxcol,
		    (unsigned long)p->maxidx, s->nframes);
	sp_pname(s, p);
	memset(&r, 0, sizeof(r));
	r.thread = p->name.data;
	r.threadlen = p->name.len;
	r.unit = p->unit;
	r.hasperiod = 1;
	sp_closebatch(p);
	if (p->nrecs == 0) {
		r.hasperiod = 0;
		r.stack = r.locs = "";
		if (s->ids)
			s->emit(&r, s->arg);
		else {
			buf_reset(&s->sbuf);
			linehead(&s->sbuf, p, &r);
			buf_adds(&s->sbuf, "\t\n");
			s->text(s->sbuf.data, s->sbuf.len, 1, s->arg);
		}
		return;
	}
	sp_rewindrecs(s, p);
	if (p->starts != NULL)
		xspill_rewind(p->starts);
	r.stack = r.locs = "";
	r.frames = &s->fr;
	r.hasstart = hasstarts(p);
#ifndef SST_ONETHREAD
	s->op = p;
	if (p->nrecs >= OTHREAD &&
	    pthread_create(&s->oth, NULL, producer, s) == 0) {
		for (i = 0, end = 0; !end; i++) {
			b = &s->ob[i % OBATCHES];
			sp_await(s, &b->full, 1);
			z = 0;
			b->bymain = atomic_compare_exchange_strong(&b->claim,
			    &z, 1);
			if (!s->ids && !b->bymain)
				sp_await(s, &b->lined, 1);
			end = b->end;
			if (end)
				pthread_join(s->oth, NULL);
			consume(s, p, &r, b);
			sp_aset(s, &b->full, 0);
		}
		return;
	}
#endif
	s->ob[0].bymain = 0;
	do {
		produce(s, p, &s->ob[0], &pos);
		consume(s, p, &r, &s->ob[0]);
	} while (!s->ob[0].end);
}
