/*
 * traceout.c: the records of a trace (trace.c): the thread field, the
 * stack and location fields of a node, and the records in the order
 * their stacks were first entered, or one per span with -s.
 */
#define _GNU_SOURCE		/* memmem */
#include <err.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "sst.h"
#include "trace.h"
#include "traceint.h"

static int	 nodecmp(size_t, size_t, void *);
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

/* Write the records, threads in the order they were first seen. */
void
tr_output(struct trace *t, const char *prefix, FILE *fp)
{
	struct sst_rec r;
	struct buf tf, sf, lf;
	size_t *ix, i, nn = ht_count(t->nodes), k;
	int64_t t0;
	uint32_t cur = NONE;

	buf_init(&tf);
	buf_init(&sf);
	buf_init(&lf);
	memset(&r, 0, sizeof(r));
	r.unit = U_SECONDS;
	if (t->opt->persample) {
		if (t->nones > 1)
			qsort(t->ones, t->nones, sizeof(*t->ones), tr_onecmp);
		/* Start times count from the earliest span of the file. */
		for (i = 0, t0 = INT64_MAX; i < t->nones; i++)
			if (t->ones[i].start < t0)
				t0 = t->ones[i].start;
		for (i = 0; i < t->nones; i++) {
			if (t->ones[i].thread != cur) {
				cur = t->ones[i].thread;
				threadfield(t, cur, prefix, &tf);
			}
			stackfield(t, t->ones[i].node, &sf, &lf);
			r.thread = tf.data;
			r.threadlen = tf.len;
			r.samples = 1;
			r.weight = r.period = (double)t->ones[i].self / 1e9;
			r.hasperiod = 1;
			r.stack = sf.data;
			r.stacklen = sf.len;
			r.locs = lf.len > 0 ? lf.data : "";
			r.locslen = lf.len;
			r.hasstart = 1;
			r.start = (double)(t->ones[i].start - t0) / 1e9;
			rec_write(fp, &r);
			t->st->records++;
		}
		buf_free(&tf);
		buf_free(&sf);
		buf_free(&lf);
		return;
	}
	ix = xreallocarray(NULL, nn ? nn : 1, sizeof(*ix));
	for (i = 0; i < nn; i++)
		ix[i] = i;
	sst_sort(ix, nn, nodecmp, t);
	for (k = 0; k < nn; k++) {
		i = ix[k];
		if (t->nsamples[i] == 0)
			continue;
		if (t->nthread[i] != cur) {
			cur = t->nthread[i];
			threadfield(t, cur, prefix, &tf);
		}
		stackfield(t, (uint32_t)i, &sf, &lf);
		r.thread = tf.data;
		r.threadlen = tf.len;
		r.samples = t->nsamples[i];
		if (t->nmixed[i]) {
			r.hasperiod = 0;
			r.weight = (double)t->nns[i] / 1e9;
		} else {
			r.hasperiod = 1;
			r.period = (double)t->nfirst[i] / 1e9;
			r.weight = fmt_pysum(0, r.period, r.samples);
		}
		r.stack = sf.data;
		r.stacklen = sf.len;
		r.locs = lf.len > 0 ? lf.data : "";
		r.locslen = lf.len;
		rec_write(fp, &r);
		t->st->records++;
	}
	free(ix);
	buf_free(&tf);
	buf_free(&sf);
	buf_free(&lf);
}
