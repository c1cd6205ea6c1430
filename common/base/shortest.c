/*
 * shortest.c: the shortest decimal digits that read back as a double,
 * by Ulf Adams's Ryu ("Ryu: fast float-to-string conversion", PLDI
 * 2018).  The ends of the interval of reals that round to d, and d
 * itself, are scaled by a power of ten in 128-bit fixed point (the
 * powers of five to 125 bits of pow5tab.h, written by pow5tab.py), and
 * digits are dropped while the interval still holds a number with one
 * digit fewer.  Of the shortest, the one nearest d, ties to even: the
 * digits of David Gay's dtoa() in mode 0, which Python's repr() prints.
 * The ends belong to the interval when d's significand is even, as
 * round-to-nearest-even reads them back.
 */
#include <stdint.h>
#include <string.h>

#include "shortest.h"
#include "mul128.h"
#include "pow5tab.h"

/* An interval scaled by 10^-e10: vm < vr < vp, d at vr. */
struct scaled {
	uint64_t	vr, vp, vm;
	int		e10;
	int		vmtz;	/* vm had only zeros after the point */
	int		vrtz;	/* so had vr */
	int		even;	/* the ends belong to the interval */
};

static uint64_t	mulshift(uint64_t, const uint64_t *, int);
static int	pow5factor(uint64_t, int);
static void	scale(uint64_t, int, int, struct scaled *);
static uint64_t	drop(struct scaled *, int *);

#ifdef HAVE_U128
/* (m * mul) >> j, mul a 125-bit number (low half first), j in 64..127. */
static uint64_t
mulshift(uint64_t m, const uint64_t *mul, int j)
{
	u128 b0 = (u128)m * mul[0], b2 = (u128)m * mul[1];

	return (uint64_t)(((b0 >> 64) + b2) >> (j - 64));
}
#else
/* (m * mul) >> j, mul a 125-bit number (low half first), j in 65..127. */
static uint64_t
mulshift(uint64_t m, const uint64_t *mul, int j)
{
	uint64_t h0, h2, l2, lo, hi;
	int s = j - 64;

	(void)mul128(m, mul[0], &h0);
	l2 = mul128(m, mul[1], &h2);
	lo = l2 + h0;
	hi = h2 + (lo < h0);
	return lo >> s | hi << (64 - s);
}
#endif

/* Whether 5^p divides v (v > 0). */
static int
pow5factor(uint64_t v, int p)
{
	int n = 0;

	while (v % 5 == 0) {
		v /= 5;
		n++;
	}
	return n >= p;
}

/* floor(log10(2^e)) for 0 <= e <= 1650, and of 5^e for e <= 2620. */
#define LOG10POW2(e)	((int)(((uint32_t)(e) * 78913) >> 18))
#define LOG10POW5(e)	((int)(((uint32_t)(e) * 732923) >> 20))
/* The bit length of 5^e, for 0 <= e <= 3528. */
#define POW5BITS(e)	((int)((((uint32_t)(e) * 1217359) >> 19) + 1))

/*
 * The interval of the double m2 * 2^e2 (m2 with two more bits, the
 * lower end nearer when mmshift is 0, at a power of two), scaled by a
 * power of ten so that vr keeps about 17 digits; whether the digits
 * dropped by the scaling were all zeros is known exactly where it can
 * matter (10^e10 divides the number or nearly so).
 */
static void
scale(uint64_t m2, int e2, int mmshift, struct scaled *s)
{
	uint64_t mv = 4 * m2;
	int q, i, k;

	s->even = (m2 & 1) == 0;
	s->vmtz = s->vrtz = 0;
	if (e2 >= 0) {
		q = LOG10POW2(e2) - (e2 > 3);
		s->e10 = q;
		k = POW5_BITS + POW5BITS(q) - 1;
		i = -e2 + q + k;
		s->vr = mulshift(mv, pow5inv[q], i);
		s->vp = mulshift(mv + 2, pow5inv[q], i);
		s->vm = mulshift(mv - 1 - (uint64_t)mmshift, pow5inv[q], i);
		if (q > 21)
			return;
		/* Only one of mv - 1 - mmshift, mv, mv + 2 can be a
		 * multiple of 5. */
		if (mv % 5 == 0)
			s->vrtz = pow5factor(mv, q);
		else if (s->even)
			s->vmtz = pow5factor(mv - 1 - (uint64_t)mmshift, q);
		else
			s->vp -= (uint64_t)pow5factor(mv + 2, q);
		return;
	}
	q = LOG10POW5(-e2) - (-e2 > 1);
	s->e10 = q + e2;
	i = -e2 - q;
	k = POW5BITS(i) - POW5_BITS;
	s->vr = mulshift(mv, pow5[i], q - k);
	s->vp = mulshift(mv + 2, pow5[i], q - k);
	s->vm = mulshift(mv - 1 - (uint64_t)mmshift, pow5[i], q - k);
	if (q <= 1) {
		/* mv has two trailing zero bits, mv + 2 one, and
		 * mv - 1 - mmshift one when mmshift is 1. */
		s->vrtz = 1;
		if (s->even)
			s->vmtz = mmshift == 1;
		else
			s->vp--;
	} else if (q < 63)
		s->vrtz = (mv & ((1ULL << q) - 1)) == 0;
}

/*
 * Drop digits while vp and vm differ above them; the digits of vr then,
 * rounded to nearest (ties to even where all that was dropped is known),
 * or vr + 1 where vr is outside the interval.  *removed counts them.
 */
static uint64_t
drop(struct scaled *s, int *removed)
{
	uint64_t vr = s->vr, vp = s->vp, vm = s->vm;
	int last = 0, n = 0, up = 0;

	if (!s->vmtz && !s->vrtz) {
		/* The common case: no ties, vm never exactly in. */
		if (vp / 100 > vm / 100) {
			up = vr % 100 >= 50;
			vr /= 100, vp /= 100, vm /= 100;
			n += 2;
		}
		while (vp / 10 > vm / 10) {
			up = vr % 10 >= 5;
			vr /= 10, vp /= 10, vm /= 10;
			n++;
		}
		*removed = n;
		return vr + (vr == vm || up);
	}
	while (vp / 10 > vm / 10) {
		s->vmtz &= vm % 10 == 0;
		s->vrtz &= last == 0;
		last = (int)(vr % 10);
		vr /= 10, vp /= 10, vm /= 10;
		n++;
	}
	if (s->vmtz)
		while (vm % 10 == 0) {
			s->vrtz &= last == 0;
			last = (int)(vr % 10);
			vr /= 10, vp /= 10, vm /= 10;
			n++;
		}
	if (s->vrtz && last == 5 && vr % 2 == 0)
		last = 4;	/* exactly half way: to even */
	*removed = n;
	return vr + ((vr == vm && (!s->even || !s->vmtz)) || last >= 5);
}

/*
 * The shortest digits of |d| (finite) at dig, without a point, of which
 * the first is not zero but for d = 0; returns how many (1 to 17) and
 * sets *ex to the power of ten of the first.
 */
int
shortest(double d, char *dig, int *ex)
{
	struct scaled s;
	uint64_t bits, frac, out;
	int bexp, removed, nd, i;

	memcpy(&bits, &d, sizeof(bits));
	frac = bits & ((1ULL << 52) - 1);
	bexp = (int)(bits >> 52 & 0x7ff);
	if (bexp == 0 && frac == 0) {
		dig[0] = '0';
		*ex = 0;
		return 1;
	}
	/* Two bits more than the significand for the interval's ends. */
	if (bexp == 0)
		scale(frac, 1 - 1023 - 52 - 2, 1, &s);
	else
		scale(1ULL << 52 | frac, bexp - 1023 - 52 - 2,
		    frac != 0 || bexp <= 1, &s);
	out = drop(&s, &removed);
	removed += s.e10;
	while (out % 10 == 0) {
		out /= 10;
		removed++;
	}
	for (nd = 1, bits = out; bits >= 10; bits /= 10)
		nd++;
	for (i = nd - 1; i >= 0; i--, out /= 10)
		dig[i] = (char)('0' + out % 10);
	*ex = removed + nd - 1;
	return nd;
}
