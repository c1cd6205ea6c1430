/*
 * sst2speedscope: write an sst(5) stream as a speedscope JSON document,
 * one sampled profile per thread, byte for byte as Python's json.dump()
 * writes it.  The records wait in a temporary spill file; memory grows
 * with distinct frames and threads only.  A pass over the spill orders
 * the frames as the profiles will first use them, and then the records
 * are dealt out to per-thread spills, NPART threads at a time, to write
 * the profiles one after the other.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"

#define SPILLMEM	(1 << 20)
#define PARTMEM		(1 << 16)
#define NPART		64

/* A record in a spill: n samples of weight w, then nf frame ids. */
struct hdr {
	uint32_t	 tid;
	uint32_t	 nf;
	uint64_t	 n;
	double		 w;
};

struct thr {
	struct buf	 name;		/* decoded */
	enum sst_unit	 unit;
	uint64_t	 n;
	double		 end;		/* the weights summed in order */
};

/* A frame's first use in the profiles as written. */
struct first {
	size_t		 rank;		/* of the profile */
	uint64_t	 seq;		/* of the record */
	uint32_t	 pos;		/* in the stack */
};

static struct htab	*thtab, *frtab;
static struct thr	*thr;
static size_t		 thcap, *rank;
static struct first	*first;
static uint32_t		*outid, *ids;
static size_t		 idcap;
static struct spill	*all;
static struct buf	 key, tmp;

static void	readfile(const char *);
static const char *piece(const char *, const char *);
static void	addframe(const char *, size_t, const char *, size_t,
		    const char *, unsigned long long);
static int	locsplit(const char *, size_t, size_t *);
static int	isnum(const char *, size_t);
static int	readrec(struct spill *, struct hdr *);
static int	byname(size_t, size_t, void *);
static int	byfirst(size_t, size_t, void *);
static void	putstr(const char *, size_t);
static void	putfloat(double);
static void	putframe(size_t);
static void	addnum(struct buf *, uint32_t);
static void	putthread(size_t, struct spill *);
static __dead void usage(void);

/* Read the records of one input into the spill. */
static void
readfile(const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	struct hdr h;
	const char *s, *l, *sn, *ln, *name;
	unsigned long long lineno = 0;
	size_t tid, k;
	int fd, isnew;

	name = path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path;
	fd = xopen(path);
	rd = rec_open(fd, path);
	for (; rec_read(rd, &r); lineno++) {
		tid = ht_intern(thtab, r.thread, r.threadlen, &isnew);
		if (tid == thcap) {
			thcap = thcap ? thcap * 2 : 64;
			thr = xreallocarray(thr, thcap, sizeof(*thr));
		}
		if (isnew) {
			memset(&thr[tid], 0, sizeof(thr[tid]));
			buf_grow(&thr[tid].name, r.threadlen);
			thr[tid].name.len = esc_decode(thr[tid].name.data,
			    r.thread, r.threadlen);
			thr[tid].unit = r.unit;
		} else if (r.unit != thr[tid].unit)
			errx(1, "%s:%llu: unit %s, but the thread's is %s",
			    name, lineno + 1, rec_unitname(r.unit),
			    rec_unitname(thr[tid].unit));
		if (r.samples == 0)
			continue;
		h.tid = (uint32_t)tid;
		h.nf = (uint32_t)rec_nframes(r.stack, r.stacklen);
		h.n = r.samples;
		h.w = r.hasperiod ? r.period : r.weight / (double)r.samples;
		thr[tid].n += h.n;
		thr[tid].end = fmt_pysum(thr[tid].end, h.w, h.n);
		spill_write(all, &h, sizeof(h));
		s = r.stack;
		l = r.locs;
		for (k = 0; k < h.nf; k++) {
			sn = piece(s, r.stack + r.stacklen);
			ln = r.locslen > 0 ? piece(l, r.locs + r.locslen) : l;
			addframe(s, (size_t)(sn - s), l, (size_t)(ln - l),
			    name, lineno + 1);
			s = sn + 1;
			l = r.locslen > 0 ? ln + 1 : l;
		}
	}
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* The end of the ';'-separated piece that starts at s. */
static const char *
piece(const char *s, const char *e)
{
	const char *p;

	return (p = memchr(s, ';', (size_t)(e - s))) != NULL ? p : e;
}

/* Intern one frame (escaped name and location) and spill its id. */
static void
addframe(const char *s, size_t n, const char *l, size_t ln,
    const char *path, unsigned long long lineno)
{
	size_t id, nl, off[3];
	uint32_t v;
	int isnew;

	buf_reset(&key);
	buf_grow(&key, sizeof(nl) + n);
	nl = esc_decode(key.data + sizeof(nl), s, n);
	memcpy(key.data, &nl, sizeof(nl));
	key.len = sizeof(nl) + nl;
	buf_add(&key, l, ln);
	id = ht_intern(frtab, key.data, key.len, &isnew);
	if (isnew && ln > 0 && (locsplit(l, ln, off) == -1 ||
	    !isnum(l + off[0] + 1, off[1] - off[0] - 1) ||
	    !isnum(l + off[1] + 1, off[2] - off[1] - 1)))
		errx(1, "%s:%llu: bad location %.*s", path, lineno, (int)ln,
		    l);
	v = (uint32_t)id;
	spill_write(all, &v, sizeof(v));
}

/* The offsets of the last three colons of a location entry. */
static int
locsplit(const char *l, size_t n, size_t *off)
{
	int k = 3;

	while (k > 0 && n-- > 0)
		if (l[n] == ':')
			off[--k] = n;
	return k == 0 ? 0 : -1;
}

/* Empty, null, or a JSON number. */
static int
isnum(const char *s, size_t n)
{
	size_t i = 0, d;

	if (n == 0 || (n == 4 && memcmp(s, "null", 4) == 0))
		return 1;
	i += s[i] == '-';
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
		i++;
		i += i < n && (s[i] == '+' || s[i] == '-');
		for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return 0;
	}
	return i == n;
}

/* Read one record's header and frame ids (into ids); 0 at the end. */
static int
readrec(struct spill *sp, struct hdr *h)
{
	if (spill_read(sp, h, sizeof(*h)) == -1)
		return 0;
	if (h->nf > idcap) {
		idcap = h->nf;
		ids = xreallocarray(ids, idcap, sizeof(*ids));
	}
	if (h->nf > 0 && spill_read(sp, ids, h->nf * sizeof(*ids)) == -1)
		errx(1, "temporary file: short read");
	return 1;
}

/* Threads by their decoded names, as Python compares str. */
static int
byname(size_t a, size_t b, void *arg)
{
	const struct buf *x = &thr[a].name, *y = &thr[b].name;
	int c;

	(void)arg;
	c = memcmp(x->data, y->data, x->len < y->len ? x->len : y->len);
	if (c != 0)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* Frames by their first use. */
static int
byfirst(size_t a, size_t b, void *arg)
{
	const struct first *x = &first[a], *y = &first[b];

	(void)arg;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * A JSON string as json.dump() writes it, with ensure_ascii: UTF-8 (and
 * WTF-8 lone surrogates) become \u escapes; a byte that is no part of a
 * valid sequence becomes U+FFFD, as Python's "replace" decoder does.
 */
static void
putstr(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + n;
	unsigned char lo, hi;
	long cp;
	int k, i;

	putchar('"');
	for (; p < e; p += i) {
		i = 1;
		cp = *p;
		if (cp >= 0x80 && (cp < 0xc2 || cp > 0xf4))
			cp = 0xfffd;
		else if (cp >= 0x80) {
			k = cp < 0xe0 ? 1 : cp < 0xf0 ? 2 : 3;
			lo = cp == 0xe0 ? 0xa0 : cp == 0xf0 ? 0x90 : 0x80;
			hi = cp == 0xf4 ? 0x8f : 0xbf;
			if (cp == 0xed && (e - p < 3 || p[1] < 0xa0 ||
			    (p[2] & 0xc0) != 0x80))
				hi = 0x9f;	/* else a WTF-8 surrogate */
			cp &= 0x3f >> k;
			for (; i <= k; i++, lo = 0x80, hi = 0xbf) {
				if (p + i >= e || p[i] < lo || p[i] > hi)
					break;
				cp = cp << 6 | (p[i] & 0x3f);
			}
			if (i <= k)
				cp = 0xfffd;
		}
		if (cp == '"' || cp == '\\')
			printf("\\%c", (int)cp);
		else if (cp >= 0x20 && cp < 0x7f)
			putchar((int)cp);
		else if (cp > 0 && cp < 0x20 && strchr("\b\f\n\r\t", (int)cp))
			printf("\\%c", "bfnrt"[strchr("\b\f\n\r\t",
			    (int)cp) - "\b\f\n\r\t"]);
		else if (cp < 0x10000)
			printf("\\u%04lx", cp);
		else
			printf("\\u%04lx\\u%04lx", 0xd800 + ((cp - 0x10000) >> 10),
			    0xdc00 + ((cp - 0x10000) & 0x3ff));
	}
	putchar('"');
}

/* A float as Python's repr() writes it (json.dump() uses it). */
static void
putfloat(double d)
{
	static double last = 1;
	static char out[FMTBUF] = "1.0";
	char t[FMTBUF], dig[20], *q = out;
	int p, nd, ex, i;

	if (d == last && signbit(d) == signbit(last)) {
		fputs(out, stdout);
		return;
	}
	if (!isfinite(d)) {
		fputs(isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity",
		    stdout);
		return;
	}
	for (p = 1; p < 17; p++) {
		snprintf(t, sizeof(t), "%.*e", p - 1, d);
		if (strtod(t, NULL) == d)
			break;
	}
	snprintf(t, sizeof(t), "%.*e", p - 1, d);
	for (nd = 0, i = t[0] == '-'; t[i] != 'e'; i++)
		if (t[i] != '.')
			dig[nd++] = t[i];
	ex = atoi(t + i + 1);
	if (d == 0)
		nd = 1, ex = 0;
	if (signbit(d))
		*q++ = '-';
	if (ex < -4 || ex >= 16) {
		*q++ = dig[0];
		if (nd > 1)
			q += sprintf(q, ".%.*s", nd - 1, dig + 1);
		sprintf(q, "e%c%02d", ex < 0 ? '-' : '+', abs(ex));
	} else if (ex < 0)
		sprintf(q, "0.%.*s%.*s", -ex - 1, "0000", nd, dig);
	else if (nd <= ex + 1)
		sprintf(q, "%.*s%.*s.0", nd, dig, ex + 1 - nd,
		    "000000000000000");
	else
		sprintf(q, "%.*s.%.*s", ex + 1, dig, nd - ex - 1, dig + ex + 1);
	last = d;
	fputs(out, stdout);
}

/* One entry of shared.frames. */
static void
putframe(size_t id)
{
	const char *k, *l, *name[] = { "file", "line", "col" };
	size_t n, nl, ln, off[3], a, b;
	int i;

	k = ht_key(frtab, id, &n);
	memcpy(&nl, k, sizeof(nl));
	fputs("{\"name\": ", stdout);
	putstr(k + sizeof(nl), nl);
	l = k + sizeof(nl) + nl;
	ln = n - sizeof(nl) - nl;
	if (ln > 0 && locsplit(l, ln, off) == 0) {
		for (i = 0, a = 0; i < 3; a = off[i++] + 1) {
			b = off[i];
			if (a == b)
				continue;
			printf(", \"%s\": ", name[i]);
			if (i > 0) {
				fwrite(l + a, 1, b - a, stdout);
				continue;
			}
			buf_reset(&tmp);
			buf_grow(&tmp, b - a);
			putstr(tmp.data, esc_decode(tmp.data, l + a, b - a));
		}
	}
	putchar('}');
}

/* Add v in decimal. */
static void
addnum(struct buf *b, uint32_t v)
{
	char d[10];
	int n = 0;

	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n > 0)
		buf_addc(b, d[--n]);
}

/* One profile, its records read twice from its spill. */
static void
putthread(size_t tid, struct spill *sp)
{
	struct thr *t = &thr[tid];
	struct hdr h;
	uint64_t j;
	uint32_t i;
	int sep = 0;

	fputs("{\"type\": \"sampled\", \"name\": ", stdout);
	putstr(t->name.data, t->name.len);
	printf(", \"unit\": \"%s\", \"startValue\": 0, \"endValue\": ",
	    rec_unitname(t->unit));
	if (t->n == 0)
		putchar('0');
	else
		putfloat(t->end);
	fputs(", \"samples\": [", stdout);
	spill_rewind(sp);
	while (readrec(sp, &h)) {
		buf_reset(&tmp);
		buf_addc(&tmp, '[');
		for (i = 0; i < h.nf; i++) {
			if (i > 0)
				buf_add(&tmp, ", ", 2);
			addnum(&tmp, outid[ids[i]]);
		}
		buf_addc(&tmp, ']');
		for (j = 0; j < h.n; j++, sep = 1) {
			if (sep)
				fputs(", ", stdout);
			fwrite(tmp.data, 1, tmp.len, stdout);
		}
	}
	fputs("], \"weights\": [", stdout);
	spill_rewind(sp);
	for (sep = 0; readrec(sp, &h); )
		for (j = 0; j < h.n; j++, sep = 1) {
			if (sep)
				fputs(", ", stdout);
			putfloat(h.w);
		}
	fputs("]}", stdout);
}

static __dead void
usage(void)
{
	fprintf(stderr, "usage: sst2speedscope [-Sv] [-e exporter] [-n name] "
	    "[file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct spill *part[NPART];
	struct hdr h;
	const char *exporter = "sst2speedscope", *name = NULL;
	char c1[FMTBUF], c2[FMTBUF];
	size_t i, g, m, nth, nfr, *order;
	uint64_t seq;
	uint32_t k;
	int ch, sflag = 0, vflag = 0;

	sst_init();
	while ((ch = getopt(argc, argv, "Se:n:v")) != -1) {
		switch (ch) {
		case 'S':
			sflag = 1;
			break;
		case 'e':
			exporter = optarg;
			break;
		case 'n':
			name = optarg;
			break;
		case 'v':
			vflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (name == NULL)
		name = argc == 0 || strcmp(argv[0], "-") == 0 ? "<stdin>" :
		    argv[0];

	thtab = ht_new();
	frtab = ht_new();
	all = spill_new(SPILLMEM);
	buf_init(&key);
	buf_init(&tmp);
	if (argc == 0)
		readfile(NULL);
	for (i = 0; i < (size_t)argc; i++)
		readfile(argv[i]);

	/* The profiles' order, then the frames' by their first use. */
	nth = ht_count(thtab);
	nfr = ht_count(frtab);
	order = xreallocarray(NULL, nth + nfr + 1, sizeof(*order));
	rank = xreallocarray(NULL, nth + 1, sizeof(*rank));
	for (i = 0; i < nth; i++)
		order[i] = i;
	if (sflag)
		sst_sort(order, nth, byname, NULL);
	for (i = 0; i < nth; i++)
		rank[order[i]] = i;
	first = xreallocarray(NULL, nfr + 1, sizeof(*first));
	outid = xreallocarray(NULL, nfr + 1, sizeof(*outid));
	for (i = 0; i < nfr; i++)
		first[i].rank = (size_t)-1;
	spill_rewind(all);
	for (seq = 0; readrec(all, &h); seq++)
		for (k = 0; k < h.nf; k++)
			if (rank[h.tid] < first[ids[k]].rank)
				first[ids[k]] = (struct first){ rank[h.tid],
				    seq, k };
	for (i = 0; i < nfr; i++)
		order[nth + i] = i;
	sst_sort(order + nth, nfr, byfirst, NULL);

	fputs("{\"$schema\": \"https://www.speedscope.app/"
	    "file-format-schema.json\", \"shared\": {\"frames\": [", stdout);
	for (i = 0; i < nfr; i++) {
		outid[order[nth + i]] = (uint32_t)i;
		if (i > 0)
			fputs(", ", stdout);
		putframe(order[nth + i]);
	}
	fputs("]}, \"profiles\": [", stdout);
	for (g = 0; g < nth; g += m) {
		m = nth - g < NPART ? nth - g : NPART;
		for (i = 0; i < m; i++)
			part[i] = spill_new(PARTMEM);
		spill_rewind(all);
		while (readrec(all, &h)) {
			if (rank[h.tid] < g || rank[h.tid] >= g + m)
				continue;
			spill_write(part[rank[h.tid] - g], &h, sizeof(h));
			if (h.nf > 0)
				spill_write(part[rank[h.tid] - g], ids,
				    h.nf * sizeof(*ids));
		}
		for (i = 0; i < m; i++) {
			if (g + i > 0)
				fputs(", ", stdout);
			putthread(order[g + i], part[i]);
			spill_free(part[i]);
		}
	}
	fputs("], \"name\": ", stdout);
	putstr(name, strlen(name));
	fputs(", \"exporter\": ", stdout);
	putstr(exporter, strlen(exporter));
	putchar('}');
	fshut(stdout, "stdout");
	if (vflag) {
		fprintf(stderr, "sst2speedscope: %s frames, %s profiles\n",
		    fmt_commas(c1, sizeof(c1), nfr),
		    fmt_commas(c2, sizeof(c2), nth));
		for (i = 0; i < nth; i++) {
			fputs("sst2speedscope: ", stderr);
			fwrite(thr[order[i]].name.data, 1,
			    thr[order[i]].name.len, stderr);
			fprintf(stderr, ": %s samples\n", fmt_commas(c1,
			    sizeof(c1), thr[order[i]].n));
		}
	}
	return 0;
}
