/*
 * stacktab.c: a table of stacks, each the sequence of its frames' ids:
 * frames are interned once in a struct htab, and each distinct stack
 * is kept once as varints of its frame ids in a struct seqtab (one or
 * two bytes a frame), its id the sequence's id + 1 (0 is the empty
 * stack).  A reducer that held every stack's text keeps an id.  A trie
 * of the stacks' prefixes (8 bytes a node and 5 to 10 of table) held
 * 6.2 million nodes for 296,000 stacks with little shared: sst-merge
 * took 144 MB, 37 with the sequences.  stk_internp() puts a few ids
 * before the frames, so that a key of a thread and a stack is one id.
 *
 * Records of a stream often share a long prefix with the record before
 * them, so the frame ids of the last stack interned are kept with where
 * each of its frames ends: a new stack looks up only the frames from
 * where it parts from the last one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "htab.h"
#include "rec.h"
#include "seqtab.h"
#include "stacktab.h"

struct stacktab {
	struct htab	*frames;
	struct seqtab	*seqs;
	/* The last stack interned: its text, id, frame ids and ends. */
	struct buf	 last;
	uint32_t	 lastid;
	size_t		 npre;		/* its ids before the frames */
	int		 valid;		/* there is a last stack */
	uint32_t	*seq;		/* stk_internp()'s sequence */
	size_t		 scap;
	uint32_t	*fid;		/* fid[i]: frame i's id */
	size_t		*ends;		/* ends[i]: offset just past frame i */
	size_t		 plen;
	size_t		 pcap;
	uint32_t	*walk;		/* stk_text()'s frames */
	size_t		 wcap;
};

static size_t	mismatch(const char *, const char *, size_t);
static void	room(struct stacktab *, size_t);

struct stacktab *
stk_new(void)
{
	struct stacktab *t;

	t = xcalloc(1, sizeof(*t));
	t->frames = ht_new();
	t->seqs = seq_new();
	buf_init(&t->last);
	return t;
}

void
stk_free(struct stacktab *t)
{
	if (t == NULL)
		return;
	ht_free(t->frames);
	seq_free(t->seqs);
	free(t->fid);
	free(t->ends);
	free(t->walk);
	free(t->seq);
	buf_free(&t->last);
	free(t);
}

/* How many of the first n bytes of a and b are the same. */
static size_t
mismatch(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y) {
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return i + (size_t)__builtin_ctzll(x ^ y) / 8;
#else
			break;
#endif
		}
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* Room for n frames in the last stack's arrays. */
static void
room(struct stacktab *t, size_t n)
{
	if (n <= t->pcap)
		return;
	t->pcap = xgrowcap(t->pcap, n, 64);
	t->fid = xreallocarray(t->fid, t->pcap, sizeof(*t->fid));
	t->ends = xreallocarray(t->ends, t->pcap, sizeof(*t->ends));
}

uint32_t
stk_intern(struct stacktab *t, const char *s, size_t n)
{
	return n == 0 ? STK_ROOT : stk_internp(t, NULL, 0, s, n);
}

uint32_t
stk_internp(struct stacktab *t, const uint32_t *pre, size_t npre,
    const char *s, size_t n)
{
	const char *p, *e, *semi;
	size_t keep, same, m;
	uint32_t id;

	if (t->valid && n == t->last.len && npre == t->npre &&
	    memcmp(s, t->last.data, n) == 0 && (npre == 0 ||
	    memcmp(pre, t->seq, npre * sizeof(*pre)) == 0))
		return t->lastid;
	/* The frames of the last stack that end before the two part. */
	same = mismatch(s, t->last.data, n < t->last.len ? n : t->last.len);
	keep = 0;
	while (n > 0 && keep < t->plen && (t->ends[keep] < same ||
	    (t->ends[keep] == same && (same == n || s[same] == ';') &&
	    (same == t->last.len || t->last.data[same] == ';'))))
		keep++;
	/* The frames from there, interned (none for no text). */
	p = keep ? s + t->ends[keep - 1] + 1 : s;
	e = s + n;
	for (m = keep; n > 0 && p <= e; m++) {
		if ((semi = memchr(p, ';', (size_t)(e - p))) == NULL)
			semi = e;
		room(t, m + 1);
		if (ht_count(t->frames) >= UINT32_MAX - 1)
			xnoroom("too many frames");
		t->fid[m] = (uint32_t)ht_intern(t->frames, p,
		    (size_t)(semi - p), NULL);
		t->ends[m] = (size_t)(semi - s);
		if (semi == e) {
			m++;
			break;
		}
		p = semi + 1;
	}
	/* The sequence: the ids before, then the frames'. */
	if (npre + m < npre)
		xnoroom("stack too deep");
	t->seq = xgrow(t->seq, &t->scap, npre + m + 1, 64, sizeof(*t->seq));
	if (npre > 0)
		memcpy(t->seq, pre, npre * sizeof(*pre));
	if (m > 0)
		memcpy(t->seq + npre, t->fid, m * sizeof(*t->fid));
	id = seq_intern(t->seqs, t->seq, npre + m);
	if (id >= UINT32_MAX - 1)
		xnoroom("too many stacks");
	t->plen = m;
	t->npre = npre;
	t->valid = 1;
	t->lastid = id + 1;
	buf_reset(&t->last);
	buf_add(&t->last, s, n);
	return id + 1;
}

void
stk_text(struct stacktab *t, uint32_t id, struct buf *b)
{
	if (id != STK_ROOT)
		stk_textp(t, id, 0, NULL, b);
}

void
stk_textp(struct stacktab *t, uint32_t id, size_t npre, uint32_t *pre,
    struct buf *b)
{
	const char *name;
	size_t i, n, len;

	n = seq_get(t->seqs, id - 1, &t->walk, &t->wcap);
	for (i = 0; i < npre && i < n; i++)
		pre[i] = t->walk[i];
	for (i = npre; i < n; i++) {
		name = ht_key(t->frames, t->walk[i], &len);
		buf_add(b, name, len);
		if (i + 1 < n)
			buf_addc(b, ';');
	}
}

const char *
stk_name(const struct stacktab *t, uint32_t frame, size_t *len)
{
	return ht_key(t->frames, frame, len);
}

size_t
stk_count(const struct stacktab *t)
{
	return seq_count(t->seqs) + 1;
}

size_t
stk_nframes(const struct stacktab *t)
{
	return ht_count(t->frames);
}

/* How many ';'-separated pieces the n bytes at s hold. */
size_t
stack_pieces(const char *s, size_t n)
{
	const char *e = s + n;
	size_t k = 1;

	while ((s = memchr(s, ';', (size_t)(e - s))) != NULL) {
		s++;
		k++;
	}
	return k;
}

/* Into b, r's frames each with its location: "frame TAB loc;...". */
void
stack_zip(struct buf *b, const struct sst_rec *r)
{
	const char *f = r->stack, *fe = f + r->stacklen, *l = r->locs;
	const char *le = l + r->locslen, *p, *q;

	buf_reset(b);
	for (;;) {
		if ((p = memchr(f, ';', (size_t)(fe - f))) == NULL)
			p = fe;
		if ((q = memchr(l, ';', (size_t)(le - l))) == NULL)
			q = le;
		buf_add(b, f, (size_t)(p - f));
		buf_addc(b, '\t');
		buf_add(b, l, (size_t)(q - l));
		if (p == fe)
			break;
		buf_addc(b, ';');
		f = p + 1;
		l = q + 1;
	}
}

/* Split stack_zip()'s text z into frames (kept in z) and locations (to l). */
void
stack_unzip(struct buf *z, struct buf *l)
{
	char *p, *w, *e, *tab, *semi;

	buf_reset(l);
	p = w = z->data;
	e = p + z->len;
	for (;;) {
		tab = memchr(p, '\t', (size_t)(e - p));
		if ((semi = memchr(tab, ';', (size_t)(e - tab))) == NULL)
			semi = e;
		memmove(w, p, (size_t)(tab - p));
		w += tab - p;
		buf_add(l, tab + 1, (size_t)(semi - tab - 1));
		if (semi == e)
			break;
		*w++ = ';';
		buf_addc(l, ';');
		p = semi + 1;
	}
	z->len = (size_t)(w - z->data);
	*w = '\0';
}
