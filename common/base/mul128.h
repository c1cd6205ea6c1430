/*
 * mul128.h: the 64 x 64 -> 128-bit product shared by shortest.c (Ryu)
 * and eisel.c (Eisel-Lemire), with unsigned __int128 where the compiler
 * has it (and SHORTEST_NO128 is not defined), else in 32-bit halves.
 */
#ifndef MUL128_H
#define MUL128_H

#include <stdint.h>

#if defined(__SIZEOF_INT128__) && !defined(SHORTEST_NO128)
#define HAVE_U128 1
__extension__ typedef unsigned __int128 u128;

/* a * b: the low half returned, the high one at *hi. */
static inline uint64_t
mul128(uint64_t a, uint64_t b, uint64_t *hi)
{
	u128 p = (u128)a * b;

	*hi = (uint64_t)(p >> 64);
	return (uint64_t)p;
}
#else
/* a * b: the low half returned, the high one at *hi. */
static inline uint64_t
mul128(uint64_t a, uint64_t b, uint64_t *hi)
{
	uint64_t al = a & 0xffffffffU, ah = a >> 32;
	uint64_t bl = b & 0xffffffffU, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffU) + (hl & 0xffffffffU);

	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return mid << 32 | (ll & 0xffffffffU);
}
#endif

#endif
