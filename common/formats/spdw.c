/*
 * spdw.c: write speedscope JSON byte for byte as Python's json.dump()
 * writes it (sst2speedscope).  A frame is kept as a key (its decoded
 * name and its location entry "file:line:col" as the stream has it) and
 * written as an entry of shared.frames; the records of the profiles
 * wait in a spill, a header then the frame ids, and are dealt out to
 * NPART spills of consecutive threads, and those again, until each holds
 * one thread's: each record is copied log_NPART(threads) times at most,
 * so the work is linear in records and threads.
 *
 * The records go to the spill through spdw_addrec().  A frame whose
 * name and location are those at its place in the record before takes
 * that one's id without a lookup: stacks sampled one after another share
 * most of their frames.  The other lookups, in a table of many frames,
 * are cache misses: their keys are made and hashed and their slots
 * loaded as the records come, and they are interned, in the order met,
 * BATCH records later, when the records go to the spill (flush()).  A
 * bad location is found as the record comes, so errors come in input
 * order.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "spdw.h"
#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "spill.h"
#include "jsonw.h"

#define PARTMEM		(1 << 16)
#define NPART		64
#define OBUF		(1 << 17)	/* at least BIGWRITE: see oflush() */
#define BATCH		64	/* records a flush() */
#define NONE		((size_t)-1)

/*
 * The text of shared.frames and of the samples and weights is made in
 * obuf and written a block at a time: standard output's own buffer
 * would be called at each piece.  Whatever goes to stdout directly
 * comes after oflush().
 */
static char	obuf[OBUF];
static size_t	olen;

/* Where a frame of a stack is in its text: name and location entry. */
struct pfr {
	size_t		 noff, nlen, loff, llen;
};

/*
 * A record's stack and locations, its frames and their ids, each known
 * or, pend[k] not NONE, that of a key waiting to be interned.
 */
struct stk {
	struct buf	 text;		/* stack, then locations */
	struct pfr	*f;
	uint32_t	*id;
	size_t		*pend;
	size_t		 n, cap;
};

/* A key waiting to be interned: in keys, with its hash. */
struct pkey {
	size_t		 off, len;
	uint64_t	 hv;
};

/* An id of recs to fill in at the flush: where, and which key's. */
struct fix {
	size_t		 off, key;
};

/* The frames met, the stacks and records waiting for their ids. */
struct spdw_frames {
	struct htab	*tab;
	struct stk	 cur, prev;	/* this record's, the one before */
	struct buf	 keys;		/* the keys waiting */
	struct pkey	*pk;
	uint32_t	*pid;		/* their ids, at the flush */
	size_t		 npk, pkcap, pidcap;
	struct buf	 recs;		/* the records waiting: spdw_rec, ids */
	struct fix	*fix;
	size_t		 nrecs, nfix, fixcap;
};

static const char *piece(const char *, const char *);
static int	same(const struct buf *, const struct pfr *, const char *,
		    size_t, const char *, size_t);
static void	stkgrow(struct stk *);
static void	stkfree(struct stk *);
static void	stkfix(struct stk *, const uint32_t *);
static int	frame(struct spdw_frames *, size_t, const char *, size_t,
		    const char *, size_t, struct buf *);
static void	putrec(struct spdw_frames *, const struct spdw_rec *);
static void	flush(struct spdw_frames *, struct spill *);
static void	oflush(void);
static void	oput(const void *, size_t);
static void	putstr(const char *, size_t);
static void	putframe(const char *, size_t);
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

/* Write what obuf holds (straight to the descriptor: see xfwrite()). */
static void
oflush(void)
{
	if (olen > 0)
		xfwrite(obuf, olen, stdout, "stdout");
	olen = 0;
}

/* Append p[0..n) to the output. */
static void
oput(const void *p, size_t n)
{
	if (n > OBUF - olen) {
		oflush();
		if (n >= OBUF) {
			xfwrite(p, n, stdout, "stdout");
			return;
		}
	}
	memcpy(obuf + olen, p, n);
	olen += n;
}

/* s[0..n) as a JSON string, written as it is when nothing needs escaping. */
static void
putstr(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + n;

	for (; p < e; p++)
		if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
			break;
	if (p < e) {
		oflush();
		jsonw_str(stdout, s, n);
		return;
	}
	oput("\"", 1);
	oput(s, n);
	oput("\"", 1);
}

/* One entry of shared.frames, from its key: name, file, line and col. */
static void
putframe(const char *k, size_t n)
{
	static const char *kw[] = { ", \"file\": ", ", \"line\": ",
	    ", \"col\": " };
	struct buf tmp;
	const char *l;
	size_t nl, ln, off[3], a;
	int i;

	memcpy(&nl, k, sizeof(nl));
	oput("{\"name\": ", 9);
	putstr(k + sizeof(nl), nl);
	l = k + sizeof(nl) + nl;
	ln = n - sizeof(nl) - nl;
	for (i = 0, a = 0; ln > 0 && i < 3; a = off[i++] + 1) {
		if (i == 0)
			locsplit(l, ln, off);
		if (a == off[i])
			continue;
		oput(kw[i], strlen(kw[i]));
		if (i > 0)
			oput(l + a, off[i] - a);
		else {
			buf_init(&tmp);
			buf_grow(&tmp, off[i] - a);
			putstr(tmp.data, esc_decode(tmp.data, l + a,
			    off[i] - a));
			buf_free(&tmp);
		}
	}
	oput("}", 1);
}

/*
 * The entries of shared.frames: the keys of the frames ids[0..n) of h
 * (ids NULL: 0 to n - 1).
 */
void
spdw_putframes(const struct htab *h, const size_t *ids, size_t n)
{
	const char *k;
	size_t i, len;

	for (i = 0; i < n; i++) {
		if (i > 0)
			oput(", ", 2);
		k = ht_key(h, ids != NULL ? ids[i] : i, &len);
		putframe(k, len);
	}
	oflush();
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
		oput(b->data + 2, b->len - 2);
		n--;
		*sep = 1;
	}
	for (; n > 0; n--)
		oput(b->data, b->len);
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

	oflush();
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
			tmp.len += fmt_u64(tmp.data + tmp.len, outid != NULL ?
			    outid[ids->id[i]] : ids->id[i]);
		}
		buf_addc(&tmp, ']');
		putn(&tmp, h.n, &sep);
	}
	oput("], \"weights\": [", 15);
	for (sep = 0, xspill_rewind(sp); spdw_xread(sp, &h, ids); ) {
		buf_reset(&tmp);
		buf_add(&tmp, ", ", 2);
		w = jsonw_floattext(h.w * t->scale);
		buf_add(&tmp, w, strlen(w));
		putn(&tmp, h.n, &sep);
	}
	buf_free(&tmp);
	oput("]}", 2);
	oflush();
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
			oput(", ", 2);
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
 * each record's frames numbered by outid (NULL: as they are).
 */
void
spdw_putprofiles(struct spill *all, const struct spdw_thread *thr,
    const size_t *order, size_t nth, const uint32_t *outid,
    struct spdw_ids *ids)
{
	if (nth > 0)
		putrange(all, thr, order, 0, nth, outid, ids);
}

/* An empty table of frames, no record waiting. */
struct spdw_frames *
spdw_frames_new(void)
{
	struct spdw_frames *f;

	f = xcalloc(1, sizeof(*f));
	f->tab = ht_new();
	buf_init(&f->cur.text);
	buf_init(&f->prev.text);
	buf_init(&f->keys);
	buf_init(&f->recs);
	return f;
}

/* Free the table and what waits (flushed or not). */
void
spdw_frames_free(struct spdw_frames *f)
{
	if (f == NULL)
		return;
	ht_free(f->tab);
	stkfree(&f->cur);
	stkfree(&f->prev);
	buf_free(&f->keys);
	buf_free(&f->recs);
	free(f->pk);
	free(f->pid);
	free(f->fix);
	free(f);
}

/* The table of frame keys, ids in the order met. */
const struct htab *
spdw_frames_table(const struct spdw_frames *f)
{
	return f->tab;
}

/* The end of the ';'-separated piece that starts at s. */
static const char *
piece(const char *s, const char *e)
{
	const char *p;

	return (p = memchr(s, ';', (size_t)(e - s))) != NULL ? p : e;
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

/* Room for more frames in a stack's arrays. */
static void
stkgrow(struct stk *c)
{
	size_t cap = c->cap, cap2 = c->cap;

	c->f = xgrow(c->f, &cap, c->cap + 1, 64, sizeof(*c->f));
	c->pend = xgrow(c->pend, &cap2, c->cap + 1, 64, sizeof(*c->pend));
	c->id = xgrow(c->id, &c->cap, c->cap + 1, 64, sizeof(*c->id));
}

/* Free a stack's memory. */
static void
stkfree(struct stk *c)
{
	buf_free(&c->text);
	free(c->f);
	free(c->id);
	free(c->pend);
}

/* The ids of a stack's waiting keys, now interned as pid gives. */
static void
stkfix(struct stk *c, const uint32_t *pid)
{
	size_t k;

	for (k = 0; k < c->n; k++)
		if (c->pend[k] != NONE) {
			c->id[k] = pid[c->pend[k]];
			c->pend[k] = NONE;
		}
}

/*
 * Frame k of the current stack, named s[0..n) at location entry
 * l[0..ln): its id when the table has its key, else its key made to
 * wait, its slot loaded; -1 with a message in err for a bad location.
 */
static int
frame(struct spdw_frames *f, size_t k, const char *s, size_t n,
    const char *l, size_t ln, struct buf *err)
{
	struct stk *c = &f->cur;
	uint64_t hv;
	size_t nl, len;
	char *p;

	if (ln > 0 && !spdw_locvalid(l, ln)) {
		buf_reset(err);
		buf_printf(err, "bad location: %.*s", (int)ln, l);
		return -1;
	}
	/* Its key (spdw_framekey()) made in place at the end of keys. */
	if (ln == 3 && memcmp(l, ":::", 3) == 0)
		ln = 0;
	buf_grow(&f->keys, sizeof(nl) + n + ln);
	p = f->keys.data + f->keys.len;
	nl = esc_decode(p + sizeof(nl), s, n);
	memcpy(p, &nl, sizeof(nl));
	memcpy(p + sizeof(nl) + nl, l, ln);
	len = sizeof(nl) + nl + ln;
	hv = ht_hash(p, len);
	if (f->npk == f->pkcap)
		f->pk = xgrow(f->pk, &f->pkcap, f->npk + 1, 256,
		    sizeof(*f->pk));
	f->pk[f->npk] = (struct pkey){ f->keys.len, len, hv };
	f->keys.len += len;
	ht_prefetch(f->tab, hv, 0);
	c->pend[k] = f->npk++;
	return 0;
}

/*
 * Add record r, of header h (its nf set here), to those that go to the
 * spill; 0, or -1 with a message in err ("bad location: ...").
 */
int
spdw_addrec(struct spdw_frames *f, const struct sst_rec *r,
    struct spdw_rec *h, struct spill *sp, struct buf *err)
{
	struct stk *c = &f->cur, *p = &f->prev, t;
	const char *s, *l, *sn, *ln, *se, *le;
	size_t k;

	t = *c;		/* this one becomes the one before */
	*c = *p;
	*p = t;
	buf_reset(&c->text);
	buf_add(&c->text, r->stack, r->stacklen);
	buf_add(&c->text, r->locs, r->locslen);
	c->n = 0;
	s = c->text.data;
	se = s + r->stacklen;
	l = se;
	le = l + r->locslen;
	for (k = 0; r->stacklen > 0; k++) {
		sn = piece(s, se);
		ln = r->locslen > 0 ? piece(l, le) : l;
		if (k == c->cap)
			stkgrow(c);
		c->f[k] = (struct pfr){ (size_t)(s - c->text.data),
		    (size_t)(sn - s), (size_t)(l - c->text.data),
		    (size_t)(ln - l) };
		c->pend[k] = NONE;
		if (k < p->n && same(&p->text, &p->f[k], s, (size_t)(sn - s),
		    l, (size_t)(ln - l))) {
			c->id[k] = p->id[k];
			c->pend[k] = p->pend[k];
		} else if (frame(f, k, s, (size_t)(sn - s), l,
		    (size_t)(ln - l), err) == -1)
			return -1;
		if (sn == se) {
			c->n = k + 1;
			break;
		}
		s = sn + 1;
		l = r->locslen > 0 ? ln + 1 : l;
	}
	h->nf = (uint32_t)c->n;
	putrec(f, h);
	if (++f->nrecs == BATCH)
		flush(f, sp);
	return 0;
}

/* Append the record of header h and the current stack to recs. */
static void
putrec(struct spdw_frames *f, const struct spdw_rec *h)
{
	struct stk *c = &f->cur;
	size_t k, off;

	buf_add(&f->recs, h, sizeof(*h));
	off = f->recs.len;
	buf_add(&f->recs, c->id, c->n * sizeof(*c->id));
	for (k = 0; k < c->n; k++) {
		if (c->pend[k] == NONE)
			continue;
		if (f->nfix == f->fixcap)
			f->fix = xgrow(f->fix, &f->fixcap, f->nfix + 1, 256,
			    sizeof(*f->fix));
		f->fix[f->nfix++] = (struct fix){ off + k * sizeof(*c->id),
		    c->pend[k] };
	}
}

/*
 * Intern the keys waiting, in the order met, fill their ids in, and
 * write the records waiting to the spill.
 */
static void
flush(struct spdw_frames *f, struct spill *sp)
{
	size_t i;
	uint32_t id;

	if (f->npk > f->pidcap)
		f->pid = xgrow(f->pid, &f->pidcap, f->npk, 256,
		    sizeof(*f->pid));
	for (i = 0; i < f->npk; i++)
		ht_prefetch(f->tab, f->pk[i].hv, 1);
	for (i = 0; i < f->npk; i++)
		f->pid[i] = (uint32_t)ht_internh(f->tab, f->keys.data +
		    f->pk[i].off, f->pk[i].len, f->pk[i].hv, NULL);
	for (i = 0; i < f->nfix; i++) {
		id = f->pid[f->fix[i].key];
		memcpy(f->recs.data + f->fix[i].off, &id, sizeof(id));
	}
	stkfix(&f->cur, f->pid);
	stkfix(&f->prev, f->pid);
	xspill_write(sp, f->recs.data, f->recs.len);
	buf_reset(&f->recs);
	buf_reset(&f->keys);
	f->npk = f->nfix = f->nrecs = 0;
}

/* Write the records still waiting to the spill. */
void
spdw_frames_flush(struct spdw_frames *f, struct spill *sp)
{
	flush(f, sp);
}
