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

#include "sst.h"
#include "input.h"
#include "compact.h"

#define NFIELDS	7

struct sst_reader {
	struct lines	*lines;
	const char	*line;		/* the last line read */
	size_t		 len;
	int		*unit;		/* NULL, or the one unit allowed */
	struct cpr	*cp;		/* the compact form's, once seen */
	int		 compact;	/* the last record was compact */
	int		 nostacks;	/* rec_nostacks() */
	int		 done;		/* an error ended the input */
	int		 fd;		/* rec_openfile()'s, or -1 */
	struct buf	 err;		/* its message */
};

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
		if (strlen(unitnames[i]) == n && memcmp(s, unitnames[i], n) == 0) {
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
	else if (fmt_strtod(f[4], fl[4], &r->period) == 0)
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

/*
 * What a first line that is no record says about the input, if its
 * first bytes look like another format: the program that reads it.
 */
static const char *
notsst(struct sst_reader *r, char *buf, size_t n)
{
	const char *head;
	size_t len;
	enum sniff k;

	head = lines_head(r->lines, &len);
	switch (k = sniff(head, len)) {
	case SN_SST:
	case SN_EMPTY:
	case SN_TEXT:
		return NULL;
	case SN_JSON:
		return "this is JSON, not an sst(5) stream: sst-flatten reads "
		    "speedscope JSON, trace2sst Chrome trace events";
	default:
		if (sniff_reader(k) == NULL)
			return NULL;
		snprintf(buf, n, "this looks like %s, not an sst(5) stream: "
		    "%s", sniff_what(k), sniff_reader(k));
		return buf;
	}
}

struct sst_reader *
rec_open(int fd, const char *name)
{
	struct sst_reader *r;

	r = xcalloc(1, sizeof(*r));
	r->lines = lines_open(fd, name);
	r->fd = -1;
	buf_init(&r->err);
	return r;
}

struct sst_reader *
rec_openfile(const char *path, char *msg, size_t mlen)
{
	struct sst_reader *r;
	int fd;

	if (path == NULL || strcmp(path, "-") == 0)
		return rec_open(STDIN_FILENO, path);
	if ((fd = open(path, O_RDONLY)) == -1) {
		snprintf(msg, mlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	r = rec_open(fd, path);
	r->fd = fd;
	return r;
}

void
rec_oneunit(struct sst_reader *r, int *unit)
{
	r->unit = unit;
}

int
rec_seterror(struct sst_reader *r, const char *fmt, ...)
{
	va_list ap;

	buf_reset(&r->err);
	buf_printf(&r->err, "%s:%llu: ", lines_name(r->lines),
	    lines_lineno(r->lines));
	va_start(ap, fmt);
	buf_vprintf(&r->err, fmt, ap);
	va_end(ap);
	r->done = 1;
	return -1;
}

const char *
rec_error(const struct sst_reader *r)
{
	return r->err.len > 0 ? r->err.data : NULL;
}

void
xrec_fail(struct sst_reader *r, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "%s: %s:%llu: ", getprogname(),
	    lines_name(r->lines), lines_lineno(r->lines));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

int
rec_read(struct sst_reader *r, struct sst_rec *rec)
{
	const char *why, *what;
	char *line, buf[256];
	size_t len;
	enum cp_kind k;

	if (r->done)
		return 0;
	for (;;) {
		if ((line = lines_next(r->lines, &len)) == NULL) {
			if ((why = lines_error(r->lines)) == NULL)
				return 0;
			buf_reset(&r->err);
			buf_adds(&r->err, why);
			r->done = 1;
			return -1;
		}
		r->line = line;
		r->len = len;
		if (!cp_isline(line, len)) {
			r->compact = 0;
			if (rec_parse(line, len, rec, &why) == 0)
				break;
			if (lines_lineno(r->lines) == 1 &&
			    (what = notsst(r, buf, sizeof(buf))) != NULL)
				why = what;
			return rec_seterror(r, "%s", why);
		}
		if (r->cp == NULL) {
			r->cp = cpr_new();
			if (r->nostacks)
				cpr_lazy(r->cp);
		}
		if ((k = cpr_line(r->cp, line, len, rec, &why)) == CP_ERR)
			return rec_seterror(r, "%s", why);
		if (k == CP_REC) {
			r->compact = 1;
			break;
		}
	}
	if (r->unit != NULL && rec->samples > 0) {
		if (*r->unit == -1)
			*r->unit = (int)rec->unit;
		else if (*r->unit != (int)rec->unit)
			return rec_seterror(r, "unit %s after unit %s: a "
			    "reducer adds weights of one unit only",
			    rec_unitname(rec->unit),
			    rec_unitname((enum sst_unit)*r->unit));
	}
	return 1;
}

/*
 * rec_read(), exiting 1 on an error as xrec_fail() does (after standard
 * output is flushed, a line of progress hidden).
 */
int
xrec_read(struct sst_reader *r, struct sst_rec *rec)
{
	int k;

	if ((k = rec_read(r, rec)) != -1)
		return k;
	fflush(stdout);
	progress_hide();
	fprintf(stderr, "%s: %s\n", getprogname(), r->err.data);
	exit(1);
}

void
rec_nostacks(struct sst_reader *r)
{
	r->nostacks = 1;
	if (r->cp != NULL)
		cpr_lazy(r->cp);
}

const char *
rec_leaf(const struct sst_reader *r, const struct sst_rec *rec, size_t *len,
    const char **loc, size_t *llen)
{
	if (r->compact)
		return cpr_leaf(r->cp, len, loc, llen);
	if (rec->stacklen == 0)
		return NULL;
	*loc = rec_last(rec->locs, rec->locslen, llen);
	return rec_last(rec->stack, rec->stacklen, len);
}

const char *
rec_line(const struct sst_reader *r, size_t *len)
{
	if (r->compact)
		return cpr_text(r->cp, len);
	*len = r->len;
	return r->line;
}

void
rec_close(struct sst_reader *r)
{
	if (r == NULL)
		return;
	lines_close(r->lines);
	if (r->fd != -1)
		close(r->fd);
	cpr_free(r->cp);
	buf_free(&r->err);
	free(r);
}

size_t
rec_nums(char *buf, const struct sst_rec *r)
{
	char *q = buf;
	const char *t;
	size_t n;

	q += fmt_u64(q, r->samples);
	*q++ = '\t';
	t = fmt_dshort(r->weight, &n);
	memcpy(q, t, n);
	q += n;
	*q++ = '\t';
	t = rec_unitname(r->unit);
	n = strlen(t);
	memcpy(q, t, n);
	q += n;
	*q++ = '\t';
	if (r->hasperiod) {
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
