/*
 * traceout.c: the records of a trace (trace.c): the thread field, the
 * stack and location fields of a node, and the records in the order
 * their stacks were first entered, or one per span with -s.
 */
#define _GNU_SOURCE		/* memmem */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "htab.h"
#include "sort.h"
#include "fmt.h"
#include "trace.h"
#include "traceint.h"

/* The fields being written, and the thread they are of. */
struct outbufs {
	struct buf	 tf, sf, lf;
	uint32_t	 cur;
};

static int	 nodecmp(size_t, size_t, void *);
static void	 fields(struct trace *, struct outbufs *, uint32_t, uint32_t,
		    const char *, struct sst_rec *);
static void	 perspan(struct trace *, struct outbufs *, const char *,
		    FILE *);
static void	 pernode(struct trace *, struct outbufs *, const char *,
		    FILE *);
static void	 threadfield(struct trace *, uint32_t, const char *,
		    struct buf *);
static void	 stackfield(struct trace *, uint32_t, struct buf *,
		    struct buf *);

/* Nodes by thread, then in the order they were first entered. */
static int
nodecmp(size_t a, size_t b, void *arg)
{
	const struct trace *t = arg;

	if (t->nthread[a] != t->nthread[b])
		return t->nthread[a] < t->nthread[b] ? -1 : 1;
	if (t->nrank[a] != t->nrank[b])
		return t->nrank[a] < t->nrank[b] ? -1 : 1;
	return 0;
}

/* The escaped thread field of thread id into b. */
static void
threadfield(struct trace *t, uint32_t id, const char *prefix, struct buf *b)
{
	struct buf raw;
	const struct thread *th = &t->th[id];
	const char *k, *tid;
	size_t n;

	buf_init(&raw);
	if (prefix != NULL)
		buf_printf(&raw, "%s: ", prefix);
	k = ht_key(t->pids, th->pid, &n);
	buf_adds(&raw, "Process ");
	buf_add(&raw, k + 1, n - 1);
	if (t->pname[th->pid] != NONE) {
		k = ht_key(t->names, t->pname[th->pid], &n);
		buf_adds(&raw, " \"");
		buf_add(&raw, k, n);
		buf_addc(&raw, '"');
	}
	k = ht_key(t->tids, id, &n);
	tid = (const char *)memchr(k, 0, n) + 2;
	buf_adds(&raw, " Thread ");
	buf_add(&raw, tid, n - (size_t)(tid - k));
	if (th->name != NONE) {
		k = ht_key(t->names, th->name, &n);
		buf_adds(&raw, " \"");
		buf_add(&raw, k, n);
		buf_addc(&raw, '"');
	}
	buf_reset(b);
	esc_add(b, raw.data, raw.len);
	buf_free(&raw);
}

/*
 * The escaped stack field of node n into b and its locations field into
 * l (empty when no frame has a location).
 */
static void
stackfield(struct trace *t, uint32_t n, struct buf *b, struct buf *l)
{
	const char *k;
	size_t len, i;
	uint32_t name, loc;
	int hasloc = 0;

	t->npath = 0;
	for (; n != NONE; n = t->nparent[n]) {
		if (t->npath == t->cappath)
			t->path = xgrow(t->path, &t->cappath, t->npath + 1, 64,
			    sizeof(*t->path));
		t->path[t->npath++] = t->nname[n];
		if (t->nname[n] >= t->pylow)
			hasloc = 1;
	}
	buf_reset(b);
	buf_reset(l);
	for (i = t->npath; i > 0; i--) {
		name = tr_frameof(t, t->path[i - 1], &loc);
		k = ht_key(t->names, name, &len);
		esc_name(b, k, len);
		if (hasloc && loc != NONE) {
			k = ht_key(t->locs, loc, &len);
			esc_add(l, k, len);
			buf_adds(l, "::");
		} else if (hasloc)
			buf_adds(l, ":::");
		if (i > 1) {
			buf_addc(b, ';');
			if (hasloc)
				buf_addc(l, ';');
		}
	}
	t->npath = 0;
}

/* The fields of a record of node n of thread th into *r (bufs in o). */
static void
fields(struct trace *t, struct outbufs *o, uint32_t th, uint32_t n,
    const char *prefix, struct sst_rec *r)
{
	if (th != o->cur) {
		o->cur = th;
		threadfield(t, th, prefix, &o->tf);
	}
	stackfield(t, n, &o->sf, &o->lf);
	r->thread = o->tf.data;
	r->threadlen = o->tf.len;
	r->stack = o->sf.data;
	r->stacklen = o->sf.len;
	r->locs = o->lf.len > 0 ? o->lf.data : "";
	r->locslen = o->lf.len;
}

/* -s: a record per span, by thread, start and the order taken. */
static void
perspan(struct trace *t, struct outbufs *o, const char *prefix, FILE *fp)
{
	struct sst_rec r;
	struct nest_tot one;
	size_t i;
	int64_t t0;

	memset(&r, 0, sizeof(r));
	r.unit = U_SECONDS;
	r.hasstart = 1;
	if (t->nones > 1)
		qsort(t->ones, t->nones, sizeof(*t->ones), tr_onecmp);
	/* Start times count from the earliest span of the file. */
	for (i = 0, t0 = INT64_MAX; i < t->nones; i++)
		if (t->ones[i].start < t0)
			t0 = t->ones[i].start;
	for (i = 0; i < t->nones; i++) {
		fields(t, o, t->ones[i].thread, t->ones[i].node, prefix, &r);
		memset(&one, 0, sizeof(one));
		nest_tally(&one, t->ones[i].self);
		nest_rec(&r, &one, 1e9);
		r.start = (double)(t->ones[i].start - t0) / 1e9;
		rec_write(fp, &r);
		t->st->records++;
	}
}

/* A record per node, by thread, in the order first entered. */
static void
pernode(struct trace *t, struct outbufs *o, const char *prefix, FILE *fp)
{
	struct sst_rec r;
	size_t *ix, i, nn = ht_count(t->nodes), k;

	memset(&r, 0, sizeof(r));
	r.unit = U_SECONDS;
	ix = xreallocarray(NULL, nn ? nn : 1, sizeof(*ix));
	for (i = 0; i < nn; i++)
		ix[i] = i;
	sst_sort(ix, nn, nodecmp, t);
	for (k = 0; k < nn; k++) {
		i = ix[k];
		if (t->ntot[i].n == 0)
			continue;
		fields(t, o, t->nthread[i], (uint32_t)i, prefix, &r);
		nest_rec(&r, &t->ntot[i], 1e9);
		rec_write(fp, &r);
		t->st->records++;
	}
	free(ix);
}

/* Write the records, threads in the order they were first seen. */
void
tr_output(struct trace *t, const char *prefix, FILE *fp)
{
	struct outbufs o;

	buf_init(&o.tf);
	buf_init(&o.sf);
	buf_init(&o.lf);
	o.cur = NONE;
	if (t->opt->persample)
		perspan(t, &o, prefix, fp);
	else
		pernode(t, &o, prefix, fp);
	buf_free(&o.tf);
	buf_free(&o.sf);
	buf_free(&o.lf);
}
