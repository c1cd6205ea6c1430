/*
 * zlist.c: strings kept compressed (zlist.h).  Strings are appended to
 * a raw block as a varint length and the bytes; a block of BLOCK bytes
 * or more is compressed with zstd at level 3 and its bytes appended to
 * one buffer.  Reading decompresses one block at a time and indexes its
 * strings.  The stacks of a py-spy profile (frame indices as varints,
 * spd.c) take about 40 bytes each.  Full blocks are compressed by a thread of their
 * own, so that the caller goes on meanwhile (spd.c reads the next
 * profile); reading waits for it.
 */
#include <err.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_createCCtx_advanced */
#include <zstd.h>

#include "sst.h"
#include "zlist.h"

#define BLOCK	262144
#define LEVEL	3

struct zblock {
	size_t		 first;		/* its first string's number */
	size_t		 off, len;	/* its bytes in z */
	size_t		 rawlen;
};

/* A raw block waiting for the compressing thread. */
struct zraw {
	struct buf	 b;
	size_t		 first;
	struct zraw	*next;
};

struct zlist {
	struct buf	 raw;		/* the block being filled */
	size_t		 rawfirst;
	/* The compressing thread: it owns z, blk and cc while it runs. */
	pthread_t	 th;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 running, joinable;
	int		 done;		/* zl_done(): no more strings */
	struct zraw	*qhead, **qtail;	/* blocks for it, in order */
	struct buf	 z;		/* the blocks, compressed */
	struct zblock	*blk;
	size_t		 nblk, blkcap;
	size_t		 n;		/* strings */
	ZSTD_CCtx	*cc;
	ZSTD_DCtx	*dc;
	/* The block decompressed last (cur, or (size_t)-1: none). */
	size_t		 cur;
	struct buf	 dec;
	size_t		*doff;		/* its strings' offsets and lengths */
	size_t		 doffcap;
};

/* zstd's allocator: this file's malloc, as in input.c. */
static void *
zalloc(void *op, size_t n)
{
	(void)op;
	return malloc(n);
}

static void
zfree(void *op, void *p)
{
	(void)op;
	free(p);
}

static const ZSTD_customMem zmem = { zalloc, zfree, NULL };

static void	 zwait(struct zlist *);

struct zlist *
zl_new(void)
{
	struct zlist *l;

	l = xcalloc(1, sizeof(*l));
	buf_init(&l->raw);
	buf_init(&l->z);
	buf_init(&l->dec);
	l->cur = (size_t)-1;
	l->qtail = &l->qhead;
	if (pthread_mutex_init(&l->mu, NULL) != 0 ||
	    pthread_cond_init(&l->cv, NULL) != 0)
		errx(1, "zlist: cannot make a lock");
	return l;
}

void
zl_free(struct zlist *l)
{
	if (l == NULL)
		return;
	zwait(l);
	pthread_mutex_destroy(&l->mu);
	pthread_cond_destroy(&l->cv);
	buf_free(&l->raw);
	buf_free(&l->z);
	buf_free(&l->dec);
	free(l->blk);
	free(l->doff);
	ZSTD_freeCCtx(l->cc);
	ZSTD_freeDCtx(l->dc);
	free(l);
}

size_t
zl_count(const struct zlist *l)
{
	return l->n;
}

/* Compress raw block r[0..n) of first string first: one more block. */
static void
compress(struct zlist *l, const char *r, size_t n, size_t first)
{
	struct zblock *b;
	size_t cap, k;

	if (l->cc == NULL && (l->cc = ZSTD_createCCtx_advanced(zmem)) ==
	    NULL)
		errx(1, "ZSTD_createCCtx failed");
	if (l->nblk == l->blkcap) {
		l->blkcap = l->blkcap ? l->blkcap * 2 : 64;
		l->blk = xreallocarray(l->blk, l->blkcap, sizeof(*l->blk));
	}
	cap = ZSTD_compressBound(n);
	buf_grow(&l->z, cap);
	k = ZSTD_compressCCtx(l->cc, l->z.data + l->z.len, cap, r, n, LEVEL);
	if (ZSTD_isError(k))
		errx(1, "zstd: %s", ZSTD_getErrorName(k));
	b = &l->blk[l->nblk++];
	b->first = first;
	b->off = l->z.len;
	b->len = k;
	b->rawlen = n;
	l->z.len += k;
}

/* The compressing thread: the queued blocks in order, then it ends. */
static void *
worker(void *arg)
{
	struct zlist *l = arg;
	struct zraw *q;

	for (;;) {
		pthread_mutex_lock(&l->mu);
		if ((q = l->qhead) == NULL) {
			/* Its state is a megabyte or two: not kept idle. */
			if (l->done) {
				ZSTD_freeCCtx(l->cc);
				l->cc = NULL;
			}
			l->running = 0;
			pthread_cond_broadcast(&l->cv);
			pthread_mutex_unlock(&l->mu);
			return NULL;
		}
		if ((l->qhead = q->next) == NULL)
			l->qtail = &l->qhead;
		pthread_mutex_unlock(&l->mu);
		compress(l, q->b.data, q->b.len, q->first);
		buf_free(&q->b);
		free(q);
	}
}

/* Wait until every queued block is compressed. */
static void
zwait(struct zlist *l)
{
	pthread_mutex_lock(&l->mu);
	while (l->running)
		pthread_cond_wait(&l->cv, &l->mu);
	pthread_mutex_unlock(&l->mu);
	if (l->joinable) {
		pthread_join(l->th, NULL);
		l->joinable = 0;
	}
}

void
zl_flush(struct zlist *l)
{
	struct zraw *q;

	if (l->raw.len == 0)
		return;
	q = xmalloc(sizeof(*q));
	q->b = l->raw;
	q->first = l->rawfirst;
	q->next = NULL;
	buf_init(&l->raw);
	l->rawfirst = l->n;
	pthread_mutex_lock(&l->mu);
	*l->qtail = q;
	l->qtail = &q->next;
	if (l->running) {
		pthread_mutex_unlock(&l->mu);
		return;
	}
	pthread_mutex_unlock(&l->mu);
	/* The thread ended (or never ran): join it, start one. */
	if (l->joinable)
		pthread_join(l->th, NULL);
	l->running = 1;
	if (pthread_create(&l->th, NULL, worker, l) != 0)
		errx(1, "zlist: cannot start a thread");
	l->joinable = 1;
}

void
zl_done(struct zlist *l)
{
	pthread_mutex_lock(&l->mu);
	l->done = 1;
	if (l->running) {
		pthread_mutex_unlock(&l->mu);
		zl_flush(l);
		return;
	}
	pthread_mutex_unlock(&l->mu);
	zl_flush(l);
	/* No thread ran since: nothing else frees the state. */
	zwait(l);
	ZSTD_freeCCtx(l->cc);
	l->cc = NULL;
}

void
zl_add(struct zlist *l, const void *s, size_t n)
{
	unsigned char v[10];
	size_t k = 0, m = n;

	do {
		v[k++] = (unsigned char)((m & 0x7f) | (m > 0x7f ? 0x80 : 0));
		m >>= 7;
	} while (m > 0);
	buf_add(&l->raw, v, k);
	buf_add(&l->raw, s, n);
	l->n++;
	if (l->raw.len >= BLOCK)
		zl_flush(l);
}

/* Decompress block b and index its strings. */
static void
load(struct zlist *l, size_t b)
{
	const struct zblock *x = &l->blk[b];
	const unsigned char *p, *e;
	size_t i, n, len, r;
	int sh;

	if (l->dc == NULL && (l->dc = ZSTD_createDCtx_advanced(zmem)) ==
	    NULL)
		errx(1, "ZSTD_createDCtx failed");
	buf_reset(&l->dec);
	buf_grow(&l->dec, x->rawlen);
	r = ZSTD_decompressDCtx(l->dc, l->dec.data, x->rawlen,
	    l->z.data + x->off, x->len);
	if (ZSTD_isError(r) || r != x->rawlen)
		errx(1, "zstd: a block of %zu bytes came back as %zu",
		    x->rawlen, r);
	l->dec.len = r;
	n = (b + 1 < l->nblk ? l->blk[b + 1].first : l->n) - x->first;
	if (2 * n > l->doffcap) {
		l->doffcap = 2 * n;
		l->doff = xreallocarray(l->doff, 2 * n, sizeof(*l->doff));
	}
	p = (const unsigned char *)l->dec.data;
	e = p + r;
	for (i = 0; i < n; i++) {
		for (len = 0, sh = 0; p < e; sh += 7) {
			len |= (size_t)(*p & 0x7f) << sh;
			if (!(*p++ & 0x80))
				break;
		}
		if (len > (size_t)(e - p))
			errx(1, "zlist: a string runs past its block");
		l->doff[2 * i] = (size_t)(p - (const unsigned char *)
		    l->dec.data);
		l->doff[2 * i + 1] = len;
		p += len;
	}
	l->cur = b;
}

const char *
zl_get(struct zlist *l, size_t i, size_t *len)
{
	size_t lo, hi, mid, k;

	if (i >= l->n)
		errx(1, "zl_get: string %zu of %zu", i, l->n);
	if (i >= l->rawfirst)
		zl_flush(l);
	zwait(l);
	if (l->cur == (size_t)-1 || i < l->blk[l->cur].first ||
	    (l->cur + 1 < l->nblk && i >= l->blk[l->cur + 1].first)) {
		lo = 0;
		hi = l->nblk;
		while (hi - lo > 1) {
			mid = lo + (hi - lo) / 2;
			if (l->blk[mid].first <= i)
				lo = mid;
			else
				hi = mid;
		}
		load(l, lo);
	}
	k = i - l->blk[l->cur].first;
	*len = l->doff[2 * k + 1];
	return l->dec.data + l->doff[2 * k];
}
