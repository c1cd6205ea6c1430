/*
 * fmt.c: number formatting and parsing shared by the filters: the
 * shortest round-trip text of a double, as %g and as Python's repr()
 * write it, Python's "{:,}" thousands separators, strict whole-field
 * number parsing, and sums that match Python's left-to-right float
 * additions.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "eisel.h"
#include "shortest.h"
#include "fmt.h"

static int	decimal(const char *, size_t, uint64_t *, int *, int *);
static char	*compose(char *, size_t, int, const char *, int, int, int,
	    int);
static void	binade(double, double *, double *, double *);

/*
 * The text of a double at buf (sz bytes, cut short as snprintf() would):
 * a '-' when neg, then the digits dig[0..nd) whose first stands for
 * 10^ex, as d.ddde+XX when sci, else positional, an integral value
 * followed by ".0" when dot0.  Returns buf.
 */
static char *
compose(char *buf, size_t sz, int neg, const char *dig, int nd, int ex,
    int sci, int dot0)
{
	char t[FMTBUF], *o = t;
	int a, i;

	if (neg)
		*o++ = '-';
	if (sci) {
		*o++ = dig[0];
		if (nd > 1) {
			*o++ = '.';
			memcpy(o, dig + 1, (size_t)nd - 1);
			o += nd - 1;
		}
		*o++ = 'e';
		*o++ = ex < 0 ? '-' : '+';
		a = abs(ex);
		if (a >= 100)
			*o++ = (char)('0' + a / 100);
		*o++ = (char)('0' + a / 10 % 10);
		*o++ = (char)('0' + a % 10);
	} else if (ex < 0) {
		*o++ = '0';
		*o++ = '.';
		for (i = ex + 1; i < 0; i++)
			*o++ = '0';
		memcpy(o, dig, (size_t)nd);
		o += nd;
	} else if (nd <= ex + 1) {
		memcpy(o, dig, (size_t)nd);
		o += nd;
		for (i = nd; i <= ex; i++)
			*o++ = '0';
		if (dot0) {
			*o++ = '.';
			*o++ = '0';
		}
	} else {
		memcpy(o, dig, (size_t)ex + 1);
		o += ex + 1;
		*o++ = '.';
		memcpy(o, dig + ex + 1, (size_t)(nd - ex - 1));
		o += nd - ex - 1;
	}
	*o = '\0';
	if (sz > 0) {
		a = (int)(o - t) < (int)sz ? (int)(o - t) : (int)sz - 1;
		memcpy(buf, t, (size_t)a);
		buf[a] = '\0';
	}
	return buf;
}

/*
 * Shortest %g text (at most 17 digits) that reads back as d, of the
 * correctly rounded ones: the %.*g of the least precision, from 15 for
 * a normal double, whose text reads back.  Below 16 digits those are
 * the shortest digits of shortest.c: a normal double has more than 15
 * digits of precision, so its correctly rounded 15 digits are the
 * shortest when those fit; a subnormal's interval of reals that round
 * to it is symmetric, so that the correctly rounded digits are in it
 * whenever any as short are.  At a power of two the interval below is
 * half that above, and where shortest.c finds 16 digits the correctly
 * rounded 16 may not read back: then the old search, by snprintf()
 * and strtod().
 */
char *
fmt_double(char *buf, size_t sz, double d)
{
	char dig[SHORTEST_MAX];
	uint64_t b;
	int prec, nd, ex;

	if (d == 0) {
		snprintf(buf, sz, "0");
		return buf;
	}
	if (!isfinite(d)) {
		snprintf(buf, sz, "%s", isnan(d) ? (signbit(d) ? "-nan" :
		    "nan") : d > 0 ? "inf" : "-inf");
		return buf;
	}
	nd = shortest(d, dig, &ex);
	memcpy(&b, &d, sizeof(b));
	if (nd != 16 || (b & 0x000fffffffffffffULL) != 0 ||
	    (b >> 52 & 0x7ff) <= 1) {
		prec = nd < 15 ? 15 : nd;
		return compose(buf, sz, signbit(d), dig, nd, ex,
		    ex < -4 || ex >= prec, 0);
	}
	for (prec = 16; prec < 17; prec++) {
		snprintf(buf, sz, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return buf;
	}
	snprintf(buf, sz, "%.17g", d);
	return buf;
}

/*
 * d as Python's repr() writes it: the shortest digits that read back as
 * d (shortest.c: the nearest of them, ties to even, as Python's dtoa()
 * mode 0), in positional notation when the exponent is in [-4, 16),
 * else as d.ddde+XX; an integral value keeps a ".0".  inf, -inf and
 * nan as Python spells them; -0.0 keeps its sign.
 */
char *
fmt_pyfloat(char *buf, size_t sz, double d)
{
	char dig[SHORTEST_MAX];
	int nd, ex;

	if (!isfinite(d)) {
		snprintf(buf, sz, "%s", isnan(d) ? "nan" : d > 0 ? "inf" :
		    "-inf");
		return buf;
	}
	nd = shortest(d, dig, &ex);
	return compose(buf, sz, signbit(d), dig, nd, ex, ex < -4 || ex >= 16,
	    1);
}

/*
 * v in decimal at buf (room for 20 digits); returns the length.  The
 * digits are counted first, then written from the last, two at a time.
 */
size_t
fmt_u64(char *buf, uint64_t v)
{
	static const char two[] =
	    "00010203040506070809101112131415161718192021222324"
	    "25262728293031323334353637383940414243444546474849"
	    "50515253545556575859606162636465666768697071727374"
	    "75767778798081828384858687888990919293949596979899";
	uint64_t t;
	size_t n;
	char *q;

	for (n = 1, t = v; t >= 10000; t /= 10000)
		n += 4;
	n += (t >= 10) + (t >= 100) + (t >= 1000);
	for (q = buf + n; v >= 100; v /= 100) {
		q -= 2;
		memcpy(q, two + v % 100 * 2, 2);
	}
	if (v >= 10)
		memcpy(q - 2, two + v * 2, 2);
	else
		q[-1] = (char)('0' + v);
	return n;
}

/* v with a comma between each group of three digits. */
char *
fmt_commas(char *buf, size_t sz, uint64_t v)
{
	char tmp[32];
	size_t n, i, j;

	n = (size_t)snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
	if (n + (n - 1) / 3 + 1 > sz) {
		buf[0] = '\0';
		return buf;
	}
	for (i = 0, j = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = tmp[i];
	}
	buf[j] = '\0';
	return buf;
}

/*
 * w in its unit, for people: seconds as "%.2fs" (the reference's
 * "12.34s"), counts (none) with thousands separators ("12,994",
 * "1,234.50" when not whole), bytes the same with " B" ("4,096 B").
 * Beyond 1e18 the shortest round-trip text ("1e+20") stands for the
 * digits; not finite: "inf", "-inf", "nan".
 */
char *
fmt_weight(char *buf, size_t sz, double w, enum sst_unit u)
{
	char t[FMTBUF], *o = buf, *e;
	const char *p = t, *dot, *suf = u == U_BYTES ? " B" : "";
	size_t n, i;

	if (u == U_SECONDS) {
		snprintf(buf, sz, "%.2fs", w);
		return buf;
	}
	if (!isfinite(w) || fabs(w) >= 1e18) {
		if (!isfinite(w))
			snprintf(t, sizeof(t), "%s", isnan(w) ? "nan" :
			    w > 0 ? "inf" : "-inf");
		else
			fmt_double(t, sizeof(t), w);
		snprintf(buf, sz, "%s%s", t, suf);
		return buf;
	}
	snprintf(t, sizeof(t), w == floor(w) ? "%.0f" : "%.2f", w);
	if (strcmp(t, "-0") == 0)
		t[0] = '0', t[1] = '\0';
	if (sz < 2 * strlen(t) + 3) {
		buf[0] = '\0';
		return buf;
	}
	e = buf + sz;
	if (*p == '-')
		*o++ = *p++;
	dot = strchr(p, '.');
	n = dot != NULL ? (size_t)(dot - p) : strlen(p);
	for (i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			*o++ = ',';
		*o++ = p[i];
	}
	snprintf(o, (size_t)(e - o), "%s%s", p + n, suf);
	return buf;
}

/* "time", "count" or "bytes": what a weight in unit u is. */
const char *
fmt_unitnoun(enum sst_unit u)
{
	return u == U_SECONDS ? "time" : u == U_NONE ? "count" : "bytes";
}

/* The binade of x != 0: |x| in [*lo, *hi), doubles there *u apart. */
static void
binade(double x, double *lo, double *hi, double *u)
{
	int e;

	(void)frexp(x, &e);
	*lo = ldexp(1, e - 1);
	*hi = ldexp(1, e);
	*u = ldexp(1, e - 53 < -1074 ? -1074 : e - 53);
}

/*
 * acc + w + w + ... (n times), each addition rounded, as Python's
 * sum() and += do when they meet n equal weights in a row.  Without
 * n additions, so that a huge sample count cannot stall a filter:
 * within a binade, where the doubles are u apart, a step from a
 * multiple m of u adds w rounded to a multiple of u, which depends on
 * m only through its parity when w / u is a tie, and after a tie m is
 * even.  So once two steps in a row inside one binade have added the
 * same d, every step adds d until the sum nears the binade's edge, and
 * those steps are taken at once; a step that changes nothing ends the
 * sum.  Each binade crossed costs a few single steps.
 */
double
fmt_pysum(double acc, double w, uint64_t n)
{
	double prev, d = 0, lo = 0, hi = 0, u = 0, room, a, q;
	uint64_t k;
	int same = 0;

	while (n > 0) {
		prev = acc;
		acc += w;
		n--;
		if (acc == prev || acc != acc)
			return acc;
		if (acc - prev == d && prev != 0 && (acc > 0) == (prev > 0)) {
			binade(acc, &lo, &hi, &u);
			a = fabs(prev);
			same = a >= lo && a < hi ? same + 1 : 0;
		} else
			same = 0;
		d = acc - prev;
		if (same < 2)
			continue;
		a = fabs(acc);
		if ((d > 0) == (acc > 0))
			room = hi - 2 * u - a;
		else
			room = a - lo - u;
		if (room < fabs(d))
			continue;
		/*
		 * The quotient may round up by one; it is infinite in the
		 * last binade, whose top is 2^1024, and may pass 2^64.
		 */
		q = room / fabs(d);
		if (q >= 0x1p64)
			k = n;
		else if ((k = (uint64_t)q - 1) > n)
			k = n;
		acc += (double)k * d;
		n -= k;
		same = 0;
	}
	return acc;
}

/*
 * s[0..len) as [-+]digits[.digits][(e|E)[-+]digits], with a digit
 * before the exponent and 19 significant digits at most, into m * 10^e
 * and the sign; -1 for anything else, left to strtod(3).
 */
static int
decimal(const char *s, size_t len, uint64_t *m, int *e, int *neg)
{
	const char *p = s, *end = s + len;
	uint64_t v = 0;
	int sig = 0, frac = 0, any = 0, x = 0, xneg = 0, pt = 0;

	*neg = 0;
	if (p < end && (*p == '-' || *p == '+'))
		*neg = *p++ == '-';
	for (; p < end; p++) {
		if (*p == '.' && !pt) {
			pt = 1;
			continue;
		}
		if (*p < '0' || *p > '9')
			break;
		any = 1;
		frac += pt;
		if (v == 0 && *p == '0')
			continue;
		if (sig++ == 19)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (!any)
		return -1;
	if (p < end && (*p == 'e' || *p == 'E')) {
		if (++p < end && (*p == '-' || *p == '+'))
			xneg = *p++ == '-';
		if (p == end)
			return -1;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if (x < 100000)
				x = x * 10 + (*p - '0');
	}
	if (p != end)
		return -1;
	*m = v;
	*e = (xneg ? -x : x) - frac;
	return 0;
}

/*
 * Parse s[0..len) as a whole finite decimal number.  Only digits, signs,
 * '.' and exponents: no spaces, hexadecimal, inf or nan.  A result that
 * underflows, as the subnormals fmt_double writes, is kept.  Numbers of
 * up to 19 significant digits are mostly read by eisel.c, the rest by
 * strtod(3).
 */
int
fmt_strtod(const char *s, size_t len, double *d)
{
	char tmp[128], *end;
	uint64_t m;
	int e, neg;

	if (len == 0 || len >= sizeof(tmp))
		return -1;
	if (decimal(s, len, &m, &e, &neg) == 0 && eisel(m, e, neg, d) == 0)
		return 0;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (strspn(tmp, "0123456789+-.eE") != len)
		return -1;
	*d = strtod(tmp, &end);
	if (*end != '\0' || !isfinite(*d))
		return -1;
	return 0;
}

/* Parse s[0..len) as a whole unsigned decimal integer. */
int
fmt_strtou64(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (len == 0 || len > 20)
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (x > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return 0;
}

/*
 * fmt_double(d), remembered: a stream's weights and periods repeat (a
 * period on every record, the weights of 1, 2, 3 samples), and finding
 * the shortest text takes up to three conversions each way.  The text
 * stays until the calling thread's next call; each thread has its own.
 */
const char *
fmt_dshort(double d, size_t *len)
{
	static _Thread_local struct {
		uint64_t	 bits;
		int		 set;
		unsigned char	 len;
		char		 s[FMTBUF];
	} c[1024];
	uint64_t b;
	size_t h;

	memcpy(&b, &d, sizeof(b));
	h = (size_t)((b * 0x9e3779b97f4a7c15ULL) >> 54);
	if (!c[h].set || c[h].bits != b) {
		fmt_double(c[h].s, sizeof(c[h].s), d);
		c[h].len = (unsigned char)strlen(c[h].s);
		c[h].bits = b;
		c[h].set = 1;
	}
	*len = c[h].len;
	return c[h].s;
}
