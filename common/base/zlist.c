/*
 * zlist.c: strings kept compressed (zlist.h).  Strings are appended to
 * a raw block as a varint length and the bytes; a block of BLOCK bytes
 * or more is compressed with zstd (see cparams()) and its bytes kept in
 * a chunk.  Reading decompresses one block at a time and indexes its
 * strings.  The stacks of a py-spy profile (frame indices as varints,
 * spd.c) take about 36 bytes each.  Full blocks are compressed by a
 * thread of their own while the caller goes on (spd.c reads on);
 * reading, and zl_done(), wait for it.  Lists made one after another
 * hand on their buffers and contexts through a pool (struct zpool); a
 * list made without one has one of its own.  The chunks, of 2 MB in
 * huge pages (xhuge()), are the pool's, filled by its lists in turn
 * and never copied: the kept keys are most of the memory that spd.c
 * touches first, and a page first touched is a fault, dear in a
 * virtual machine.
 *
 * A list fails only as memory does: a lock or a thread that cannot be
 * made, a zstd context in memory of the size zstd asked for, or a block
 * this list compressed itself that does not come back.  Those exit 1 as
 * xmalloc() does (xzfail()); no input makes them.
 */
#include <err.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_initStaticCCtx, DCtx */
#include <zstd.h>

#include "util.h"
#include "buf.h"
#include "zlist.h"
#include "varint.h"

#define BLOCK	1048576
#define WINLOG	20	/* log2(BLOCK): matches as far back as a block */
#define HASHLOG	17	/* a table of 512 KB, see cparams() */
#define MINMATCH	5
#define SPARES	4	/* blocks a list or a pool keeps for reuse */
#define CHUNK	HUGEPAGE	/* bytes of compressed blocks kept together */

/*
 * A chunk of compressed blocks; refs counts its blocks still kept, so
 * that one whose lists are freed is reused.
 */
struct zchunk {
	char		*data;
	size_t		 cap, len;
	size_t		 refs;
};

struct zblock {
	size_t		 first;		/* its first string's number */
	struct zchunk	*ch, *ch2;	/* its len bytes: len1 at off in ch, */
	size_t		 off, len, len1;	/* the rest at ch2's start */
	size_t		 rawlen;
};

/* A raw block for the compressing thread, and what it made of it. */
struct zraw {
	struct buf	 b;
	size_t		 first;
	char		*out;		/* ZSTD_compressBound(b.len) bytes */
	size_t		 cap, len;
	struct zraw	*next;
};

struct zlist {
	struct buf	 raw;		/* the block being filled */
	size_t		 rawfirst;
	/*
	 * The compressing thread takes the blocks of todo in order and
	 * moves them to done; it allocates nothing (the fuzzers' allocator
	 * is for one thread), so its context is static, made here; so is
	 * the reading one, for the same allocator.
	 */
	pthread_t	 th;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	int		 running, joinable;
	struct zraw	*todo, **todotail;
	struct zraw	*done, **donetail;
	ZSTD_CCtx	*cc;		/* in ccmem */
	void		*ccmem;
	size_t		 ccsize;
	struct zblock	*blk;		/* the blocks, compressed */
	size_t		 nblk, blkcap;
	size_t		 n;		/* strings */
	ZSTD_DCtx	*dc;		/* in dcmem */
	void		*dcmem;
	/* The block decompressed last (cur, or (size_t)-1: none). */
	size_t		 cur;
	struct buf	 dec;
	size_t		*doff;		/* its strings' offsets and lengths */
	size_t		 doffcap;
	struct buf	 join;		/* a block in two chunks, joined */
	struct zraw	*spare;		/* compressed, kept for reuse */
	size_t		 nspare;
	struct zpool	*pool;
	struct zpool	*own;		/* or NULL: pool is the caller's */
};

/*
 * What a list hands on when it is done with it, for the next list to
 * take instead of fresh memory, which is faulted in page by page (and
 * dearly so in a virtual machine): spare blocks, a raw block's buffer
 * for the next list's first block, the compressing context, the
 * reading one and its buffers.  The lock is for lists of different
 * threads.
 */
struct zpool {
	pthread_mutex_t	 mu;
	struct zraw	*spare;
	size_t		 nspare;
	struct buf	 raw;		/* data NULL: none */
	void		*ccmem;
	size_t		 ccsize;
	void		*dcmem;
	struct buf	 dec;
	struct buf	 join;
	size_t		*doff;
	size_t		 doffcap;
	struct zchunk	*cur;		/* being filled, or NULL */
	struct zchunk	*free;		/* emptied, kept for reuse, or NULL */
};

static __dead void xzfail(const char *, ...)
		    __attribute__((__format__(__printf__, 1, 2)));
static ZSTD_compressionParameters cparams(size_t);
static void	 zwait(struct zlist *);
static void	 keep(struct zpool *, const char *, size_t, struct zblock *);
static void	 unkeep(struct zpool *, struct zchunk *);
static void	 recycle(struct zpool *, struct zchunk *);
static void	 freechunk(struct zchunk *);
static void	 freeraw(struct zraw *);
static void	 keepraw(struct zraw **, size_t *, struct zraw *);
static struct zraw *takeraw(struct zraw **, size_t *);
static void	 unspare(struct zlist *);
static void	 swapread(struct zlist *, struct zpool *);
static void	 unread(struct zlist *);

/* A failure of the machine or of zstd (see above): exit 1. */
static __dead void
xzfail(const char *fmt, ...)
{
	va_list ap;
	char msg[256];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	errx(1, "%s", msg);
}

struct zpool *
zp_new(void)
{
	struct zpool *p;

	p = xcalloc(1, sizeof(*p));
	buf_init(&p->dec);
	buf_init(&p->join);
	if (pthread_mutex_init(&p->mu, NULL) != 0)
		xzfail("zlist: cannot make a lock");
	return p;
}

void
zp_free(struct zpool *p)
{
	struct zraw *q;

	if (p == NULL)
		return;
	while ((q = takeraw(&p->spare, &p->nspare)) != NULL)
		freeraw(q);
	buf_free(&p->raw);
	free(p->ccmem);
	free(p->dcmem);
	buf_free(&p->dec);
	buf_free(&p->join);
	free(p->doff);
	freechunk(p->cur);
	freechunk(p->free);
	pthread_mutex_destroy(&p->mu);
	free(p);
}

/*
 * Keep the n bytes at b, compressed block x's, in pool p (held locked):
 * as many as there is room for in the chunk being filled, the rest, if
 * any, at the start of another one, which then is.  So chunks are
 * filled to the brim; x->ch2 is the second chunk, or NULL.
 */
static void
keep(struct zpool *p, const char *b, size_t n, struct zblock *x)
{
	struct zchunk *c = p->cur;

	x->ch = x->ch2 = NULL;
	if (c != NULL && c->len < c->cap) {
		x->ch = c;
		x->off = c->len;
		x->len1 = n < c->cap - c->len ? n : c->cap - c->len;
		memcpy(c->data + c->len, b, x->len1);
		c->len += x->len1;
		c->refs++;
		if (x->len1 == n)
			return;
		b += x->len1;
		n -= x->len1;
	}
	if ((c = p->free) != NULL && c->cap >= n)
		p->free = NULL;
	else {
		c = xcalloc(1, sizeof(*c));
		c->cap = n > CHUNK ? n : CHUNK;
		c->data = xhuge(c->cap, 1);
	}
	p->cur = c;
	memcpy(c->data, b, n);
	c->len = n;
	c->refs = 1;
	if (x->ch != NULL)
		x->ch2 = c;
	else {
		x->ch = c;
		x->off = 0;
		x->len1 = n;
	}
}

/*
 * A block kept in chunk c of pool p (held locked) given up: a chunk of
 * none is filled again from its start if being filled, else recycled.
 */
static void
unkeep(struct zpool *p, struct zchunk *c)
{
	if (c == NULL || --c->refs > 0)
		return;
	if (c == p->cur)
		c->len = 0;
	else
		recycle(p, c);
}

/*
 * Chunk c of pool p (held locked), of no block now, kept for reuse if
 * none is, else freed.
 */
static void
recycle(struct zpool *p, struct zchunk *c)
{
	if (p->free == NULL && c->cap == CHUNK)
		p->free = c;
	else
		freechunk(c);
}

/* Free chunk c, if not NULL. */
static void
freechunk(struct zchunk *c)
{
	if (c != NULL) {
		free(c->data);
		free(c);
	}
}

struct zlist *
zl_new(struct zpool *pool)
{
	struct zlist *l;

	l = xcalloc(1, sizeof(*l));
	if (pool == NULL)
		pool = l->own = zp_new();
	l->pool = pool;
	pthread_mutex_lock(&pool->mu);
	l->raw = pool->raw;
	memset(&pool->raw, 0, sizeof(pool->raw));
	pthread_mutex_unlock(&pool->mu);
	if (l->raw.data == NULL)
		buf_init(&l->raw);
	else
		buf_reset(&l->raw);
	buf_init(&l->dec);
	buf_init(&l->join);
	l->cur = (size_t)-1;
	l->todotail = &l->todo;
	l->donetail = &l->done;
	if (pthread_mutex_init(&l->mu, NULL) != 0 ||
	    pthread_cond_init(&l->cv, NULL) != 0)
		xzfail("zlist: cannot make a lock");
	return l;
}

void
zl_free(struct zlist *l)
{
	size_t i;

	if (l == NULL)
		return;
	zwait(l);
	unspare(l);
	unread(l);
	pthread_mutex_lock(&l->pool->mu);
	for (i = 0; i < l->nblk; i++) {
		unkeep(l->pool, l->blk[i].ch);
		unkeep(l->pool, l->blk[i].ch2);
	}
	pthread_mutex_unlock(&l->pool->mu);
	pthread_mutex_destroy(&l->mu);
	pthread_cond_destroy(&l->cv);
	buf_free(&l->raw);
	buf_free(&l->dec);
	buf_free(&l->join);
	free(l->blk);
	free(l->doff);
	free(l->ccmem);
	free(l->dcmem);
	zp_free(l->own);
	free(l);
}

size_t
zl_count(const struct zlist *l)
{
	return l->n;
}

const char *
zl_raw(const struct zlist *l, size_t *len)
{
	if (l->rawfirst != 0)
		return NULL;
	*len = l->raw.len;
	return l->raw.data;
}

/* The compressing thread: the blocks to do, in order, then it ends. */
static void *
worker(void *arg)
{
	struct zlist *l = arg;
	struct zraw *q;
	size_t k;

	for (;;) {
		pthread_mutex_lock(&l->mu);
		if ((q = l->todo) == NULL) {
			l->running = 0;
			pthread_cond_broadcast(&l->cv);
			pthread_mutex_unlock(&l->mu);
			return NULL;
		}
		if ((l->todo = q->next) == NULL)
			l->todotail = &l->todo;
		pthread_mutex_unlock(&l->mu);
		/* An error is reported by collect(). */
		k = ZSTD_CCtx_setCParams(l->cc, cparams(q->b.len));
		if (!ZSTD_isError(k))
			k = ZSTD_compress2(l->cc, q->out, q->cap, q->b.data,
			    q->b.len);
		q->len = k;
		q->next = NULL;
		pthread_mutex_lock(&l->mu);
		*l->donetail = q;
		l->donetail = &q->next;
		pthread_mutex_unlock(&l->mu);
	}
}

/* Append the blocks the thread has compressed. */
static void
collect(struct zlist *l)
{
	struct zraw *q, *next;
	struct zblock *b;

	pthread_mutex_lock(&l->mu);
	q = l->done;
	l->done = NULL;
	l->donetail = &l->done;
	pthread_mutex_unlock(&l->mu);
	for (; q != NULL; q = next) {
		next = q->next;
		if (ZSTD_isError(q->len))
			xzfail("zstd: %s", ZSTD_getErrorName(q->len));
		if (l->nblk == l->blkcap)
			l->blk = xgrow(l->blk, &l->blkcap, l->nblk + 1, 64,
			    sizeof(*l->blk));
		b = &l->blk[l->nblk++];
		b->first = q->first;
		b->len = q->len;
		b->rawlen = q->b.len;
		pthread_mutex_lock(&l->pool->mu);
		keep(l->pool, q->out, q->len, b);
		pthread_mutex_unlock(&l->pool->mu);
		keepraw(&l->spare, &l->nspare, q);
	}
}

/* Free block q and its buffers. */
static void
freeraw(struct zraw *q)
{
	buf_free(&q->b);
	free(q->out);
	free(q);
}

/* Keep block q on the spare list *sp of *n blocks, or free it if full. */
static void
keepraw(struct zraw **sp, size_t *n, struct zraw *q)
{
	if (*n >= SPARES) {
		freeraw(q);
		return;
	}
	q->next = *sp;
	*sp = q;
	(*n)++;
}

/* A block taken off the spare list *sp of *n blocks, or NULL. */
static struct zraw *
takeraw(struct zraw **sp, size_t *n)
{
	struct zraw *q;

	if ((q = *sp) != NULL) {
		*sp = q->next;
		(*n)--;
	}
	return q;
}

/*
 * Hand l's spare blocks and compressing context to its pool (what it
 * cannot take is freed); no zl_add() follows.
 */
static void
unspare(struct zlist *l)
{
	struct zpool *p = l->pool;
	struct zraw *q;

	pthread_mutex_lock(&p->mu);
	while ((q = takeraw(&l->spare, &l->nspare)) != NULL)
		keepraw(&p->spare, &p->nspare, q);
	if (l->ccmem != NULL && l->ccsize > p->ccsize) {
		free(p->ccmem);
		p->ccmem = l->ccmem;
		p->ccsize = l->ccsize;
		l->ccmem = NULL;
	}
	pthread_mutex_unlock(&p->mu);
	free(l->ccmem);
	l->ccmem = NULL;
	l->cc = NULL;
	l->ccsize = 0;
}

/*
 * Trade l's reading context memory and buffers for pool p's (held
 * locked); l's context is made again on its memory when next needed.
 */
static void
swapread(struct zlist *l, struct zpool *p)
{
	struct buf b;
	void *m;
	size_t *o, n;

	m = p->dcmem;
	p->dcmem = l->dcmem;
	l->dcmem = m;
	b = p->dec;
	p->dec = l->dec;
	l->dec = b;
	b = p->join;
	p->join = l->join;
	l->join = b;
	o = p->doff;
	n = p->doffcap;
	p->doff = l->doff;
	p->doffcap = l->doffcap;
	l->doff = o;
	l->doffcap = n;
	l->dc = NULL;
	l->cur = (size_t)-1;
}

/* Hand l's reading context and buffers to its pool if it has none. */
static void
unread(struct zlist *l)
{
	struct zpool *p = l->pool;

	if (l->dcmem == NULL)
		return;
	pthread_mutex_lock(&p->mu);
	if (p->dcmem == NULL)
		swapread(l, p);
	pthread_mutex_unlock(&p->mu);
}

/* Wait until every block is compressed, and collect them. */
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
	collect(l);
}

/*
 * The parameters that compress a block of n bytes: zstd's fastest
 * strategy, with a table of 2^17 entries and matches from 5 bytes.  Of
 * the stacks of bench/genpyspy -k 200000 in blocks of 1 MB, 35.4 bytes
 * a key in 98 ms, where level 3 takes 36.1 bytes in 116 ms, level 1
 * 48.3 in 57 ms, and a table of 2^16 entries 37.9 in 81 ms.
 */
static ZSTD_compressionParameters
cparams(size_t n)
{
	ZSTD_compressionParameters cp;

	cp = ZSTD_getCParams(1, n, 0);
	cp.strategy = ZSTD_fast;
	cp.windowLog = WINLOG;
	cp.hashLog = HASHLOG;
	cp.minMatch = MINMATCH;
	return ZSTD_adjustCParams(cp, n, 0);
}

/* A compressing context for blocks of n bytes: made or grown here. */
static void
context(struct zlist *l, size_t n)
{
	size_t need;

	need = ZSTD_estimateCCtxSize_usingCParams(cparams(n));
	if (l->cc != NULL && need <= l->ccsize)
		return;
	zwait(l);
	free(l->ccmem);
	l->ccmem = NULL;
	pthread_mutex_lock(&l->pool->mu);
	if (l->pool->ccmem != NULL && l->pool->ccsize >= need) {
		l->ccmem = l->pool->ccmem;
		need = l->pool->ccsize;
		l->pool->ccmem = NULL;
		l->pool->ccsize = 0;
	}
	pthread_mutex_unlock(&l->pool->mu);
	if (l->ccmem == NULL)
		l->ccmem = xmalloc(need);
	l->ccsize = need;
	if ((l->cc = ZSTD_initStaticCCtx(l->ccmem, need)) == NULL)
		xzfail("ZSTD_initStaticCCtx failed");
}

void
zl_flush(struct zlist *l)
{
	struct zraw *q = NULL;
	struct buf spare;

	collect(l);
	if (l->raw.len == 0)
		return;
	context(l, l->raw.len);
	if ((q = takeraw(&l->spare, &l->nspare)) == NULL) {
		pthread_mutex_lock(&l->pool->mu);
		q = takeraw(&l->pool->spare, &l->pool->nspare);
		pthread_mutex_unlock(&l->pool->mu);
	}
	if (q == NULL) {
		q = xcalloc(1, sizeof(*q));
		buf_init(&q->b);
	}
	/* The raw block and q's, already mapped, trade places. */
	spare = q->b;
	q->b = l->raw;
	l->raw = spare;
	buf_reset(&l->raw);
	q->first = l->rawfirst;
	if (q->cap < ZSTD_compressBound(q->b.len)) {
		free(q->out);
		q->cap = ZSTD_compressBound(q->b.len);
		q->out = xmalloc(q->cap);
	}
	q->next = NULL;
	l->rawfirst = l->n;
	pthread_mutex_lock(&l->mu);
	*l->todotail = q;
	l->todotail = &q->next;
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
		xzfail("zlist: cannot start a thread");
	l->joinable = 1;
}

void
zl_done(struct zlist *l)
{
	struct buf spare;

	/* The last block waited for: a few milliseconds. */
	zl_flush(l);
	zwait(l);
	unspare(l);
	/*
	 * Empty, but maybe a spare block's buffer: handed on, not kept by
	 * a list held to the end.
	 */
	pthread_mutex_lock(&l->pool->mu);
	if (l->pool->raw.cap < l->raw.cap) {
		spare = l->pool->raw;
		l->pool->raw = l->raw;
		l->raw = spare;
	}
	pthread_mutex_unlock(&l->pool->mu);
	buf_free(&l->raw);
	buf_init(&l->raw);
}

void
zl_add(struct zlist *l, const void *s, size_t n)
{
	unsigned char v[VARINT_MAX];

	buf_add(&l->raw, v, varint_put(v, n));
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
	const char *z = x->ch->data + x->off;
	size_t i, n, r;
	uint64_t len;

	if (l->dcmem == NULL) {
		pthread_mutex_lock(&l->pool->mu);
		if (l->pool->dcmem != NULL)
			swapread(l, l->pool);
		pthread_mutex_unlock(&l->pool->mu);
	}
	if (l->dc == NULL) {
		if (l->dcmem == NULL)
			l->dcmem = xmalloc(ZSTD_estimateDCtxSize());
		if ((l->dc = ZSTD_initStaticDCtx(l->dcmem,
		    ZSTD_estimateDCtxSize())) == NULL)
			xzfail("ZSTD_initStaticDCtx failed");
	}
	if (x->ch2 != NULL) {
		buf_reset(&l->join);
		buf_add(&l->join, z, x->len1);
		buf_add(&l->join, x->ch2->data, x->len - x->len1);
		z = l->join.data;
	}
	buf_reset(&l->dec);
	buf_grow(&l->dec, x->rawlen);
	r = ZSTD_decompressDCtx(l->dc, l->dec.data, x->rawlen, z, x->len);
	if (ZSTD_isError(r) || r != x->rawlen)
		xzfail("zstd: a block of %zu bytes came back as %zu",
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
		p = varint_get(p, e, &len);
		if (len > (uint64_t)(e - p))
			xzfail("zlist: a string runs past its block");
		l->doff[2 * i] = (size_t)(p - (const unsigned char *)
		    l->dec.data);
		l->doff[2 * i + 1] = (size_t)len;
		p += len;
	}
	l->cur = b;
}

const char *
zl_get(struct zlist *l, size_t i, size_t *len)
{
	size_t lo, hi, mid, k;

	if (i >= l->n)
		xzfail("zl_get: string %zu of %zu", i, l->n);
	if (i >= l->rawfirst)
		zl_flush(l);
	if (l->joinable)
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
