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

/* Where a frame of a stack is in its text: name and location entry. */
struct pfr {
	uint32_t	 noff, nlen, loff, llen;
};

/* A record's stack and locations, its frames and their ids. */
struct stk {
	struct buf	 text;		/* stack, then locations */
	struct pfr	*f;
	uint32_t	*id;
	size_t		 n, cap;
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
	struct stk	 cur, prev;	/* this record's, the one before */
};

static void	readfile(struct s2s *, const char *);
static struct spdw_thread *thread(struct s2s *, const struct sst_rec *,
		    const char *, unsigned long long, size_t *);
static void	addrec(struct s2s *, const struct sst_rec *, const char *,
		    unsigned long long);
static size_t	frames(struct s2s *, const struct sst_rec *, const char *,
		    unsigned long long);
static int	same(const struct buf *, const struct pfr *, const char *,
		    size_t, const char *, size_t);
static void	grow(struct stk *);
static void	stkfree(struct stk *);
static void	memswap(struct stk *, struct stk *);
static const char *piece(const char *, const char *);
static uint32_t	addframe(struct s2s *, const char *, size_t, const char *,
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
	const char *name;
	unsigned long long lineno;
	int fd;

	name = path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path;
	fd = xopen(path);
	rd = rec_open(fd, path);
	for (lineno = 1; rec_read(rd, &r); lineno++)
		addrec(g, &r, name, lineno);
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* The thread of r, made on its first record; its unit checked. */
static struct spdw_thread *
thread(struct s2s *g, const struct sst_rec *r, const char *name,
    unsigned long long lineno, size_t *tid)
{
	struct spdw_thread *t;
	int isnew;

	*tid = ht_intern(g->thtab, r->thread, r->threadlen, &isnew);
	if (*tid == g->thcap)
		g->thr = xgrow(g->thr, &g->thcap, *tid + 1, 64,
		    sizeof(*g->thr));
	t = &g->thr[*tid];
	if (isnew) {
		memset(t, 0, sizeof(*t));
		buf_grow(&t->name, r->threadlen);
		t->name.len = esc_decode(t->name.data, r->thread,
		    r->threadlen);
		t->unit = r->unit;
	} else if (r->unit != t->unit)
		errx(1, "%s:%llu: unit %s, but the thread's is %s",
		    name, lineno, rec_unitname(r->unit),
		    rec_unitname(t->unit));
	return t;
}

/* Spill record r: its header, then the ids of its frames. */
static void
addrec(struct s2s *g, const struct sst_rec *r, const char *name,
    unsigned long long lineno)
{
	struct spdw_thread *t;
	struct spdw_rec h;
	size_t tid, nf;

	t = thread(g, r, name, lineno, &tid);
	if (r->samples == 0)
		return;
	nf = frames(g, r, name, lineno);
	h = (struct spdw_rec){ (uint32_t)tid, (uint32_t)nf, r->samples,
	    r->hasperiod ? r->period : r->weight / (double)r->samples };
	if (h.n > UINT64_MAX - t->n)
		errx(1, "%s:%llu: the sample count of thread %.*s "
		    "passes 2^64-1", name, lineno, (int)r->threadlen,
		    r->thread);
	t->n += h.n;
	t->end = fmt_pysum(t->end, h.w, h.n);
	spill_write(g->all, &h, sizeof(h));
	spill_write(g->all, g->cur.id, nf * sizeof(*g->cur.id));
	memswap(&g->prev, &g->cur);
}

/*
 * The ids of the frames of r into g->cur, their number returned.  A
 * frame whose name and location are those at its place in the record
 * before takes that one's id without a lookup: stacks sampled one
 * after another share most of their frames.
 */
static size_t
frames(struct s2s *g, const struct sst_rec *r, const char *name,
    unsigned long long lineno)
{
	struct stk *c = &g->cur, *p = &g->prev;
	const char *s, *l, *sn, *ln, *se, *le;
	size_t k;

	buf_reset(&c->text);
	buf_add(&c->text, r->stack, r->stacklen);
	buf_add(&c->text, r->locs, r->locslen);
	if (r->stacklen == 0)
		return c->n = 0;
	s = c->text.data;
	se = s + r->stacklen;
	l = se;
	le = l + r->locslen;
	for (k = 0;; k++) {
		sn = piece(s, se);
		ln = r->locslen > 0 ? piece(l, le) : l;
		if (k == c->cap)
			grow(c);
		c->f[k] = (struct pfr){ (uint32_t)(s - c->text.data),
		    (uint32_t)(sn - s), (uint32_t)(l - c->text.data),
		    (uint32_t)(ln - l) };
		if (k < p->n && same(&p->text, &p->f[k], s, (size_t)(sn - s),
		    l, (size_t)(ln - l)))
			c->id[k] = p->id[k];
		else
			c->id[k] = addframe(g, s, (size_t)(sn - s), l,
			    (size_t)(ln - l), name, lineno);
		if (sn == se)
			break;
		s = sn + 1;
		l = r->locslen > 0 ? ln + 1 : l;
	}
	return c->n = k + 1;
}

/* Whether name s[0..n) at l[0..ln) is the frame f of text t. */
static int
same(const struct buf *t, const struct pfr *f, const char *s, size_t n,
    const char *l, size_t ln)
{
	return f->nlen == n && f->llen == ln &&
	    memcmp(t->data + f->noff, s, n) == 0 &&
	    memcmp(t->data + f->loff, l, ln) == 0;
}

/* Room for twice as many frames in a stack's arrays. */
static void
grow(struct stk *c)
{
	size_t cap = c->cap;

	c->f = xgrow(c->f, &cap, c->cap + 1, 64, sizeof(*c->f));
	c->id = xgrow(c->id, &c->cap, c->cap + 1, 64, sizeof(*c->id));
}

/* Free a stack's memory. */
static void
stkfree(struct stk *c)
{
	buf_free(&c->text);
	free(c->f);
	free(c->id);
}

/* Swap two stacks. */
static void
memswap(struct stk *a, struct stk *b)
{
	struct stk t = *a;

	*a = *b;
	*b = t;
}

/* The end of the ';'-separated piece that starts at s. */
static const char *
piece(const char *s, const char *e)
{
	const char *p;

	return (p = memchr(s, ';', (size_t)(e - s))) != NULL ? p : e;
}

/* The id of a frame by its name and location entry, interned. */
static uint32_t
addframe(struct s2s *g, const char *s, size_t n, const char *l,
    size_t ln, const char *name, unsigned long long lineno)
{
	size_t id;
	int isnew;

	spdw_framekey(&g->key, s, n, l, ln);
	id = ht_intern(g->frtab, g->key.data, g->key.len, &isnew);
	if (isnew && ln > 0 && !spdw_locvalid(l, ln))
		errx(1, "%s:%llu: bad location: %.*s", name, lineno, (int)ln,
		    l);
	return (uint32_t)id;
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
		g->outid[i] = (uint32_t)i;
	}
	/* One thread: the frames were interned in the order of first use. */
	if (nth == 1)
		return;
	spill_rewind(g->all);
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
	sst_usage(help, "usage: sst2speedscope [-hSV] [-D name] [-e exporter] "
	    "[file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct s2s s2s, *g = &s2s;
	const char *exporter = "sst2speedscope", *name = NULL;
	char c1[FMTBUF], c2[FMTBUF];
	size_t i, nfr;
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
	buf_init(&g->cur.text);
	buf_init(&g->prev.text);
	if (argc == 0)
		readfile(g, NULL);
	for (i = 0; i < (size_t)argc; i++)
		readfile(g, argv[i]);
	nfr = ht_count(g->frtab);
	number(g, ht_count(g->thtab), nfr, sflag);

	fputs("{\"$schema\": \"https://www.speedscope.app/"
	    "file-format-schema.json\", \"shared\": {\"frames\": [", stdout);
	spdw_putframes(g->frtab, g->forder, nfr);
	fputs("]}, \"profiles\": [", stdout);
	spdw_putprofiles(g->all, g->thr, g->order, ht_count(g->thtab),
	    g->outid, &g->ids);
	fputs("], \"name\": ", stdout);
	jsonw_str(stdout, name, strlen(name));
	fputs(", \"exporter\": ", stdout);
	jsonw_str(stdout, exporter, strlen(exporter));
	putchar('}');
	fshut(stdout, "stdout");
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
	stkfree(&g->cur);
	stkfree(&g->prev);
	free(g->thr);
	free(g->order);
	free(g->forder);
	free(g->first);
	free(g->outid);
	free(g->ids.id);
	return 0;
}
