/*
 * digits.h: decimal digits read 8 bytes at a time, without a branch per
 * byte, as json.c's number scanner and compact.c's frame numbers read
 * them: a word loaded little-endian, its non-digit bytes marked, and up
 * to 8 digits made into their value with three multiplications.
 */
#ifndef DIGITS_H
#define DIGITS_H

#include <stddef.h>
#include <stdint.h>

#define ZEROS		0x3030303030303030ULL	/* "00000000" */

/* The 8 bytes at s as a little-endian word (compiles to one load). */
static inline uint64_t
load64(const unsigned char *s)
{
	return (uint64_t)s[0] | (uint64_t)s[1] << 8 | (uint64_t)s[2] << 16 |
	    (uint64_t)s[3] << 24 | (uint64_t)s[4] << 32 |
	    (uint64_t)s[5] << 40 | (uint64_t)s[6] << 48 |
	    (uint64_t)s[7] << 56;
}

/*
 * Set the top bit of each of the 8 bytes in w that is not a digit: adding
 * 0x46 sets it for 0x3a-0xb9, subtracting '0' for 0x00-0x2f and 0xb0 up.
 * Carries and borrows can only leave non-digit bytes, so the lowest set
 * bit reliably marks the first non-digit.
 */
static inline uint64_t
nondigits(uint64_t w)
{
	return ((w + 0x4646464646464646ULL) | (w - ZEROS)) &
	    0x8080808080808080ULL;
}

/*
 * The value of the first n (1 to 8) digits of d, a word of digits xor
 * ZEROS: shifted to the top behind zero digits, then pairs, quads and
 * octets of digits added with multiplications.
 */
static inline uint32_t
digitsval(uint64_t d, size_t n)
{
	d <<= 64 - 8 * n;
	d = d * 10 + (d >> 8);
	return (uint32_t)(((d & 0x000000ff000000ffULL) *
	    0x000f424000000064ULL + (d >> 16 & 0x000000ff000000ffULL) *
	    0x0000271000000001ULL) >> 32);
}

#endif
