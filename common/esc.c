/*
 * esc.c: the escaping of names in the sst stream (sst(5)).  A name may
 * hold any byte; in the stream a backslash, TAB, newline, carriage
 * return, ';' and the other control bytes are written as \\, \t, \n,
 * \r, \x3b and \xHH, so that fields split on TAB and frames on ';'.
 * An empty frame name is written \e.  Other bytes, UTF-8 or not, are
 * written as they are.
 */
#include <string.h>

#include "sst.h"

static const char hex[] = "0123456789abcdef";

void
esc_add(struct buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + n;
	const unsigned char *run;
	unsigned char c;

	buf_grow(b, n);
	while (p < e) {
		run = p;
		while (p < e && *p >= 0x20 && *p != '\\' && *p != ';' &&
		    *p != 0x7f)
			p++;
		if (p > run)
			buf_add(b, run, (size_t)(p - run));
		if (p == e)
			break;
		c = *p++;
		buf_addc(b, '\\');
		switch (c) {
		case '\\':
			buf_addc(b, '\\');
			break;
		case '\t':
			buf_addc(b, 't');
			break;
		case '\n':
			buf_addc(b, 'n');
			break;
		case '\r':
			buf_addc(b, 'r');
			break;
		default:
			buf_addc(b, 'x');
			buf_addc(b, hex[c >> 4]);
			buf_addc(b, hex[c & 15]);
			break;
		}
	}
}

/* The value of a hex digit, or -1. */
static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t
esc_decode(char *dst, const char *src, size_t n)
{
	size_t i, j;

	for (i = 0, j = 0; i < n; i++) {
		if (src[i] != '\\' || i + 1 >= n) {
			dst[j++] = src[i];
			continue;
		}
		switch (src[++i]) {
		case 't':
			dst[j++] = '\t';
			break;
		case 'n':
			dst[j++] = '\n';
			break;
		case 'r':
			dst[j++] = '\r';
			break;
		case 'e':
			break;
		case 'x':
			if (i + 2 < n && hexval(src[i + 1]) >= 0 &&
			    hexval(src[i + 2]) >= 0) {
				dst[j++] = (char)(hexval(src[i + 1]) * 16 +
				    hexval(src[i + 2]));
				i += 2;
			} else
				dst[j++] = 'x';
			break;
		default:
			dst[j++] = src[i];
			break;
		}
	}
	return j;
}

int
esc_valid(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 && s[i] != '\t')
			return -1;
		if (s[i] != '\\')
			continue;
		if (++i >= n)
			return -1;
		switch (s[i]) {
		case '\\':
		case 't':
		case 'n':
		case 'r':
		case 'e':
			break;
		case 'x':
			if (i + 2 >= n || hexval(s[i + 1]) < 0 ||
			    hexval(s[i + 2]) < 0)
				return -1;
			i += 2;
			break;
		default:
			return -1;
		}
	}
	return 0;
}
