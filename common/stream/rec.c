/*
 * rec.c: reading and writing the sst stream (see sst(5)).  A record is
 * one line of seven TAB-separated fields:
 *
 *	thread samples weight unit period stack locations
 *
 * and an optional eighth, the start time of a per-sample or per-span
 * record.  Names stay escaped (esc.c) as they are in the stream; the
 * reader checks the numbers, that the weight is samples times period,
 * and that locations, when present, has as many frames as stack.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rec.h"
#include "util.h"
#include "buf.h"
#include "lines.h"
#include "progress.h"
#include "esc.h"
#include "fmt.h"
#include "input.h"

#define NFIELDS	7


static const char *unitnames[] = { "seconds", "none", "bytes" };

const char *
rec_unitname(enum sst_unit u)
{
	return unitnames[u];
}

int
rec_parseunit(const char *s, size_t n, enum sst_unit *u)
{
	size_t i;

	for (i = 0; i < sizeof(unitnames) / sizeof(unitnames[0]); i++) {
		if (strlen(unitnames[i]) == n &&
		    memcmp(s, unitnames[i], n) == 0) {
			*u = (enum sst_unit)i;
			return 0;
		}
	}
	return -1;
}

size_t
rec_nframes(const char *s, size_t n)
{
	size_t k = 1;
	const char *p, *e = s + n;

	if (n == 0)
		return 0;
	for (p = s; (p = memchr(p, ';', (size_t)(e - p))) != NULL; p++)
		k++;
	return k;
}

/* The last ';'-separated piece of s[0..n). */
const char *
rec_last(const char *s, size_t n, size_t *len)
{
	const char *p = s + n;

	while (p > s && p[-1] != ';')
		p--;
	*len = (size_t)(s + n - p);
	return p;
}

/*
 * Whether weight can be the sum of n samples of weight per added left
 * to right (sst(5)): n = 0 weighs 0; else weight / n may differ from per
 * by the rounding of n - 1 additions, (n - 1)u / (1 - (n - 1)u) of per
 * with u = 2^-53, plus that of the division and of n as a double, and
 * an ulp of the subnormals.  Past 2^52 samples the sum may stop growing
 * and only its sign is sure.
 */
static int
weightok(double weight, double per, uint64_t n)
{
	double g, u = 0x1p-53;

	if (n == 0)
		return weight == 0;
	g = (double)(n - 1) * u;
	if (g >= 0.5)
		return weight == 0 || per == 0 || (weight > 0) == (per > 0);
	g = g / (1 - g) + 4 * u;
	return fabs(weight / (double)n - per) <= fabs(per) * g + 0x1p-1073;
}

/*
 * Fields thread, samples, weight, unit and period (f[0..5), fl their
 * lengths) into r; 0, or -1 with *why.
 */
int
rec_head(char *const *f, const size_t *fl, struct sst_rec *r,
    const char **why)
{
	r->thread = f[0];
	r->threadlen = fl[0];
	r->frames = NULL;
	if (fmt_strtou64(f[1], fl[1], &r->samples) == -1) {
		*why = "bad sample count";
		return -1;
	}
	if (fmt_strtod(f[2], fl[2], &r->weight) == -1) {
		*why = "bad weight";
		return -1;
	}
	if (rec_parseunit(f[3], fl[3], &r->unit) == -1) {
		*why = "bad unit";
		return -1;
	}
	if (fl[4] == 1 && f[4][0] == '-')
		r->hasperiod = 0;
	else if (fl[4] == fl[2] && memcmp(f[4], f[2], fl[2]) == 0) {
		/* A record of one sample: the weight's text read once. */
		r->period = r->weight;
		r->hasperiod = 1;
	} else if (fmt_strtod(f[4], fl[4], &r->period) == 0)
		r->hasperiod = 1;
	else {
		*why = "bad period";
		return -1;
	}
	if (esc_valid(r->thread, r->threadlen) == -1) {
		*why = "bad escape sequence";
		return -1;
	}
	return 0;
}

/*
 * The start field st[0..n) (st NULL: none) into r, and the checks of
 * the numbers of a whole record; 0, or -1 with *why.
 */
int
rec_tail(const char *st, size_t n, struct sst_rec *r, const char **why)
{
	r->hasstart = st != NULL;
	if (r->hasstart && fmt_strtod(st, n, &r->start) == -1) {
		*why = "bad start time";
		return -1;
	}
	if (r->samples == 0 && r->weight != 0) {
		*why = "0 samples with a non-zero weight";
		return -1;
	}
	if (r->hasperiod && !weightok(r->weight, r->period, r->samples)) {
		*why = "weight is not samples times period";
		return -1;
	}
	return 0;
}

int
rec_parse(char *line, size_t len, struct sst_rec *r, const char **why)
{
	char *f[NFIELDS + 1], *p, *e = line + len;
	size_t fl[NFIELDS + 1], ns, nl;
	int i, locsok, hasstart = 0;

	p = line;
	for (i = 0; i < NFIELDS; i++) {
		f[i] = p;
		if (i < NFIELDS - 1) {
			if ((p = memchr(p, '\t', (size_t)(e - p))) == NULL) {
				*why = "expected 7 TAB-separated fields";
				return -1;
			}
		} else
			p = e;
		fl[i] = (size_t)(p - f[i]);
		p++;
	}
	/*
	 * One pass over the locations checks them and counts frames; only
	 * when that fails may they hold the TAB of an eighth field.
	 */
	if ((locsok = esc_scan(f[6], fl[6], &nl)) == -1 &&
	    (p = memchr(f[6], '\t', fl[6])) != NULL) {
		f[7] = p + 1;
		fl[7] = (size_t)(e - f[7]);
		fl[6] = (size_t)(p - f[6]);
		if (memchr(f[7], '\t', fl[7]) != NULL) {
			*why = "expected 7 or 8 TAB-separated fields";
			return -1;
		}
		locsok = esc_scan(f[6], fl[6], &nl);
		hasstart = 1;
	}
	if (rec_head(f, fl, r, why) == -1)
		return -1;
	r->stack = f[5];
	r->stacklen = fl[5];
	r->locs = f[6];
	r->locslen = fl[6];
	if (esc_scan(r->stack, r->stacklen, &ns) == -1 || locsok == -1) {
		*why = "bad escape sequence";
		return -1;
	}
	if (r->locslen > 0 && (r->stacklen == 0 || ns != nl)) {
		*why = "stack and locations differ in length";
		return -1;
	}
	return rec_tail(hasstart ? f[7] : NULL, hasstart ? fl[7] : 0, r,
	    why);
}

size_t
rec_nums(char *buf, const struct sst_rec *r)
{
	char *q = buf, *w;
	const char *t;
	size_t n, wn;

	q += fmt_u64(q, r->samples);
	*q++ = '\t';
	t = fmt_dshort(r->weight, &n);
	memcpy(q, t, n);
	w = q;
	wn = n;
	q += n;
	*q++ = '\t';
	t = rec_unitname(r->unit);
	n = strlen(t);
	memcpy(q, t, n);
	q += n;
	*q++ = '\t';
	if (r->hasperiod &&
	    memcmp(&r->period, &r->weight, sizeof(r->weight)) == 0) {
		/* The same double (one sample): its text written once. */
		memmove(q, w, wn);
		q += wn;
	} else if (r->hasperiod) {
		t = fmt_dshort(r->period, &n);
		memcpy(q, t, n);
		q += n;
	} else
		*q++ = '-';
	return (size_t)(q - buf);
}

void
rec_write(FILE *fp, const struct sst_rec *r)
{
	char line[REC_NUMSZ + 2];
	const char *t;
	size_t n;

	line[0] = '\t';
	n = rec_nums(line + 1, r) + 1;
	line[n++] = '\t';
	/* One lock a record: the calls below would take it each. */
	flockfile(fp);
	fwrite_unlocked(r->thread, 1, r->threadlen, fp);
	fwrite_unlocked(line, 1, n, fp);
	fwrite_unlocked(r->stack, 1, r->stacklen, fp);
	putc_unlocked('\t', fp);
	fwrite_unlocked(r->locs, 1, r->locslen, fp);
	if (r->hasstart) {
		putc_unlocked('\t', fp);
		t = fmt_dshort(r->start, &n);
		fwrite_unlocked(t, 1, n, fp);
	}
	putc_unlocked('\n', fp);
	funlockfile(fp);
}

/*
 * acc plus the weights of the samples of r, one by one, so that sums
 * match Python's float sums (see sst(5), EXACT SUMS).
 */
double
rec_addw(double acc, const struct sst_rec *r)
{
	if (r->hasperiod)
		return fmt_pysum(acc, r->period, r->samples);
	return acc + r->weight;
}
