/*
 * sst2speedscope: write an sst(5) stream as a speedscope JSON document,
 * one sampled profile per thread, byte for byte as Python's json.dump()
 * writes it.  The records wait in a temporary spill file, their stacks
 * as frame ids (common/formats/spdw.c), so memory grows with distinct frames
 * and threads only.  A pass over the spill numbers the frames in the
 * order in which the profiles, as written, first use them (with one
 * thread, the order in which they were met); then the records are
 * dealt out to one spill per thread, some threads at a time, to write
 * the profiles in turn (see common/formats/spdw.c).
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "recread.h"
#include "htab.h"
#include "sort.h"
#include "fmt.h"
#include "spill.h"
#include "jsonw.h"
#include "spdw.h"

#define SPILLMEM	(1 << 20)

/* Where a frame is first used: profile, record, place in the stack. */
struct first {
	size_t		 rank;
	uint64_t	 seq;
	uint32_t	 pos;
};

/* What the program holds: the records spilled, threads and frames. */
struct s2s {
	struct htab	*thtab;		/* escaped thread names */
	struct spdw_frames *fr;
	struct spdw_thread *thr;
	size_t		 thcap, *order, *forder;
	struct first	*first;
	uint32_t	*outid;
	struct spdw_ids	 ids;
	struct spill	*all;
	struct buf	 err;
};

static void	readfile(struct s2s *, const char *);
static struct spdw_thread *thread(struct s2s *, const struct sst_rec *,
		    const char *, unsigned long long, size_t *);
static void	addrec(struct s2s *, const struct sst_rec *, const char *,
		    unsigned long long);
static int	byname(size_t, size_t, void *);
static int	byfirst(size_t, size_t, void *);
static void	number(struct s2s *, size_t, size_t, int);
static void	putdoc(struct s2s *, const char *, const char *);
static void	verbose(const struct s2s *);
static void	cleanup(struct s2s *);
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
	for (lineno = 1; xrec_read(rd, &r); lineno++)
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
	size_t tid;

	t = thread(g, r, name, lineno, &tid);
	if (r->samples == 0)
		return;
	h = (struct spdw_rec){ (uint32_t)tid, 0, r->samples,
	    r->hasperiod ? r->period : r->weight / (double)r->samples };
	if (h.n > UINT64_MAX - t->n)
		errx(1, "%s:%llu: the sample count of thread %.*s "
		    "passes 2^64-1", name, lineno, (int)r->threadlen,
		    r->thread);
	if (spdw_addrec(g->fr, r, &h, g->all, &g->err) == -1)
		errx(1, "%s:%llu: %s", name, lineno, g->err.data);
	t->n += h.n;
	t->end = fmt_pysum(t->end, h.w, h.n);
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

/* The document: frames, profiles, name and exporter. */
static void
putdoc(struct s2s *g, const char *name, const char *exporter)
{
	fputs("{\"$schema\": \"https://www.speedscope.app/"
	    "file-format-schema.json\", \"shared\": {\"frames\": [", stdout);
	spdw_putframes(spdw_frames_table(g->fr), g->forder,
	    ht_count(spdw_frames_table(g->fr)));
	fputs("]}, \"profiles\": [", stdout);
	spdw_putprofiles(g->all, g->thr, g->order, ht_count(g->thtab),
	    g->outid, &g->ids);
	fputs("], \"name\": ", stdout);
	jsonw_str(stdout, name, strlen(name));
	fputs(", \"exporter\": ", stdout);
	jsonw_str(stdout, exporter, strlen(exporter));
	putchar('}');
	xfshut(stdout, "stdout");
}

/* -V: the frames and profiles, and each profile's samples. */
static void
verbose(const struct s2s *g)
{
	char c1[FMTBUF], c2[FMTBUF];
	size_t i, nfr, nth = ht_count(g->thtab);
	const struct spdw_thread *t;

	nfr = ht_count(spdw_frames_table(g->fr));
	warnx("%s frame%s, %s profile%s", fmt_commas(c1, sizeof(c1), nfr),
	    nfr == 1 ? "" : "s", fmt_commas(c2, sizeof(c2), nth),
	    nth == 1 ? "" : "s");
	for (i = 0; i < nth; i++) {
		t = &g->thr[g->order[i]];
		fputs("sst2speedscope: ", stderr);
		fwrite(t->name.data, 1, t->name.len, stderr);
		fprintf(stderr, ": %s sample%s\n", fmt_commas(c1, sizeof(c1),
		    t->n), t->n == 1 ? "" : "s");
	}
}

/* Free what the program holds. */
static void
cleanup(struct s2s *g)
{
	size_t i;

	for (i = 0; i < ht_count(g->thtab); i++)
		buf_free(&g->thr[i].name);
	ht_free(g->thtab);
	spdw_frames_free(g->fr);
	spill_free(g->all);
	buf_free(&g->err);
	free(g->thr);
	free(g->order);
	free(g->forder);
	free(g->first);
	free(g->outid);
	free(g->ids.id);
}

int
main(int argc, char *argv[])
{
	struct s2s s2s, *g = &s2s;
	const char *exporter = "sst2speedscope", *name = NULL;
	int ch, i, sflag = 0, vflag = 0;

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
	g->fr = spdw_frames_new();
	g->all = spill_new(SPILLMEM);
	buf_init(&g->err);
	if (argc == 0)
		readfile(g, NULL);
	for (i = 0; i < argc; i++)
		readfile(g, argv[i]);
	spdw_frames_flush(g->fr, g->all);
	number(g, ht_count(g->thtab), ht_count(spdw_frames_table(g->fr)),
	    sflag);
	putdoc(g, name, exporter);
	if (vflag)
		verbose(g);
	cleanup(g);
	return 0;
}
