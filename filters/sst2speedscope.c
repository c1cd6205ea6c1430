/*
 * sst2speedscope: write an sst(5) stream as a speedscope JSON document,
 * one sampled profile per thread, byte for byte as Python's json.dump()
 * writes it.  The records wait in a temporary spill file, so memory
 * grows with distinct frames and threads only.  A pass over the spill
 * numbers the frames in the order in which the profiles, as written,
 * first use them; then the records are dealt out to one spill per
 * thread, some threads at a time, to write the profiles in turn (see
 * common/spdw.c).
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"

#define SPILLMEM	(1 << 20)

/* Where a frame is first used: profile, record, place in the stack. */
struct first {
	size_t		 rank;
	uint64_t	 seq;
	uint32_t	 pos;
};

/* What the program holds: the records spilled, threads and frames. */
struct s2s {
	struct htab	*thtab, *frtab;	/* escaped thread; frame key */
	struct spdw_thread *thr;
	size_t		 thcap, *order, *forder;
	struct first	*first;
	uint32_t	*outid;
	struct spdw_ids	 ids;
	struct spill	*all;
	struct buf	 key;
};

static void	readfile(struct s2s *, const char *);
static const char *piece(const char *, const char *);
static void	addframe(struct s2s *, const char *, size_t, const char *,
		    size_t, const char *, unsigned long long);
static int	byname(size_t, size_t, void *);
static int	byfirst(size_t, size_t, void *);
static void	number(struct s2s *, size_t, size_t, int);
static __dead void usage(int);

/* Read the records of one input into the spill. */
static void
readfile(struct s2s *g, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	struct spdw_rec h;
	struct spdw_thread *t;
	const char *s, *l, *sn, *ln, *name;
	unsigned long long lineno;
	size_t tid, k;
	int fd, isnew;

	name = path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path;
	fd = xopen(path);
	rd = rec_open(fd, path);
	for (lineno = 1; xrec_read(rd, &r); lineno++) {
		tid = ht_intern(g->thtab, r.thread, r.threadlen, &isnew);
		if (tid == g->thcap)
			g->thr = xgrow(g->thr, &g->thcap, tid + 1, 64,
			    sizeof(*g->thr));
		t = &g->thr[tid];
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
		h = (struct spdw_rec){ (uint32_t)tid,
		    (uint32_t)rec_nframes(r.stack, r.stacklen), r.samples,
		    r.hasperiod ? r.period : r.weight / (double)r.samples };
		if (h.n > UINT64_MAX - t->n)
			errx(1, "%s:%llu: the sample count of thread %.*s "
			    "passes 2^64-1", name, lineno, (int)r.threadlen,
			    r.thread);
		t->n += h.n;
		t->end = fmt_pysum(t->end, h.w, h.n);
		xspill_write(g->all, &h, sizeof(h));
		for (k = 0, s = r.stack, l = r.locs; k < h.nf; k++) {
			sn = piece(s, r.stack + r.stacklen);
			ln = r.locslen > 0 ? piece(l, r.locs + r.locslen) : l;
			addframe(g, s, (size_t)(sn - s), l, (size_t)(ln - l),
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

/* Intern a frame by its name and location entry, and spill its id. */
static void
addframe(struct s2s *g, const char *s, size_t n, const char *l,
    size_t ln, const char *name, unsigned long long lineno)
{
	size_t id;
	uint32_t v;
	int isnew;

	spdw_framekey(&g->key, s, n, l, ln);
	id = ht_intern(g->frtab, g->key.data, g->key.len, &isnew);
	if (isnew && ln > 0 && !spdw_locvalid(l, ln))
		errx(1, "%s:%llu: bad location: %.*s", name, lineno, (int)ln,
		    l);
	v = (uint32_t)id;
	xspill_write(g->all, &v, sizeof(v));
}

/* Threads by their decoded names, which is how Python compares str. */
static int
byname(size_t a, size_t b, void *arg)
{
	const struct s2s *g = arg;
	const struct buf *x = &g->thr[a].name, *y = &g->thr[b].name;
	int c;

	c = memcmp(x->data, y->data, x->len < y->len ? x->len : y->len);
	if (c != 0 || x->len == y->len)
		return c;
	return x->len < y->len ? -1 : 1;
}

/* Frames by their first use. */
static int
byfirst(size_t a, size_t b, void *arg)
{
	const struct s2s *g = arg;
	const struct first *x = &g->first[a], *y = &g->first[b];

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Order the nth threads (by name with sflag) and the nfr frames. */
static void
number(struct s2s *g, size_t nth, size_t nfr, int sflag)
{
	struct spdw_rec h;
	uint64_t seq;
	uint32_t k;
	size_t i, r;

	g->order = xreallocarray(NULL, nth + 1, sizeof(*g->order));
	for (i = 0; i < nth; i++)
		g->order[i] = i;
	if (sflag)
		sst_sort(g->order, nth, byname, g);
	for (i = 0; i < nth; i++)
		g->thr[g->order[i]].rank = i;
	g->first = xreallocarray(NULL, nfr + 1, sizeof(*g->first));
	g->forder = xreallocarray(NULL, nfr + 1, sizeof(*g->forder));
	g->outid = xreallocarray(NULL, nfr + 1, sizeof(*g->outid));
	for (i = 0; i < nfr; i++) {
		g->first[i].rank = (size_t)-1;
		g->forder[i] = i;
	}
	xspill_rewind(g->all);
	for (seq = 0; spdw_xread(g->all, &h, &g->ids); seq++)
		for (k = 0, r = g->thr[h.tid].rank; k < h.nf; k++)
			if (r < g->first[g->ids.id[k]].rank)
				g->first[g->ids.id[k]] =
				    (struct first){ r, seq, k };
	sst_sort(g->forder, nfr, byfirst, g);
	for (i = 0; i < nfr; i++)
		g->outid[g->forder[i]] = (uint32_t)i;
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst2speedscope [-hSV] [-D name] [-e exporter] "
	    "[file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct s2s s2s, *g = &s2s;
	const char *exporter = "sst2speedscope", *name = NULL;
	char c1[FMTBUF], c2[FMTBUF];
	const char *k;
	size_t i, n, nfr;
	int ch, sflag = 0, vflag = 0;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "D:e:hSV")) != -1) {
		switch (ch) {
		case 'D':
			name = optarg;
			break;
		case 'e':
			exporter = optarg;
			break;
		case 'h':
			usage(1);
		case 'S':
			sflag = 1;
			break;
		case 'V':
			vflag = 1;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (name == NULL)
		name = argc == 0 || strcmp(argv[0], "-") == 0 ? "<stdin>" :
		    argv[0];

	memset(g, 0, sizeof(*g));
	g->thtab = ht_new();
	g->frtab = ht_new();
	g->all = spill_new(SPILLMEM);
	buf_init(&g->key);
	if (argc == 0)
		readfile(g, NULL);
	for (i = 0; i < (size_t)argc; i++)
		readfile(g, argv[i]);
	nfr = ht_count(g->frtab);
	number(g, ht_count(g->thtab), nfr, sflag);

	fputs("{\"$schema\": \"https://www.speedscope.app/"
	    "file-format-schema.json\", \"shared\": {\"frames\": [", stdout);
	for (i = 0; i < nfr; i++) {
		if (i > 0)
			fputs(", ", stdout);
		k = ht_key(g->frtab, g->forder[i], &n);
		spdw_putframe(k, n);
	}
	fputs("]}, \"profiles\": [", stdout);
	spdw_putprofiles(g->all, g->thr, g->order, ht_count(g->thtab),
	    g->outid, &g->ids);
	fputs("], \"name\": ", stdout);
	jsonw_str(stdout, name, strlen(name));
	fputs(", \"exporter\": ", stdout);
	jsonw_str(stdout, exporter, strlen(exporter));
	putchar('}');
	xfshut(stdout, "stdout");
	if (vflag) {
		warnx("%s frame%s, %s profile%s", fmt_commas(c1, sizeof(c1),
		    nfr), nfr == 1 ? "" : "s", fmt_commas(c2, sizeof(c2),
		    ht_count(g->thtab)), ht_count(g->thtab) == 1 ? "" : "s");
		for (i = 0; i < ht_count(g->thtab); i++) {
			fputs("sst2speedscope: ", stderr);
			fwrite(g->thr[g->order[i]].name.data, 1,
			    g->thr[g->order[i]].name.len, stderr);
			fprintf(stderr, ": %s sample%s\n", fmt_commas(c1,
			    sizeof(c1), g->thr[g->order[i]].n),
			    g->thr[g->order[i]].n == 1 ? "" : "s");
		}
	}
	for (i = 0; i < ht_count(g->thtab); i++)
		buf_free(&g->thr[i].name);
	ht_free(g->thtab);
	ht_free(g->frtab);
	spill_free(g->all);
	buf_free(&g->key);
	free(g->thr);
	free(g->order);
	free(g->forder);
	free(g->first);
	free(g->outid);
	free(g->ids.id);
	return 0;
}
