/*
 * jsonw.c: writing JSON byte for byte as Python's json.dump() writes it
 * with its defaults (ensure_ascii, allow_nan): strings with every
 * character outside printable ASCII as a \u escape, floats as repr()
 * or NaN, Infinity and -Infinity.  A string's bytes are read as UTF-8
 * that may hold lone surrogates (WTF-8, as a Python str encoded with
 * "surrogatepass" has them); each invalid sequence is U+FFFD, as
 * Python's "replace" decoder has it.
 */
#include <math.h>
#include <string.h>

#include "jsonw.h"
#include "fmt.h"

static long	 utf8(const unsigned char *, const unsigned char *, int *);
static void	 putcp(FILE *, long);

/*
 * The code point at p (before e), its length in *len: a well-formed
 * sequence, or ED A0..BF 80..BF (a surrogate); else U+FFFD for the
 * longest start of a well-formed sequence, or for one byte.
 */
static long
utf8(const unsigned char *p, const unsigned char *e, int *len)
{
	unsigned char lo, hi;
	long cp;
	int k, i;

	*len = 1;
	if ((cp = *p) < 0x80)
		return cp;
	if (cp < 0xc2 || cp > 0xf4)
		return 0xfffd;
	k = cp < 0xe0 ? 1 : cp < 0xf0 ? 2 : 3;
	lo = cp == 0xe0 ? 0xa0 : cp == 0xf0 ? 0x90 : 0x80;
	hi = cp == 0xf4 ? 0x8f : 0xbf;
	if (cp == 0xed && (e - p < 3 || p[1] < 0xa0 || (p[2] & 0xc0) != 0x80))
		hi = 0x9f;
	for (cp &= 0x3f >> k, i = 1; i <= k; i++, lo = 0x80, hi = 0xbf) {
		if (p + i >= e || p[i] < lo || p[i] > hi)
			break;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	*len = i;
	return i <= k ? 0xfffd : cp;
}

/* One code point that needs escaping, as json.dump() escapes it. */
static void
putcp(FILE *fp, long cp)
{
	static const char ctl[] = "\b\f\n\r\t";
	const char *c;

	if (cp == '"' || cp == '\\')
		fprintf(fp, "\\%c", (int)cp);
	else if (cp > 0 && cp < 0x20 && (c = strchr(ctl, (int)cp)) != NULL)
		fprintf(fp, "\\%c", "bfnrt"[c - ctl]);
	else if (cp < 0x10000)
		fprintf(fp, "\\u%04lx", cp);
	else
		fprintf(fp, "\\u%04lx\\u%04lx", 0xd800 + ((cp - 0x10000) >> 10),
		    0xdc00 + ((cp - 0x10000) & 0x3ff));
}

/* s[0..n) as a JSON string, quotes included. */
void
jsonw_str(FILE *fp, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + n, *q;
	int len;

	putc('"', fp);
	while (p < e) {
		for (q = p; q < e && *q >= 0x20 && *q < 0x7f && *q != '"' &&
		    *q != '\\'; q++)
			;
		fwrite(p, 1, (size_t)(q - p), fp);
		if ((p = q) == e)
			break;
		putcp(fp, utf8(p, e, &len));
		p += len;
	}
	putc('"', fp);
}

/*
 * d as json.dump() writes a float.  The text of the last finite value
 * is kept, since a profile's weights are mostly one value repeated.
 */
const char *
jsonw_floattext(double d)
{
	static double last;
	static char out[FMTBUF] = "0.0";

	if (!isfinite(d))
		return isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
	if (d != last || signbit(d) != signbit(last))
		fmt_pyfloat(out, sizeof(out), last = d);
	return out;
}

void
jsonw_float(FILE *fp, double d)
{
	fputs(jsonw_floattext(d), fp);
}

/* Whether s[0..n) is a JSON number, which may be written as it is. */
int
jsonw_isnum(const char *s, size_t n)
{
	size_t i, d;

	if (n == 0)
		return 0;
	i = s[0] == '-';
	for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == d || (s[d] == '0' && i > d + 1))
		return 0;
	if (i < n && s[i] == '.') {
		for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i += i + 1 < n && (s[i + 1] == '+' || s[i + 1] == '-');
		for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	return i == n;
}
