/*
 * sst2speedscope: write an sst(5) stream as a speedscope JSON document,
 * one sampled profile per thread, byte for byte as Python's json.dump()
 * writes it.  The records wait in a temporary spill file, so memory
 * grows with distinct frames and threads only.  A pass over the spill
 * numbers the frames in the order in which the profiles, as written,
 * first use them; then the records are dealt out to one spill per
 * thread, NPART threads at a time, to write the profiles in turn.
 */
#include <err.h>
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
	uint64_t	 n;		/* samples */
	double		 end;		/* their weights summed in order */
	size_t		 rank;		/* in the output */
};

/* Where a frame is first used: profile, record, place in the stack. */
struct first {
	size_t		 rank;
	uint64_t	 seq;
	uint32_t	 pos;
};

static struct htab	*thtab, *frtab;	/* escaped thread; frame key */
static struct thr	*thr;
static size_t		 thcap, idcap, *order, *forder;
static struct first	*first;
static uint32_t		*outid, *ids;
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
static void	number(size_t, size_t, int);
static void	putframe(size_t);
static void	putthread(struct thr *, struct spill *);
static void	putprofiles(size_t);
static void	putn(const struct buf *, uint64_t, int *);
static __dead void usage(void);

/* Read the records of one input into the spill. */
static void
readfile(const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	struct hdr h;
	struct thr *t;
	const char *s, *l, *sn, *ln, *name;
	unsigned long long lineno;
	size_t tid, k;
	int fd, isnew;

	name = path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path;
	fd = xopen(path);
	rd = rec_open(fd, path);
	for (lineno = 1; rec_read(rd, &r); lineno++) {
		tid = ht_intern(thtab, r.thread, r.threadlen, &isnew);
		if (tid == thcap) {
			thcap = thcap ? thcap * 2 : 64;
			thr = xreallocarray(thr, thcap, sizeof(*thr));
		}
		t = &thr[tid];
		if (isnew) {
			memset(t, 0, sizeof(*t));
			buf_grow(&t->name, r.threadlen);
			t->name.len = esc_decode(t->name.data, r.thread,
			    r.threadlen);
			t->unit = r.unit;
		} else if (r.unit != t->unit)
			errx(1, "%s:%llu: unit %s, but the thread's is %s",
			    name, lineno, rec_unitname(r.unit),
			    rec_unitname(t->unit));
		if (r.samples == 0)
			continue;
		h = (struct hdr){ (uint32_t)tid, (uint32_t)rec_nframes(r.stack,
		    r.stacklen), r.samples, r.hasperiod ? r.period :
		    r.weight / (double)r.samples };
		t->n += h.n;
		t->end = fmt_pysum(t->end, h.w, h.n);
		spill_write(all, &h, sizeof(h));
		for (k = 0, s = r.stack, l = r.locs; k < h.nf; k++) {
			sn = piece(s, r.stack + r.stacklen);
			ln = r.locslen > 0 ? piece(l, r.locs + r.locslen) : l;
			addframe(s, (size_t)(sn - s), l, (size_t)(ln - l),
			    name, lineno);
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

/*
 * Intern a frame by its decoded name and its location entry as it is,
 * and spill its id.  The key is the name's length, the name, the entry.
 */
static void
addframe(const char *s, size_t n, const char *l, size_t ln,
    const char *name, unsigned long long lineno)
{
	size_t id, nl, off[3];
	uint32_t v;
	int isnew;

	if (ln == 3 && memcmp(l, ":::", 3) == 0)
		ln = 0;		/* no location at all */
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
		errx(1, "%s:%llu: bad location: %.*s", name, lineno, (int)ln,
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

/* Whether a line or col is empty, null or a JSON number. */
static int
isnum(const char *s, size_t n)
{
	return n == 0 || (n == 4 && memcmp(s, "null", 4) == 0) ||
	    jsonw_isnum(s, n);
}

/* Read one record's header, and its frame ids into ids; 0 at the end. */
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

/* Threads by their decoded names, which is how Python compares str. */
static int
byname(size_t a, size_t b, void *arg)
{
	const struct buf *x = &thr[a].name, *y = &thr[b].name;
	int c;

	(void)arg;
	c = memcmp(x->data, y->data, x->len < y->len ? x->len : y->len);
	if (c != 0 || x->len == y->len)
		return c;
	return x->len < y->len ? -1 : 1;
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

/* Order the nth threads (by name with sflag) and the nfr frames. */
static void
number(size_t nth, size_t nfr, int sflag)
{
	struct hdr h;
	uint64_t seq;
	uint32_t k;
	size_t i, r;

	order = xreallocarray(NULL, nth + 1, sizeof(*order));
	for (i = 0; i < nth; i++)
		order[i] = i;
	if (sflag)
		sst_sort(order, nth, byname, NULL);
	for (i = 0; i < nth; i++)
		thr[order[i]].rank = i;
	first = xreallocarray(NULL, nfr + 1, sizeof(*first));
	forder = xreallocarray(NULL, nfr + 1, sizeof(*forder));
	outid = xreallocarray(NULL, nfr + 1, sizeof(*outid));
	for (i = 0; i < nfr; i++) {
		first[i].rank = (size_t)-1;
		forder[i] = i;
	}
	spill_rewind(all);
	for (seq = 0; readrec(all, &h); seq++)
		for (k = 0, r = thr[h.tid].rank; k < h.nf; k++)
			if (r < first[ids[k]].rank)
				first[ids[k]] = (struct first){ r, seq, k };
	sst_sort(forder, nfr, byfirst, NULL);
	for (i = 0; i < nfr; i++)
		outid[forder[i]] = (uint32_t)i;
}

/* One entry of shared.frames: its name, then file, line and col. */
static void
putframe(size_t id)
{
	static const char *kw[] = { "file", "line", "col" };
	const char *k, *l;
	size_t n, nl, ln, off[3], a;
	int i;

	k = ht_key(frtab, id, &n);
	memcpy(&nl, k, sizeof(nl));
	fputs("{\"name\": ", stdout);
	jsonw_str(stdout, k + sizeof(nl), nl);
	l = k + sizeof(nl) + nl;
	ln = n - sizeof(nl) - nl;
	for (i = 0, a = 0; ln > 0 && i < 3; a = off[i++] + 1) {
		if (i == 0)
			locsplit(l, ln, off);
		if (a == off[i])
			continue;
		printf(", \"%s\": ", kw[i]);
		if (i > 0)
			fwrite(l + a, 1, off[i] - a, stdout);
		else {
			buf_reset(&tmp);
			buf_grow(&tmp, off[i] - a);
			jsonw_str(stdout, tmp.data, esc_decode(tmp.data,
			    l + a, off[i] - a));
		}
	}
	putchar('}');
}

/*
 * Write the text of b n times, the first of all in a list (when *sep is
 * 0) without its leading ", ".
 */
static void
putn(const struct buf *b, uint64_t n, int *sep)
{
	if (n > 0 && !*sep) {
		fwrite(b->data + 2, 1, b->len - 2, stdout);
		n--;
		*sep = 1;
	}
	for (; n > 0; n--)
		fwrite(b->data, 1, b->len, stdout);
}

/* One profile; its spill is read twice, for samples and for weights. */
static void
putthread(struct thr *t, struct spill *sp)
{
	struct hdr h;
	const char *w;
	uint32_t i;
	int sep = 0;

	fputs("{\"type\": \"sampled\", \"name\": ", stdout);
	jsonw_str(stdout, t->name.data, t->name.len);
	printf(", \"unit\": \"%s\", \"startValue\": 0, \"endValue\": ",
	    rec_unitname(t->unit));
	if (t->n > 0)
		jsonw_float(stdout, t->end);
	else
		putchar('0');	/* Python's sum([]) is the int 0 */
	fputs(", \"samples\": [", stdout);
	/* Each record's text, ", [1, 2]" or ", 0.01", is made once. */
	for (spill_rewind(sp); readrec(sp, &h); ) {
		buf_reset(&tmp);
		buf_add(&tmp, ", [", 3);
		for (i = 0; i < h.nf; i++) {
			if (i > 0)
				buf_add(&tmp, ", ", 2);
			buf_grow(&tmp, 20);
			tmp.len += fmt_u64(tmp.data + tmp.len, outid[ids[i]]);
		}
		buf_addc(&tmp, ']');
		putn(&tmp, h.n, &sep);
	}
	fputs("], \"weights\": [", stdout);
	for (sep = 0, spill_rewind(sp); readrec(sp, &h); ) {
		buf_reset(&tmp);
		buf_add(&tmp, ", ", 2);
		w = jsonw_floattext(h.w);
		buf_add(&tmp, w, strlen(w));
		putn(&tmp, h.n, &sep);
	}
	fputs("]}", stdout);
}

/* The profiles, NPART threads to a pass over the spill. */
static void
putprofiles(size_t nth)
{
	struct spill *part[NPART];
	struct hdr h;
	size_t g, i, m, r;

	for (g = 0; g < nth; g += m) {
		m = nth - g < NPART ? nth - g : NPART;
		for (i = 0; i < m; i++)
			part[i] = spill_new(PARTMEM);
		spill_rewind(all);
		while (readrec(all, &h)) {
			if ((r = thr[h.tid].rank) < g || r >= g + m)
				continue;
			spill_write(part[r - g], &h, sizeof(h));
			if (h.nf > 0)
				spill_write(part[r - g], ids,
				    h.nf * sizeof(*ids));
		}
		for (i = 0; i < m; i++) {
			if (g + i > 0)
				fputs(", ", stdout);
			putthread(&thr[order[g + i]], part[i]);
			spill_free(part[i]);
		}
	}
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
	const char *exporter = "sst2speedscope", *name = NULL;
	char c1[FMTBUF], c2[FMTBUF];
	size_t i, nfr;
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
	nfr = ht_count(frtab);
	number(ht_count(thtab), nfr, sflag);

	fputs("{\"$schema\": \"https://www.speedscope.app/"
	    "file-format-schema.json\", \"shared\": {\"frames\": [", stdout);
	for (i = 0; i < nfr; i++) {
		if (i > 0)
			fputs(", ", stdout);
		putframe(forder[i]);
	}
	fputs("]}, \"profiles\": [", stdout);
	putprofiles(ht_count(thtab));
	fputs("], \"name\": ", stdout);
	jsonw_str(stdout, name, strlen(name));
	fputs(", \"exporter\": ", stdout);
	jsonw_str(stdout, exporter, strlen(exporter));
	putchar('}');
	fshut(stdout, "stdout");
	if (vflag) {
		warnx("%s frames, %s profiles", fmt_commas(c1, sizeof(c1), nfr),
		    fmt_commas(c2, sizeof(c2), ht_count(thtab)));
		for (i = 0; i < ht_count(thtab); i++) {
			fputs("sst2speedscope: ", stderr);
			fwrite(thr[order[i]].name.data, 1,
			    thr[order[i]].name.len, stderr);
			fprintf(stderr, ": %s samples\n", fmt_commas(c1,
			    sizeof(c1), thr[order[i]].n));
		}
	}
	for (i = 0; i < ht_count(thtab); i++)
		buf_free(&thr[i].name);
	ht_free(thtab);
	ht_free(frtab);
	spill_free(all);
	buf_free(&key);
	buf_free(&tmp);
	free(thr);
	free(order);
	free(forder);
	free(first);
	free(outid);
	free(ids);
	return 0;
}
