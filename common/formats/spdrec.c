/*
 * spdrec.c: a profile's records (spd.c): its samples added and batched
 * (addsample()), the spills of per-sample data, the states a profile
 * goes through (transit()), its tables shrunk, and the records read
 * back in order, their keys read again from the input (rekey(),
 * window()).
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
#include "spill.h"
#include "zlist.h"
#include "varint.h"
#include "compact.h"
#include "digits.h"
#include "spdint.h"

static void	 resetrecs(struct prof *);
static void	 resetstacks(struct spd *, struct prof *);
static const unsigned char *window(struct spd *, uint64_t,
		    const unsigned char **);
static __dead void xchanged(struct spd *, uint64_t);

/*
 * Write out the current batch: one record per distinct stack of the
 * batch, in first-seen order: a varint of its stack id times 2, plus 1
 * for the first record of the batch, which the batch's weight (8 bytes)
 * then follows; a varint of its samples.  About 4 bytes a record.
 */
void
sp_closebatch(struct prof *p)
{
	unsigned char rec[RECMAX], *q;
	uint32_t id;
	size_t i;

	if (p->blen == 0)
		return;
	if (p->recs == NULL)
		p->recs = spill_new(SPILLMEM);
	for (i = 0; i < p->blen; i++) {
		id = p->blist[i];
		q = rec + varint_put(rec, (uint64_t)id << 1 | (i == 0));
		q += varint_put(q, p->agg[id].n);
		if (i == 0) {
			memcpy(q, &p->bw, sizeof(p->bw));
			q += sizeof(p->bw);
		}
		xspill_write(p->recs, rec, (size_t)(q - rec));
		p->recbytes += (uint64_t)(q - rec);
	}
	p->nrecs += p->blen;
	p->blen = 0;
	p->nbatch++;
}

/*
 * Account one sample of stack id with raw weight w.  Samples are summed
 * per stack within a batch of consecutive samples of equal weight, and a
 * new batch starts when the weight changes: adding each record's period
 * samples times, record after record, then gives exactly the sums that
 * adding every sample's weight in file order gives.
 */
void
sp_addsample(struct spd *s, struct prof *p, size_t id, double w, double t)
{
	struct agg *a;
	size_t cap;

	if (p->blen > 0 && w != p->bw)
		sp_closebatch(p);
	if (p->blen == 0)
		p->bw = w;
	if (id >= p->aggcap) {
		cap = xgrowcap(p->aggcap, id + 1, 256);
		p->agg = xhugegrow(p->agg, p->aggcap, cap, sizeof(*p->agg));
		memset(p->agg + p->aggcap, 0,
		    (cap - p->aggcap) * sizeof(*p->agg));
		p->aggcap = cap;
	}
	a = &p->agg[id];
	if (a->batch != p->nbatch) {
		a->batch = p->nbatch;
		a->n = 0;
		if (p->blen == p->bcap)
			p->blist = xgrow(p->blist, &p->bcap, p->blen + 1, 256,
			    sizeof(*p->blist));
		p->blist[p->blen++] = (uint32_t)id;
	}
	a->n++;
	if (s->persample) {
		sp_closebatch(p);
		if (p->starts == NULL)
			p->starts = spill_new(SPILLMEM);
		xspill_write(p->starts, &t, sizeof(t));
	}
}

/* Write n bytes of per-sample data to sp, through s->wr. */
void
sp_putseq(struct spd *s, struct spill *sp, const void *v, size_t n)
{
	if (s->wr.len + n > CHUNK) {
		xspill_write(sp, s->wr.buf, s->wr.len);
		s->wr.len = 0;
	}
	memcpy(s->wr.buf + s->wr.len, v, n);
	s->wr.len += n;
}

/* The end of the data written to sp. */
void
sp_endseq(struct spd *s, struct spill *sp)
{
	xspill_write(sp, s->wr.buf, s->wr.len);
	s->wr.len = 0;
}

/*
 * Read the next n bytes of per-sample data from sp, CHUNK bytes at a
 * time (a whole number of items), through s->rd; -1 at the end.
 */
int
sp_getseq(struct spd *s, struct spill *sp, void *v, size_t n)
{
	size_t k;

	if (s->rd.pos + n > s->rd.len) {
		k = s->rd.left < CHUNK ? s->rd.left : CHUNK;
		if (k == 0 || xspill_read(sp, s->rd.buf, k) == -1)
			return -1;
		s->rd.left -= k;
		s->rd.len = k;
		s->rd.pos = 0;
	}
	memcpy(v, s->rd.buf + s->rd.pos, n);
	s->rd.pos += n;
	return 0;
}

/* Start reading back sp, of n items of size bytes. */
void
sp_rewindseq(struct spd *s, struct spill *sp, uint64_t n, size_t size)
{
	xspill_rewind(sp);
	s->rd.left = n * size;
	s->rd.len = s->rd.pos = 0;
}

/* Forget the records made so far (their arrays are read again). */
static void
resetrecs(struct prof *p)
{
	spill_free(p->recs);
	spill_free(p->starts);
	p->starts = NULL;
	p->tsum = 0;
	p->recs = NULL;
	free(p->crecs);
	p->crecs = NULL;
	p->nrecs = p->recbytes = 0;
	p->blen = 0;
	p->nbatch++;
}

/* Forget the stacks and frame indices seen (their array is read again). */
static void
resetstacks(struct spd *s, struct prof *p)
{
	ht_clear(p->stacks);
	zl_free(p->keys);
	p->keys = zl_new(s->zpool);
	free(p->agg);
	p->agg = NULL;
	p->aggcap = 0;
	p->hasidx = 0;
	sp_rcnext(s);
}

/*
 * The one transition check of a profile's state for its next array,
 * of kind k: events go with no samples nor weights; a second array of a
 * kind replaces the first (the last wins, as in Python's json.load), so
 * what was made of the first is forgotten.  Samples and weights pair
 * whatever their order, and a later samples or weights array pairs with
 * the other kind again: so the samples' stack ids are always kept (in
 * p->sids), the weights when they come first (in p->wts), and when they
 * come second they are those of the records, taken back from them.
 */
void
sp_transit(struct spd *s, struct prof *p, enum pstate k)
{
	struct spill *w;
	uint64_t pos = 0, n, i;
	uint32_t id;
	double x;

	if ((k == PS_EVENTS) != (p->state == PS_EVENTS) &&
	    p->state != PS_NONE)
		xjson_fail(s->j, "%s in a profile with %s", k == PS_EVENTS ?
		    "events" : k == PS_SAMPLES ? "samples" : "weights",
		    k == PS_EVENTS ? "samples or weights" : "events");
	if (k == PS_EVENTS) {
		resetrecs(p);
		resetstacks(s, p);
	} else if (k == PS_SAMPLES && p->sids != NULL) {
		if (p->state == PS_PAIRED && p->wts == NULL) {
			/* The weights, from the records, in sample order. */
			w = spill_new(SPILLMEM);
			sp_closebatch(p);
			sp_rewindrecs(s, p);
			while (sp_nextrec(s, p, &pos, &id, &n, &x))
				for (i = 0; i < n; i++)
					sp_putseq(s, w, &x, sizeof(x));
			sp_endseq(s, w);
			p->wts = w;
		}
		spill_free(p->sids);
		p->sids = NULL;
		p->nsids = 0;
		resetrecs(p);
		resetstacks(s, p);
	} else if (k == PS_WEIGHTS && p->hasw) {
		spill_free(p->wts);
		p->wts = NULL;
		resetrecs(p);
		p->hasw = 0;
	}
	p->bad = 0;
	p->state = k;
}

/*
 * Make a pending profile (read whole, waiting for shared.frames) cost
 * what its records and stacks need: the stacks' keys packed, the
 * per-batch arrays freed, records that fit in memory moved out of their
 * spill (which reserves SPILLMEM).  The table, the agg array, the
 * samples' spill and an empty list of keys are kept for the next one (see
 * readprofile()), which would grow them again page by page: a page
 * first touched is a fault, dearer than its memory.  Only what this
 * profile used is kept (see ht_clear()); an agg array four times its
 * stacks or more is not.
 */
void
sp_shrink(struct spd *s, struct prof *p)
{
	const char *r;
	size_t n;

	sp_closebatch(p);
	free(p->blist);
	p->blist = NULL;
	p->bcap = 0;
	sp_unspare(s);
	/*
	 * Of many small profiles, the slack of these is most of the cost:
	 * an empty list (all keys read again) is the next one's, and a few
	 * keys are kept as they are (see sp_pkey()), with no list, which
	 * costs some 4 KB compressed, nor its compressing thread.
	 */
	if (zl_count(p->keys) == 0) {
		s->skeys = p->keys;
		p->keys = NULL;
	} else if ((r = zl_raw(p->keys, &n)) != NULL && n <= KRAWMAX) {
		p->kraw = xmalloc(n);
		memcpy(p->kraw, r, n);
		p->krawlen = (uint32_t)n;
		zl_free(p->keys);
		p->keys = NULL;
	} else
		zl_done(p->keys);
	if (p->offs != NULL && (n = ht_count(p->stacks)) < p->offcap) {
		p->offs = xreallocarray(p->offs, n, sizeof(*p->offs));
		p->tags = xreallocarray(p->tags, n, sizeof(*p->tags));
		p->offcap = n;
	}
	p->name.data = xreallocarray(p->name.data, p->name.len + 1, 1);
	p->name.cap = p->name.len + 1;
	if (p->aggcap / 4 < ht_count(p->stacks)) {
		s->sagg = p->agg;
		s->saggcap = p->aggcap;
	} else
		free(p->agg);
	ht_clear(p->stacks);
	s->spare = p->stacks;
	if (p->sids != NULL)
		spill_clear(p->sids);
	s->ssids = p->sids;
	p->stacks = NULL;
	p->agg = NULL;
	p->aggcap = 0;
	p->sids = NULL;
	spill_free(p->wts);
	p->wts = NULL;
	if (p->recs != NULL && p->recbytes <= SPILLMEM) {
		p->crecs = xmalloc(p->recbytes);
		xspill_rewind(p->recs);
		sp_xspill(p->recs, p->crecs, p->recbytes);
		spill_free(p->recs);
		p->recs = NULL;
	}
	if (p->starts != NULL && p->nrecs * sizeof(double) <= SPILLMEM) {
		p->cstarts = xreallocarray(NULL, p->nrecs, sizeof(double));
		xspill_rewind(p->starts);
		sp_xspill(p->starts, p->cstarts, p->nrecs * sizeof(double));
		spill_free(p->starts);
		p->starts = NULL;
	}
}

/* Free what sp_shrink() kept for the next profile. */
void
sp_unspare(struct spd *s)
{
	ht_free(s->spare);
	free(s->sagg);
	spill_free(s->ssids);
	zl_free(s->skeys);
	s->skeys = NULL;
	s->spare = NULL;
	s->sagg = NULL;
	s->saggcap = 0;
	s->ssids = NULL;
}

/*
 * The key of stack id of p (varints) kept compressed, or among a few
 * as they are (KRAWMAX bytes: found from the first).
 */
const char *
sp_pkey(struct prof *p, size_t id, size_t *len)
{
	const unsigned char *u, *e;
	uint64_t n;
	size_t i;

	i = p->reread ? p->offs[id] & ~ZLKEY : id;
	if (p->kraw == NULL)
		return zl_get(p->keys, i, len);
	u = p->kraw;
	e = u + p->krawlen;
	for (;;) {
		u = varint_get(u, e, &n);
		if (i-- == 0)
			break;
		u += n;
	}
	*len = (size_t)n;
	return (const char *)u;
}

/*
 * The text of the first sample of stack id of p, read again from the
 * input (see sp_intern()), from its '[' to its ']' (*len bytes).
 */
const unsigned char *
sp_rawof(struct spd *s, struct prof *p, size_t id, size_t *len)
{
	const unsigned char *c, *e;

	if ((c = window(s, p->offs[id] & ~RAWTAG, &e)) == NULL || *c != '[')
		xchanged(s, p->offs[id]);
	*len = (size_t)(e - c) + 1;
	return c;
}

/*
 * The frame ids of stack id of p made again into ids (room for clen / 2
 * + 1) from the text c[0..clen) of its first sample (sp_rawof()), which 7
 * bytes follow; returns how many.  The same, if the input is the same,
 * which its tag checks (see sp_intern()): the top half of the hash of the
 * sample's raw text, or of its key, made in kb.  The sample's array was
 * read as valid JSON, so its numbers are its runs of digits (the only
 * other bytes are blanks, commas and the '-' of a -0): of 8 digits or
 * fewer and followed by ',' or ']', a number is read 8 bytes at a time
 * (digits.h).
 */
size_t
sp_rekey(struct spd *s, struct prof *p, size_t id, const unsigned char *c,
    size_t clen, struct buf *kb, uint32_t *ids)
{
	const unsigned char *b = c, *e = c + clen - 1;
	unsigned char *k, *k0, *last;
	uint64_t v, w, m, h;
	size_t n = 0, d;
	int raw = (p->offs[id] & RAWTAG) != 0;

	/* A varint takes no more bytes than the digits of its number. */
	buf_reset(kb);
	buf_grow(kb, clen);
	k = k0 = last = (unsigned char *)kb->data;
	for (c++; c < e;) {
		w = load64(c);
		m = nondigits(w);
		d = m != 0 ? (size_t)__builtin_ctzll(m) >> 3 : 8;
		if (d == 0) {
			c++;
			continue;
		}
		if (d < 8 && (c[d] == ',' || c[d] == ']')) {
			v = digitsval(w ^ ZEROS, d);
			c += d + 1;
		} else
			for (v = 0; *c >= '0' && *c <= '9'; c++)
				if ((v = v * 10 + (*c - '0')) > UINT32_MAX)
					xchanged(s, p->offs[id]);
		ids[n++] = (uint32_t)v;
		if (!raw) {
			last = k;
			k += varint_put(k, v);
		}
	}
	if (p->leaf && n > 0) {
		k0 = last;
		ids[0] = ids[n - 1];
		n = 1;
	}
	h = raw ? ht_hashto(b + 1, b + clen, ']', &d) :
	    ht_hash(k0, (size_t)(k - k0));
	if ((uint32_t)(h >> 32) != p->tags[id])
		xchanged(s, p->offs[id]);
	return n;
}

/*
 * The input from offset off to the first ']' after it, read again into
 * s->win: *end is the ']'; NULL if the input ends before one.  Keys are
 * made again in about the order their samples came, so WIN bytes are
 * read at once, and the next key is mostly in them; WINJUMP bytes after
 * a jump back or WINNEAR ahead (records in another order); more if the
 * array is longer.
 */
static const unsigned char *
window(struct spd *s, uint64_t off, const unsigned char **end)
{
	struct buf *w = &s->win;
	const unsigned char *q;
	size_t want;
	ssize_t r;

	if (off >= s->winoff && off < s->winoff + w->len &&
	    (q = memchr(w->data + (off - s->winoff), ']', w->len -
	    (off - s->winoff))) != NULL) {
		*end = q;
		return (unsigned char *)w->data + (off - s->winoff);
	}
	want = off >= s->winoff && off - s->winoff < WINNEAR ? WIN : WINJUMP;
	buf_reset(w);
	s->winoff = off;
	for (;;) {
		buf_grow(w, want);
		if ((r = pread(s->kfd, w->data + w->len, want, s->kbase +
		    (off_t)(off + w->len))) == -1)
			sp_xsysfail(json_name(s->j));
		if (r == 0)
			return NULL;
		q = memchr(w->data + w->len, ']', (size_t)r);
		w->len += (size_t)r;
		if (q != NULL) {
			*end = q;
			return (unsigned char *)w->data;
		}
		want = w->len;
	}
}

/* Exit: the sample at offset off of the input is not what was read. */
static __dead void
xchanged(struct spd *s, uint64_t off)
{
	sp_xfail("%s: the sample at byte %llu changed while the file was "
	    "read", json_name(s->j), (unsigned long long)(off & ~RAWTAG));
}

/* Start reading p's records from the first. */
void
sp_rewindrecs(struct spd *s, struct prof *p)
{
	if (p->crecs != NULL) {
		s->rp = p->crecs;
		s->re = p->crecs + p->recbytes;
		return;
	}
	if (p->recs != NULL)
		xspill_rewind(p->recs);
	s->rr.left = p->recbytes;
	s->rp = s->re = s->rr.buf;
}

/*
 * The next record of p (*pos: records read); 0 at the end.  Records are
 * decoded from memory, or from s->rr, topped up from the spill so that
 * a whole record is there.
 */
int
sp_nextrec(struct spd *s, struct prof *p, uint64_t *pos, uint32_t *id,
    uint64_t *n, double *w)
{
	uint64_t v;
	size_t k, have;

	if (*pos == p->nrecs)
		return 0;
	if (p->crecs == NULL && (size_t)(s->re - s->rp) < RECMAX &&
	    s->rr.left > 0) {
		have = (size_t)(s->re - s->rp);
		memmove(s->rr.buf, s->rp, have);
		k = CHUNK - have;
		if (k > s->rr.left)
			k = (size_t)s->rr.left;
		sp_xspill(p->recs, s->rr.buf + have, k);
		s->rr.left -= k;
		s->rp = s->rr.buf;
		s->re = s->rr.buf + have + k;
	}
	s->rp = varint_get(s->rp, s->re, &v);
	*id = (uint32_t)(v >> 1);
	s->rp = varint_get(s->rp, s->re, n);
	if (v & 1) {
		if ((size_t)(s->re - s->rp) < sizeof(s->rw))
			sp_xfail("temporary file: short read");
		memcpy(&s->rw, s->rp, sizeof(s->rw));
		s->rp += sizeof(s->rw);
	}
	*w = s->rw;
	(*pos)++;
	return 1;
}
