/*
 * scopedoc.c: a speedscope document made of sst(5) records, one sampled
 * profile per thread, byte for byte as Python's json.dump() writes it
 * (sst2speedscope, collapsed2sst -J).  The records wait in a temporary
 * spill file, their stacks as frame ids (spdw.c), so memory grows with
 * distinct frames and threads only.  A pass over the spill numbers the
 * frames in the order in which the profiles, as written, first use them
 * (with one thread, the order in which they were met); then the records
 * are dealt out to one spill per thread, some threads at a time, to
 * write the profiles in turn (see spdw.c).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "htab.h"
#include "sort.h"
#include "fmt.h"
#include "spill.h"
#include "jsonw.h"
#include "spdw.h"
#include "scopedoc.h"

/* Where a frame is first used: profile, record, place in the stack. */
struct first {
	size_t		 rank;
	uint64_t	 seq;
	uint32_t	 pos;
};

/* The records spilled, the threads and the frames. */
struct scopedoc {
	struct htab	*thtab;		/* escaped thread names */
	struct spdw_frames *fr;
	struct spdw_thread *thr;
	size_t		 thcap, *order, *forder;
	struct first	*first;
	uint32_t	*outid;
	struct spdw_ids	 ids;
	struct spill	*all;
	size_t		 last;		/* the thread of the record before */
	double		 sc[SCOPEDOC_NSMAX];
	int		 nsc;		/* 0: the weights as given */
	double		*ends;		/* by thread and scale */
};

static struct spdw_thread *thread(struct scopedoc *,
		    const struct sst_rec *, size_t *, struct buf *);
static int	byname(size_t, size_t, void *);
static int	byfirst(size_t, size_t, void *);

/* A document of no record yet, mem bytes of its records in memory. */
struct scopedoc *
scopedoc_new(size_t mem)
{
	struct scopedoc *g;

	g = xcalloc(1, sizeof(*g));
	g->thtab = ht_new();
	g->fr = spdw_frames_new();
	g->all = spill_new(mem > SCOPEDOC_MEM ? mem : SCOPEDOC_MEM);
	g->last = (size_t)-1;
	return g;
}

/* Weights to be multiplied by sc[i], i picked at the end. */
void
scopedoc_scales(struct scopedoc *g, const double *sc, int nsc)
{
	g->nsc = nsc < SCOPEDOC_NSMAX ? nsc : SCOPEDOC_NSMAX;
	memcpy(g->sc, sc, (size_t)g->nsc * sizeof(*sc));
}

/* The scale picked: each thread's total at it, its weights times it. */
void
scopedoc_pick(struct scopedoc *g, int sel)
{
	size_t i;

	for (i = 0; g->nsc > 0 && i < ht_count(g->thtab); i++) {
		g->thr[i].end = g->ends[i * SCOPEDOC_NSMAX + sel];
		g->thr[i].scale = g->sc[sel];
	}
}

/* The thread of r, made on its first record; NULL if r's unit is not its. */
static struct spdw_thread *
thread(struct scopedoc *g, const struct sst_rec *r, size_t *tid,
    struct buf *err)
{
	struct spdw_thread *t;
	const char *k;
	size_t kn;
	int isnew = 0;

	/* Records of a thread come in runs: the one before's, unlooked. */
	if (g->last != (size_t)-1 && (k = ht_key(g->thtab, g->last, &kn),
	    kn == r->threadlen) && memcmp(k, r->thread, kn) == 0)
		*tid = g->last;
	else
		*tid = g->last = ht_intern(g->thtab, r->thread, r->threadlen,
		    &isnew);
	if (*tid == g->thcap) {
		g->thr = xgrow(g->thr, &g->thcap, *tid + 1, 64,
		    sizeof(*g->thr));
		g->ends = xreallocarray(g->ends, g->thcap,
		    SCOPEDOC_NSMAX * sizeof(*g->ends));
	}
	t = &g->thr[*tid];
	if (isnew) {
		memset(t, 0, sizeof(*t));
		t->scale = 1;
		memset(&g->ends[*tid * SCOPEDOC_NSMAX], 0,
		    SCOPEDOC_NSMAX * sizeof(*g->ends));
		buf_grow(&t->name, r->threadlen);
		t->name.len = esc_decode(t->name.data, r->thread,
		    r->threadlen);
		t->unit = r->unit;
	} else if (r->unit != t->unit) {
		buf_reset(err);
		buf_printf(err, "unit %s, but the thread's is %s",
		    rec_unitname(r->unit), rec_unitname(t->unit));
		return NULL;
	}
	return t;
}

/* Spill record r: its header, then the ids of its frames. */
int
scopedoc_add(struct scopedoc *g, const struct sst_rec *r, struct buf *err)
{
	struct spdw_thread *t;
	struct spdw_rec h;
	size_t tid;
	double *e;
	int i;

	if ((t = thread(g, r, &tid, err)) == NULL)
		return -1;
	if (r->samples == 0)
		return 0;
	h = (struct spdw_rec){ (uint32_t)tid, 0, r->samples,
	    r->hasperiod ? r->period : r->weight / (double)r->samples };
	if (h.n > UINT64_MAX - t->n) {
		buf_reset(err);
		buf_printf(err, "the sample count of thread %.*s passes "
		    "2^64-1", (int)r->threadlen, r->thread);
		return -1;
	}
	if (spdw_addrec(g->fr, r, &h, g->all, err) == -1)
		return -1;
	t->n += h.n;
	if (g->nsc == 0)
		t->end = fmt_pysum(t->end, h.w, h.n);
	for (i = 0, e = &g->ends[tid * SCOPEDOC_NSMAX]; i < g->nsc; i++)
		e[i] = fmt_pysum(e[i], h.w * g->sc[i], h.n);
	return 0;
}

/* Threads by their decoded names, which is how Python compares str. */
static int
byname(size_t a, size_t b, void *arg)
{
	const struct scopedoc *g = arg;
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
	const struct scopedoc *g = arg;
	const struct first *x = &g->first[a], *y = &g->first[b];

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Order the threads (by name with sort) and the frames. */
void
scopedoc_end(struct scopedoc *g, int sort)
{
	struct spdw_rec h;
	uint64_t seq;
	uint32_t k;
	size_t i, r, nth, nfr;

	spdw_frames_flush(g->fr, g->all);
	nth = ht_count(g->thtab);
	nfr = ht_count(spdw_frames_table(g->fr));
	g->order = xreallocarray(NULL, nth + 1, sizeof(*g->order));
	for (i = 0; i < nth; i++)
		g->order[i] = i;
	if (sort)
		sst_sort(g->order, nth, byname, g);
	for (i = 0; i < nth; i++)
		g->thr[g->order[i]].rank = i;
	/*
	 * One thread (or none): the frames were interned in the order of
	 * first use, their ids are their numbers (forder, outid NULL).
	 */
	if (nth <= 1)
		return;
	g->forder = xreallocarray(NULL, nfr + 1, sizeof(*g->forder));
	g->outid = xreallocarray(NULL, nfr + 1, sizeof(*g->outid));
	for (i = 0; i < nfr; i++) {
		g->forder[i] = i;
		g->outid[i] = (uint32_t)i;
	}
	g->first = xreallocarray(NULL, nfr + 1, sizeof(*g->first));
	for (i = 0; i < nfr; i++)
		g->first[i].rank = (size_t)-1;
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

/* The document: frames, profiles, name and exporter. */
void
scopedoc_put(struct scopedoc *g, const char *name, const char *exporter)
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
}

/* The frames and profiles, and each profile's samples. */
void
scopedoc_verbose(const struct scopedoc *g, const char *prog)
{
	char c1[FMTBUF], c2[FMTBUF];
	size_t i, nfr, nth = ht_count(g->thtab);
	const struct spdw_thread *t;

	nfr = ht_count(spdw_frames_table(g->fr));
	fprintf(stderr, "%s: %s frame%s, %s profile%s\n", prog,
	    fmt_commas(c1, sizeof(c1), nfr), nfr == 1 ? "" : "s",
	    fmt_commas(c2, sizeof(c2), nth), nth == 1 ? "" : "s");
	for (i = 0; i < nth; i++) {
		t = &g->thr[g->order[i]];
		fprintf(stderr, "%s: ", prog);
		fwrite(t->name.data, 1, t->name.len, stderr);
		fprintf(stderr, ": %s sample%s\n", fmt_commas(c1, sizeof(c1),
		    t->n), t->n == 1 ? "" : "s");
	}
}

/* Free the document and all it holds. */
void
scopedoc_free(struct scopedoc *g)
{
	size_t i;

	if (g == NULL)
		return;
	for (i = 0; i < ht_count(g->thtab); i++)
		buf_free(&g->thr[i].name);
	ht_free(g->thtab);
	spdw_frames_free(g->fr);
	spill_free(g->all);
	free(g->thr);
	free(g->order);
	free(g->forder);
	free(g->first);
	free(g->outid);
	free(g->ends);
	free(g->ids.id);
	free(g);
}

/* Take option ch: -D name, -e exporter or -S; 0 if it is none of them. */
int
scopedoc_opt(struct scopedoc_opts *o, int ch, const char *arg)
{
	if (ch == 'D')
		o->name = arg;
	else if (ch == 'e')
		o->exporter = arg;
	else if (ch == 'S')
		o->sort = 1;
	else
		return 0;
	return 1;
}

/* Number the threads and frames and write the document of the inputs. */
void
scopedoc_write(struct scopedoc *g, const struct scopedoc_opts *o, int argc,
    char *const *argv)
{
	const char *name = o->name;

	if (name == NULL)
		name = argc == 0 || strcmp(argv[0], "-") == 0 ? "<stdin>" :
		    argv[0];
	scopedoc_end(g, o->sort);
	scopedoc_put(g, name, o->exporter);
}
