/*
 * compact.c: the compact form of the sst stream (sst(5), COMPACT FORM).
 * Three kinds of lines, told from records by a first field that no
 * escaped name can be (a backslash and a capital letter):
 *
 *	\D				a compact stream begins: no frames
 *	\F TAB name TAB location	frame number 0, 1, 2, ... in order
 *	\R TAB thread samples weight unit period keep frames [start]
 *
 * A \R record's stack is the first keep frames of the stack of the \R
 * record before it, then the frames numbered in frames (decimal, joined
 * by ','); its locations are those of its frames, joined by ';', or
 * empty when none of its frames has one.  Text records may come
 * between; they change nothing.  A py-spy profile's stream is about a
 * fifteenth of its text form, and reading it builds only the frames a
 * record adds to its predecessor's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "compact.h"
#include "digits.h"

#define FIELDSMAX	9	/* \R and eight */
#define NOFRAME		UINT32_MAX	/* no frame number: too many */

/* A frame: its name and location in the arena. */
struct cframe {
	size_t		 noff, nlen;
	size_t		 loff, llen;
};

struct cpr {
	int		 started;	/* a \D line was read */
	struct sst_frames sf;		/* the record's frames */
	struct buf	 arena;
	struct cframe	*fr;
	size_t		 nfr, frcap;
	int		 lazy;		/* cpr_lazy(): text only on demand */
	uint32_t	*ids;		/* the stack's frames */
	size_t		*send, *lend;	/* by frame of the stack: text ends */
	size_t		*nloc;		/* frames with a location up to it */
	size_t		 ncur, curcap;
	size_t		 nbuilt;	/* frames in sb and lb */
	struct buf	 sb, lb;	/* the stack and its locations */
	struct buf	 tb;		/* the record as a text line */
	const char	*head;		/* thread..period, as in the line */
	size_t		 headlen;
	const char	*st;		/* the start field, or NULL */
	size_t		 stlen;
};

struct cpw {
	FILE		*fp;
	int		 started;
	uint64_t	 serial;	/* of the numbering in map */
	uint32_t	 nfr;		/* frames written */
	struct htab	*fr;		/* "name\tlocation" */
	uint32_t	*hmap;		/* by id in fr: frame number */
	uint32_t	*map;		/* producer frame: number + 1, or 0 */
	size_t		 mapcap;
	struct buf	 key, line;
	uint32_t	*prev, *cur;
	size_t		 nprev, cap;
};

static uint64_t	 serials;

uint64_t
cp_serial(void)
{
	return ++serials;
}

/* Frame id's name and location (sst_frames' text()). */
static void
frametext(const void *src, uint32_t id, const char **name, size_t *nlen,
    const char **loc, size_t *llen)
{
	const struct cpr *c = src;
	const struct cframe *x = &c->fr[id];

	*name = c->arena.data + x->noff;
	*nlen = x->nlen;
	*loc = c->arena.data + x->loff;
	*llen = x->llen;
}

struct cpr *
cpr_new(void)
{
	struct cpr *c;

	c = xcalloc(1, sizeof(*c));
	c->sf.text = frametext;
	c->sf.src = c;
	buf_init(&c->arena);
	buf_init(&c->sb);
	buf_init(&c->lb);
	buf_init(&c->tb);
	return c;
}

void
cpr_free(struct cpr *c)
{
	if (c == NULL)
		return;
	buf_free(&c->arena);
	buf_free(&c->sb);
	buf_free(&c->lb);
	buf_free(&c->tb);
	free(c->fr);
	free(c->ids);
	free(c->send);
	free(c->lend);
	free(c->nloc);
	free(c);
}

/* Split s[0..n) at TABs into at most max fields; returns how many. */
static size_t
split(char *s, size_t n, char **f, size_t *fl, size_t max)
{
	char *p, *e = s + n;
	size_t k = 0;

	for (;;) {
		f[k] = s;
		p = memchr(s, '\t', (size_t)(e - s));
		fl[k] = (size_t)((p ? p : e) - s);
		if (++k == max || p == NULL)
			return p == NULL ? k : max + 1;
		s = p + 1;
	}
}

/* A \F line's fields: one more frame. */
static enum cp_kind
frame(struct cpr *c, char **f, const size_t *fl, const char **why)
{
	struct cframe *x;
	size_t k;

	if (esc_scan(f[0], fl[0], &k) == -1 || k != 0 ||
	    esc_scan(f[1], fl[1], &k) == -1 || k != 0) {
		*why = "bad escape sequence in a frame";
		return CP_ERR;
	}
	if (c->nfr >= UINT32_MAX) {
		*why = "too many frames";
		return CP_ERR;
	}
	if (c->nfr == c->frcap)
		c->fr = xgrow(c->fr, &c->frcap, c->nfr + 1, 1024,
		    sizeof(*c->fr));
	x = &c->fr[c->nfr++];
	x->noff = c->arena.len;
	x->nlen = fl[0];
	buf_add(&c->arena, f[0], fl[0]);
	x->loff = c->arena.len;
	x->llen = fl[1];
	buf_add(&c->arena, f[1], fl[1]);
	return CP_DICT;
}

/* Add frame number id to the stack. */
static void
push(struct cpr *c, uint32_t id)
{
	if (c->ncur == c->curcap) {
		c->curcap = xgrowcap(c->curcap, c->ncur + 1, 64);
		c->ids = xreallocarray(c->ids, c->curcap, sizeof(uint32_t));
		c->send = xreallocarray(c->send, c->curcap, sizeof(size_t));
		c->lend = xreallocarray(c->lend, c->curcap, sizeof(size_t));
		c->nloc = xreallocarray(c->nloc, c->curcap, sizeof(size_t));
	}
	c->ids[c->ncur++] = id;
}

/* The text of the stack's frames not yet in sb and lb. */
static void
build(struct cpr *c)
{
	const struct cframe *x;
	size_t i;

	c->sb.len = c->nbuilt > 0 ? c->send[c->nbuilt - 1] : 0;
	c->lb.len = c->nbuilt > 0 ? c->lend[c->nbuilt - 1] : 0;
	for (i = c->nbuilt; i < c->ncur; i++) {
		x = &c->fr[c->ids[i]];
		if (i > 0) {
			buf_addc(&c->sb, ';');
			buf_addc(&c->lb, ';');
		}
		buf_add(&c->sb, c->arena.data + x->noff, x->nlen);
		buf_add(&c->lb, c->arena.data + x->loff, x->llen);
		c->send[i] = c->sb.len;
		c->lend[i] = c->lb.len;
		c->nloc[i] = (i > 0 ? c->nloc[i - 1] : 0) + (x->llen > 0);
	}
	c->nbuilt = c->ncur;
}

/*
 * The text of the stack built.  A stack of one frame of an empty name
 * is \e, as the text form writes it (sst(5)): empty, it would read as no
 * frame at all, beside a location.  Elsewhere an empty name stays empty,
 * as in a text stack "a;;b".
 */
static const char *
stacktext(const struct cpr *c, size_t *len)
{
	if (c->ncur == 1 && c->sb.len == 0) {
		*len = 2;
		return "\\e";
	}
	*len = c->sb.len;
	return c->sb.len > 0 ? c->sb.data : "";
}

/* Stack and locations of the record into r. */
static void
fill(struct cpr *c, struct sst_rec *r)
{
	build(c);
	r->stack = stacktext(c, &r->stacklen);
	if (c->ncur > 0 && c->nloc[c->ncur - 1] > 0) {
		r->locs = c->lb.data;
		r->locslen = c->lb.len;
	} else {
		r->locs = "";
		r->locslen = 0;
	}
}

/*
 * The number of decimal digits at p, of 8 bytes that may be read, if 1
 * to 7, their value in *v; else 0.  All eight bytes are looked at at
 * once (digits.h): a loop of a byte at a time mispredicts its end at
 * every number of 1 to 4 digits.
 */
static int
digits(const char *p, uint32_t *v)
{
	uint64_t w, m;
	int n;

	w = load64((const unsigned char *)p);
	if ((m = nondigits(w)) == 0 || (m & 0x80) != 0)
		return 0;
	n = __builtin_ctzll(m) / 8;
	*v = digitsval(w ^ ZEROS, (size_t)n);
	return n;
}

/* The stack of a \R line: keep k[0..kn), then the frames s[0..n). */
static int
stack(struct cpr *c, const char *k, size_t kn, const char *s, size_t n,
    const char **why)
{
	const char *p, *q, *e = s + n;
	uint64_t keep, id;
	uint32_t v;
	int nd;

	if (fmt_strtou64(k, kn, &keep) == -1 || keep > c->ncur) {
		*why = "keep is more than the frames of the record before";
		return -1;
	}
	c->ncur = (size_t)keep;
	if (c->nbuilt > c->ncur)
		c->nbuilt = c->ncur;
	for (p = s; n > 0; p++) {
		q = p;
		if (e - p >= 8 && (nd = digits(p, &v)) > 0) {
			id = v;
			p += nd;
		} else
			for (id = 0; p < e && *p >= '0' && *p <= '9'; p++) {
				if (id > UINT32_MAX)
					break;
				id = id * 10 + (uint64_t)(*p - '0');
			}
		if (p == q || (p < e && *p != ',') || p + 1 == e) {
			*why = "bad frame numbers";
			return -1;
		}
		if (id >= c->nfr) {
			*why = "frame number of no \\F line";
			return -1;
		}
		push(c, (uint32_t)id);
		if (p == e)
			break;
	}
	return 0;
}

/* A \R line's fields (f[0] the thread): a record in r. */
static enum cp_kind
record(struct cpr *c, char **f, const size_t *fl, size_t nf,
    struct sst_rec *r, const char **why)
{
	if (rec_head(f, fl, r, why) == -1 ||
	    stack(c, f[5], fl[5], f[6], fl[6], why) == -1)
		return CP_ERR;
	c->head = f[0];
	c->headlen = (size_t)(f[4] + fl[4] - f[0]);
	c->st = nf == 8 ? f[7] : NULL;
	c->stlen = nf == 8 ? fl[7] : 0;
	if (c->lazy) {
		r->stack = r->locs = "";
		r->stacklen = r->locslen = 0;
	} else
		fill(c, r);
	c->sf.ids = c->ids;
	c->sf.n = c->ncur;
	r->frames = &c->sf;
	if (rec_tail(c->st, c->stlen, r, why) == -1)
		return CP_ERR;
	return CP_REC;
}

enum cp_kind
cpr_line(struct cpr *c, char *s, size_t n, struct sst_rec *r,
    const char **why)
{
	char *f[FIELDSMAX + 1];
	size_t fl[FIELDSMAX + 1], nf;

	if (s[1] == 'D') {
		if (n != 2) {
			*why = "\\D takes no fields";
			return CP_ERR;
		}
		c->started = 1;
		c->nfr = c->ncur = c->nbuilt = 0;
		c->sf.serial = cp_serial();
		buf_reset(&c->arena);
		return CP_DICT;
	}
	if (!c->started) {
		*why = "a compact line before the \\D line that begins "
		    "compact records";
		return CP_ERR;
	}
	if (n < 3) {
		*why = "expected TAB-separated fields after \\F or \\R";
		return CP_ERR;
	}
	nf = split(s + 3, n - 3, f, fl, FIELDSMAX - 1);
	if (s[1] == 'F') {
		if (nf != 2) {
			*why = "expected \\F and 2 TAB-separated fields";
			return CP_ERR;
		}
		return frame(c, f, fl, why);
	}
	if (nf != 7 && nf != 8) {
		*why = "expected \\R and 7 or 8 TAB-separated fields";
		return CP_ERR;
	}
	return record(c, f, fl, nf, r, why);
}

const char *
cpr_text(struct cpr *c, size_t *len)
{
	const struct buf *l;
	const char *st;
	size_t n;

	build(c);
	buf_reset(&c->tb);
	buf_add(&c->tb, c->head, c->headlen);
	buf_addc(&c->tb, '\t');
	st = stacktext(c, &n);
	buf_add(&c->tb, st, n);
	buf_addc(&c->tb, '\t');
	l = &c->lb;
	if (c->ncur > 0 && c->nloc[c->ncur - 1] > 0)
		buf_add(&c->tb, l->data, l->len);
	if (c->st != NULL) {
		buf_addc(&c->tb, '\t');
		buf_add(&c->tb, c->st, c->stlen);
	}
	*len = c->tb.len;
	return c->tb.data;
}

void
cpr_lazy(struct cpr *c)
{
	c->lazy = 1;
}

const char *
cpr_leaf(const struct cpr *c, size_t *len, const char **loc, size_t *llen)
{
	const struct cframe *x;

	if (c->ncur == 0)
		return NULL;
	x = &c->fr[c->ids[c->ncur - 1]];
	*len = x->nlen;
	*loc = c->arena.data + x->loff;
	*llen = x->llen;
	return c->arena.data + x->noff;
}

struct cpw *
cpw_new(FILE *fp)
{
	struct cpw *w;

	w = xcalloc(1, sizeof(*w));
	w->fp = fp;
	w->fr = ht_new();
	buf_init(&w->key);
	buf_init(&w->line);
	return w;
}

void
cpw_free(struct cpw *w)
{
	if (w == NULL)
		return;
	ht_free(w->fr);
	free(w->hmap);
	free(w->map);
	buf_free(&w->key);
	buf_free(&w->line);
	free(w->prev);
	free(w->cur);
	free(w);
}

/* Whether locations l[0..n) has an entry that is not empty. */
static int
hasloc(const char *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (l[i] != ';')
			return 1;
	return 0;
}

/*
 * Frame number for a frame not seen yet: write its \F line.  NOFRAME
 * when there are numbers no more.
 */
static uint32_t
newframe(struct cpw *w, const char *name, size_t nlen, const char *loc,
    size_t llen)
{
	if (w->nfr == NOFRAME)
		return NOFRAME;
	fputs("\\F\t", w->fp);
	fwrite(name, 1, nlen, w->fp);
	putc('\t', w->fp);
	fwrite(loc, 1, llen, w->fp);
	putc('\n', w->fp);
	return w->nfr++;
}

/* Room for n frames in cur and prev. */
static void
room(struct cpw *w, size_t n)
{
	if (n > w->cap) {
		w->cap = xgrowcap(w->cap, n, 64);
		w->prev = xreallocarray(w->prev, w->cap, sizeof(uint32_t));
		w->cur = xreallocarray(w->cur, w->cap, sizeof(uint32_t));
	}
}

/*
 * The frame numbers of r's stack into w->cur, new frames written; their
 * count, or (size_t)-1 when there are too many frames to number.
 */
static size_t
frames(struct cpw *w, const struct sst_rec *r, int locs)
{
	const char *s = r->stack, *se = s + r->stacklen, *sp;
	const char *l = r->locs, *le = l + r->locslen, *lp;
	size_t i, n, id;
	int isnew;

	n = rec_nframes(r->stack, r->stacklen);
	room(w, n);
	for (i = 0; i < n; i++) {
		if ((sp = memchr(s, ';', (size_t)(se - s))) == NULL)
			sp = se;
		lp = l;
		if (locs && (lp = memchr(l, ';', (size_t)(le - l))) == NULL)
			lp = le;
		buf_reset(&w->key);
		buf_add(&w->key, s, (size_t)(sp - s));
		buf_addc(&w->key, '\t');
		buf_add(&w->key, l, (size_t)(lp - l));
		id = ht_intern(w->fr, w->key.data, w->key.len, &isnew);
		if (isnew) {
			w->hmap = xreallocarray(w->hmap, id + 1,
			    sizeof(*w->hmap));
			w->hmap[id] = newframe(w, s, (size_t)(sp - s), l,
			    (size_t)(lp - l));
			if (w->hmap[id] == NOFRAME)
				return (size_t)-1;
		}
		w->cur[i] = w->hmap[id];
		s = sp + 1;
		l = lp < le ? lp + 1 : le;
	}
	return n;
}

/* The same for a stack given as the producer's frame numbers. */
static size_t
frameids(struct cpw *w, const struct sst_frames *f)
{
	const char *name, *loc;
	size_t i, cap, nlen, llen;
	uint32_t id, k;

	/* Another numbering: its frames are new to the map. */
	if (f->serial != w->serial) {
		if (w->mapcap > 0)
			memset(w->map, 0, w->mapcap * sizeof(*w->map));
		w->serial = f->serial;
	}
	room(w, f->n);
	for (i = 0; i < f->n; i++) {
		id = f->ids[i];
		if (id >= w->mapcap) {
			cap = xgrowcap(w->mapcap, (size_t)id + 1, 1024);
			w->map = xreallocarray(w->map, cap, sizeof(*w->map));
			memset(w->map + w->mapcap, 0, (cap - w->mapcap) *
			    sizeof(*w->map));
			w->mapcap = cap;
		}
		if (w->map[id] == 0) {
			f->text(f->src, id, &name, &nlen, &loc, &llen);
			if ((k = newframe(w, name, nlen, loc, llen)) == NOFRAME)
				return (size_t)-1;
			w->map[id] = k + 1;
		}
		w->cur[i] = w->map[id] - 1;
	}
	return f->n;
}

int
cpw_write(struct cpw *w, const struct sst_rec *r)
{
	struct buf *b = &w->line;
	const char *t0;
	char num[FMTBUF], *q;
	size_t i, n, keep, len;
	uint32_t *t;

	/* Locations of empty entries only have no compact spelling. */
	if (r->locslen > 0 && !hasloc(r->locs, r->locslen)) {
		rec_write(w->fp, r);
		return 0;
	}
	if (!w->started) {
		fputs("\\D\n", w->fp);
		w->started = 1;
	}
	if (r->frames != NULL)
		n = frameids(w, r->frames);
	else
		n = frames(w, r, r->locslen > 0);
	if (n == (size_t)-1)
		return -1;
	for (keep = 0; keep < n && keep < w->nprev &&
	    w->cur[keep] == w->prev[keep]; keep++)
		;
	buf_reset(b);
	buf_add(b, "\\R\t", 3);
	buf_add(b, r->thread, r->threadlen);
	buf_addc(b, '\t');
	buf_grow(b, REC_NUMSZ);
	b->len += rec_nums(b->data + b->len, r);
	buf_addc(b, '\t');
	buf_add(b, num, fmt_u64(num, keep));
	buf_addc(b, '\t');
	/* A number is 10 digits at most, and a comma. */
	buf_grow(b, (n - keep) * 11 + 2 * FMTBUF);
	q = b->data + b->len;
	for (i = keep; i < n; i++) {
		if (i > keep)
			*q++ = ',';
		q += fmt_u64(q, w->cur[i]);
	}
	b->len = (size_t)(q - b->data);
	if (r->hasstart) {
		buf_addc(b, '\t');
		t0 = fmt_dshort(r->start, &len);
		buf_add(b, t0, len);
	}
	buf_addc(b, '\n');
	fwrite(b->data, 1, b->len, w->fp);
	t = w->prev;
	w->prev = w->cur;
	w->cur = t;
	w->nprev = n;
	return 0;
}

const char *
cpw_error(const struct cpw *w)
{
	return w->nfr == NOFRAME ? "compact form: too many frames" : NULL;
}
