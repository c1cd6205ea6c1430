/*
 * varint.h: unsigned integers in 7-bit groups, low group first, the
 * high bit set on every byte but the last (as LEB128).  Used for the
 * stack keys spd.c keeps and the lengths zlist.c stores.
 */
#ifndef VARINT_H
#define VARINT_H

#include <stddef.h>
#include <stdint.h>

#define VARINT_MAX	10	/* bytes of a uint64_t at most */

/* v at p; returns the bytes written. */
static inline size_t
varint_put(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	for (; v > 0x7f; v >>= 7)
		p[n++] = (unsigned char)((v & 0x7f) | 0x80);
	p[n++] = (unsigned char)v;
	return n;
}

/* The number at p (not past e) into *v; returns the byte after it. */
static inline const unsigned char *
varint_get(const unsigned char *p, const unsigned char *e, uint64_t *v)
{
	uint64_t x = 0;
	int sh = 0;

	while (p < e) {
		x |= (uint64_t)(*p & 0x7f) << sh;
		sh += 7;
		if (!(*p++ & 0x80))
			break;
	}
	*v = x;
	return p;
}

#endif
