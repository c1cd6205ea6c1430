/*
 * esc.c: the escaping of names in the sst stream (sst(5)).  A name may
 * hold any byte; in the stream a backslash, TAB, newline, carriage
 * return, ';' and the other control bytes are written as \\, \t, \n,
 * \r, \x3b and \xHH, so that fields split on TAB and frames on ';'.
 * An empty frame name is written \e.  Other bytes, UTF-8 or not, are
 * written as they are.
 */
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "esc.h"
#include "buf.h"

static const char hex[] = "0123456789abcdef";

void
esc_name(struct buf *b, const char *s, size_t n)
{
	if (n == 0)
		buf_add(b, "\\e", 2);
	else
		esc_add(b, s, n);
}

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

#ifdef __SSE2__
/* The number of bits set in a 16-bit mask. */
static inline unsigned
pop16(unsigned m)
{
	m = m - ((m >> 1) & 0x5555);
	m = (m & 0x3333) + ((m >> 2) & 0x3333);
	m = (m + (m >> 4)) & 0x0f0f;
	return (m + (m >> 8)) & 0x1f;
}
#else
#define ONES	0x0101010101010101ULL
#define HIGH	0x8080808080808080ULL

/*
 * The high bit of each byte of v that is below 0x20 or a backslash, and
 * maybe of some bytes after one (the borrow tricks of "Bit Twiddling
 * Hacks": zero exactly when there is none).
 */
static inline uint64_t
special8(uint64_t v)
{
	uint64_t bs = v ^ (ONES * '\\');

	return (((v - ONES * 0x20) & ~v) | ((bs - ONES) & ~bs)) & HIGH;
}

/* The number of bytes of v that are ';', exactly. */
static inline unsigned
semis8(uint64_t v)
{
	uint64_t y = v ^ (ONES * ';');

	y = ~(((y & ~HIGH) + ~HIGH) | y | ~HIGH);
	return (unsigned)(((y >> 7) * ONES) >> 56);
}
#endif

int
esc_valid(const char *s, size_t n)
{
	return esc_scan(s, n, NULL);
}

int
esc_scan(const char *s, size_t n, size_t *semis)
{
#ifdef __SSE2__
	const __m128i ctl = _mm_set1_epi8(0x1f), bsl = _mm_set1_epi8('\\');
	const __m128i semi = _mm_set1_epi8(';');
	__m128i x;
#else
	uint64_t v, w;
#endif
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		/* Plain text 16 bytes at a time. */
#ifdef __SSE2__
		while (n - i >= 16) {
			x = _mm_loadu_si128((const __m128i *)(const void *)
			    (s + i));
			if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(
			    _mm_min_epu8(x, ctl), x), _mm_cmpeq_epi8(x, bsl))))
				break;
			if (semis != NULL)
				k += pop16((unsigned)_mm_movemask_epi8(
				    _mm_cmpeq_epi8(x, semi)));
			i += 16;
		}
#else
		while (n - i >= 16) {
			memcpy(&v, s + i, 8);
			memcpy(&w, s + i + 8, 8);
			if (special8(v) | special8(w))
				break;
			if (semis != NULL)
				k += semis8(v) + semis8(w);
			i += 16;
		}
#endif
		if (i == n)
			break;
		if (s[i] == ';') {
			k++;
			continue;
		}
		if ((unsigned char)s[i] < 0x20)
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
	if (semis != NULL)
		*semis = k;
	return 0;
}
