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
 * padding lets digits be scanned 8 bytes at a time.  A scanner that
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

#include "sst.h"
#include "digits.h"
#include "input.h"

#define JSON_BUFSZ	(256 * 1024)	/* normal size of the read buffer */
#define JSON_MEMBUFSZ	64		/* smallest buffer for memory input */
#define JSON_PAD	8		/* zero bytes kept after the data */
#define AHEAD		(JSON_BUFSZ / 4)	/* room before a chunk read */
#define JSON_READSZ	(1024 * 1024)	/* a chunk the reader thread reads */

/* Character classes, bits of cls[]. */
#define C_WS	0x01	/* JSON whitespace */
#define C_NUM	0x02	/* may continue a number */
#define C_STR	0x04	/* ends a run of plain string bytes */
#define C_NUL	0x08	/* NUL, possibly the sentinel */

/* Bytes from 0x80 up are all class 0. */
static const unsigned char cls[256] = {
	12, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 4, 4, 5, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	1, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 2, 0,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0,
	0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

#define ISDIGIT(c)	((unsigned)(c) - '0' < 10)

/* What the next token may be. */
enum state {
	S_AFTER,	/* after a value: ',', a closer or the end */
	S_ELEM,		/* after ',' in an array: a value */
	S_KEY,		/* after ',' in an object: a key */
	S_VALUE,	/* after ':': a value */
	S_FIRSTELEM,	/* after '[': a value or ']' */
	S_FIRSTKEY,	/* after '{': a key or '}' */
	S_CLOSE,	/* a ']' or '}' (overwritten by a NUL) is next */
	S_TOP,		/* at the start: the top-level value */
	S_START,	/* nothing read yet */
	S_EOF,		/* JT_EOF was returned */
	S_ERROR		/* JT_ERROR was returned */
};

/* What the reader thread is doing. */
enum { A_READ, A_READY, A_STOP };

/*
 * The reader thread of a big regular file: it reads the next JSON_READSZ
 * bytes (a MB: fewer handovers, each a wakeup) into buf + AHEAD while
 * the tokenizer works on its own buffer, and the two buffers change
 * places at each refill.
 */
struct ahead {
	pthread_t	 th;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	struct input	*in;
	int		 state;
	unsigned char	*buf;
	size_t		 cap;		/* of buf, without the padding */
	ssize_t		 len;		/* what was read, -1 on error */
	size_t		 used;		/* of it, handed out already */
	int		 lazy;		/* a refill waits for json_kick() */
	atomic_int	 kick;		/* a refill is waiting */
};

/* Container types on the stack; stack[0] is the top level. */
enum { T_TOP, T_ARR, T_OBJ };

/* Results of the token scanners: error, done, need more input. */
enum { SC_ERR = -1, SC_OK, SC_MORE };

struct json {
	unsigned char	*p;		/* scan position */
	unsigned char	*end;		/* end of the data, *end == 0 */
	unsigned char	*buf;		/* cap + JSON_PAD bytes */
	size_t		 cap;
	unsigned long long boff;	/* input offset of buf[0] */
	unsigned char	*savep;		/* byte replaced by the NUL after */
	unsigned char	 savec;		/* a number, and its value */
	unsigned char	 dummy;		/* savep when there is none */
	int		 eof;
	enum state	 state;
	int		 depth;
	enum json_tok	 last;
	int		 isint;		/* last number is an integer: 1, or -1
					   if negative; 0 if not */
	uint64_t	 digits;	/* its first 8 bytes of digits, xor '0' */
	const char	*text;
	size_t		 textlen;
	unsigned long long tokoff;	/* offset of the last token */
	unsigned long long line;	/* current line number */
	unsigned long long lineoff;	/* offset where it starts */
	unsigned long long kline;	/* line of the last key */
	unsigned long long klineoff;
	unsigned long long erroff;	/* offset of the error */
	int		 fd;		/* -1 for memory input */
	off_t		 base;		/* fd's offset of byte 0, or -1 */
	struct input	*in;		/* NULL for memory input */
	unsigned long long rawpos;	/* bytes of the file read, if known */
	struct ahead	*ah;		/* the reader thread, or NULL */
	const unsigned char *src;	/* memory input not yet buffered */
	size_t		 srclen;
	const unsigned char *src0;	/* all of the memory input */
	size_t		 srclen0;
	char		*name;
	struct progress	*prog;		/* told the bytes read, or NULL */
	struct buf	 tok;		/* decoded strings */
	char		 errmsg[128];
	unsigned char	 stack[JSON_MAXDEPTH + 1];
};

static struct json *json_new(int, const char *, size_t);
static int	 refill(struct json *);
static void	*reader(void *);
static void	 startahead(struct json *);
static int	 swapahead(struct json *);
static void	 stopahead(struct json *);
static int	 more(struct json *);
static int	 fail(struct json *, const unsigned char *, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));
static int	 unexpected(struct json *, const unsigned char *);
static int	 start(struct json *);
static int	 hexval(const unsigned char *, unsigned long *);
static size_t	 ndigits(const unsigned char *);
static void	 put_utf8(struct buf *, unsigned long);
static int	 scan_number(struct json *, unsigned char *, unsigned char **);
static int	 scan_string(struct json *, unsigned char *, unsigned char **);
static int	 scan_escaped(struct json *, unsigned char *, unsigned char *,
		    unsigned char **);
static int	 scan_literal(struct json *, unsigned char *, const char *);
static enum json_tok key_colon(struct json *, unsigned char *,
		    unsigned char *);
static enum json_tok next_token(struct json *);
static int	 atelem(const struct json *);

/* Input offset of a pointer into the buffer. */
#define OFF(j, q)	((j)->boff + (unsigned long long)((q) - (j)->buf))

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
	j->last = JT_EOF;
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
 * which grows for the room in front.  Without one, j reads by itself.
 */
static void
startahead(struct json *j)
{
	struct ahead *a;

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
 * refill() with a reader thread: wait for its chunk, put the unconsumed
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
		return fail(j, j->end, "%s", input_errmsg(j->in));
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
static void
stopahead(struct json *j)
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
	stopahead(j);
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
static int
refill(struct json *j)
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
			return fail(j, j->end, "%s", input_errmsg(j->in));
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
static int
more(struct json *j)
{
	size_t keep = j->end - j->p, want;

	if (keep >= JSON_MAXTOKEN)
		return fail(j, j->p, "token too long");
	want = keep < JSON_BUFSZ / 4 ? keep + 1 : 2 * keep;
	if (want > JSON_MAXTOKEN)
		want = JSON_MAXTOKEN;
	do {
		if (refill(j) == -1)
			return -1;
	} while (!j->eof && (size_t)(j->end - j->p) < want);
	return 0;
}

/* Record an error at q; returns SC_ERR. */
static int
fail(struct json *j, const unsigned char *q, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(j->errmsg, sizeof(j->errmsg), fmt, ap);
	va_end(ap);
	j->erroff = OFF(j, q);
	j->state = S_ERROR;
	j->last = JT_ERROR;
	stopahead(j);
	return SC_ERR;
}

/* Record an error for a byte that cannot start what is expected. */
static int
unexpected(struct json *j, const unsigned char *q)
{
	if (q == j->end)
		return fail(j, q, "unexpected end of input");
	if (*q >= 0x20 && *q < 0x7f)
		return fail(j, q, "unexpected character '%c'", *q);
	return fail(j, q, "unexpected byte 0x%02x", *q);
}

/* Read the first bytes and skip a UTF-8 byte order mark. */
static int
start(struct json *j)
{
	while (j->end - j->p < 3 && !j->eof)
		if (refill(j) == -1)
			return -1;
	if (j->p[0] == 0xef && j->p[1] == 0xbb && j->p[2] == 0xbf) {
		j->p += 3;
		j->lineoff = 3;
	}
	j->state = S_TOP;
	return 0;
}

/* Value of up to 4 hex digits at s; returns how many there were. */
static int
hexval(const unsigned char *s, unsigned long *v)
{
	unsigned long x;
	int i, c;

	x = 0;
	for (i = 0; i < 4; i++) {
		c = s[i];
		if (ISDIGIT(c))
			c -= '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			c = (c | 0x20) - 'a' + 10;
		else
			break;
		x = x << 4 | c;
	}
	*v = x;
	return i;
}

/* Append code point cp as UTF-8 (surrogates as WTF-8). */
static void
put_utf8(struct buf *b, unsigned long cp)
{
	char s[4];

	if (cp < 0x80) {
		buf_addc(b, (int)cp);
	} else if (cp < 0x800) {
		s[0] = 0xc0 | cp >> 6;
		s[1] = 0x80 | (cp & 0x3f);
		buf_add(b, s, 2);
	} else if (cp < 0x10000) {
		s[0] = 0xe0 | cp >> 12;
		s[1] = 0x80 | (cp >> 6 & 0x3f);
		s[2] = 0x80 | (cp & 0x3f);
		buf_add(b, s, 3);
	} else {
		s[0] = 0xf0 | cp >> 18;
		s[1] = 0x80 | (cp >> 12 & 0x3f);
		s[2] = 0x80 | (cp >> 6 & 0x3f);
		s[3] = 0x80 | (cp & 0x3f);
		buf_add(b, s, 4);
	}
}

/*
 * Count the digits at q, 8 bytes at a time without a branch per byte.
 * The NUL sentinel and the zero padding after it keep the loads inside
 * the buffer.
 */
static inline size_t
ndigits(const unsigned char *q)
{
	uint64_t m;
	size_t n;

	for (n = 0;; n += 8)
		if ((m = nondigits(load64(q + n))) != 0)
			return n + (__builtin_ctzll(m) >> 3);
}

/*
 * Scan the number at p against the strict grammar; on success *qp is
 * just past it.  A number must not run on into more number characters
 * ("01", "1.2.3", "1e5e5" are invalid numbers, not two tokens).
 */
static inline int
scan_number(struct json *j, unsigned char *p, unsigned char **qp)
{
	unsigned char *q;
	uint64_t w, m;
	size_t n;
	int isint;

	q = p + (*p == '-');
	/* ndigits() inline, keeping the digits of short integers. */
	w = load64(q);
	m = nondigits(w);
	n = m != 0 ? (size_t)__builtin_ctzll(m) >> 3 : 8 + ndigits(q + 8);
	j->digits = w ^ ZEROS;
	if (n == 0)
		goto bad;
	if (*q == '0' && n > 1) {
		q++;
		goto bad;
	}
	q += n;
	isint = *p == '-' ? -1 : 1;
	if (*q == '.') {
		isint = 0;
		q++;
		if ((n = ndigits(q)) == 0)
			goto bad;
		q += n;
	}
	if ((*q | 0x20) == 'e') {
		isint = 0;
		q++;
		if (*q == '+' || *q == '-')
			q++;
		if ((n = ndigits(q)) == 0)
			goto bad;
		q += n;
	}
	if (cls[*q] & C_NUM)
		goto bad;
	if (q == j->end && !j->eof)
		return SC_MORE;
	j->isint = isint;
	*qp = q;
	return SC_OK;
bad:
	if (q == j->end) {
		if (!j->eof)
			return SC_MORE;
		return fail(j, q, "unexpected end of input");
	}
	return fail(j, q, "invalid number");
}

/*
 * Scan the string whose opening quote is at p; on success j->text is
 * its decoded text and *qp is just past the closing quote.
 */
static inline int
scan_string(struct json *j, unsigned char *p, unsigned char **qp)
{
	unsigned char *q;

	q = p + 1;
	while (!(cls[*q] & C_STR))
		q++;
	if (*q != '"')
		return scan_escaped(j, p, q, qp);
	j->text = (char *)p + 1;
	j->textlen = q - p - 1;
	*q = '\0';
	*qp = q + 1;
	return SC_OK;
}

/*
 * The slower part of scan_string: decode the string at p into j->tok,
 * going on from q, the first byte that is not a plain string byte.
 */
static int
scan_escaped(struct json *j, unsigned char *p, unsigned char *q,
    unsigned char **qp)
{
	struct buf *b;
	unsigned char *r;
	unsigned long cp, lo;
	int n, c;

	b = &j->tok;
	buf_reset(b);
	r = p + 1;
	for (;;) {
		while (!(cls[*q] & C_STR))
			q++;
		buf_add(b, r, q - r);
		if (*q == '"')
			break;
		if (*q != '\\') {
			if (q != j->end)
				return fail(j, q, "control character in string");
			if (!j->eof)
				return SC_MORE;
			return fail(j, q, "unexpected end of input");
		}
		/* Have the longest escape (\uXXXX) in the buffer. */
		if (j->end - q < 6 && !j->eof)
			return SC_MORE;
		switch (c = q[1]) {
		case '"':
		case '\\':
		case '/':
			break;
		case 'b':
			c = '\b';
			break;
		case 'f':
			c = '\f';
			break;
		case 'n':
			c = '\n';
			break;
		case 'r':
			c = '\r';
			break;
		case 't':
			c = '\t';
			break;
		case 'u':
			if ((n = hexval(q + 2, &cp)) < 4) {
				if (q + 2 + n == j->end)
					return fail(j, q + 2 + n,
					    "unexpected end of input");
				return fail(j, q + 2 + n,
				    "invalid \\u escape");
			}
			q += 6;
			if (cp >= 0xd800 && cp < 0xdc00) {
				/* A low surrogate escape may follow. */
				if (j->end - q < 6 && !j->eof)
					return SC_MORE;
				if (q[0] == '\\' && q[1] == 'u' &&
				    hexval(q + 2, &lo) == 4 &&
				    lo >= 0xdc00 && lo < 0xe000) {
					cp = 0x10000 + ((cp - 0xd800) << 10) +
					    (lo - 0xdc00);
					q += 6;
				}
			}
			put_utf8(b, cp);
			r = q;
			continue;
		default:
			if (q + 1 == j->end)
				return fail(j, q + 1, "unexpected end of input");
			return fail(j, q + 1, "invalid escape");
		}
		buf_addc(b, c);
		q += 2;
		r = q;
	}
	j->text = b->data;
	j->textlen = b->len;
	*qp = q + 1;
	return SC_OK;
}

/* Check that the literal lit is at p. */
static int
scan_literal(struct json *j, unsigned char *p, const char *lit)
{
	size_t i;

	for (i = 0; lit[i] != '\0'; i++) {
		if (p[i] == (unsigned char)lit[i])
			continue;
		if (p + i != j->end)
			return fail(j, p + i, "invalid literal");
		if (!j->eof)
			return SC_MORE;
		return fail(j, p + i, "unexpected end of input");
	}
	return SC_OK;
}

/*
 * After a key that ends before q, consume whitespace and the ':'.  The
 * key text is copied out of the buffer when more input must be read.
 */
static enum json_tok
key_colon(struct json *j, unsigned char *p, unsigned char *q)
{
	j->tokoff = OFF(j, p);
	j->kline = j->line;
	j->klineoff = j->lineoff;
	for (;;) {
		while (cls[*q] & C_WS) {
			if (*q == '\n') {
				j->line++;
				j->lineoff = OFF(j, q) + 1;
			}
			q++;
		}
		if (q != j->end || j->eof)
			break;
		if (j->text != j->tok.data) {
			buf_reset(&j->tok);
			buf_add(&j->tok, j->text, j->textlen);
			j->text = j->tok.data;
		}
		j->p = q;
		if (refill(j) == -1)
			return JT_ERROR;
		q = j->p;
	}
	if (*q != ':') {
		if (q == j->end)
			fail(j, q, "unexpected end of input");
		else
			fail(j, q, "expected ':'");
		return JT_ERROR;
	}
	j->p = q + 1;
	j->state = S_VALUE;
	j->last = JT_KEY;
	return JT_KEY;
}

/*
 * The next token, for every case.  (json_next() handles the commonest
 * one itself and calls this for the rest.)
 */
static enum json_tok
next_token(struct json *j)
{
	unsigned char *p, *q;
	enum json_tok tok;
	int c, t, rc;

	*j->savep = j->savec;
	j->savep = &j->dummy;
	if (j->state >= S_START) {
		if (j->state == S_EOF)
			return JT_EOF;
		if (j->state == S_ERROR || start(j) == -1)
			return JT_ERROR;
	}
	p = j->p;
ws:
	while (cls[*p] & C_WS) {
		if (*p == '\n') {
			j->line++;
			j->lineoff = OFF(j, p) + 1;
		}
		p++;
	}
	if (p == j->end && !j->eof) {
		j->p = p;
		if (refill(j) == -1)
			return JT_ERROR;
		p = j->p;
		goto ws;
	}
	c = *p;
	switch (j->state) {
	case S_AFTER:
		t = j->stack[j->depth];
		if (c == ',' && t != T_TOP) {
			p++;
			if (t == T_OBJ) {
				j->state = S_KEY;
				goto ws;
			}
			j->state = S_ELEM;
			c = *p;
			if (cls[c] & (C_WS | C_NUL))
				goto ws;
			goto value;
		}
		if ((c == ']' && t == T_ARR) || (c == '}' && t == T_OBJ))
			goto close;
		if (t == T_TOP) {
			if (p != j->end) {
				fail(j, p, "trailing data after JSON value");
				return JT_ERROR;
			}
			j->tokoff = OFF(j, p);
			j->p = p;
			j->state = S_EOF;
			j->last = JT_EOF;
			return JT_EOF;
		}
		if (p == j->end)
			unexpected(j, p);
		else
			fail(j, p, "expected ',' or '%c'", t == T_ARR ? ']' : '}');
		return JT_ERROR;
	case S_FIRSTELEM:
		if (c == ']')
			goto close;
		goto value;
	case S_FIRSTKEY:
		if (c == '}')
			goto close;
		goto key;
	case S_KEY:
		goto key;
	case S_CLOSE:
		c = j->stack[j->depth] == T_ARR ? ']' : '}';
		goto close;
	default:
		goto value;
	}

value:
	switch (c) {
	case '-':
	case '0':
	case '1':
	case '2':
	case '3':
	case '4':
	case '5':
	case '6':
	case '7':
	case '8':
	case '9':
		if ((rc = scan_number(j, p, &q)) != SC_OK)
			break;
		j->tokoff = OFF(j, p);
		j->text = (char *)p;
		j->textlen = q - p;
		j->last = JT_NUM;
		/*
		 * NUL-terminate the text.  A ',' or closer right after the
		 * number is consumed now, as the state remembers it; any
		 * other byte is saved and put back by the next call.
		 */
		c = *q;
		t = j->stack[j->depth];
		if (c == ',' && t != T_TOP) {
			j->state = t == T_ARR ? S_ELEM : S_KEY;
			j->p = q + 1;
		} else if ((c == ']' && t == T_ARR) ||
		    (c == '}' && t == T_OBJ)) {
			j->state = S_CLOSE;
			j->p = q;
		} else {
			j->savep = q;
			j->savec = c;
			j->state = S_AFTER;
			j->p = q;
		}
		*q = '\0';
		return JT_NUM;
	case '"':
		if ((rc = scan_string(j, p, &q)) != SC_OK)
			break;
		tok = JT_STR;
		goto done;
	case '[':
	case '{':
		if (j->depth == JSON_MAXDEPTH) {
			fail(j, p, "nesting too deep");
			return JT_ERROR;
		}
		if (c == '[') {
			j->stack[++j->depth] = T_ARR;
			j->state = S_FIRSTELEM;
			tok = JT_ARR;
		} else {
			j->stack[++j->depth] = T_OBJ;
			j->state = S_FIRSTKEY;
			tok = JT_OBJ;
		}
		j->tokoff = OFF(j, p);
		j->p = p + 1;
		j->last = tok;
		return tok;
	case 't':
		rc = scan_literal(j, p, "true");
		q = p + 4;
		tok = JT_TRUE;
		break;
	case 'f':
		rc = scan_literal(j, p, "false");
		q = p + 5;
		tok = JT_FALSE;
		break;
	case 'n':
		rc = scan_literal(j, p, "null");
		q = p + 4;
		tok = JT_NULL;
		break;
	default:
		if (p == j->end && j->state == S_TOP)
			fail(j, p, "empty input");
		else if (c == ']' && j->state == S_ELEM)
			fail(j, p, "trailing comma");
		else
			unexpected(j, p);
		return JT_ERROR;
	}
	if (rc == SC_OK)
		goto done;
	if (rc == SC_ERR)
		return JT_ERROR;
	j->p = p;
	if (more(j) == -1)
		return JT_ERROR;
	p = j->p;
	c = *p;
	goto value;

done:
	j->tokoff = OFF(j, p);
	j->p = q;
	j->state = S_AFTER;
	j->last = tok;
	return tok;

close:
	j->depth--;
	j->tokoff = OFF(j, p);
	j->p = p + 1;
	j->state = S_AFTER;
	j->last = c == ']' ? JT_ARR_END : JT_OBJ_END;
	return j->last;

key:
	if (c != '"') {
		if (c == '}' && j->state == S_KEY)
			fail(j, p, "trailing comma");
		else if (p == j->end)
			unexpected(j, p);
		else
			fail(j, p, "expected string key");
		return JT_ERROR;
	}
	if ((rc = scan_string(j, p, &q)) == SC_OK)
		return key_colon(j, p, q);
	if (rc == SC_ERR)
		return JT_ERROR;
	j->p = p;
	if (more(j) == -1)
		return JT_ERROR;
	p = j->p;
	c = *p;
	goto key;
}

/*
 * The fast path: a '[' or a number after a ',' in an array, the number
 * with no sign, up to 7 integer digits, maybe a fraction of up to 7
 * digits and no exponent, wholly inside the buffer (the bulk of a
 * speedscope file: samples, frame indexes and weights).  It must agree
 * exactly with the general path in next_token().  In state S_ELEM no
 * saved byte is pending.
 */
enum json_tok
json_next(struct json *j)
{
	unsigned char *p, *q;
	uint64_t w, m;
	size_t n;
	int isint;

	p = j->p;
	if (j->state != S_ELEM)
		return next_token(j);
	if (*p == '[' && j->depth < JSON_MAXDEPTH) {
		j->stack[++j->depth] = T_ARR;
		j->state = S_FIRSTELEM;
		j->tokoff = OFF(j, p);
		j->p = p + 1;
		j->last = JT_ARR;
		return JT_ARR;
	}
	if (!ISDIGIT(*p))
		return next_token(j);
	w = load64(p);
	if ((m = nondigits(w)) == 0)
		return next_token(j);
	n = (size_t)__builtin_ctzll(m) >> 3;
	q = p + n;
	isint = 1;
	if (*q == '.' && ISDIGIT(q[1])) {
		if ((m = nondigits(load64(q + 1))) == 0)
			return next_token(j);
		q += 1 + (__builtin_ctzll(m) >> 3);
		isint = 0;
	}
	/* Leave "01", "1.", exponents, the end of data etc. to it. */
	if ((*p == '0' && n > 1) || (cls[*q] & (C_NUM | C_NUL)))
		return next_token(j);
	j->tokoff = OFF(j, p);
	j->text = (char *)p;
	j->textlen = q - p;
	j->isint = isint;
	j->digits = w ^ ZEROS;
	j->last = JT_NUM;
	if (*q == ',')
		j->p = q + 1;
	else if (*q == ']') {
		j->state = S_CLOSE;
		j->p = q;
	} else {
		j->savep = q;
		j->savec = *q;
		j->state = S_AFTER;
		j->p = q;
	}
	*q = '\0';
	return JT_NUM;
}

/*
 * The bytes of the array just opened, up to the first ']' after it (the
 * array's own ']' if its elements are numbers), found by memchr(3).
 * They must be in the buffer, which is refilled while the data ends
 * before a ']'; more than half the buffer is left to json_next().  The
 * tokenizer does not move.
 */
int
json_rawarray(struct json *j, const char **sp, size_t *lenp)
{
	unsigned char *q;
	size_t n;

	if (j->state != S_FIRSTELEM || j->last != JT_ARR)
		return -1;
	for (n = 0;;) {
		if ((q = memchr(j->p + n, ']', j->end - j->p - n)) != NULL)
			break;
		n = j->end - j->p;
		if (j->eof || n >= (j->ah != NULL ? AHEAD : j->cap / 2) ||
		    refill(j) == -1)
			return -1;
	}
	*sp = (const char *)j->p;
	*lenp = q - j->p;
	return 0;
}

/*
 * Move past the ']' that ends the raw text of len bytes given by
 * json_rawarray(), as the tokens up to that JT_ARR_END would have, and
 * past a ',' right after it, as after a number.  No newline is skipped,
 * so the line count stays right.
 */
int
json_rawskip(struct json *j, size_t len)
{
	unsigned char *q;
	int t;

	if (j->state != S_FIRSTELEM || j->last != JT_ARR ||
	    (size_t)(j->end - j->p) <= len || j->p[len] != ']')
		return -1;
	q = j->p + len;
	t = j->stack[--j->depth];
	j->tokoff = OFF(j, q);
	j->last = JT_ARR_END;
	if (q[1] == ',' && t != T_TOP) {
		j->state = t == T_ARR ? S_ELEM : S_KEY;
		j->p = q + 2;
	} else {
		j->state = S_AFTER;
		j->p = q + 1;
	}
	return 0;
}

/* Whether the tokenizer is where an element of an array is next. */
static int
atelem(const struct json *j)
{
	return j->state == S_ELEM || (j->state == S_FIRSTELEM &&
	    j->last == JT_ARR);
}

/*
 * The arrays from the tokenizer's place on, in an array: each '[', its
 * bytes up to the first ']', found as they are hashed (ht_hashto()),
 * then ",[" before the next one.  What comes after the last one's ']'
 * is left to the tokens.
 */
size_t
json_rawarrays(struct json *j, struct json_raw *r, size_t max)
{
	unsigned char *p = j->p, *q;
	size_t n = 0, len;
	uint64_t h;

	if (!atelem(j) || j->stack[j->depth] != T_ARR ||
	    j->depth >= JSON_MAXDEPTH || *p != '[')
		return 0;
	while (n < max && (h = ht_hashto(p + 1, j->end, ']', &len),
	    len != SIZE_MAX)) {
		q = p + 1 + len;
		r[n].p = (const char *)p + 1;
		r[n].len = len;
		r[n].hash = h;
		n++;
		if (q[1] != ',' || q[2] != '[')
			break;
		p = q + 2;
	}
	return n;
}

/*
 * Move past arrays r[0..n) given by json_rawarrays(), as json_rawskip()
 * does past one, or -1 if r is not where the tokenizer is.
 */
int
json_rawtake(struct json *j, const struct json_raw *r, size_t n)
{
	unsigned char *q;

	if (n == 0)
		return 0;
	if (!atelem(j) || (const unsigned char *)r[0].p != j->p + 1)
		return -1;
	q = (unsigned char *)r[n - 1].p + r[n - 1].len;
	j->tokoff = OFF(j, q);
	j->last = JT_ARR_END;
	if (q[1] == ',') {
		j->state = S_ELEM;
		j->p = q + 2;
	} else {
		j->state = S_AFTER;
		j->p = q + 1;
	}
	return 0;
}

/*
 * The offset, line and column of the '[' of array r given by
 * json_rawarrays(), if those before it have no newline.
 */
unsigned long long
json_rawplace(const struct json *j, const struct json_raw *r,
    unsigned long long *line, unsigned long long *col)
{
	unsigned long long off;

	off = OFF(j, (const unsigned char *)r->p - 1);
	*line = j->line;
	*col = off - j->lineoff + 1;
	return off;
}

/*
 * The number's text is in the buffer right before its ',' (made a NUL
 * by next_token()), and the elements after it are compared where they
 * are: 8 bytes at once when the text and its ',' fit in them (the
 * buffer's JSON_PAD bytes let 8 be read at its end).
 */
size_t
json_skipsame(struct json *j, size_t max)
{
	const unsigned char *p = j->p, *t;
	size_t n = 0, len = j->textlen, step = len + 1;
	uint64_t want, mask, v;
	unsigned char m[8];

	if (j->last != JT_NUM || j->state != S_ELEM || len == 0 ||
	    j->stack[j->depth] != T_ARR)
		return 0;
	t = (const unsigned char *)j->text;
	if (step <= 8) {
		want = 0;
		memcpy(&want, t, len);
		((unsigned char *)&want)[len] = ',';
		memset(m, 0, sizeof(m));
		memset(m, 0xff, step);
		memcpy(&mask, m, sizeof(mask));
		while (n < max && (size_t)(j->end - p) >= step) {
			memcpy(&v, p, 8);
			if (((v ^ want) & mask) != 0)
				break;
			p += step;
			n++;
		}
	} else
		while (n < max && (size_t)(j->end - p) >= step &&
		    memcmp(p, t, len) == 0 && p[len] == ',') {
			p += step;
			n++;
		}
	if (n > 0) {
		j->tokoff = OFF(j, p - step);
		j->p = (unsigned char *)p;
	}
	return n;
}

const char *
json_text(const struct json *j, size_t *lenp)
{
	const char *s;
	size_t len;

	switch (j->last) {
	case JT_KEY:
	case JT_STR:
	case JT_NUM:
		s = j->text;
		len = j->textlen;
		break;
	default:
		s = "";
		len = 0;
		break;
	}
	if (lenp != NULL)
		*lenp = len;
	return s;
}

int
json_depth(const struct json *j)
{
	return j->depth;
}

int
json_double(const struct json *j, double *dp)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
		1e11, 1e12, 1e13, 1e14, 1e15
	};
	const unsigned char *s;
	uint64_t m;
	size_t i, n;
	int neg, dot, nd, fd;
	double d;

	if (j->last != JT_NUM)
		return -1;
	s = (const unsigned char *)j->text;
	neg = *s == '-';
	s += neg;
	n = j->textlen - neg;
	/*
	 * Short decimals without an exponent (weights like 0.001): with at
	 * most 15 digits the digits m and the power of ten are exact
	 * doubles, so m / 10^k is correctly rounded, just as strtod()'s
	 * result, and much faster.  Not where doubles are computed with
	 * excess precision (x87), which would round twice.
	 */
	if (FLT_EVAL_METHOD == 0 && n <= 16) {
		m = 0;
		dot = nd = fd = 0;
		for (i = 0; i < n; i++) {
			if (ISDIGIT(s[i])) {
				m = m * 10 + (s[i] - '0');
				nd++;
				fd += dot;
			} else if (s[i] == '.')
				dot = 1;
			else
				break;
		}
		if (i == n && nd <= 15) {
			d = (double)m / pow10[fd];
			*dp = neg ? -d : d;
			return 0;
		}
	}
	d = strtod(j->text, NULL);
	if (isinf(d))
		return -1;
	*dp = d;
	return 0;
}

int
json_int(const struct json *j, long long *vp)
{
	const unsigned char *s;
	unsigned long long u, lim;
	size_t n;
	unsigned d;
	int neg;

	if (j->last != JT_NUM || j->isint == 0)
		return -1;
	neg = j->isint < 0;
	s = (const unsigned char *)j->text + neg;
	n = j->textlen - neg;
	if (n <= 8) {
		/*
		 * Up to 8 digits, kept by the scanner (reading them back
		 * from the buffer would stall on the NUL just stored after
		 * them).
		 */
		u = digitsval(j->digits, n);
	} else {
		lim = (unsigned long long)LLONG_MAX + neg;
		for (u = 0; n > 0; n--) {
			d = *s++ - '0';
			if (u > (lim - d) / 10)
				return -1;
			u = u * 10 + d;
		}
	}
	if (!neg)
		*vp = (long long)u;
	else if (u == 0)
		*vp = 0;
	else
		*vp = -(long long)(u - 1) - 1;
	return 0;
}

/*
 * Skip the rest of the value whose first token tok was just returned;
 * after a JT_KEY, skip the member's value.  Returns 0, or -1 on error.
 */
int
json_skip(struct json *j, enum json_tok tok)
{
	int depth;

	if (tok == JT_KEY)
		tok = json_next(j);
	if (tok == JT_ERROR)
		return -1;
	if (tok != JT_OBJ && tok != JT_ARR)
		return 0;
	depth = j->depth - 1;
	for (;;) {
		switch (json_next(j)) {
		case JT_ERROR:
		case JT_EOF:
			return -1;
		case JT_OBJ_END:
		case JT_ARR_END:
			if (j->depth == depth)
				return 0;
			break;
		default:
			break;
		}
	}
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

const char *
json_errmsg(const struct json *j)
{
	return j->state == S_ERROR ? j->errmsg : "no error";
}

void
json_fail(struct json *j, const char *fmt, ...)
{
	va_list ap;

	stopahead(j);
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
