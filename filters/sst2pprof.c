/*
 * sst2pprof: write an sst(5) stream as pprof's profile.proto, gzip
 * compressed, to standard output: one Sample per record (its location
 * ids leaf first, its samples and its weight as the two values, its
 * thread as the label "thread"), a Location per distinct frame name,
 * file, line and column, a Function per distinct name and file.  Weights
 * in seconds are written in nanoseconds, rounded to the nearest; counts
 * and bytes must be whole.  A period shared by every record is the
 * profile's period; records of other periods carry a numeric label
 * "period".  Ids and strings are numbered in first-seen order, so the
 * same input gives the same bytes.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "sst.h"
#include "pprof.h"

/* A record: location ids ids[loc0 .. loc0 + nloc), leaf first. */
struct orec {
	size_t		 loc0;
	uint32_t	 nloc;
	uint32_t	 thread;	/* string index */
	int64_t		 n, v, per;
	int		 hasper;
};

struct out {
	struct htab	*strs, *fns, *locs;
	struct buf	 fnmsg, locmsg;	/* Function, Location fields */
	uint32_t	*ids;
	size_t		 nids, idcap;
	struct orec	*recs;
	size_t		 nrec, reccap;
	int		 unit;		/* -1 until a record sets it */
	int		 pstate;	/* 0: no record yet, 1: one period, 2: not */
	int64_t		 period;
	struct buf	 key, tmp, msg;
	z_stream	 z;
};

static uint32_t	str(struct out *, const char *, size_t);
static int	toint(double, enum sst_unit, int64_t *);
static int64_t	locnum(const char *, size_t);
static const char *part(const char **, const char *, size_t *);
static uint32_t	frame(struct out *, const char *, size_t, const char *,
		    size_t);
static void	readfile(struct out *, const char *);
static void	zput(struct out *, const void *, size_t, int);
static void	putprofile(struct out *);
static __dead void usage(int);

/* The index of the string s[0..n) (decoded) in the string table. */
static uint32_t
str(struct out *o, const char *s, size_t n)
{
	size_t id;

	id = ht_intern(o->strs, s, n, NULL);
	if (id > UINT32_MAX)
		errx(1, "more than 2^32 strings");
	return (uint32_t)id;
}

/* A weight as a value: nanoseconds, or a whole count or bytes. */
static int
toint(double w, enum sst_unit u, int64_t *v)
{
	double x = u == U_SECONDS ? w * 1e9 : w;

	if (!(fabs(x) < 9223372036854775808.0))
		return -1;
	if (u != U_SECONDS && x != floor(x))
		return -2;
	*v = (int64_t)llround(x);
	return 0;
}

/* An integer field of a location entry, or 0 (none, null, other). */
static int64_t
locnum(const char *s, size_t n)
{
	char b[24];
	const char *e;
	long long v;

	if (n == 0 || n >= sizeof(b))
		return 0;
	memcpy(b, s, n);
	b[n] = '\0';
	v = strtonum(b, LLONG_MIN, LLONG_MAX, &e);
	return e == NULL ? v : 0;
}

/* The id of the Location of an escaped name and location entry. */
static uint32_t
frame(struct out *o, const char *nm, size_t nn, const char *l, size_t ln)
{
	const char *c[3], *file = l;
	size_t fl = 0, id, k, i;
	int64_t line = 0, col = 0;
	uint32_t fid, fname;
	int isnew;

	/* file:line:col:frame, split at the last three colons. */
	for (k = 0, i = ln; k < 3 && i > 0; i--)
		if (l[i - 1] == ':')
			c[k++] = l + i - 1;
	if (k == 3) {
		fl = (size_t)(c[2] - l);
		line = locnum(c[2] + 1, (size_t)(c[1] - c[2] - 1));
		col = locnum(c[1] + 1, (size_t)(c[0] - c[1] - 1));
	}
	buf_reset(&o->key);
	buf_add(&o->key, nm, nn);
	buf_addc(&o->key, '\t');
	buf_add(&o->key, file, fl);
	id = ht_intern(o->fns, o->key.data, o->key.len, &isnew);
	fid = (uint32_t)id + 1;
	if (isnew) {
		buf_reset(&o->tmp);
		buf_grow(&o->tmp, nn + fl);
		o->tmp.len = esc_decode(o->tmp.data, nm, nn);
		if (nn == 2 && memcmp(nm, "\\e", 2) == 0)
			o->tmp.len = 0;
		fname = str(o, o->tmp.data, o->tmp.len);
		buf_reset(&o->msg);
		pb_putuint(&o->msg, 1, fid);
		pb_putuint(&o->msg, 2, fname);
		pb_putuint(&o->msg, 3, fname);
		o->tmp.len = esc_decode(o->tmp.data, file, fl);
		if (o->tmp.len > 0)
			pb_putuint(&o->msg, 4, str(o, o->tmp.data,
			    o->tmp.len));
		pb_putbytes(&o->fnmsg, 5, o->msg.data, o->msg.len);
	}
	buf_printf(&o->key, "\t%lld\t%lld", (long long)line, (long long)col);
	id = ht_intern(o->locs, o->key.data, o->key.len, &isnew);
	if (id >= UINT32_MAX)
		errx(1, "more than 2^32 - 1 locations");
	if (isnew) {
		buf_reset(&o->tmp);
		pb_putuint(&o->tmp, 1, fid);
		if (line != 0)
			pb_putuint(&o->tmp, 2, (uint64_t)line);
		if (col != 0)
			pb_putuint(&o->tmp, 3, (uint64_t)col);
		buf_reset(&o->msg);
		pb_putuint(&o->msg, 1, id + 1);
		pb_putbytes(&o->msg, 4, o->tmp.data, o->tmp.len);
		pb_putbytes(&o->locmsg, 4, o->msg.data, o->msg.len);
	}
	return (uint32_t)id + 1;
}

/* The next ';'-separated part of [*p, e), *p moved past it. */
static const char *
part(const char **p, const char *e, size_t *n)
{
	const char *s = *p, *q;

	if ((q = memchr(s, ';', (size_t)(e - s))) == NULL)
		q = e;
	*n = (size_t)(q - s);
	*p = q < e ? q + 1 : e;
	return s;
}

/* Add the records of one input. */
static void
readfile(struct out *o, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	struct orec *x;
	const char *sp, *lp, *nm, *l;
	size_t nn, ln, k, nf, first;
	int fd, st;

	fd = xopen(path);
	rd = rec_open(fd, path);
	rec_oneunit(rd, &o->unit);
	while (rec_read(rd, &r)) {
		if (o->nrec == o->reccap) {
			o->reccap = o->reccap ? o->reccap * 2 : 1024;
			o->recs = xreallocarray(o->recs, o->reccap,
			    sizeof(*o->recs));
		}
		x = &o->recs[o->nrec++];
		memset(x, 0, sizeof(*x));
		buf_reset(&o->tmp);
		buf_grow(&o->tmp, r.threadlen);
		o->tmp.len = esc_decode(o->tmp.data, r.thread, r.threadlen);
		x->thread = str(o, o->tmp.data, o->tmp.len);
		x->n = (int64_t)r.samples;
		if (r.samples > INT64_MAX)
			rec_fail(rd, "%llu samples: more than pprof's 2^63 - 1",
			    (unsigned long long)r.samples);
		if ((st = toint(r.weight, r.unit, &x->v)) == -1)
			rec_fail(rd, "weight out of pprof's range");
		if (st == -2)
			rec_fail(rd, "weight not a whole number of %s: pprof's "
			    "values are integers", rec_unitname(r.unit));
		if (r.hasperiod && r.samples > 0 &&
		    toint(r.period, r.unit, &x->per) == 0 &&
		    (x->per == 0 || x->n <= INT64_MAX / llabs(x->per))) {
			x->hasper = 1;
			x->v = x->n * x->per;
		}
		if (r.samples > 0 && o->pstate == 0) {
			o->pstate = x->hasper ? 1 : 2;
			o->period = x->per;
		} else if (r.samples > 0 && (!x->hasper ||
		    x->per != o->period))
			o->pstate = 2;
		nf = r.stacklen > 0 ? rec_nframes(r.stack, r.stacklen) : 0;
		if (nf > UINT32_MAX)
			rec_fail(rd, "more than 2^32 - 1 frames");
		x->nloc = (uint32_t)nf;
		x->loc0 = o->nids;
		first = o->nids;
		sp = r.stack;
		lp = r.locs;
		for (k = 0; k < nf; k++) {
			nm = part(&sp, r.stack + r.stacklen, &nn);
			l = "";
			ln = 0;
			if (r.locslen > 0)
				l = part(&lp, r.locs + r.locslen, &ln);
			if (o->nids == o->idcap) {
				o->idcap = o->idcap ? o->idcap * 2 : 4096;
				o->ids = xreallocarray(o->ids, o->idcap,
				    sizeof(*o->ids));
			}
			o->ids[o->nids++] = frame(o, nm, nn, l, ln);
		}
		/* Leaf first. */
		for (k = 0; k < nf / 2; k++) {
			uint32_t t = o->ids[first + k];

			o->ids[first + k] = o->ids[first + nf - 1 - k];
			o->ids[first + nf - 1 - k] = t;
		}
	}
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* Compress n bytes to standard output; flush: Z_FINISH at the end. */
static void
zput(struct out *o, const void *p, size_t n, int flush)
{
	unsigned char b[65536];

	o->z.next_in = (unsigned char *)(uintptr_t)p;
	o->z.avail_in = (uInt)n;
	do {
		o->z.next_out = b;
		o->z.avail_out = sizeof(b);
		if (deflate(&o->z, flush) == Z_STREAM_ERROR)
			errx(1, "deflate: %s", o->z.msg ? o->z.msg : "error");
		xfwrite(b, sizeof(b) - o->z.avail_out, stdout, "stdout");
	} while (o->z.avail_out == 0 || o->z.avail_in > 0);
}

/* Add a field of the profile to o->msg, compressed when it is large. */
static void
emit(struct out *o, int last)
{
	if (o->msg.len >= 65536 || last) {
		zput(o, o->msg.data, o->msg.len, last ? Z_FINISH : Z_NO_FLUSH);
		buf_reset(&o->msg);
	}
}

/* A ValueType field num of type t and unit u, into o->msg. */
static void
vtype(struct out *o, uint32_t num, const char *t, const char *u)
{
	uint32_t ti, ui;

	ti = str(o, t, strlen(t));
	ui = str(o, u, strlen(u));
	buf_reset(&o->tmp);
	pb_putuint(&o->tmp, 1, ti);
	pb_putuint(&o->tmp, 2, ui);
	pb_putbytes(&o->msg, num, o->tmp.data, o->tmp.len);
}

/* A Sample field of a record into o->msg. */
static void
sample(struct out *o, const struct orec *x, uint32_t kthread,
    uint32_t kperiod, uint32_t kunit)
{
	struct buf *t = &o->tmp;
	struct buf lab;
	size_t k, mark;

	buf_reset(t);
	if (x->nloc > 0) {
		buf_init(&lab);
		for (k = 0; k < x->nloc; k++)
			pb_putvarint(&lab, o->ids[x->loc0 + k]);
		pb_putbytes(t, 1, lab.data, lab.len);
		buf_free(&lab);
	}
	mark = t->len;
	pb_putvarint(t, (uint64_t)x->n);
	pb_putvarint(t, (uint64_t)x->v);
	buf_reset(&o->key);
	buf_add(&o->key, t->data + mark, t->len - mark);
	t->len = mark;
	pb_putbytes(t, 2, o->key.data, o->key.len);
	buf_reset(&o->key);
	pb_putuint(&o->key, 1, kthread);
	if (x->thread != 0)
		pb_putuint(&o->key, 2, x->thread);
	pb_putbytes(t, 3, o->key.data, o->key.len);
	if (x->hasper && o->pstate != 1) {
		buf_reset(&o->key);
		pb_putuint(&o->key, 1, kperiod);
		if (x->per != 0)
			pb_putuint(&o->key, 3, (uint64_t)x->per);
		pb_putuint(&o->key, 4, kunit);
		pb_putbytes(t, 3, o->key.data, o->key.len);
	}
	pb_putbytes(&o->msg, 2, t->data, t->len);
}

/* The whole profile, compressed, to standard output. */
static void
putprofile(struct out *o)
{
	static const char *const names[][2] = {
		{ "cpu", "nanoseconds" },	/* U_SECONDS */
		{ "weight", "count" },		/* U_NONE */
		{ "space", "bytes" },		/* U_BYTES */
	};
	const char *const *vt;
	const char *s;
	uint32_t kthread, kperiod, kunit;
	size_t i, n;

	vt = names[o->unit < 0 ? U_SECONDS : o->unit];
	if (deflateInit2(&o->z, 9, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		errx(1, "deflateInit2 failed");
	buf_reset(&o->msg);
	vtype(o, 1, "samples", "count");
	vtype(o, 1, vt[0], vt[1]);
	kthread = str(o, "thread", 6);
	kperiod = str(o, "period", 6);
	kunit = str(o, vt[1], strlen(vt[1]));
	for (i = 0; i < o->nrec; i++) {
		sample(o, &o->recs[i], kthread, kperiod, kunit);
		emit(o, 0);
	}
	zput(o, o->msg.data, o->msg.len, Z_NO_FLUSH);
	buf_reset(&o->msg);
	zput(o, o->locmsg.data, o->locmsg.len, Z_NO_FLUSH);
	zput(o, o->fnmsg.data, o->fnmsg.len, Z_NO_FLUSH);
	if (o->pstate == 1)
		vtype(o, 11, vt[0], vt[1]);
	for (i = 0; i < ht_count(o->strs); i++) {
		s = ht_key(o->strs, i, &n);
		pb_putbytes(&o->msg, 6, s, n);
		emit(o, 0);
	}
	if (o->pstate == 1 && o->period != 0)
		pb_putuint(&o->msg, 12, (uint64_t)o->period);
	emit(o, 1);
	deflateEnd(&o->z);
}

static __dead void
usage(int help)
{
	sst_usage(help, "usage: sst2pprof [-h] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct out o;
	int ch, i;

	sst_init();
	memset(&o, 0, sizeof(o));
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "h")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (isatty(STDOUT_FILENO))
		errx(1, "standard output is a terminal: a profile.proto is "
		    "binary, redirect it to a file");
	o.unit = -1;
	o.strs = ht_new();
	o.fns = ht_new();
	o.locs = ht_new();
	buf_init(&o.fnmsg);
	buf_init(&o.locmsg);
	buf_init(&o.key);
	buf_init(&o.tmp);
	buf_init(&o.msg);
	str(&o, "", 0);
	if (argc == 0)
		readfile(&o, NULL);
	for (i = 0; i < argc; i++)
		readfile(&o, argv[i]);
	putprofile(&o);
	fshut(stdout, "stdout");
	ht_free(o.strs);
	ht_free(o.fns);
	ht_free(o.locs);
	buf_free(&o.fnmsg);
	buf_free(&o.locmsg);
	buf_free(&o.key);
	buf_free(&o.tmp);
	buf_free(&o.msg);
	free(o.ids);
	free(o.recs);
	return 0;
}
