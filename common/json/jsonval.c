/*
 * jsonval.c: what a caller reads of the JSON tokenizer's tokens
 * (json.c): their text, depth and numeric values, the skipping of a
 * value, the member keys of the document readers (json_key(),
 * json_member()), and the raw arrays of numbers handed out without
 * tokenizing (json_rawarray(), json_rawarrays()).
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
#include "htab.h"
#include "digits.h"
#include "input.h"
#include "jsonint.h"

static int	 atelem(const struct json *);

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

	if (j->state != S_FIRSTELEM || j->lt.tok != JT_ARR)
		return -1;
	for (n = 0;;) {
		if ((q = memchr(j->p + n, ']', j->end - j->p - n)) != NULL)
			break;
		n = j->end - j->p;
		if (j->eof || n >= (j->ah != NULL ? AHEAD : j->cap / 2) ||
		    jn_refill(j) == -1)
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

	if (j->state != S_FIRSTELEM || j->lt.tok != JT_ARR ||
	    (size_t)(j->end - j->p) <= len || j->p[len] != ']')
		return -1;
	q = j->p + len;
	t = j->stack[--j->depth];
	j->tokoff = OFF(j, q);
	j->lt.tok = JT_ARR_END;
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
	    j->lt.tok == JT_ARR);
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
	j->lt.tok = JT_ARR_END;
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
	size_t n = 0, len = j->lt.textlen, step = len + 1;
	uint64_t want, mask, v;
	unsigned char m[8];

	if (j->lt.tok != JT_NUM || j->state != S_ELEM || len == 0 ||
	    j->stack[j->depth] != T_ARR)
		return 0;
	t = (const unsigned char *)j->lt.text;
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

	if (j->lt.tok != JT_NUM)
		return -1;
	s = (const unsigned char *)j->lt.text;
	neg = *s == '-';
	s += neg;
	n = j->lt.textlen - neg;
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
	d = strtod(j->lt.text, NULL);
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

	if (j->lt.tok != JT_NUM || j->isint == 0)
		return -1;
	neg = j->isint < 0;
	s = (const unsigned char *)j->lt.text + neg;
	n = j->lt.textlen - neg;
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
 * json_scaled() reads the digits 8 at a time: the first 8 as the scanner
 * kept them, the next 8 from the buffer, and the decimals as the last
 * bytes of the number.  A word is loaded from the buffer only where it
 * ends before the NUL stored after the number, as a load across that
 * store would stall; shorter numbers with 8 integer digits or more are
 * read a byte at a time.
 */
int
json_scaled(const struct json *j, int scale, int64_t *vp)
{
	static const uint64_t pow10[] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000
	};
	const unsigned char *s;
	uint64_t m, v, w, f;
	size_t i, n, ni, nf;
	int neg;

	if (j->lt.tok != JT_NUM || scale < 0 || scale > 3)
		return -1;
	s = (const unsigned char *)j->lt.text;
	neg = *s == '-';
	s += neg;
	n = j->lt.textlen - neg;
	m = nondigits(j->digits ^ ZEROS);
	ni = m != 0 ? (size_t)__builtin_ctzll(m) >> 3 : 8;
	if (ni == 0 || ni > n)
		return -1;
	v = digitsval(j->digits, ni);
	if (ni == 8 && n >= 16) {
		w = load64(s + 8);
		if ((m = nondigits(w)) == 0)
			return -1;
		if ((i = (size_t)__builtin_ctzll(m) >> 3) > 0)
			v = v * pow10[i] + digitsval(w ^ ZEROS, i);
		ni += i;
	} else if (ni == 8) {
		for (; ni < n && ISDIGIT(s[ni]); ni++)
			v = v * 10 + (s[ni] - '0');
	}
	if (ni > 15)
		return -1;
	f = 0;
	if (ni < n) {
		nf = n - ni - 1;
		if (s[ni] != '.' || nf == 0 || nf > (size_t)scale)
			return -1;
		/* The nf decimals in the low bytes, the rest "0"s. */
		if (n >= 8)
			w = (load64(s + n - 8) ^ ZEROS) >> (8 * (8 - nf));
		else
			w = j->digits >> (8 * (ni + 1)) &
			    ((1ULL << (8 * nf)) - 1);
		if (nondigits(w ^ ZEROS) != 0)
			return -1;
		f = digitsval(w, nf) * pow10[scale - nf];
	}
	v = v * pow10[scale] + f;
	*vp = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

enum json_tok
json_key(struct json *j, char *k, size_t size)
{
	enum json_tok t;
	const char *v;
	size_t len;

	k[0] = '\0';
	if ((t = json_next(j)) != JT_KEY)
		return t;
	v = json_text(j, &len);
	if (len < size && memchr(v, '\0', len) == NULL)
		memcpy(k, v, len + 1);
	return t;
}

enum json_tok
json_member(struct json *j, char *k, size_t size)
{
	enum json_tok t;

	if ((t = json_key(j, k, size)) != JT_KEY)
		return t;
	return json_next(j);
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
