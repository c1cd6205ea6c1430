/*
 * spdwf.c: the frames of the records sst2speedscope writes, interned by
 * name and location entry (spdw_framekey()), and the records spilled
 * with their stacks as frame ids.  A frame whose name and location are
 * those at its place in the record before takes that one's id without a
 * lookup: stacks sampled one after another share most of their frames.
 * The other lookups, in a table of many frames, are cache misses: their
 * keys are made and hashed and their slots loaded as the records come,
 * and they are interned, in the order met, BATCH records later, when the
 * records go to the spill (flush()).  A bad location is found as the
 * record comes, so errors come in input order.
 */
#include <stdlib.h>
#include <string.h>

#include "sst.h"

#define BATCH		64	/* records a flush() */
#define NONE		((size_t)-1)

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

struct spdw_frames {
	struct htab	*tab;
	struct buf	 key;
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

/* An empty table of frames, no record waiting. */
struct spdw_frames *
spdw_frames_new(void)
{
	struct spdw_frames *f;

	f = xcalloc(1, sizeof(*f));
	f->tab = ht_new();
	buf_init(&f->key);
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
	buf_free(&f->key);
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

	if (ln > 0 && !spdw_locvalid(l, ln)) {
		buf_reset(err);
		buf_printf(err, "bad location: %.*s", (int)ln, l);
		return -1;
	}
	spdw_framekey(&f->key, s, n, l, ln);
	hv = ht_hash(f->key.data, f->key.len);
	if (f->npk == f->pkcap)
		f->pk = xgrow(f->pk, &f->pkcap, f->npk + 1, 256,
		    sizeof(*f->pk));
	f->pk[f->npk] = (struct pkey){ f->keys.len, f->key.len, hv };
	buf_add(&f->keys, f->key.data, f->key.len);
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
	spill_write(sp, f->recs.data, f->recs.len);
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
