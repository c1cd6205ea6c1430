/*
 * spdw.c: write speedscope JSON byte for byte as Python's json.dump()
 * writes it (sst2speedscope).  A frame is kept as a key (its decoded
 * name and its location entry "file:line:col" as the stream has it) and
 * written as an entry of shared.frames; the records of the profiles
 * wait in a spill, a header then the frame ids, and are dealt out to
 * NPART spills of consecutive threads, and those again, until each holds
 * one thread's: each record is copied log_NPART(threads) times at most,
 * so the work is linear in records and threads.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "sst.h"

#define PARTMEM		(1 << 16)
#define NPART		64

static int	locsplit(const char *, size_t, size_t *);
static int	isnum(const char *, size_t);
static void	putn(const struct buf *, uint64_t, int *);
static void	putthread(const struct spdw_thread *, struct spill *,
		    const uint32_t *, struct spdw_ids *);
static void	putrange(struct spill *, const struct spdw_thread *,
		    const size_t *, size_t, size_t, const uint32_t *,
		    struct spdw_ids *);

/*
 * Into key (reset): the key of the frame named s[0..n) (escaped) at the
 * location entry l[0..ln), ":::" being none.  It is the name's decoded
 * length, the decoded name, and the entry as it is.
 */
void
spdw_framekey(struct buf *key, const char *s, size_t n, const char *l,
    size_t ln)
{
	size_t nl;

	if (ln == 3 && memcmp(l, ":::", 3) == 0)
		ln = 0;		/* no location at all */
	buf_reset(key);
	buf_grow(key, sizeof(nl) + n);
	nl = esc_decode(key->data + sizeof(nl), s, n);
	memcpy(key->data, &nl, sizeof(nl));
	key->len = sizeof(nl) + nl;
	buf_add(key, l, ln);
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

/* Whether l[0..n) is "file:line:col" with a line and col as isnum(). */
int
spdw_locvalid(const char *l, size_t n)
{
	size_t off[3];

	return locsplit(l, n, off) == 0 &&
	    isnum(l + off[0] + 1, off[1] - off[0] - 1) &&
	    isnum(l + off[1] + 1, off[2] - off[1] - 1);
}

/* One entry of shared.frames, from its key: name, file, line and col. */
void
spdw_putframe(const char *k, size_t n)
{
	static const char *kw[] = { "file", "line", "col" };
	struct buf tmp;
	const char *l;
	size_t nl, ln, off[3], a;
	int i;

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
			buf_init(&tmp);
			buf_grow(&tmp, off[i] - a);
			jsonw_str(stdout, tmp.data, esc_decode(tmp.data,
			    l + a, off[i] - a));
			buf_free(&tmp);
		}
	}
	putchar('}');
}

/* Read one record's header, and its frame ids into ids; 0 at the end. */
int
spdw_xread(struct spill *sp, struct spdw_rec *h, struct spdw_ids *ids)
{
	if (xspill_read(sp, h, sizeof(*h)) == -1)
		return 0;
	if (h->nf > ids->cap) {
		ids->cap = h->nf;
		ids->id = xreallocarray(ids->id, ids->cap, sizeof(*ids->id));
	}
	if (h->nf > 0 && xspill_read(sp, ids->id, h->nf * sizeof(*ids->id))
	    == -1)
		errx(1, "temporary file: short read");
	return 1;
}

/*
 * Write the text of b n times, the first of all in a list (when *sep is
 * 0) without its leading ", ".  A failed write ends the program at once
 * (n may be 2^64 - 1).
 */
static void
putn(const struct buf *b, uint64_t n, int *sep)
{
	if (n > 0 && !*sep) {
		if (fwrite(b->data + 2, 1, b->len - 2, stdout) != b->len - 2)
			xfshut(stdout, "stdout");
		n--;
		*sep = 1;
	}
	for (; n > 0; n--)
		if (fwrite(b->data, 1, b->len, stdout) != b->len)
			xfshut(stdout, "stdout");
}

/* One profile; its spill is read twice, for samples and for weights. */
static void
putthread(const struct spdw_thread *t, struct spill *sp,
    const uint32_t *outid, struct spdw_ids *ids)
{
	struct spdw_rec h;
	struct buf tmp;
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
	buf_init(&tmp);
	for (xspill_rewind(sp); spdw_xread(sp, &h, ids); ) {
		buf_reset(&tmp);
		buf_add(&tmp, ", [", 3);
		for (i = 0; i < h.nf; i++) {
			if (i > 0)
				buf_add(&tmp, ", ", 2);
			buf_grow(&tmp, 20);
			tmp.len += fmt_u64(tmp.data + tmp.len,
			    outid[ids->id[i]]);
		}
		buf_addc(&tmp, ']');
		putn(&tmp, h.n, &sep);
	}
	fputs("], \"weights\": [", stdout);
	for (sep = 0, xspill_rewind(sp); spdw_xread(sp, &h, ids); ) {
		buf_reset(&tmp);
		buf_add(&tmp, ", ", 2);
		w = jsonw_floattext(h.w);
		buf_add(&tmp, w, strlen(w));
		putn(&tmp, h.n, &sep);
	}
	buf_free(&tmp);
	fputs("]}", stdout);
}

/*
 * The profiles of the threads of ranks [lo, hi), whose records, and no
 * others, are in sp: one thread's written at once, more dealt out to at
 * most NPART spills of as many consecutive ranks each, in rank order.
 */
static void
putrange(struct spill *sp, const struct spdw_thread *thr,
    const size_t *order, size_t lo, size_t hi, const uint32_t *outid,
    struct spdw_ids *ids)
{
	struct spill *part[NPART];
	struct spdw_rec h;
	size_t i, m, per;

	if (hi - lo == 1) {
		if (lo > 0)
			fputs(", ", stdout);
		putthread(&thr[order[lo]], sp, outid, ids);
		return;
	}
	per = (hi - lo + NPART - 1) / NPART;
	m = (hi - lo + per - 1) / per;
	for (i = 0; i < m; i++)
		part[i] = spill_new(PARTMEM);
	xspill_rewind(sp);
	while (spdw_xread(sp, &h, ids)) {
		i = (thr[h.tid].rank - lo) / per;
		xspill_write(part[i], &h, sizeof(h));
		if (h.nf > 0)
			xspill_write(part[i], ids->id, h.nf * sizeof(*ids->id));
	}
	for (i = 0; i < m; i++) {
		putrange(part[i], thr, order, lo + i * per,
		    lo + (i + 1) * per < hi ? lo + (i + 1) * per : hi, outid,
		    ids);
		spill_free(part[i]);
	}
}

/*
 * The profiles of the records in all: the threads thr[order[0..nth)],
 * each record's frames numbered by outid.
 */
void
spdw_putprofiles(struct spill *all, const struct spdw_thread *thr,
    const size_t *order, size_t nth, const uint32_t *outid,
    struct spdw_ids *ids)
{
	if (nth > 0)
		putrange(all, thr, order, 0, nth, outid, ids);
}
