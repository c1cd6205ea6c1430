/*
 * pprofw.c: sst records written as pprof's profile.proto, gzip
 * compressed (sst2pprof): one Sample per record (its location ids leaf
 * first, its samples and its weight as the two values, its thread as
 * the label "thread"), a Location per distinct frame name, file, line
 * and column, a Function per distinct name and file.  Weights in
 * seconds are written in nanoseconds, rounded to the nearest; counts
 * and bytes must be whole.  A period shared by every record with
 * samples is the profile's period; records of other periods carry a
 * numeric label "period".  Ids and strings are numbered in first-seen
 * order, so the same records give the same bytes.  The records are
 * kept (a few words and a location id per frame) until pprofw_put().
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "pprof.h"

/* A record: location ids ids[loc0 .. loc0 + nloc), leaf first. */
struct orec {
	size_t		 loc0;
	uint32_t	 nloc;
	uint32_t	 thread;	/* string index */
	int64_t		 n, v, per;
	int		 hasper;
};

struct pprofw {
	struct htab	*strs, *fns, *locs;
	struct htab	*raw;		/* frames as written: name TAB entry */
	uint32_t	*rawloc;	/* by raw frame: its location id */
	size_t		 rawcap;
	struct buf	 fnmsg, locmsg;	/* Function, Location fields */
	uint32_t	*ids;
	size_t		 nids, idcap;
	struct orec	*recs;
	size_t		 nrec, reccap;
	int		 unit;		/* -1 until a record with samples */
	int		 pstate;	/* 0: no record yet, 1: one period,
					   2: not */
	int64_t		 period;
	int		 over;		/* more than 2^32 - 1 strings or ids */
	struct buf	 key, tmp, msg;
	z_stream	 z;
	FILE		*fp;
	const char	*name;
	int		 zerr;
};

static uint32_t	str(struct pprofw *, const char *, size_t);
static int	toint(double, enum sst_unit, int64_t *);
static int64_t	locnum(const char *, size_t);
static const char *part(const char **, const char *, size_t *);
static uint32_t	frame(struct pprofw *, const char *, size_t, const char *,
		    size_t);
static uint32_t	newframe(struct pprofw *, const char *, size_t,
		    const char *, size_t);
static void	frames(struct pprofw *, struct orec *,
		    const struct sst_rec *);
static void	zput(struct pprofw *, const void *, size_t, int);
static void	emit(struct pprofw *, int);
static void	vtype(struct pprofw *, uint32_t, const char *, const char *);
static void	sample(struct pprofw *, const struct orec *, uint32_t,
		    uint32_t, uint32_t);

/* The index of the string s[0..n) (decoded) in the string table. */
static uint32_t
str(struct pprofw *o, const char *s, size_t n)
{
	size_t id;

	id = ht_intern(o->strs, s, n, NULL);
	if (id > UINT32_MAX) {
		o->over = 1;
		return 0;
	}
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

/*
 * The id of the Location of an escaped name and location entry: frames
 * as written are looked up first, and only a new one is parsed.
 */
static uint32_t
frame(struct pprofw *o, const char *nm, size_t nn, const char *l, size_t ln)
{
	size_t id;
	int isnew;

	buf_reset(&o->key);
	buf_add(&o->key, nm, nn);
	buf_addc(&o->key, '\t');
	buf_add(&o->key, l, ln);
	id = ht_intern(o->raw, o->key.data, o->key.len, &isnew);
	if (!isnew)
		return o->rawloc[id];
	o->rawloc = xgrow(o->rawloc, &o->rawcap, id + 1, 1024,
	    sizeof(*o->rawloc));
	return o->rawloc[id] = newframe(o, nm, nn, l, ln);
}

/* The id of the Location of a frame not seen as written before. */
static uint32_t
newframe(struct pprofw *o, const char *nm, size_t nn, const char *l,
    size_t ln)
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
	if (id >= UINT32_MAX) {
		o->over = 1;
		return 0;
	}
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

/* Compress n bytes to the output; flush: Z_FINISH at the end. */
static void
zput(struct pprofw *o, const void *p, size_t n, int flush)
{
	unsigned char b[65536];

	o->z.next_in = (unsigned char *)(uintptr_t)p;
	o->z.avail_in = (uInt)n;
	do {
		o->z.next_out = b;
		o->z.avail_out = sizeof(b);
		if (deflate(&o->z, flush) == Z_STREAM_ERROR) {
			o->zerr = 1;
			return;
		}
		xfwrite(b, sizeof(b) - o->z.avail_out, o->fp, o->name);
	} while (o->z.avail_out == 0 || o->z.avail_in > 0);
}

struct pprofw *
pprofw_new(void)
{
	struct pprofw *o;

	o = xcalloc(1, sizeof(*o));
	o->unit = -1;
	o->strs = ht_new();
	o->fns = ht_new();
	o->locs = ht_new();
	o->raw = ht_new();
	buf_init(&o->fnmsg);
	buf_init(&o->locmsg);
	buf_init(&o->key);
	buf_init(&o->tmp);
	buf_init(&o->msg);
	str(o, "", 0);
	return o;
}

void
pprofw_free(struct pprofw *o)
{
	if (o == NULL)
		return;
	ht_free(o->strs);
	ht_free(o->fns);
	ht_free(o->locs);
	ht_free(o->raw);
	free(o->rawloc);
	buf_free(&o->fnmsg);
	buf_free(&o->locmsg);
	buf_free(&o->key);
	buf_free(&o->tmp);
	buf_free(&o->msg);
	free(o->ids);
	free(o->recs);
	free(o);
}

/* The location ids of r's frames into o->ids, leaf first. */
static void
frames(struct pprofw *o, struct orec *x, const struct sst_rec *r)
{
	const char *sp, *lp, *nm, *l;
	size_t nn, ln, k, nf;
	uint32_t t;

	nf = r->stacklen > 0 ? rec_nframes(r->stack, r->stacklen) : 0;
	if (nf > UINT32_MAX) {
		o->over = 1;
		return;
	}
	x->nloc = (uint32_t)nf;
	x->loc0 = o->nids;
	sp = r->stack;
	lp = r->locs;
	for (k = 0; k < nf; k++) {
		nm = part(&sp, r->stack + r->stacklen, &nn);
		l = "";
		ln = 0;
		if (r->locslen > 0)
			l = part(&lp, r->locs + r->locslen, &ln);
		o->ids = xgrow(o->ids, &o->idcap, o->nids + 1, 4096,
		    sizeof(*o->ids));
		o->ids[o->nids++] = frame(o, nm, nn, l, ln);
	}
	for (k = 0; k < nf / 2; k++) {
		t = o->ids[x->loc0 + k];
		o->ids[x->loc0 + k] = o->ids[x->loc0 + nf - 1 - k];
		o->ids[x->loc0 + nf - 1 - k] = t;
	}
}

int
pprofw_add(struct pprofw *o, const struct sst_rec *r, const char **why)
{
	struct orec *x;
	int st;

	if (r->samples > 0 && o->unit != -1 && (int)r->unit != o->unit) {
		*why = "a second unit: a profile's values have one";
		return -1;
	}
	o->recs = xgrow(o->recs, &o->reccap, o->nrec + 1, 1024,
	    sizeof(*o->recs));
	x = &o->recs[o->nrec];
	memset(x, 0, sizeof(*x));
	if (r->samples > INT64_MAX) {
		*why = "samples beyond pprof's 2^63 - 1";
		return -1;
	}
	x->n = (int64_t)r->samples;
	if ((st = toint(r->weight, r->unit, &x->v)) < 0) {
		*why = st == -1 ? "weight out of pprof's range" : "weight not "
		    "a whole number: pprof's values are integers";
		return -1;
	}
	if (r->hasperiod && r->samples > 0 &&
	    toint(r->period, r->unit, &x->per) == 0 &&
	    (x->per == 0 || x->n <= INT64_MAX / llabs(x->per))) {
		x->hasper = 1;
		x->v = x->n * x->per;
	}
	if (r->samples > 0 && o->unit == -1)
		o->unit = (int)r->unit;
	if (r->samples > 0 && o->pstate == 0) {
		o->pstate = x->hasper ? 1 : 2;
		o->period = x->per;
	} else if (r->samples > 0 && (!x->hasper || x->per != o->period))
		o->pstate = 2;
	buf_reset(&o->tmp);
	buf_grow(&o->tmp, r->threadlen);
	o->tmp.len = esc_decode(o->tmp.data, r->thread, r->threadlen);
	x->thread = str(o, o->tmp.data, o->tmp.len);
	frames(o, x, r);
	if (o->over) {
		*why = "more than 2^32 - 1 strings, frames or locations";
		return -1;
	}
	o->nrec++;
	return 0;
}

/* Add a field of the profile to o->msg, compressed when it is large. */
static void
emit(struct pprofw *o, int last)
{
	if (o->msg.len >= 65536 || last) {
		zput(o, o->msg.data, o->msg.len, last ? Z_FINISH : Z_NO_FLUSH);
		buf_reset(&o->msg);
	}
}

/* A ValueType field num of type t and unit u, into o->msg. */
static void
vtype(struct pprofw *o, uint32_t num, const char *t, const char *u)
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
sample(struct pprofw *o, const struct orec *x, uint32_t kthread,
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

int
pprofw_put(struct pprofw *o, FILE *fp, const char *name)
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
	o->fp = fp;
	o->name = name;
	if (deflateInit2(&o->z, 9, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
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
	return o->zerr ? -1 : 0;
}

