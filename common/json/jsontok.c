/*
 * jsontok.c: the tokens of the JSON tokenizer (json.c): the scanners of
 * numbers, strings and literals (escapes in jsonesc.c), next_token() (a
 * dispatcher by state to one function per kind of token) and
 * json_next(), the fast path for the bulk of a profile, which must agree
 * with it exactly.
 */
#include <sys/stat.h>

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "buf.h"
#include "progress.h"
#include "json.h"
#include "digits.h"
#include "input.h"
#include "jsonint.h"

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

static int	 unexpected(struct json *, const unsigned char *);
static int	 start(struct json *);
static size_t	 ndigits(const unsigned char *);
static int	 scan_number(struct json *, unsigned char *, unsigned char **);
static int	 scan_string(struct json *, unsigned char *, unsigned char **);
static int	 scan_literal(struct json *, unsigned char *, const char *);
static enum json_tok key_colon(struct json *, unsigned char *,
		    unsigned char *);
static enum json_tok next_token(struct json *);

/* Record an error for a byte that cannot start what is expected. */
static int
unexpected(struct json *j, const unsigned char *q)
{
	if (q == j->end)
		return jn_fail(j, q, "unexpected end of input");
	if (*q >= 0x20 && *q < 0x7f)
		return jn_fail(j, q, "unexpected character '%c'", *q);
	return jn_fail(j, q, "unexpected byte 0x%02x", *q);
}

/* Read the first bytes and skip a UTF-8 byte order mark. */
static int
start(struct json *j)
{
	while (j->end - j->p < 3 && !j->eof)
		if (jn_refill(j) == -1)
			return -1;
	if (j->p[0] == 0xef && j->p[1] == 0xbb && j->p[2] == 0xbf) {
		j->p += 3;
		j->lineoff = 3;
	}
	j->state = S_TOP;
	return 0;
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
		return jn_fail(j, q, "unexpected end of input");
	}
	return jn_fail(j, q, "invalid number");
}

/*
 * The first byte from q that is not a plain string byte (a '"', '\\' or
 * control character: C_STR).  With SSE2, 16 bytes at a time: one
 * well-predicted branch per 16 bytes rather than a loop whose exit (a
 * mispredicted branch) comes after a few bytes of a trace's short
 * strings.  The NUL sentinel stops the scan, and the JSON_PAD zero bytes
 * after it keep the loads inside the buffer.
 */
static inline unsigned char *
plainb(unsigned char *q)
{
#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"'), bsl = _mm_set1_epi8('\\');
	const __m128i ctl = _mm_set1_epi8(0x1f);
	__m128i v;
	unsigned m;

	for (;; q += 16) {
		v = _mm_loadu_si128((const __m128i *)(void *)q);
		m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(
		    _mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bsl)),
		    _mm_cmpeq_epi8(_mm_max_epu8(v, ctl), ctl)));
		if (m != 0)
			return q + __builtin_ctz(m);
	}
#else
	while (!(cls[*q] & C_STR))
		q++;
	return q;
#endif
}

/*
 * Scan the string whose opening quote is at p; on success j->lt.text is
 * its decoded text and *qp is just past the closing quote.
 */
static inline int
scan_string(struct json *j, unsigned char *p, unsigned char **qp)
{
	unsigned char *q;

	q = plainb(p + 1);
	if (*q != '"')
		return jn_escaped(j, p, q, qp);
	j->lt.text = (char *)p + 1;
	j->lt.textlen = q - p - 1;
	*q = '\0';
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
			return jn_fail(j, p + i, "invalid literal");
		if (!j->eof)
			return SC_MORE;
		return jn_fail(j, p + i, "unexpected end of input");
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
		if (j->lt.text != j->tok.data) {
			buf_reset(&j->tok);
			buf_add(&j->tok, j->lt.text, j->lt.textlen);
			j->lt.text = j->tok.data;
		}
		j->p = q;
		if (jn_refill(j) == -1)
			return JT_ERROR;
		q = j->p;
	}
	if (*q != ':') {
		if (q == j->end)
			jn_fail(j, q, "unexpected end of input");
		else
			jn_fail(j, q, "expected ':'");
		return JT_ERROR;
	}
	j->p = q + 1;
	j->state = S_VALUE;
	j->lt.tok = JT_KEY;
	return JT_KEY;
}

/*
 * Past the whitespace from p, refilling the buffer at its end: the
 * first other byte, or NULL on a read error.
 */
static inline unsigned char *
skipws(struct json *j, unsigned char *p)
{
	for (;;) {
		while (cls[*p] & C_WS) {
			if (*p == '\n') {
				j->line++;
				j->lineoff = OFF(j, p) + 1;
			}
			p++;
		}
		if (p != j->end || j->eof)
			return p;
		j->p = p;
		if (jn_refill(j) == -1)
			return NULL;
		p = j->p;
	}
}

/* The token of the text p..q just scanned (a string or a literal). */
static inline enum json_tok
tok_done(struct json *j, unsigned char *p, unsigned char *q,
    enum json_tok tok)
{
	j->tokoff = OFF(j, p);
	j->p = q;
	j->state = S_AFTER;
	j->lt.tok = tok;
	return tok;
}

/* The closer c (']' or '}') at p. */
static inline enum json_tok
tok_close(struct json *j, unsigned char *p, int c)
{
	j->depth--;
	j->tokoff = OFF(j, p);
	j->p = p + 1;
	j->state = S_AFTER;
	j->lt.tok = c == ']' ? JT_ARR_END : JT_OBJ_END;
	return j->lt.tok;
}

/*
 * The number p..q just scanned, its text NUL-terminated.  A ',' or
 * closer right after the number is consumed now, as the state
 * remembers it; any other byte is saved and put back by the next call.
 */
static inline enum json_tok
tok_number(struct json *j, unsigned char *p, unsigned char *q)
{
	int c, t;

	j->tokoff = OFF(j, p);
	j->lt.text = (char *)p;
	j->lt.textlen = q - p;
	j->lt.tok = JT_NUM;
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
}

/* The opener c ('[' or '{') at p. */
static inline enum json_tok
tok_open(struct json *j, unsigned char *p, int c)
{
	enum json_tok tok;

	if (j->depth == JSON_MAXDEPTH) {
		jn_fail(j, p, "nesting too deep");
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
	j->lt.tok = tok;
	return tok;
}

/*
 * A value at p: a number, string, array, object or literal; one cut by
 * the end of the buffer is scanned again once jn_more() has read on.
 */
static enum json_tok
tok_value(struct json *j, unsigned char *p)
{
	unsigned char *q;
	enum json_tok tok;
	int rc;

	for (;;) {
		switch (*p) {
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
			if ((rc = scan_number(j, p, &q)) == SC_OK)
				return tok_number(j, p, q);
			break;
		case '"':
			rc = scan_string(j, p, &q);
			tok = JT_STR;
			break;
		case '[':
		case '{':
			return tok_open(j, p, *p);
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
				jn_fail(j, p, "empty input");
			else if (*p == ']' && j->state == S_ELEM)
				jn_fail(j, p, "trailing comma");
			else
				unexpected(j, p);
			return JT_ERROR;
		}
		if (rc == SC_OK)
			return tok_done(j, p, q, tok);
		if (rc == SC_ERR)
			return JT_ERROR;
		j->p = p;
		if (jn_more(j) == -1)
			return JT_ERROR;
		p = j->p;
	}
}

/* A member's key at p, with its colon (key_colon()). */
static enum json_tok
tok_key(struct json *j, unsigned char *p)
{
	unsigned char *q;
	int rc;

	for (;;) {
		if (*p != '"') {
			if (*p == '}' && j->state == S_KEY)
				jn_fail(j, p, "trailing comma");
			else if (p == j->end)
				unexpected(j, p);
			else
				jn_fail(j, p, "expected string key");
			return JT_ERROR;
		}
		if ((rc = scan_string(j, p, &q)) == SC_OK)
			return key_colon(j, p, q);
		if (rc == SC_ERR)
			return JT_ERROR;
		j->p = p;
		if (jn_more(j) == -1)
			return JT_ERROR;
		p = j->p;
	}
}

/*
 * After a value, byte c at p of a container of type t: the end of the
 * document at top level, else an error (',' and the closer are taken
 * by next_token()).
 */
static enum json_tok
tok_after(struct json *j, unsigned char *p, int t)
{
	if (t == T_TOP) {
		if (p != j->end) {
			jn_fail(j, p, "trailing data after JSON value");
			return JT_ERROR;
		}
		j->tokoff = OFF(j, p);
		j->p = p;
		j->state = S_EOF;
		j->lt.tok = JT_EOF;
		return JT_EOF;
	}
	if (p == j->end)
		unexpected(j, p);
	else
		jn_fail(j, p, "expected ',' or '%c'", t == T_ARR ? ']' : '}');
	return JT_ERROR;
}

/*
 * The next token, for every case: by the state, to the function for
 * what comes next.  (json_next() handles the commonest one itself and
 * calls this for the rest.)
 */
static enum json_tok
next_token(struct json *j)
{
	unsigned char *p;
	int c, t;

	*j->savep = j->savec;
	j->savep = &j->dummy;
	if (j->state >= S_START) {
		if (j->state == S_EOF)
			return JT_EOF;
		if (j->state == S_ERROR || start(j) == -1)
			return JT_ERROR;
	}
	p = j->p;
	for (;;) {
		if ((p = skipws(j, p)) == NULL)
			return JT_ERROR;
		c = *p;
		switch (j->state) {
		case S_AFTER:
			t = j->stack[j->depth];
			if (c == ',' && t != T_TOP) {
				p++;
				j->state = t == T_OBJ ? S_KEY : S_ELEM;
				continue;
			}
			if ((c == ']' && t == T_ARR) ||
			    (c == '}' && t == T_OBJ))
				return tok_close(j, p, c);
			return tok_after(j, p, t);
		case S_FIRSTELEM:
			if (c == ']')
				return tok_close(j, p, c);
			return tok_value(j, p);
		case S_FIRSTKEY:
			if (c == '}')
				return tok_close(j, p, c);
			return tok_key(j, p);
		case S_KEY:
			return tok_key(j, p);
		case S_CLOSE:
			return tok_close(j, p,
			    j->stack[j->depth] == T_ARR ? ']' : '}');
		default:
			return tok_value(j, p);
		}
	}
}

/*
 * Past the whitespace from p, as skipws() but without reading on: at the
 * end of the data the caller hands over to next_token(), which does.
 */
static inline unsigned char *
fastws(struct json *j, unsigned char *p)
{
	if (*p == ' ')
		p++;
	while (cls[*p] & C_WS) {
		if (*p == '\n') {
			j->line++;
			j->lineoff = OFF(j, p) + 1;
		}
		p++;
	}
	return p;
}

/*
 * The fast path of a key at p (its blanks skipped): one without escapes
 * whose ':' follows after spaces, wholly in the buffer; anything else
 * goes to next_token(), in the same state.  As key_colon().
 */
static inline enum json_tok
fast_key(struct json *j, unsigned char *p)
{
	unsigned char *q, *r;

	if (*p == '"' && *(q = plainb(p + 1)) == '"') {
		for (r = q + 1; *r == ' '; r++)
			;
		if (*r == ':') {
			*q = '\0';
			j->lt.text = (char *)p + 1;
			j->lt.textlen = q - p - 1;
			j->tokoff = OFF(j, p);
			j->kline = j->line;
			j->klineoff = j->lineoff;
			j->p = r + 1;
			j->state = S_VALUE;
			j->lt.tok = JT_KEY;
			return JT_KEY;
		}
	}
	j->p = p;
	return next_token(j);
}

/*
 * The number at p a byte at a time when it has no exponent and is
 * followed by a byte that cannot continue it, as scan_number() would
 * have it: the end of the number, or NULL for scan_number() to decide.
 * (16 bytes at a time with SSE2, as plainb(), was no faster.)
 */
static inline unsigned char *
fast_number(struct json *j, unsigned char *p)
{
	unsigned char *q, *r, *f;
	int isint;

	q = p + (*p == '-');
	for (r = q; ISDIGIT(*r); r++)
		;
	if (r == q || (*q == '0' && r - q > 1))
		return NULL;
	isint = *p == '-' ? -1 : 1;
	if (*r == '.') {
		for (f = ++r; ISDIGIT(*r); r++)
			;
		if (r == f)
			return NULL;
		isint = 0;
	}
	if (cls[*r] & (C_NUM | C_NUL))
		return NULL;
	j->digits = load64(q) ^ ZEROS;
	j->isint = isint;
	return r;
}

/*
 * The fast path of a value at p (its blanks skipped): a string without
 * escapes, a number, '[' or '{', wholly in the buffer; anything else
 * (and a number in error: the state says so) goes to next_token().
 */
/* Inlined into json_next() (GCC would not: three callers). */
__attribute__((always_inline))
static inline enum json_tok
fast_value(struct json *j, unsigned char *p)
{
	unsigned char *q;

	switch (*p) {
	case '"':
		if (*(q = plainb(p + 1)) != '"')
			break;
		*q = '\0';
		j->lt.text = (char *)p + 1;
		j->lt.textlen = q - p - 1;
		return tok_done(j, p, q + 1, JT_STR);
	case '[':
	case '{':
		return tok_open(j, p, *p);
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
		if ((q = fast_number(j, p)) != NULL ||
		    scan_number(j, p, &q) == SC_OK)
			return tok_number(j, p, q);
		break;
	}
	j->p = p;
	return next_token(j);
}

/*
 * An element at p after a ',': a '[' or a number with no sign, up to 7
 * integer digits, maybe a fraction of up to 7 digits and no exponent,
 * wholly inside the buffer (the bulk of a speedscope file: samples,
 * frame indexes and weights), else fast_value().  In state S_ELEM no
 * saved byte is pending.
 */
static inline enum json_tok
fast_elem(struct json *j, unsigned char *p)
{
	unsigned char *q;
	uint64_t w, m;
	size_t n;
	int isint;

	if (*p == '[' && j->depth < JSON_MAXDEPTH) {
		j->stack[++j->depth] = T_ARR;
		j->state = S_FIRSTELEM;
		j->tokoff = OFF(j, p);
		j->p = p + 1;
		j->lt.tok = JT_ARR;
		return JT_ARR;
	}
	if (!ISDIGIT(*p))
		return fast_value(j, fastws(j, p));
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
	j->lt.text = (char *)p;
	j->lt.textlen = q - p;
	j->isint = isint;
	j->digits = w ^ ZEROS;
	j->lt.tok = JT_NUM;
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
 * The next token: the common cases of a document in the buffer here,
 * by state, each leaving the state and position as next_token() would
 * at the point it hands over to it (blanks skipped, a ',' taken), so
 * that it agrees with next_token() exactly.
 */
enum json_tok
json_next(struct json *j)
{
	unsigned char *p;
	int t;

	if (j->state == S_ELEM)
		return fast_elem(j, j->p);
	*j->savep = j->savec;
	j->savep = &j->dummy;
	switch (j->state) {
	case S_AFTER:
		p = fastws(j, j->p);
		t = j->stack[j->depth];
		if (*p == ',' && t == T_OBJ) {
			j->state = S_KEY;
			return fast_key(j, fastws(j, p + 1));
		}
		if (*p == ',' && t == T_ARR) {
			j->state = S_ELEM;
			return fast_elem(j, j->p = p + 1);
		}
		if ((*p == '}' && t == T_OBJ) || (*p == ']' && t == T_ARR))
			return tok_close(j, p, *p);
		j->p = p;
		break;
	case S_KEY:
		return fast_key(j, fastws(j, j->p));
	case S_FIRSTKEY:
		p = fastws(j, j->p);
		if (*p == '}')
			return tok_close(j, p, '}');
		return fast_key(j, p);
	case S_VALUE:
		return fast_value(j, fastws(j, j->p));
	case S_FIRSTELEM:
		p = fastws(j, j->p);
		if (*p == ']')
			return tok_close(j, p, ']');
		return fast_value(j, p);
	default:
		break;
	}
	return next_token(j);
}

