/*
 * jsonesc.c: the strings of the JSON tokenizer that hold an escape or a
 * byte that is not plain (jsontok.c's scan_string() hands them over):
 * decoded into the tokenizer's buffer, \uXXXX escapes and surrogate
 * pairs as UTF-8 (a lone surrogate as WTF-8).
 */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "digits.h"
#include "jsonint.h"

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
 * The first byte from q that is not a plain string byte (a '"', '\\' or
 * control character: C_STR), 8 bytes at a time.  A byte is marked when
 * it xor '"' or xor '\\' is zero, or when it is below 0x20; as with
 * nondigits(), borrows only mark bytes after a marked one, so the lowest
 * mark is exact.  The NUL at the end of the data stops the scan, and the
 * zero padding after it keeps the loads inside the buffer.
 */
static inline unsigned char *
plain(unsigned char *q)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t high = 0x8080808080808080ULL;
	uint64_t w, x, y, m;

	for (;; q += 8) {
		w = load64(q);
		x = w ^ 0x2222222222222222ULL;
		y = w ^ 0x5c5c5c5c5c5c5c5cULL;
		m = ((x - ones) & ~x) | ((y - ones) & ~y) |
		    ((w - 0x2020202020202020ULL) & ~w);
		if ((m &= high) != 0)
			return q + (__builtin_ctzll(m) >> 3);
	}
}

/*
 * The escape \uXXXX at q (in the buffer whole), and the low surrogate
 * escape that may follow a high one, decoded into j->tok; *qp past it.
 */
static int
scan_u(struct json *j, unsigned char *q, unsigned char **qp)
{
	unsigned long cp, lo;
	int n;

	if ((n = hexval(q + 2, &cp)) < 4) {
		if (q + 2 + n == j->end)
			return jn_fail(j, q + 2 + n, "unexpected end of input");
		return jn_fail(j, q + 2 + n, "invalid \\u escape");
	}
	q += 6;
	if (cp >= 0xd800 && cp < 0xdc00) {
		/* A low surrogate escape may follow. */
		if (j->end - q < 6 && !j->eof)
			return SC_MORE;
		if (q[0] == '\\' && q[1] == 'u' && hexval(q + 2, &lo) == 4 &&
		    lo >= 0xdc00 && lo < 0xe000) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			q += 6;
		}
	}
	put_utf8(&j->tok, cp);
	*qp = q;
	return SC_OK;
}

/*
 * The escape at q decoded into j->tok, *qp past it: SC_OK, SC_MORE when
 * the buffer may not hold all of it, or SC_ERR.
 */
static int
scan_escape(struct json *j, unsigned char *q, unsigned char **qp)
{
	int c;

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
		return scan_u(j, q, qp);
	default:
		if (q + 1 == j->end)
			return jn_fail(j, q + 1, "unexpected end of input");
		return jn_fail(j, q + 1, "invalid escape");
	}
	buf_addc(&j->tok, c);
	*qp = q + 2;
	return SC_OK;
}

/*
 * The slower part of scan_string() (jsontok.c): decode the string at p
 * into j->tok, going on from q, the first byte that is not a plain
 * string byte.
 */
int
jn_escaped(struct json *j, unsigned char *p, unsigned char *q,
    unsigned char **qp)
{
	struct buf *b;
	unsigned char *r;
	int rc;

	b = &j->tok;
	buf_reset(b);
	r = p + 1;
	for (;;) {
		q = plain(q);
		buf_add(b, r, q - r);
		if (*q == '"')
			break;
		if (*q != '\\') {
			if (q != j->end)
				return jn_fail(j, q,
				    "control character in string");
			if (!j->eof)
				return SC_MORE;
			return jn_fail(j, q, "unexpected end of input");
		}
		if ((rc = scan_escape(j, q, &q)) != SC_OK)
			return rc;
		r = q;
	}
	j->lt.text = b->data;
	j->lt.textlen = b->len;
	*qp = q + 1;
	return SC_OK;
}
