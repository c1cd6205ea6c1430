/*
 * json.c: a pull tokenizer for JSON (RFC 8259) over a refillable buffer.
 *
 * json_next() hands out one token at a time and validates the whole
 * grammar with a container stack, so a caller that walks the tokens
 * never sees malformed input: a JT_ERROR comes first, with a message and
 * the position of the offending byte.
 *
 * Input is read with read(2) into a buffer of JSON_BUFSZ bytes, kept
 * NUL-terminated and followed by zero padding: the NUL is a sentinel that
 * stops every scanning loop, so the loops need no bounds checks, and the
 * padding (JSON_PAD, 16 bytes) lets digits be scanned 8 bytes and
 * strings 16 bytes at a time.  A scanner that
 * reaches the end of the data without finishing its token asks for more:
 * the unfinished token is moved to the front of the buffer, more input is
 * read behind it and the token is scanned again from its start; a long
 * token is read on until what is buffered of it has doubled, so that it
 * is scanned again a logarithmic number of times, whatever the size of
 * each read (a pipe's 64 KiB).  The
 * buffer doubles when one token fills it and shrinks back afterwards, so
 * memory stays within the buffer plus the current token.  json_open_mem()
 * feeds a memory block through the same buffer, so both kinds of input
 * share one code path.  A regular file bigger than the buffer is read
 * ahead by a second thread: while the tokenizer works on one buffer, the
 * thread reads the next JSON_READSZ bytes into another, behind room for
 * the unfinished token, and the two change places at each refill, so
 * that reading (copying out of the page cache) overlaps tokenizing.
 * Bytes come through input.c, which decompresses gzip and zstd input;
 * compressed input always gets the thread, which then decompresses.
 *
 * Speed: a token normally lies wholly inside the buffer, and json_text()
 * then points straight into it.  A string without escapes is terminated
 * by a NUL over its closing quote; a number by a NUL over the byte after
 * it, which is consumed at once if it is a ',' (the state remembers it),
 * left for the next call if it is a closer (ditto), and otherwise saved
 * and put back by the next call.  Strings with escapes are decoded into
 * a struct buf.  json_next() itself only handles the bulk of a profile,
 * a plain number after a ',' in an array; everything else goes to
 * next_token().  The text of the last token is valid until the next call
 * and always NUL-terminated.
 *
 * Faster still, json_rawarray() hands out the raw bytes of an array of
 * numbers (a speedscope sample) without tokenizing them, and
 * json_rawskip() moves past them in one step; a caller that has seen
 * the same bytes read token by token before knows their values and that
 * they are valid, and so need not read them again.  json_rawarrays()
 * and json_rawtake() do the same for a run of such arrays, as many as
 * the buffer holds.
 *
 * Decisions:
 *  - A UTF-8 byte order mark (EF BB BF) at the very start of the input
 *    is skipped; columns on line 1 are counted after it.
 *  - Bytes >= 0x80 inside strings are passed through unchanged, without
 *    UTF-8 validation: invalid UTF-8 is kept byte for byte, so names in
 *    profiles written by sloppy producers survive intact.  Outside
 *    strings such bytes are an error.
 *  - \uXXXX escapes of a surrogate pair become one 4-byte UTF-8 code
 *    point.  A lone surrogate escape (a high one not followed by a low
 *    one, or a lone low one) is encoded as WTF-8, the 3-byte generalized
 *    UTF-8 form (\ud800 -> ED A0 80), so it round-trips.
 *  - Whitespace is space, tab, CR and LF only.
 *  - Limits: nesting deeper than JSON_MAXDEPTH and tokens longer than
 *    JSON_MAXTOKEN bytes (as written, with quotes) are errors.
 *  - Numbers are checked against the strict grammar; json_double() uses
 *    strtod(3) (or an exact shortcut) and so assumes the C locale's
 *    decimal point.
 *
 * The parts: this file, the input (the buffer, its refills and the
 * reader thread) and the tokenizer's life; jsontok.c, the scanners and
 * json_next(); jsonval.c, the values of tokens and the raw arrays.
 * jsonint.h holds what they share.
 */
#include <sys/stat.h>

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "util.h"
#include "buf.h"
#include "progress.h"
#include "digits.h"
#include "input.h"
#include "jsonint.h"

static struct json *json_new(int, const char *, size_t);
static void	 startahead(struct json *);
static void	*reader(void *);
static int	 swapahead(struct json *);

/* Allocate a tokenizer reading fd (or memory when fd is -1). */
static struct json *
json_new(int fd, const char *name, size_t cap)
{
	struct json *j;

	j = xcalloc(1, sizeof(*j));
	j->fd = fd;
	j->base = -1;
	if (name == NULL || strcmp(name, "-") == 0)
		name = "<stdin>";
	j->name = xstrdup(name);
	j->cap = cap;
	j->buf = xcalloc(1, cap + JSON_PAD);
	j->p = j->end = j->buf;
	j->savep = &j->dummy;
	j->state = S_START;
	j->lt.tok = JT_EOF;
	j->line = 1;
	j->kline = 1;
	j->stack[0] = T_TOP;
	buf_init(&j->tok);
	return j;
}

struct json *
json_open(int fd, const char *name)
{
	struct json *j;
	struct stat st;

	j = json_new(fd, name, JSON_BUFSZ);
	j->base = lseek(fd, 0, SEEK_CUR);
	j->in = input_open(fd);
	if (input_kind(j->in) != IN_PLAIN || fstat(fd, &st) == -1 ||
	    !S_ISREG(st.st_mode))
		j->base = -1;
	if (input_kind(j->in) != IN_PLAIN || (j->base != -1 &&
	    st.st_size > JSON_BUFSZ))
		startahead(j);
	return j;
}

/*
 * Start a reader thread for j, with a buffer of the same size as j's,
 * which grows for the room in front.  Without one, j reads by itself,
 * as it does in the fuzzers' build (SST_ONETHREAD), whose allocator and
 * err() are for one thread.
 */
static void
startahead(struct json *j)
{
	struct ahead *a;

#ifdef SST_ONETHREAD
	(void)j;
	return;
#endif
	a = xcalloc(1, sizeof(*a));
	a->in = j->in;
	a->cap = AHEAD + JSON_READSZ;
	a->buf = xcalloc(1, a->cap + JSON_PAD);
	a->state = A_READ;
	atomic_init(&a->kick, 0);
	j->buf = xreallocarray(j->buf, a->cap + JSON_PAD, 1);
	j->cap = a->cap;
	j->p = j->end = j->buf;
	if (pthread_mutex_init(&a->mu, NULL) != 0 ||
	    pthread_cond_init(&a->cv, NULL) != 0 ||
	    pthread_create(&a->th, NULL, reader, a) != 0) {
		free(a->buf);
		free(a);
		return;
	}
	j->ah = a;
}

/* The reader thread: read a chunk whenever asked to, until stopped. */
static void *
reader(void *arg)
{
	struct ahead *a = arg;
	unsigned char *b;
	ssize_t r;

	pthread_mutex_lock(&a->mu);
	for (;;) {
		while (a->state == A_READY)
			pthread_cond_wait(&a->cv, &a->mu);
		if (a->state == A_STOP)
			break;
		b = a->buf;
		pthread_mutex_unlock(&a->mu);
		r = input_read(a->in, b + AHEAD, JSON_READSZ);
		pthread_mutex_lock(&a->mu);
		a->len = r;
		if (a->state == A_READ)
			a->state = A_READY;
		pthread_cond_broadcast(&a->cv);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

/*
 * Whether a refill of j's reader thread waits for json_kick() (lazy
 * nonzero) rather than being started by the thread that reads the
 * tokens, which the woken reader would take the CPU from: another
 * thread of the program, less pressed, wakes it.  A refill still
 * waiting when its data are needed is started then (swapahead()).
 */
void
json_lazyahead(struct json *j, int lazy)
{
	if (j->ah != NULL)
		j->ah->lazy = lazy;
	if (!lazy)
		json_kick(j);
}

/* Start the refill of j's reader thread that waits, if one does. */
void
json_kick(struct json *j)
{
	struct ahead *a = j->ah;

	if (a == NULL || atomic_load_explicit(&a->kick,
	    memory_order_relaxed) == 0 || atomic_exchange(&a->kick, 0) == 0)
		return;
	pthread_mutex_lock(&a->mu);
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

/*
 * jn_refill() with a reader thread: wait for its chunk, put the unconsumed
 * data in front of it and make that buffer j's, then have the thread
 * read the next chunk into j's old one (shrunk back if a long token
 * grew it).  More unconsumed data than fits in front (a long token) is
 * moved to the front of j's buffer instead, grown for the chunk to be
 * copied behind it, but only up to JSON_MAXTOKEN bytes from p, as the
 * buffer grows without a thread: the rest of the chunk waits for the
 * next refill, and a longer token is one too long in the same place.
 */
static int
swapahead(struct json *j)
{
	struct ahead *a = j->ah;
	unsigned char *b;
	size_t keep, cap, n;
	ssize_t len;

	json_kick(j);
	pthread_mutex_lock(&a->mu);
	while (a->state == A_READ)
		pthread_cond_wait(&a->cv, &a->mu);
	len = a->len;
	/* The thread waits: what it wrote may be read. */
	j->rawpos = input_rawpos(j->in);
	pthread_mutex_unlock(&a->mu);
	if (len == -1)
		return jn_fail(j, j->end, "%s", input_errmsg(j->in));
	keep = j->end - j->p;
	n = len - a->used;
	if (keep <= AHEAD && a->used == 0) {
		memcpy(a->buf + AHEAD - keep, j->p, keep);
		/* Modulo 2^64: OFF() is right for the data from p on. */
		j->boff += j->p - j->buf;
		j->boff -= AHEAD - keep;
		b = j->buf;
		j->buf = a->buf;
		a->buf = b;
		cap = j->cap;
		j->cap = a->cap;
		a->cap = cap;
		j->p = j->buf + AHEAD - keep;
		if (a->cap > AHEAD + JSON_READSZ) {
			a->cap = AHEAD + JSON_READSZ;
			a->buf = xreallocarray(a->buf, a->cap + JSON_PAD, 1);
		}
	} else {
		if (j->p != j->buf)
			memmove(j->buf, j->p, keep);
		j->boff += j->p - j->buf;
		if (n > JSON_MAXTOKEN - keep)
			n = JSON_MAXTOKEN - keep;
		if (keep + n > j->cap) {
			cap = 2 * j->cap < JSON_MAXTOKEN ? 2 * j->cap :
			    JSON_MAXTOKEN;
			j->cap = keep + n > cap ? keep + n : cap;
			j->buf = xreallocarray(j->buf, j->cap + JSON_PAD, 1);
		}
		memcpy(j->buf + keep, a->buf + AHEAD + a->used, n);
		j->p = j->buf;
	}
	j->end = j->p + keep + n;
	memset(j->end, 0, JSON_PAD);
	if (len == 0)
		j->eof = 1;
	else if ((a->used += n) == (size_t)len) {
		a->used = 0;
		pthread_mutex_lock(&a->mu);
		a->state = A_READ;
		if (a->lazy)
			atomic_store(&a->kick, 1);
		else
			pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
	}
	if (j->prog != NULL)
		progress_update(j->prog, input_kind(j->in) == IN_PLAIN ?
		    OFF(j, j->end) : j->rawpos);
	return 0;
}

struct json *
json_open_mem(const void *p, size_t len, const char *name)
{
	struct json *j;
	size_t cap;

	cap = len < JSON_BUFSZ ? len : JSON_BUFSZ;
	if (cap < JSON_MEMBUFSZ)
		cap = JSON_MEMBUFSZ;
	j = json_new(-1, name, cap);
	j->src = j->src0 = p;
	j->srclen = j->srclen0 = len;
	return j;
}

/* Stop and free the reader thread of j, if any. */
void
jn_stopahead(struct json *j)
{
	struct ahead *a;

	if ((a = j->ah) == NULL)
		return;
	json_kick(j);
	pthread_mutex_lock(&a->mu);
	while (a->state == A_READ)
		pthread_cond_wait(&a->cv, &a->mu);
	a->state = A_STOP;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	free(a->buf);
	free(a);
	j->ah = NULL;
}

void
json_close(struct json *j)
{
	if (j == NULL)
		return;
	jn_stopahead(j);
	input_close(j->in);
	buf_free(&j->tok);
	free(j->buf);

	free(j->name);
	free(j);
}

/*
 * Move the unconsumed data (from j->p on) to the front of the buffer,
 * growing it if that data fills it, and read more behind it, setting
 * j->eof at the end of the input.  Returns 0, or -1 on a read error.
 */
int
jn_refill(struct json *j)
{
	size_t keep, n, cap;
	ssize_t r;

	if (j->ah != NULL)
		return swapahead(j);
	keep = j->end - j->p;
	if (j->p != j->buf) {
		memmove(j->buf, j->p, keep);
		j->boff += j->p - j->buf;
		j->p = j->buf;
		j->end = j->buf + keep;
	}
	cap = j->cap;
	if (keep == cap) {
		cap *= 2;
		if (cap > JSON_MAXTOKEN)
			cap = JSON_MAXTOKEN;
	} else if (cap > JSON_BUFSZ && keep < JSON_BUFSZ / 2)
		cap = JSON_BUFSZ;
	if (cap != j->cap) {
		j->buf = xreallocarray(j->buf, cap + JSON_PAD, 1);
		j->cap = cap;
		j->p = j->buf;
		j->end = j->buf + keep;
	}
	n = cap - keep;
	if (j->fd == -1) {
		if (n > j->srclen)
			n = j->srclen;
		if (n > 0)
			memcpy(j->end, j->src, n);
		j->src += n;
		j->srclen -= n;
		r = n;
	} else {
		if ((r = input_read(j->in, j->end, n)) == -1)
			return jn_fail(j, j->end, "%s", input_errmsg(j->in));
		j->rawpos = input_rawpos(j->in);
	}
	if (r == 0)
		j->eof = 1;
	j->end += r;
	memset(j->end, 0, JSON_PAD);
	if (j->prog != NULL)
		progress_update(j->prog, j->in == NULL ||
		    input_kind(j->in) == IN_PLAIN ? OFF(j, j->end) : j->rawpos);
	return 0;
}

/*
 * Read more for the unfinished token at j->p; -1 on error.  Its scanner
 * starts again from the token's start, so a token of a quarter of the
 * buffer or more has what is buffered of it doubled first (up to
 * JSON_MAXTOKEN or the end of the input), however few bytes each read
 * brings (64 KiB from a pipe, a chunk from the reader thread): a long
 * token is scanned about twice its length in all, not once per read.
 */
int
jn_more(struct json *j)
{
	size_t keep = j->end - j->p, want;

	if (keep >= JSON_MAXTOKEN)
		return jn_fail(j, j->p, "token too long");
	want = keep < JSON_BUFSZ / 4 ? keep + 1 : 2 * keep;
	if (want > JSON_MAXTOKEN)
		want = JSON_MAXTOKEN;
	do {
		if (jn_refill(j) == -1)
			return -1;
	} while (!j->eof && (size_t)(j->end - j->p) < want);
	return 0;
}

unsigned long long
json_offset(const struct json *j)
{
	return j->state == S_ERROR ? j->erroff : j->tokoff;
}

unsigned long long
json_line(const struct json *j)
{
	if (j->state != S_ERROR && j->tokoff < j->lineoff)
		return j->kline;
	return j->line;
}

unsigned long long
json_col(const struct json *j)
{
	unsigned long long off;

	off = json_offset(j);
	if (off < j->lineoff)
		return off - j->klineoff + 1;
	return off - j->lineoff + 1;
}

const char *
json_name(const struct json *j)
{
	return j->name;
}

int
json_reread(const struct json *j, off_t *base)
{
	*base = j->base;
	return j->base == -1 ? -1 : j->fd;
}

const char *
json_head(const struct json *j, size_t *n)
{
	if (j->in != NULL)
		return input_head(j->in, n);
	*n = j->srclen0 < INPUT_HEADMAX ? j->srclen0 : INPUT_HEADMAX;
	return (const char *)j->src0;
}

unsigned long long
json_consumed(const struct json *j)
{
	return OFF(j, j->p);
}

void
json_setprogress(struct json *j, struct progress *pr)
{
	j->prog = pr;
}

/* Record an error at q; returns SC_ERR. */
int
jn_fail(struct json *j, const unsigned char *q, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(j->errmsg, sizeof(j->errmsg), fmt, ap);
	va_end(ap);
	j->erroff = OFF(j, q);
	j->state = S_ERROR;
	j->lt.tok = JT_ERROR;
	jn_stopahead(j);
	return SC_ERR;
}

/* The message of the last JT_ERROR. */
const char *
json_errmsg(const struct json *j)
{
	return j->state == S_ERROR ? j->errmsg : "no error";
}

/* Report "prog: NAME:LINE:COL: message" at the last token; exit 1. */
void
xjson_fail(struct json *j, const char *fmt, ...)
{
	va_list ap;

	jn_stopahead(j);
	fflush(stdout);
	progress_hide();
	fprintf(stderr, "%s: %s:%llu:%llu: ", getprogname(), j->name,
	    json_line(j), json_col(j));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}
