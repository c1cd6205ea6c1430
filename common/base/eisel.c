/*
 * eisel.c: the double nearest a decimal m * 10^e (m of up to 19
 * digits), by the algorithm of Michael Eisel and Daniel Lemire ("Number
 * parsing at a gigabyte per second", 2021; as Go's strconv has it): m,
 * shifted to the top of a word, times 10^e to 128 bits (pow10tab.h,
 * written by pow5tab.py) gives the top bits of the value, and where the
 * bits below them leave the rounding in doubt, or the result is not a
 * normal double, it declines and strtod(3) decides.  Exact products of
 * small numbers go first, as Clinger's fast path.
 */
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "eisel.h"
#include "mul128.h"
#include "pow10tab.h"

/* 10^0 .. 10^22, each exact in a double. */
static const double exact[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* The leading zero bits of m > 0. */
static int
clz64(uint64_t m)
{
	int n = 0;

	while ((m & 0xff00000000000000ULL) == 0) {
		m <<= 8;
		n += 8;
	}
	while ((m & 0x8000000000000000ULL) == 0) {
		m <<= 1;
		n++;
	}
	return n;
}

/*
 * m * 10^e, negated when neg, correctly rounded into *d: 0, or -1 when
 * undecided (strtod(3) must say).
 */
int
eisel(uint64_t m, int e, int neg, double *d)
{
	uint64_t hi, lo, yhi, ylo, mant, bits;
	int64_t e2;
	int z, top;

	if (m == 0) {
		*d = neg ? -0.0 : 0.0;
		return 0;
	}
#if FLT_EVAL_METHOD == 0
	if (m <= (1ULL << 53) && e >= -22 && e <= 22) {
		*d = e >= 0 ? (double)m * exact[e] : (double)m / exact[-e];
		if (neg)
			*d = -*d;
		return 0;
	}
#endif
	if (e < POW10_MIN || e > POW10_MAX)
		return -1;
	z = clz64(m);
	m <<= z;
	/* floor(e * log2(10)) + 64 + bias - z, the shift a floor. */
	e2 = 217706 * (int64_t)e;
	e2 = (e2 >= 0 ? e2 / 65536 : -((-e2 + 65535) / 65536)) + 64 + 1023 -
	    z;
	lo = mul128(m, tenpow[e - POW10_MIN][1], &hi);
	if ((hi & 0x1ff) == 0x1ff && lo + m < m) {
		/* The bits below may carry into those kept: take 64 more. */
		ylo = mul128(m, tenpow[e - POW10_MIN][0], &yhi);
		lo += yhi;
		hi += lo < yhi;
		if ((hi & 0x1ff) == 0x1ff && lo + 1 == 0 && ylo + m < m)
			return -1;
	}
	top = (int)(hi >> 63);
	mant = hi >> (top + 9);
	e2 -= 1 ^ top;
	if (lo == 0 && (hi & 0x1ff) == 0 && (mant & 3) == 1)
		return -1;	/* maybe half way */
	mant += mant & 1;
	mant >>= 1;
	if (mant >> 53 > 0) {
		mant >>= 1;
		e2++;
	}
	if (e2 < 1 || e2 > 0x7fe)
		return -1;	/* subnormal, zero or past the largest */
	bits = (uint64_t)e2 << 52 | (mant & 0x000fffffffffffffULL);
	if (neg)
		bits |= 0x8000000000000000ULL;
	memcpy(d, &bits, sizeof(*d));
	return 0;
}
