/*
 * pprof.c: pprof's profile.proto read and written by hand (pprof.h).
 * The wire format: a message is a sequence of fields, each a varint key
 * (field number << 3 | wire type) and a value: a varint, 8 or 4 bytes,
 * or a varint length and that many bytes (strings, nested messages,
 * packed repeated scalars).  The reader accepts repeated scalars packed
 * or not, skips fields it does not know, checks every length against
 * the bytes of the message that holds it and says where a fault is: its
 * offset in the (decompressed) profile.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "sort.h"
#include "pprof.h"

struct dec {
	struct pprof	*p;
	char		*err;
	size_t		 errlen;
	size_t		 lcap, stcap, strcap, smpcap, loccap, fncap, mapcap;
};

/* What walk() reads of a message. */
struct pbmsg {
	const char	*what;		/* its name, for errors */
	uint32_t	 want;		/* bit k: field k, a varint: v[k] */
	uint32_t	 sub;		/* a field of messages for fn, or 0 */
	int		(*fn)(void *, const struct pb_field *);
	void		*arg;
	uint64_t	 v[6];
};

static int	fail(char *, size_t, size_t, const char *, ...)
		    __attribute__((__format__(__printf__, 4, 5)));
static int	vtype(struct dec *, const struct pb_field *,
		    struct pprof_vt *);
static int	walk(const uint8_t *, const struct pb_field *, struct pbmsg *,
		    char *, size_t);
static int	line(void *, const struct pb_field *);
static int	location(struct dec *, const struct pb_field *);
static int	function(struct dec *, const struct pb_field *);
static int	mapping(struct dec *, const struct pb_field *);
static int	strok(const struct pprof *, int64_t);
static int	checkstr(struct dec *);
static int	byid(size_t, size_t, void *);
static int	mkindex(struct dec *, size_t **, size_t, size_t, const char *);
static long	find(const size_t *, size_t, const void *, size_t, uint64_t);
static int	scalars(const struct pb_field *, int64_t **, size_t *,
		    size_t *, char *, size_t, size_t, const char *);

/* "offset N: message" into err[0..n); returns -1. */
static int
fail(char *err, size_t n, size_t off, const char *fmt, ...)
{
	va_list ap;
	int k;

	k = snprintf(err, n, "offset %zu: ", off);
	if (k < 0 || (size_t)k >= n)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + k, n - (size_t)k, fmt, ap);
	va_end(ap);
	return -1;
}

void
pb_init(struct pb *m, const uint8_t *base, const uint8_t *p, size_t len)
{
	m->base = base;
	m->p = p;
	m->end = p + len;
}

int
pb_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t x = 0;
	int i;

	for (i = 0; i < 10; i++) {
		if (p == end)
			return -1;
		if (i == 9 && *p > 1)
			return -1;
		x |= (uint64_t)(*p & 0x7f) << (7 * i);
		if ((*p++ & 0x80) == 0) {
			*v = x;
			*pp = p;
			return 0;
		}
	}
	return -1;
}

int
pb_next(struct pb *m, struct pb_field *f, char *err, size_t n)
{
	const uint8_t *start = m->p;
	size_t off = (size_t)(start - m->base);
	uint64_t key, len;
	int i;

	if (m->p == m->end)
		return 0;
	if (pb_varint(&m->p, m->end, &key) == -1)
		return fail(err, n, off, "malformed field key");
	if ((key >> 3) == 0 || (key >> 3) > 0x1fffffff)
		return fail(err, n, off, "bad field number %llu",
		    (unsigned long long)(key >> 3));
	f->num = (uint32_t)(key >> 3);
	f->wire = (int)(key & 7);
	f->data = NULL;
	f->len = 0;
	f->v = 0;
	switch (f->wire) {
	case PB_VARINT:
		if (pb_varint(&m->p, m->end, &f->v) == -1)
			return fail(err, n, off, "field %u: malformed varint",
			    f->num);
		break;
	case PB_FIXED64:
	case PB_FIXED32:
		len = f->wire == PB_FIXED64 ? 8 : 4;
		if ((size_t)(m->end - m->p) < len)
			return fail(err, n, off, "field %u: truncated "
			    "fixed-size value", f->num);
		for (i = (int)len - 1; i >= 0; i--)
			f->v = f->v << 8 | m->p[i];
		m->p += len;
		break;
	case PB_LEN:
		if (pb_varint(&m->p, m->end, &len) == -1)
			return fail(err, n, off, "field %u: malformed length",
			    f->num);
		if (len > (uint64_t)(m->end - m->p))
			return fail(err, n, off, "field %u: length %llu runs "
			    "past the end of its message (%zu bytes left)",
			    f->num, (unsigned long long)len,
			    (size_t)(m->end - m->p));
		f->data = m->p;
		f->len = (size_t)len;
		m->p += len;
		break;
	default:
		return fail(err, n, off, "field %u: wire type %d not "
		    "supported", f->num, f->wire);
	}
	return 1;
}

void
pb_putvarint(struct buf *b, uint64_t v)
{
	uint8_t t[10];
	size_t n = 0;

	while (v >= 0x80) {
		t[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	t[n++] = (uint8_t)v;
	buf_add(b, t, n);
}

void
pb_puttag(struct buf *b, uint32_t num, int wire)
{
	pb_putvarint(b, (uint64_t)num << 3 | (uint64_t)wire);
}

void
pb_putuint(struct buf *b, uint32_t num, uint64_t v)
{
	pb_puttag(b, num, PB_VARINT);
	pb_putvarint(b, v);
}

void
pb_putbytes(struct buf *b, uint32_t num, const void *p, size_t n)
{
	pb_puttag(b, num, PB_LEN);
	pb_putvarint(b, n);
	if (n > 0)
		buf_add(b, p, n);
}

/* Grow *a (of *cap elements of size sz) to hold n + 1. */
static void *
grow(void *a, size_t *cap, size_t n, size_t sz)
{
	return xgrow(a, cap, n + 1, 16, sz);
}

/* The field is of wire type w; else an error naming it. */
#define WANT(d, f, w, what) do {					\
	if ((f)->wire != (w))						\
		return fail((d)->err, (d)->errlen, off,			\
		    "%s: field %u: wire type %d, expected %d",		\
		    (what), (f)->num, (f)->wire, (w));			\
} while (0)

/*
 * Read message mf, its offsets taken from base: each field whose number
 * k is in m->want (a varint) into m->v[k], each field m->sub (0: none;
 * a message) to m->fn(m->arg, field), the other fields skipped.  0, or
 * -1 with the message in err: pb_next()'s, m->fn()'s, or "what: field
 * k: wire type w, expected e" for a field of the wrong wire type.
 */
static int
walk(const uint8_t *base, const struct pb_field *mf, struct pbmsg *m,
    char *err, size_t errlen)
{
	struct pb b;
	struct pb_field f;
	size_t off;
	int r, w;

	memset(m->v, 0, sizeof(m->v));
	pb_init(&b, base, mf->data, mf->len);
	for (;;) {
		off = (size_t)(b.p - b.base);
		if ((r = pb_next(&b, &f, err, errlen)) <= 0)
			return r;
		if (f.num == m->sub)
			w = PB_LEN;
		else if (f.num < 32 && (m->want >> f.num & 1))
			w = PB_VARINT;
		else
			continue;
		if (f.wire != w)
			return fail(err, errlen, off, "%s: field %u: wire type "
			    "%d, expected %d", m->what, f.num, f.wire, w);
		if (w == PB_VARINT)
			m->v[f.num] = f.v;
		else if (m->fn(m->arg, &f) < 0)
			return -1;
	}
}

/* A ValueType message: type (1) and unit (2). */
static int
vtype(struct dec *d, const struct pb_field *mf, struct pprof_vt *vt)
{
	struct pbmsg m = { "value type", 1 << 1 | 1 << 2, 0, NULL, NULL,
	    { 0 } };

	memset(vt, 0, sizeof(*vt));
	vt->off = (size_t)(mf->data - d->p->data);
	if (walk(d->p->data, mf, &m, d->err, d->errlen) < 0)
		return -1;
	vt->type = (int64_t)m.v[1];
	vt->unit = (int64_t)m.v[2];
	return 0;
}

/* A Line message of the last location, added to p->line. */
static int
line(void *arg, const struct pb_field *mf)
{
	struct dec *d = arg;
	struct pprof *p = d->p;
	struct pprof_line *ln;
	struct pbmsg m = { "line", 1 << 1 | 1 << 2 | 1 << 3, 0, NULL, NULL,
	    { 0 } };

	p->line = grow(p->line, &d->lcap, p->nline, sizeof(*p->line));
	ln = &p->line[p->nline++];
	memset(ln, 0, sizeof(*ln));
	p->loc[p->nloc - 1].nline++;
	if (walk(p->data, mf, &m, d->err, d->errlen) < 0)
		return -1;
	ln->func = m.v[1];
	ln->line = (int64_t)m.v[2];
	ln->col = (int64_t)m.v[3];
	return 0;
}

/* A Location message: id, mapping, address, and its Line messages. */
static int
location(struct dec *d, const struct pb_field *mf)
{
	struct pprof *p = d->p;
	struct pprof_loc *l;
	struct pbmsg m = { "location", 1 << 1 | 1 << 2 | 1 << 3, 4, line, d,
	    { 0 } };

	p->loc = grow(p->loc, &d->loccap, p->nloc, sizeof(*p->loc));
	l = &p->loc[p->nloc++];
	memset(l, 0, sizeof(*l));
	l->off = (size_t)(mf->data - p->data);
	l->line0 = p->nline;
	if (walk(p->data, mf, &m, d->err, d->errlen) < 0)
		return -1;
	l->id = m.v[1];
	l->mapping = m.v[2];
	l->addr = m.v[3];
	if (l->id == 0)
		return fail(d->err, d->errlen, l->off, "location %zu has id 0",
		    p->nloc);
	return 0;
}

/* A Function message: id, name, system name, file (and start line). */
static int
function(struct dec *d, const struct pb_field *mf)
{
	struct pprof *p = d->p;
	struct pprof_func *fn;
	struct pbmsg m = { "function", 1 << 1 | 1 << 2 | 1 << 3 | 1 << 4 |
	    1 << 5, 0, NULL, NULL, { 0 } };

	p->fn = grow(p->fn, &d->fncap, p->nfn, sizeof(*p->fn));
	fn = &p->fn[p->nfn++];
	memset(fn, 0, sizeof(*fn));
	fn->off = (size_t)(mf->data - p->data);
	if (walk(p->data, mf, &m, d->err, d->errlen) < 0)
		return -1;
	fn->id = m.v[1];
	fn->name = (int64_t)m.v[2];
	fn->sysname = (int64_t)m.v[3];
	fn->file = (int64_t)m.v[4];
	if (fn->id == 0)
		return fail(d->err, d->errlen, fn->off, "function %zu has id 0",
		    p->nfn);
	return 0;
}

/* A Mapping message: its id (1) and file name (5). */
static int
mapping(struct dec *d, const struct pb_field *mf)
{
	struct pprof *p = d->p;
	struct pprof_map *mp;
	struct pbmsg m = { "mapping", 1 << 1 | 1 << 5, 0, NULL, NULL,
	    { 0 } };

	p->map = grow(p->map, &d->mapcap, p->nmap, sizeof(*p->map));
	mp = &p->map[p->nmap++];
	memset(mp, 0, sizeof(*mp));
	mp->off = (size_t)(mf->data - p->data);
	if (walk(p->data, mf, &m, d->err, d->errlen) < 0)
		return -1;
	mp->id = m.v[1];
	mp->file = (int64_t)m.v[5];
	if (mp->id == 0)
		return fail(d->err, d->errlen, mp->off, "mapping %zu has id 0",
		    p->nmap);
	return 0;
}

static int
strok(const struct pprof *p, int64_t i)
{
	return i >= 0 && (uint64_t)i < p->nstr;
}

/* Every string index of the tables in range, string 0 empty. */
static int
checkstr(struct dec *d)
{
	const struct pprof *p = d->p;
	size_t i;

	if (p->nstr == 0 || p->str[0].len != 0)
		return fail(d->err, d->errlen, p->nstr ? p->str[0].off : 0,
		    "string_table[0] is not the empty string");
	for (i = 0; i < p->nst; i++)
		if (!strok(p, p->st[i].type) || !strok(p, p->st[i].unit))
			return fail(d->err, d->errlen, p->st[i].off,
			    "sample_type %zu: "
			    "string index out of range (%zu strings)", i,
			    p->nstr);
	if (p->hasptype && (!strok(p, p->ptype.type) ||
	    !strok(p, p->ptype.unit)))
		return fail(d->err, d->errlen, p->ptype.off,
		    "period_type: string "
		    "index out of range (%zu strings)", p->nstr);
	for (i = 0; i < p->nfn; i++)
		if (!strok(p, p->fn[i].name) || !strok(p, p->fn[i].sysname) ||
		    !strok(p, p->fn[i].file))
			return fail(d->err, d->errlen, p->fn[i].off,
			    "function id %llu: "
			    "string index out of range (%zu strings)",
			    (unsigned long long)p->fn[i].id, p->nstr);
	for (i = 0; i < p->nmap; i++)
		if (!strok(p, p->map[i].file))
			return fail(d->err, d->errlen, p->map[i].off,
			    "mapping id %llu: "
			    "string index out of range (%zu strings)",
			    (unsigned long long)p->map[i].id, p->nstr);
	return 0;
}

/* The ids of a table, for sst_sort: ctx points at the id of element 0. */
struct idtab {
	const char	*first;
	size_t		 sz;
};

static int
byid(size_t a, size_t b, void *ctx)
{
	const struct idtab *t = ctx;
	uint64_t x, y;

	memcpy(&x, t->first + a * t->sz, sizeof(x));
	memcpy(&y, t->first + b * t->sz, sizeof(y));
	return x < y ? -1 : x > y;
}

/* Sort the n elements of size sz by id (their first member); unique. */
static int
mkindex(struct dec *d, size_t **ix, size_t n, size_t sz, const char *what)
{
	struct idtab t;
	const char *first;
	uint64_t x, y;
	size_t i, k;

	first = what[0] == 'l' ? (const char *)d->p->loc : what[0] == 'f' ?
	    (const char *)d->p->fn : (const char *)d->p->map;
	*ix = xreallocarray(NULL, n ? n : 1, sizeof(**ix));
	for (i = 0; i < n; i++)
		(*ix)[i] = i;
	t.first = first;
	t.sz = sz;
	sst_sort(*ix, n, byid, &t);
	for (i = 1; i < n; i++) {
		memcpy(&x, first + (*ix)[i - 1] * sz, sizeof(x));
		memcpy(&y, first + (*ix)[i] * sz, sizeof(y));
		if (x != y)
			continue;
		k = (*ix)[i];
		return fail(d->err, d->errlen, what[0] == 'l' ?
		    d->p->loc[k].off : what[0] == 'f' ? d->p->fn[k].off :
		    d->p->map[k].off, "two %ss with id %llu", what,
		    (unsigned long long)x);
	}
	return 0;
}

/* The index of the element of id in a table sorted by ix; else -1. */
static long
find(const size_t *ix, size_t n, const void *tab, size_t sz, uint64_t id)
{
	const char *t = tab;
	size_t lo = 0, hi = n, m;
	uint64_t x;

	if (id >= 1 && id <= n) {
		memcpy(&x, t + (id - 1) * sz, sizeof(x));
		if (x == id)
			return (long)(id - 1);
	}
	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		memcpy(&x, t + ix[m] * sz, sizeof(x));
		if (x == id)
			return (long)ix[m];
		if (x < id)
			lo = m + 1;
		else
			hi = m;
	}
	return -1;
}

long
pprof_findloc(const struct pprof *p, uint64_t id)
{
	return find(p->locix, p->nloc, p->loc, sizeof(*p->loc), id);
}

long
pprof_findfn(const struct pprof *p, uint64_t id)
{
	return find(p->fnix, p->nfn, p->fn, sizeof(*p->fn), id);
}

long
pprof_findmap(const struct pprof *p, uint64_t id)
{
	return find(p->mapix, p->nmap, p->map, sizeof(*p->map), id);
}

/* The references between the tables: mappings and functions exist. */
static int
checkrefs(struct dec *d)
{
	const struct pprof *p = d->p;
	size_t i, k;

	for (i = 0; i < p->nloc; i++) {
		if (p->loc[i].mapping != 0 &&
		    pprof_findmap(p, p->loc[i].mapping) < 0)
			return fail(d->err, d->errlen, p->loc[i].off,
			    "location id %llu: no mapping id %llu",
			    (unsigned long long)p->loc[i].id,
			    (unsigned long long)p->loc[i].mapping);
		for (k = 0; k < p->loc[i].nline; k++)
			if (p->line[p->loc[i].line0 + k].func != 0 &&
			    pprof_findfn(p,
			    p->line[p->loc[i].line0 + k].func) < 0)
				return fail(d->err, d->errlen, p->loc[i].off,
				    "location id %llu: no function id %llu",
				    (unsigned long long)p->loc[i].id,
				    (unsigned long long)
				    p->line[p->loc[i].line0 + k].func);
	}
	return 0;
}

/* One field of the Profile message. */
static int
field(struct dec *d, const struct pb_field *f, size_t off)
{
	struct pprof *p = d->p;

	switch (f->num) {
	case 1:
	case 11:
		WANT(d, f, PB_LEN, f->num == 1 ? "sample_type" :
		    "period_type");
		if (f->num == 11) {
			p->hasptype = 1;
			return vtype(d, f, &p->ptype);
		}
		p->st = grow(p->st, &d->stcap, p->nst, sizeof(*p->st));
		return vtype(d, f, &p->st[p->nst++]);
	case 2:
	case 6:
		WANT(d, f, PB_LEN, f->num == 2 ? "sample" : "string_table");
		if (f->num == 2) {
			p->smp = grow(p->smp, &d->smpcap, p->nsmp,
			    sizeof(*p->smp));
			p->smp[p->nsmp].off = (size_t)(f->data - p->data);
			p->smp[p->nsmp++].len = f->len;
		} else {
			p->str = grow(p->str, &d->strcap, p->nstr,
			    sizeof(*p->str));
			p->str[p->nstr].off = (size_t)(f->data - p->data);
			p->str[p->nstr++].len = f->len;
		}
		return 0;
	case 3:
		WANT(d, f, PB_LEN, "mapping");
		return mapping(d, f);
	case 4:
		WANT(d, f, PB_LEN, "location");
		return location(d, f);
	case 5:
		WANT(d, f, PB_LEN, "function");
		return function(d, f);
	case 12:
	case 14:
		WANT(d, f, PB_VARINT, f->num == 12 ? "period" :
		    "default_sample_type");
		if (f->num == 12)
			p->period = (int64_t)f->v;
		else
			p->defst = (int64_t)f->v;
		return 0;
	}
	return 0;
}

int
pprof_decode(struct pprof *p, const uint8_t *data, size_t len, char *err,
    size_t errlen)
{
	struct dec d;
	struct pb m;
	struct pb_field f;
	size_t off;
	int r;

	memset(p, 0, sizeof(*p));
	memset(&d, 0, sizeof(d));
	p->data = data;
	p->len = len;
	d.p = p;
	d.err = err;
	d.errlen = errlen;
	pb_init(&m, data, data, len);
	for (;;) {
		off = (size_t)(m.p - m.base);
		if ((r = pb_next(&m, &f, err, errlen)) < 0)
			return -1;
		if (r == 0)
			break;
		if (field(&d, &f, off) < 0)
			return -1;
	}
	if (checkstr(&d) < 0 || mkindex(&d, &p->locix, p->nloc,
	    sizeof(*p->loc), "location") < 0 || mkindex(&d, &p->fnix,
	    p->nfn, sizeof(*p->fn), "function") < 0 || mkindex(&d, &p->mapix,
	    p->nmap, sizeof(*p->map), "mapping") < 0 || checkrefs(&d) < 0)
		return -1;
	if (p->defst != 0 && !strok(p, p->defst))
		return fail(err, errlen, 0, "default_sample_type: string "
		    "index out of range (%zu strings)", p->nstr);
	return 0;
}

void
pprof_free(struct pprof *p)
{
	free(p->st);
	free(p->str);
	free(p->smp);
	free(p->loc);
	free(p->line);
	free(p->fn);
	free(p->map);
	free(p->locix);
	free(p->fnix);
	free(p->mapix);
	memset(p, 0, sizeof(*p));
}

const char *
pprof_str(const struct pprof *p, int64_t i, size_t *len)
{
	*len = p->str[i].len;
	return (const char *)p->data + p->str[i].off;
}

/* Add the varints of a field, packed or not, to *a; -1 if malformed. */
static int
scalars(const struct pb_field *f, int64_t **a, size_t *n, size_t *cap,
    char *err, size_t errlen, size_t off, const char *what)
{
	const uint8_t *q, *e;
	uint64_t v;

	if (f->wire == PB_VARINT) {
		*a = grow(*a, cap, *n, sizeof(**a));
		(*a)[(*n)++] = (int64_t)f->v;
		return 0;
	}
	if (f->wire != PB_LEN)
		return fail(err, errlen, off, "sample: %s: wire type %d",
		    what, f->wire);
	for (q = f->data, e = f->data + f->len; q < e; ) {
		if (pb_varint(&q, e, &v) == -1)
			return fail(err, errlen, off, "sample: %s: malformed "
			    "packed varint", what);
		*a = grow(*a, cap, *n, sizeof(**a));
		(*a)[(*n)++] = (int64_t)v;
	}
	return 0;
}

/* A Label message into l: key, str, num, num_unit; strings checked. */
static int
label(const struct pprof *p, const struct pb_field *mf,
    struct pprof_label *l, char *err, size_t errlen)
{
	struct pbmsg m = { "label", 1 << 1 | 1 << 2 | 1 << 3 | 1 << 4, 0,
	    NULL, NULL, { 0 } };

	memset(l, 0, sizeof(*l));
	if (walk(p->data, mf, &m, err, errlen) < 0)
		return -1;
	l->key = (int64_t)m.v[1];
	l->str = (int64_t)m.v[2];
	l->num = (int64_t)m.v[3];
	l->unit = (int64_t)m.v[4];
	if (!strok(p, l->key) || !strok(p, l->str) || !strok(p, l->unit))
		return fail(err, errlen, (size_t)(mf->data - p->data),
		    "label: string index out of range (%zu strings)", p->nstr);
	return 0;
}

int
pprof_sample(const struct pprof *p, size_t i, struct pprof_sample *s,
    char *err, size_t errlen)
{
	struct pb m;
	struct pb_field f;
	int64_t *ids = NULL;
	size_t nid = 0, idcap = 0, off, k;
	long ix;
	int r = 0;

	s->nloc = s->nval = s->nlab = 0;
	pb_init(&m, p->data, p->data + p->smp[i].off, p->smp[i].len);
	while (r == 0) {
		off = (size_t)(m.p - m.base);
		if ((r = pb_next(&m, &f, err, errlen)) <= 0)
			break;
		r = 0;
		if (f.num == 1)
			r = scalars(&f, &ids, &nid, &idcap, err, errlen, off,
			    "location_id");
		else if (f.num == 2)
			r = scalars(&f, &s->val, &s->nval, &s->valcap, err,
			    errlen, off, "value");
		else if (f.num == 3 && f.wire != PB_LEN)
			r = fail(err, errlen, off, "sample: label: wire type "
			    "%d, expected 2", f.wire);
		else if (f.num == 3) {
			s->lab = grow(s->lab, &s->labcap, s->nlab,
			    sizeof(*s->lab));
			r = label(p, &f, &s->lab[s->nlab++], err, errlen);
		}
	}
	for (k = 0; r == 0 && k < nid; k++) {
		if ((ix = pprof_findloc(p, (uint64_t)ids[k])) < 0) {
			r = fail(err, errlen, p->smp[i].off, "sample %zu: no "
			    "location id %llu", i + 1,
			    (unsigned long long)ids[k]);
			break;
		}
		s->loc = grow(s->loc, &s->locap, s->nloc, sizeof(*s->loc));
		s->loc[s->nloc++] = (size_t)ix;
	}
	free(ids);
	return r < 0 ? -1 : 0;
}

void
pprof_sample_free(struct pprof_sample *s)
{
	free(s->loc);
	free(s->val);
	free(s->lab);
	memset(s, 0, sizeof(*s));
}
