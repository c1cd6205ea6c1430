/*
 * spdread.c: the speedscope schema (spd.c): shared.frames, the
 * profiles, a sampled profile's samples and weights, an evented one's
 * open and close events, and the stacks they make (intern()).
 */
#include <err.h>
#include <math.h>
#include <pthread.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "json.h"
#include "esc.h"
#include "htab.h"
#include "fmt.h"
#include "spill.h"
#include "zlist.h"
#include "varint.h"
#include "compact.h"
#include "digits.h"
#include "spdint.h"

static void	 readframe(struct spd *, struct buf *);
static void	 readprofile(struct spd *, size_t);
static struct prof *newprof(struct spd *);
static void	 unitof(struct spd *, struct prof *, const char *);
static void	 endprof(struct spd *, struct prof *, size_t);
static void	 readstack(struct spd *);
static void	 readsamples(struct spd *, struct prof *);
static void	 readweights(struct spd *, struct prof *);
static void	 readevents(struct spd *, struct prof *);

/* Read the elements of shared.frames, the '[' already read. */
void
sp_readframes(struct spd *s)
{
	struct buf loc;
	enum json_tok t;
	size_t i, cap = 0;

	buf_init(&loc);
	buf_reset(&s->arena);
	s->nframes = 0;
	while ((t = sp_next(s)) != JT_ARR_END) {
		sp_expect(s, t, JT_OBJ, "frame: expected an object");
		if (s->nframes + 1 >= cap) {
			cap = xgrowcap(cap, s->nframes + 2, 1024);
			s->noff = xreallocarray(s->noff, cap, sizeof(size_t));
			s->loff = xreallocarray(s->loff, cap, sizeof(size_t));
		}
		readframe(s, &loc);
		s->nframes++;
	}
	/* The room that sp_joinframes() reads past a name or place into. */
	buf_grow(&s->arena, SLACK);
	memset(s->arena.data + s->arena.len, 0, SLACK);
	s->maxtext[0] = s->maxtext[1] = 0;
	for (i = 0; i < s->nframes; i++) {
		if (s->loff[i] - s->noff[i] > s->maxtext[0])
			s->maxtext[0] = s->loff[i] - s->noff[i];
		if (s->noff[i + 1] - s->loff[i] > s->maxtext[1])
			s->maxtext[1] = s->noff[i + 1] - s->loff[i];
	}
	for (i = 0; i < 2; i++) {
		s->first[i] = (s->maxtext[i] + MOVE - 1) / MOVE * MOVE;
		if (s->first[i] < MOVE)
			s->first[i] = MOVE;
		if (s->first[i] > SLACK)
			s->first[i] = SLACK;
	}
	s->hasframes = 1;
	buf_free(&loc);
}

/* Read one frame object into the arena: escaped name, then location. */
static void
readframe(struct spd *s, struct buf *loc)
{
	struct buf line, col;
	enum json_tok t;
	const char *v;
	char k[KEYMAX];
	size_t vlen;
	int hasname = 0;

	buf_init(&line);
	buf_init(&col);
	buf_reset(loc);
	s->noff[s->nframes] = s->arena.len;
	while ((t = sp_member(s, k)) != JT_OBJ_END) {
		v = json_text(s->j, &vlen);
		if (strcmp(k, "name") == 0) {
			sp_expect(s, t, JT_STR,
			    "frame name: expected a string");
			if (hasname)
				xjson_fail(s->j, "frame name given twice");
			hasname = 1;
			esc_name(&s->arena, v, vlen);
		} else if (strcmp(k, "file") == 0 && t == JT_STR) {
			buf_reset(loc);
			esc_add(loc, v, vlen);
		} else if ((strcmp(k, "line") == 0 || strcmp(k, "col") == 0) &&
		    (t == JT_NUM || t == JT_NULL)) {
			buf_reset(k[0] == 'l' ? &line : &col);
			buf_adds(k[0] == 'l' ? &line : &col,
			    t == JT_NULL ? "null" : v);
		} else if (strcmp(k, "file") == 0 || strcmp(k, "line") == 0 ||
		    strcmp(k, "col") == 0) {
			if (t != JT_NULL)
				xjson_fail(s->j, "frame %s: wrong type", k);
		} else
			sp_skip(s, t);
	}
	if (!hasname)
		xjson_fail(s->j, "frame %zu has no name", s->nframes);
	s->loff[s->nframes] = s->arena.len;
	buf_add(&s->arena, loc->data, loc->len);
	buf_printf(&s->arena, ":%s:%s:%zu", line.data, col.data, s->nframes);
	s->loff[s->nframes + 1] = s->arena.len;
	s->noff[s->nframes + 1] = s->arena.len;
	buf_free(&line);
	buf_free(&col);
}

/* Read the elements of profiles, the '[' already read. */
void
sp_readprofiles(struct spd *s)
{
	enum json_tok t;
	size_t i = 0;

	while ((t = sp_next(s)) != JT_ARR_END) {
		sp_expect(s, t, JT_OBJ, "profile: expected an object");
		readprofile(s, i++);
	}
}

/* Read one profile object, which then waits for the frames (endprof()). */
static void
readprofile(struct spd *s, size_t i)
{
	struct prof *p;
	enum json_tok t;
	const char *v;
	char k[KEYMAX];
	size_t vlen;

	s->cur = p = newprof(s);
	while ((t = sp_member(s, k)) != JT_OBJ_END) {
		v = json_text(s->j, &vlen);
		if (strcmp(k, "name") == 0 && t == JT_STR) {
			buf_reset(&p->name);
			esc_add(&p->name, v, vlen);
			p->hasname = 1;
		} else if (strcmp(k, "unit") == 0) {
			sp_expect(s, t, JT_STR, "unit: expected a string");
			unitof(s, p, v);
		} else if (strcmp(k, "startValue") == 0 && t == JT_NUM) {
			if (json_double(s->j, &p->startv) == -1)
				xjson_fail(s->j, "startValue: expected a "
				    "finite number");
		} else if (strcmp(k, "type") == 0) {
			sp_expect(s, t, JT_STR, "type: expected a string");
			if (strcmp(v, "sampled") != 0 &&
			    strcmp(v, "evented") != 0)
				xjson_fail(s->j, "unknown profile type \"%s\"",
				    v);
		} else if (strcmp(k, "samples") == 0) {
			sp_expect(s, t, JT_ARR, "samples: expected an array");
			readsamples(s, p);
		} else if (strcmp(k, "weights") == 0) {
			sp_expect(s, t, JT_ARR, "weights: expected an array");
			readweights(s, p);
		} else if (strcmp(k, "events") == 0) {
			sp_expect(s, t, JT_ARR, "events: expected an array");
			readevents(s, p);
		} else if (strcmp(k, "name") == 0 && t != JT_NULL)
			xjson_fail(s->j, "profile name: expected a string");
		else
			sp_skip(s, t);
	}
	endprof(s, p, i);
}

/*
 * A new profile, its tables those the last one left (sp_shrink()) when
 * there are some.
 */
static struct prof *
newprof(struct spd *s)
{
	struct prof *p;

	p = xcalloc(1, sizeof(*p));
	buf_init(&p->name);
	if ((p->stacks = s->spare) != NULL) {
		s->spare = NULL;
		p->agg = s->sagg;
		p->aggcap = s->saggcap;
		s->sagg = NULL;
		s->saggcap = 0;
		if (p->agg != NULL)
			memset(p->agg, 0, p->aggcap * sizeof(*p->agg));
	} else
		p->stacks = ht_new();
	p->leaf = s->leaves;
	if ((p->keys = s->skeys) != NULL)
		s->skeys = NULL;
	else
		p->keys = zl_new(s->zpool);
	p->reread = s->kfd != -1;
	p->factor = 1;
	p->nbatch = 1;
	return p;
}

/* The unit v of profile p: its sst unit and the factor to seconds. */
static void
unitof(struct spd *s, struct prof *p, const char *v)
{
	if (strcmp(v, "seconds") == 0)
		p->factor = 1;
	else if (strcmp(v, "milliseconds") == 0)
		p->factor = 1e-3;
	else if (strcmp(v, "microseconds") == 0)
		p->factor = 1e-6;
	else if (strcmp(v, "nanoseconds") == 0)
		p->factor = 1e-9;
	else if (strcmp(v, "none") == 0)
		p->unit = U_NONE;
	else if (strcmp(v, "bytes") == 0)
		p->unit = U_BYTES;
	else
		xjson_fail(s->j, "unknown unit \"%s\"", v);
}

/*
 * The end of profile i, p: samples and weights must pair; then it waits
 * with the others for the frames.
 */
static void
endprof(struct spd *s, struct prof *p, size_t i)
{
	if (p->state == PS_SAMPLES)
		xjson_fail(s->j, "profile %zu: %llu samples but no weights", i,
		    (unsigned long long)p->nsids);
	if (p->state == PS_WEIGHTS)
		xjson_fail(s->j, "profile %zu: %llu weights but no samples", i,
		    (unsigned long long)p->nw);
	/* Known only now: a later array might have replaced one. */
	if (p->bad)
		xjson_fail(s->j, "profile %zu: %llu samples but %llu weights",
		    i, (unsigned long long)p->nsids, (unsigned long long)p->nw);
	s->cur = NULL;
	/* Held to the end: another "profiles" would replace this one. */
	sp_shrink(s, p);
	*s->tail = p;
	s->tail = &p->next;
}

/*
 * The id of stack key k[0..len), of hash hv, in p, of the sample at
 * offset off of the input (NOOFF: none); *isnew (if isnew is not NULL)
 * says it was new.  A new key is kept for the records: compressed, or,
 * when the input can be read again, as the offset of its sample, which
 * sp_rekey() reads again, and a tag that tells whether it is the same: the
 * top half of the hash of the sample's raw text, rtag, when off has
 * RAWTAG set (the sample was handed over by its raw text), else of the
 * key.  With SPD_LEAVES the key is cut to
 * its last frame (a stack of the leaf alone, or of none), and every
 * stack counts as new: its largest index is noted again, which changes
 * nothing.
 */
size_t
sp_intern(struct prof *p, const char *k, size_t len, uint64_t hv,
    uint64_t off, uint32_t rtag, int *isnew)
{
	const unsigned char *u = (const unsigned char *)k, *e = u + len, *l;
	uint64_t v;
	size_t id;
	int nw;

	if (p->leaf) {
		for (l = u; u < e;) {
			l = u;
			u = varint_get(u, e, &v);
		}
		k = (const char *)l;
		len = (size_t)(e - l);
		hv = ht_hash(k, len);
	}
	id = ht_internh(p->stacks, k, len, hv, &nw);
	if (nw && p->reread) {
		if (id >= p->offcap) {
			p->offcap = xgrowcap(p->offcap, id + 1, 16);
			p->offs = xreallocarray(p->offs, p->offcap,
			    sizeof(*p->offs));
			p->tags = xreallocarray(p->tags, p->offcap,
			    sizeof(*p->tags));
		}
		p->tags[id] = off != NOOFF && (off & RAWTAG) ? rtag :
		    (uint32_t)(hv >> 32);
		if ((p->offs[id] = off) == NOOFF) {
			p->offs[id] = ZLKEY | zl_count(p->keys);
			zl_add(p->keys, k, len);
		}
	} else if (nw)
		zl_add(p->keys, k, len);
	if (isnew != NULL)
		*isnew = nw || p->leaf;
	return id;
}

/*
 * Read one sample's frame index array, its '[' just read, and hand it
 * to the interning thread (see readsamples()): its raw text if
 * sp_rawbatch() takes it, else its tokens, made into a key.
 */
static void
readstack(struct spd *s)
{
	enum json_tok t;
	struct qplace pl;
	long long v;
	size_t n = 0, len;

	if (json_rawarray(s->j, &s->rb[0].p, &s->rb[0].len) == 0) {
		/* Found by memchr(3): rare, at the end of a buffer. */
		s->rb[0].hash = ht_hashto(s->rb[0].p, s->rb[0].p +
		    s->rb[0].len + 1, ']', &len);
		if (sp_rawbatch(s, 1) == 1) {
			json_rawskip(s->j, s->rb[0].len);
			return;
		}
	}
	pl.off = json_offset(s->j);
	pl.hasidx = 0;
	pl.max = 0;
	while ((t = sp_next(s)) != JT_ARR_END) {
		if (t != JT_NUM || json_int(s->j, &v) == -1 || v < 0 ||
		    v > UINT32_MAX - 1)
			xjson_fail(s->j, "sample: expected a frame index");
		if (n == s->stkcap)
			s->stk = xgrow(s->stk, &s->stkcap, n + 1, 256,
			    sizeof(*s->stk));
		s->stk[n++] = (uint32_t)v;
		if (!pl.hasidx || (uint32_t)v > pl.max) {
			pl.hasidx = 1;
			pl.max = (uint32_t)v;
			pl.line = json_line(s->j);
			pl.col = json_col(s->j);
		}
	}
	sp_stackkey(s, n);
	pl.len = (uint32_t)s->key.len;
	sp_qkey(s, &pl, s->key.data);
	sp_qdone(s);
}

/*
 * Read the samples array, pairing with the weights, if any.  Reading
 * the samples, finding them in the cache of raw text and checking them
 * is done here, as many at once as the buffer holds one after the
 * other (json_rawarrays(), sp_rawbatch()), one by one where that stops
 * (readstack()); what is handed over in blocks (sp_qroom(), sp_qhand()) is
 * converted, looked up, interned, paired and kept by a second thread
 * (intake()), in the order read, so both cores share the work.  The
 * blocks, 4 MB in all, let this thread run ahead while the other works
 * through the misses of a cold cache, at the start of an array.
 */
static void
readsamples(struct spd *s, struct prof *p)
{
	enum json_tok t;
	uint64_t n = 0;
	size_t k, r;

	sp_transit(s, p, PS_SAMPLES);
	sp_rcnext(s);
	if (p->hasw)
		sp_rewindseq(s, p->wts, p->nw, sizeof(double));
	if ((p->sids = s->ssids) != NULL)
		s->ssids = NULL;
	else
		p->sids = spill_new(SPILLMEM);
	s->qp = p;
	for (;;) {
		if ((k = json_rawarrays(s->j, s->rb, RBATCH)) > 0) {
			r = sp_rawbatch(s, k);
			if (json_rawtake(s->j, s->rb, r) == -1)
				sp_xfail("internal error: samples taken out of "
				    "place");
			n += r;
			if (r == k)
				continue;
		}
		if ((t = sp_next(s)) == JT_ARR_END)
			break;
		sp_expect(s, t, JT_ARR, "sample: expected an array");
		readstack(s);
		n++;
	}
	sp_qhand(s, 1);
	sp_endseq(s, p->sids);
	p->nsids = n;
	if (p->hasw) {
		p->bad |= n != p->nw;
		p->state = PS_PAIRED;
	}
}

/* Read the weights array, pairing with the samples, if any. */
static void
readweights(struct spd *s, struct prof *p)
{
	enum json_tok t;
	uint64_t n = 0;
	uint32_t id;
	double w = 0;
	const char *v;
	char last[32];
	size_t len, lastlen = 0, k;

	sp_transit(s, p, PS_WEIGHTS);
	if (p->sids != NULL)
		sp_rewindseq(s, p->sids, p->nsids, sizeof(id));
	else
		p->wts = spill_new(SPILLMEM);
	while ((t = sp_next(s)) != JT_ARR_END) {
		if (t != JT_NUM)
			xjson_fail(s->j, "weight: expected a finite number");
		v = json_text(s->j, &len);
		if (len != lastlen || memcmp(v, last, len) != 0) {
			if (json_double(s->j, &w) == -1)
				xjson_fail(s->j, "weight: expected a finite "
				    "number");
			lastlen = len < sizeof(last) ? len : 0;
			memcpy(last, v, lastlen);
		}
		/* This weight and those spelled the same right after it. */
		k = 1 + json_skipsame(s->j, SIZE_MAX);
		n += k;
		if (p->sids != NULL) {
			for (; k > 0 && !p->bad; k--)
				if (sp_getseq(s, p->sids, &id,
				    sizeof(id)) == -1)
					p->bad = 1;
				else {
					sp_addsample(s, p, id, w, p->tsum);
					p->tsum += w;
				}
		} else
			for (; k > 0; k--)
				sp_putseq(s, p->wts, &w, sizeof(w));
	}
	p->hasw = 1;
	p->nw = n;
	if (p->sids == NULL) {
		sp_endseq(s, p->wts);
		return;
	}
	p->bad |= n != p->nsids;
	p->state = PS_PAIRED;
}

/*
 * Read an evented profile's events: the time between two events goes
 * to the stack of frames open between them, as one sample.
 */
static void
readevents(struct spd *s, struct prof *p)
{
	enum json_tok t;
	char k[KEYMAX];
	const char *v;
	size_t depth = 0, id, vlen;
	long long fr;
	double at, last = 0;
	int type, started = 0, hasat, hasfr;

	sp_transit(s, p, PS_EVENTS);
	while ((t = sp_next(s)) != JT_ARR_END) {
		sp_expect(s, t, JT_OBJ, "event: expected an object");
		type = 0;
		hasat = hasfr = 0;
		while ((t = sp_member(s, k)) != JT_OBJ_END) {
			if (strcmp(k, "type") == 0 && t == JT_STR) {
				v = json_text(s->j, &vlen);
				type = vlen == 1 ? v[0] : 0;
			}
			else if (strcmp(k, "at") == 0 && t == JT_NUM)
				hasat = json_double(s->j, &at) == 0;
			else if (strcmp(k, "frame") == 0 && t == JT_NUM)
				hasfr = json_int(s->j, &fr) == 0 && fr >= 0 &&
				    fr < UINT32_MAX;
			else
				sp_skip(s, t);
		}
		if ((type != 'O' && type != 'C') || !hasat || !hasfr)
			xjson_fail(s->j, "event: expected type O or C, at "
			    "and frame");
		if (started && at < last)
			xjson_fail(s->j, "event: time goes backwards");
		if (started && isinf(at - last))
			xjson_fail(s->j, "event: the time since the last event "
			    "overflows to inf");
		if (depth > 0 && at > last) {
			sp_stackkey(s, depth);
			id = sp_intern(p, s->key.data, s->key.len,
			    ht_hash(s->key.data, s->key.len), NOOFF, 0, NULL);
			sp_addsample(s, p, id, at - last, last);
		}
		started = 1;
		last = at;
		if (type == 'O') {
			if (depth == s->stkcap)
				s->stk = xgrow(s->stk, &s->stkcap, depth + 1,
				    256, sizeof(*s->stk));
			s->stk[depth++] = (uint32_t)fr;
			if (!p->hasidx || (uint32_t)fr > p->maxidx) {
				p->hasidx = 1;
				p->maxidx = (uint32_t)fr;
				p->idxline = json_line(s->j);
				p->idxcol = json_col(s->j);
			}
		} else {
			if (depth == 0 || s->stk[depth - 1] != (uint32_t)fr)
				xjson_fail(s->j, "event: closing frame %lld "
				    "that is not the innermost open one", fr);
			depth--;
		}
	}
	if (depth > 0)
		xjson_fail(s->j, "events: %zu frames left open", depth);
}

/*
 * A profile named like earlier ones gets "\e" (nothing) appended once
 * for each of them, up to DUPMAX: it reads the same, yet stays a thread
 * of its own, as the profiles are apart in the input.  Past DUPMAX, the
 * (DUPMAX + 2)th and later get "\e#N", N their rank among the profiles
 * named so, so that names and the time to make them stay linear.  An
 * escaped name from the input never holds "\e", so these are new.
 */
void
sp_pname(struct spd *s, struct prof *p)
{
	size_t id, k;
	int isnew;

	id = ht_intern(s->pnames, p->name.data, p->name.len, &isnew);
	if (id >= s->ndupcap)
		s->ndup = xgrow(s->ndup, &s->ndupcap, id + 1, 256,
		    sizeof(*s->ndup));
	if (isnew) {
		s->ndup[id] = 0;
		return;
	}
	if ((k = ++s->ndup[id]) <= DUPMAX)
		while (k-- > 0)
			buf_adds(&p->name, "\\e");
	else
		buf_printf(&p->name, "\\e#%zu", k + 1);
}
