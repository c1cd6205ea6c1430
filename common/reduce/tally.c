/*
 * tally.c: totals per key.  Keys are interned (htab.c), so their ids
 * are dense and in first-seen order; the samples and the weight of each
 * key are kept in arrays indexed by id, the weight summed record after
 * record by rec_addw() to match Python's float sums.  tally_sort() and
 * tally_sortw() rank ids heaviest first, ties in their given order.
 * tally_leaves() reads a stream into totals per leaf (sst-leaf(1),
 * sst-categories(1)), tally_leaveskind() noting its kind (kind.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tally.h"
#include "util.h"
#include "buf.h"
#include "rec.h"
#include "recread.h"
#include "htab.h"
#include "sort.h"
#include "kind.h"

static int	byweight(size_t, size_t, void *);

void
tally_init(struct tally *t)
{
	memset(t, 0, sizeof(*t));
	t->keys = ht_new();
	t->unit = -1;
}

void
tally_free(struct tally *t)
{
	ht_free(t->keys);
	free(t->samples);
	free(t->weight);
	memset(t, 0, sizeof(*t));
}

/* The id of key; a new key gets room in the arrays and zero totals. */
size_t
tally_intern(struct tally *t, const void *key, size_t len, int *isnew)
{
	size_t id;
	int fresh;

	id = ht_intern(t->keys, key, len, &fresh);
	if (id == t->cap) {
		t->cap = xgrowcap(t->cap, id + 1, 64);
		t->samples = xreallocarray(t->samples, t->cap,
		    sizeof(*t->samples));
		t->weight = xreallocarray(t->weight, t->cap,
		    sizeof(*t->weight));
	}
	if (fresh) {
		t->samples[id] = 0;
		t->weight[id] = 0;
	}
	if (isnew != NULL)
		*isnew = fresh;
	return id;
}

int
tally_addid(struct tally *t, size_t id, const struct sst_rec *r)
{
	double w;

	if (r->samples > UINT64_MAX - t->samples[id]) {
		t->over = "the sample count passes 2^64-1";
		return -1;
	}
	if (isinf(w = rec_addw(t->weight[id], r))) {
		t->over = "the weight overflows to infinity";
		return -1;
	}
	t->samples[id] += r->samples;
	t->weight[id] = w;
	return 0;
}

size_t
tally_add(struct tally *t, const void *key, size_t len,
    const struct sst_rec *r)
{
	size_t id;

	id = tally_intern(t, key, len, NULL);
	(void)tally_addid(t, id, r);
	return id;
}

size_t
tally_count(const struct tally *t)
{
	return ht_count(t->keys);
}

/* Heavier first; equal weights compare equal (the sort is stable). */
static int
byweight(size_t a, size_t b, void *ctx)
{
	const double *w = ctx;

	if (w[a] > w[b])
		return -1;
	return w[a] < w[b];
}

void
tally_sortw(size_t *ix, size_t n, const double *w)
{
	sst_sort(ix, n, byweight, (void *)w);
}

size_t *
tally_sort(const struct tally *t)
{
	size_t *ix, i, n = tally_count(t);

	ix = xreallocarray(NULL, n, sizeof(*ix));
	for (i = 0; i < n; i++)
		ix[i] = i;
	tally_sortw(ix, n, t->weight);
	return ix;
}

int
tally_leaves(struct tally *t, double *total, const char *path,
    struct buf *err)
{
	return tally_leaveskind(t, total, path, NULL, err);
}

/*
 * Add the records of one input to the totals per leaf, keyed by the
 * last frame's name and location entry, and every sample to *total;
 * note the kind of the stream in *k unless k is NULL.
 */
int
tally_leaveskind(struct tally *t, double *total, const char *path,
    struct kind *k, struct buf *err)
{
	struct sst_reader *rd;
	struct sst_rec r;
	struct buf key;
	const char *p, *loc;
	char msg[512];
	size_t n, ln;
	int rc;

	if ((rd = rec_openfile(path, msg, sizeof(msg))) == NULL) {
		if (err != NULL) {
			buf_reset(err);
			buf_adds(err, msg);
		}
		return -1;
	}
	buf_init(&key);
	rec_oneunit(rd, &t->unit);
	rec_nostacks(rd);
	while ((rc = rec_read(rd, &r)) == 1) {
		if (isinf(*total = rec_addw(*total, &r))) {
			rc = rec_seterror(rd, "the total weight overflows to "
			    "infinity");
			break;
		}
		if (k != NULL)
			kind_add(k, &r);
		if (r.samples == 0 ||
		    (p = rec_leaf(rd, &r, &n, &loc, &ln)) == NULL)
			continue;
		buf_reset(&key);
		buf_add(&key, p, n);
		buf_addc(&key, '\t');
		buf_add(&key, loc, ln);
		tally_add(t, key.data, key.len, &r);
		if (t->over != NULL) {
			rc = rec_seterror(rd, "leaf %.*s: %s",
			    (int)strcspn(key.data, "\t"), key.data, t->over);
			break;
		}
	}
	if (rc == -1 && err != NULL) {
		buf_reset(err);
		buf_adds(err, rec_error(rd));
	}
	rec_close(rd);
	buf_free(&key);
	return rc;
}
