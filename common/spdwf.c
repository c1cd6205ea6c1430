/*
 * spdwf.c: the frames of the records sst2speedscope writes, interned by
 * name and location entry (spdw_framekey()): each record's stack made
 * into frame ids.  A frame whose name and location are those at its
 * place in the record before takes that one's id without a lookup:
 * stacks sampled one after another share most of their frames, and a
 * lookup in a table of many frames is a cache miss.
 */
#include <stdlib.h>
#include <string.h>

#include "sst.h"

/* Where a frame of a stack is in its text: name and location entry. */
struct pfr {
	size_t		 noff, nlen, loff, llen;
};

/* A record's stack and locations, its frames and their ids. */
struct stk {
	struct buf	 text;		/* stack, then locations */
	struct pfr	*f;
	uint32_t	*id;
	size_t		 n, cap;
};

struct spdw_frames {
	struct htab	*tab;
	struct buf	 key;
	struct stk	 cur, prev;	/* this record's, the one before */
};

static const char *piece(const char *, const char *);
static int	same(const struct buf *, const struct pfr *, const char *,
		    size_t, const char *, size_t);
static void	stkgrow(struct stk *);
static void	stkfree(struct stk *);
static int	intern(struct spdw_frames *, const char *, size_t,
		    const char *, size_t, uint32_t *, struct buf *);

struct spdw_frames *
spdw_frames_new(void)
{
	struct spdw_frames *f;

	f = xcalloc(1, sizeof(*f));
	f->tab = ht_new();
	buf_init(&f->key);
	buf_init(&f->cur.text);
	buf_init(&f->prev.text);
	return f;
}

void
spdw_frames_free(struct spdw_frames *f)
{
	if (f == NULL)
		return;
	ht_free(f->tab);
	buf_free(&f->key);
	stkfree(&f->cur);
	stkfree(&f->prev);
	free(f);
}

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

/*
 * The id of the frame named s[0..n) at location entry l[0..ln) into
 * *id, interned; -1 with a message in err for a bad location.
 */
static int
intern(struct spdw_frames *f, const char *s, size_t n, const char *l,
    size_t ln, uint32_t *id, struct buf *err)
{
	int isnew;

	spdw_framekey(&f->key, s, n, l, ln);
	*id = (uint32_t)ht_intern(f->tab, f->key.data, f->key.len, &isnew);
	if (isnew && ln > 0 && !spdw_locvalid(l, ln)) {
		buf_reset(err);
		buf_printf(err, "bad location: %.*s", (int)ln, l);
		return -1;
	}
	return 0;
}

/*
 * The frame ids of r's stack into *ids, valid until the next call, and
 * their number into *n; 0, or -1 with a message in err.
 */
int
spdw_stack(struct spdw_frames *f, const struct sst_rec *r,
    const uint32_t **ids, size_t *n, struct buf *err)
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
	*ids = c->id;
	if ((c->n = *n = 0, r->stacklen == 0))
		return 0;
	s = c->text.data;
	se = s + r->stacklen;
	l = se;
	le = l + r->locslen;
	for (k = 0;; k++) {
		sn = piece(s, se);
		ln = r->locslen > 0 ? piece(l, le) : l;
		if (k == c->cap)
			stkgrow(c);
		c->f[k] = (struct pfr){ (size_t)(s - c->text.data),
		    (size_t)(sn - s), (size_t)(l - c->text.data),
		    (size_t)(ln - l) };
		if (k < p->n && same(&p->text, &p->f[k], s, (size_t)(sn - s),
		    l, (size_t)(ln - l)))
			c->id[k] = p->id[k];
		else if (intern(f, s, (size_t)(sn - s), l, (size_t)(ln - l),
		    &c->id[k], err) == -1)
			return -1;
		if (sn == se)
			break;
		s = sn + 1;
		l = r->locslen > 0 ? ln + 1 : l;
	}
	*ids = c->id;
	c->n = *n = k + 1;
	return 0;
}
