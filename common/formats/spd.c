/*
 * spd.c: read a speedscope JSON document (src/lib/file-format-spec.ts in
 * jlfwong/speedscope) from the streaming tokenizer and hand out sst
 * records.  Memory grows with distinct frames and stacks, never with
 * samples: each profile's stacks are interned (one id per distinct
 * stack), the per-sample stack ids or weights, whichever array comes
 * first, wait in a spill buffer for the other to pair with, and the
 * records wait only for shared.frames when the profiles come first, as
 * py-spy writes them.  Sampled and evented profiles are read; time units
 * become seconds.
 *
 * Speed and memory: a stack is keyed by its frame indices as varints
 * (2 bytes for an index below 16,384, where the text "3,2,1" takes 5 on
 * average), the same bytes its compressed copy keeps.  A sample written
 * as compact JSON writes it (as py-spy and speedscope do) is found by
 * its raw text, which json_rawarray() hands out without tokenizing, in
 * a cache of fixed size that holds the raw text of the stacks sampled
 * most (a stack's popularity falls off as 1/rank in a profile, so a few
 * thousand of them make most samples); else the raw text is checked
 * (rawcheck()), then converted (rawkey()) and the key looked up.  Either
 * way the sample is skipped whole.  Other spellings (blanks, -0) are
 * read token by token.  Both cores share the work: one thread reads the
 * samples, as many at once as lie in the buffer, and finds them in the
 * cache, the other converts, looks up and interns the rest, in order
 * (see readsamples()).  The lookups are bound by cache misses, which are
 * started samples ahead (see rawbatch(), intake()).  Runs of equal
 * weights, as py-spy writes them, are converted once.  At the end, a
 * thread of its own makes a big profile's records into text while the
 * caller writes them (see emitprof()).  A profile's table of stacks
 * goes when its samples end, but its records wait for the frames: so
 * each stack's key is kept, compressed, or, when the input is a plain
 * file, only the offset of its first sample, which is read again then
 * (see rekey(); 12 bytes a stack where the compressed key takes some
 * 36, and no compressing).  With SPD_LEAVES a record's stack is its
 * leaf frame: the samples are read and checked as ever, but only their
 * leaves are interned and kept (see intern()).
 *
 * The parts: this file, the document and the tokens; spdread.c, the
 * schema (frames, profiles, samples, events); spdraw.c, the raw text
 * cache; spdq.c, the handoff between the reading thread and the one
 * that interns; spdrec.c, a profile's records and reading them again;
 * spdout.c, the output threads.  spdint.h holds what they share.
 */
#include <err.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spd.h"
#include "util.h"
#include "buf.h"
#include "progress.h"
#include "json.h"
#include "htab.h"
#include "fmt.h"
#include "spill.h"
#include "zlist.h"
#include "varint.h"
#include "compact.h"
#include "digits.h"
#include "spdint.h"

static void	 freeprof(struct prof *);

/* The next token; a tokenizer error ends the program. */
enum json_tok
sp_next(struct spd *s)
{
	enum json_tok t;

	if ((t = json_next(s->j)) == JT_ERROR)
		xjson_fail(s->j, "%s", json_errmsg(s->j));
	return t;
}

/*
 * Read an object member's key into k (KEYMAX bytes; a longer key reads
 * as "" and so matches nothing) and return the first token of its value.
 * JT_OBJ_END when the object ends.
 */
enum json_tok
sp_member(struct spd *s, char *k)
{
	enum json_tok t;

	if ((t = json_key(s->j, k, KEYMAX)) == JT_ERROR)
		xjson_fail(s->j, "%s", json_errmsg(s->j));
	if (t != JT_KEY)
		return t;
	if ((t = sp_next(s)) == JT_OBJ_END)
		xjson_fail(s->j, "missing value");
	return t;
}

/* Fail unless the token just read is want. */
void
sp_expect(struct spd *s, enum json_tok t, enum json_tok want, const char *what)
{
	if (t != want)
		xjson_fail(s->j, "%s", what);
}

/* Skip a value whose first token t was just read. */
void
sp_skip(struct spd *s, enum json_tok t)
{
	if (json_skip(s->j, t) == -1)
		xjson_fail(s->j, "%s", json_errmsg(s->j));
}

/* The SPD_* bit of a top-level key that tells a format, or 0. */
static unsigned
keybit(const char *k)
{
	static const struct {
		const char	*k;
		unsigned	 bit;
	} keys[] = {
		{ "profiles", SPD_PROFILES }, { "traceEvents", SPD_TRACE },
		{ "nodes", SPD_NODES }, { "meta", SPD_META },
		{ "threads", SPD_THREADS }, { "recording", SPD_RECORDING },
		{ "profile", SPD_PROFILE }, { "ticks", SPD_TICKS }
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(k, keys[i].k) == 0)
			return keys[i].bit;
	return 0;
}

/* Reader s set up to read j (see spd_flatten()); -1 without a mutex. */
static int
spdinit(struct spd *s, struct json *j, int flags, spd_emit emit,
    spd_text text, void *arg)
{
	int i;

	memset(s, 0, sizeof(*s));
	if (pthread_mutex_init(&s->omu, NULL) != 0)
		return -1;
	if (pthread_cond_init(&s->ocv, NULL) != 0) {
		pthread_mutex_destroy(&s->omu);
		return -1;
	}
	s->j = j;
	s->persample = flags & SPD_SAMPLES;
	s->ids = (flags & SPD_FRAMEIDS) != 0;
	s->leaves = (flags & SPD_LEAVES) != 0;
	s->fr.text = sp_frametext;
	s->fr.src = s;
	s->fr.serial = cp_serial();
	s->emit = emit;
	s->text = text;
	s->arg = arg;
	s->tail = &s->pending;
	s->stkcap = 256;
	s->stk = xreallocarray(NULL, s->stkcap, sizeof(*s->stk));
	buf_init(&s->arena);
	s->pnames = ht_new();
	buf_init(&s->key);
	buf_init(&s->chk.key);
	for (i = 0; i < 3; i++)
		buf_init(&s->qa[i].rk.key);
	sp_qinit(s);
	atomic_init(&s->qtaken, 0);
	for (i = 0; i < OBATCHES; i++) {
		s->ob[i].rec = xreallocarray(NULL, OBRECS,
		    sizeof(*s->ob[i].rec));
		s->ob[i].idscap = 4096;
		s->ob[i].ids = xreallocarray(NULL, s->ob[i].idscap,
		    sizeof(*s->ob[i].ids));
		buf_init(&s->ob[i].text);
		buf_init(&s->ob[i].raw);
		buf_init(&s->ob[i].key);
		atomic_init(&s->ob[i].full, 0);
		atomic_init(&s->ob[i].claim, 0);
		atomic_init(&s->ob[i].lined, 0);
	}
	s->tid = xcalloc(RCSLOTS, sizeof(*s->tid));
	s->rct = xcalloc(RCSLOTS, sizeof(*s->rct));
	s->rctext = xhuge(RCSLOTS, RCTEXT);
	s->zpool = zp_new();
	s->kfd = json_reread(j, &s->kbase);
	buf_init(&s->win);
	s->rcgen = 1;
	buf_init(&s->sbuf);
	atomic_init(&s->osleep, 0);
	return 0;
}

/*
 * The members of the top-level object: shared.frames and the profiles
 * (the records of a profile wait for the frames); the SPD_* bits of
 * the keys seen.
 */
static unsigned
readtop(struct spd *s)
{
	struct prof *p, *np;
	enum json_tok t;
	char k[KEYMAX];
	unsigned seen = 0;

	while ((t = sp_member(s, k)) != JT_OBJ_END) {
		seen |= keybit(k);
		/* A key given again replaces the first, as in Python. */
		if (strcmp(k, "shared") == 0) {
			sp_expect(s, t, JT_OBJ, "shared: expected an object");
			s->hasframes = 0;
			while ((t = sp_member(s, k)) != JT_OBJ_END) {
				if (strcmp(k, "frames") != 0) {
					sp_skip(s, t);
					continue;
				}
				sp_expect(s, t, JT_ARR,
				    "shared.frames: expected an array");
				sp_readframes(s);
			}
		} else if (strcmp(k, "profiles") == 0) {
			sp_expect(s, t, JT_ARR, "profiles: expected an array");
			for (p = s->pending; p != NULL; p = np) {
				np = p->next;
				freeprof(p);
			}
			s->pending = NULL;
			s->tail = &s->pending;
			sp_readprofiles(s);
		} else
			sp_skip(s, t);
	}
	return seen;
}

/* Free what reader s holds once its records are out. */
static void
spdfree(struct spd *s)
{
	int i;

	buf_free(&s->arena);
	ht_free(s->pnames);
	free(s->ndup);
	buf_free(&s->key);
	buf_free(&s->chk.key);
	for (i = 0; i < 3; i++)
		buf_free(&s->qa[i].rk.key);
	for (i = 0; i < QBLOCKS; i++)
		if (!sp_inqmem(s, s->q[i].b.data))
			buf_free(&s->q[i].b);
	free(s->qmem);
	zp_free(s->zpool);
	buf_free(&s->win);
	buf_free(&s->sbuf);
	for (i = 0; i < OBATCHES; i++) {
		free(s->ob[i].rec);
		free(s->ob[i].ids);
		buf_free(&s->ob[i].text);
		buf_free(&s->ob[i].raw);
		buf_free(&s->ob[i].key);
	}
	pthread_mutex_destroy(&s->omu);
	pthread_cond_destroy(&s->ocv);
	free(s->noff);
	free(s->loff);
	free(s->stk);
}

/*
 * Read speedscope document j and hand out its records: the whole
 * reader, set up, the top level read, the records out (spd.h).
 */
unsigned
spd_flatten(struct json *j, int flags, spd_emit emit, spd_text text,
    void *arg, char *err, size_t errlen)
{
	struct spd s;
	struct prof *p, *np;
	enum json_tok t;
	unsigned seen;

	if ((t = json_next(j)) == JT_ERROR)
		return SPD_NOTJSON;
	if (t != JT_OBJ)
		return SPD_NOTOBJ;
	if (spdinit(&s, j, flags, emit, text, arg) == -1) {
		snprintf(err, errlen, "cannot make a mutex");
		return SPD_ERROR;
	}
	seen = readtop(&s);
	if (sp_next(&s) != JT_EOF)
		xjson_fail(j, "trailing data after JSON value");
	/* Not needed to write the records. */
	sp_unspare(&s);
	free(s.tid);
	free(s.rct);
	free(s.rctext);
	s.tid = NULL;
	s.rct = NULL;
	s.rctext = NULL;
	if (s.pending != NULL && !s.hasframes) {
		snprintf(err, errlen, "%s: no shared.frames", json_name(j));
		seen = SPD_ERROR;
	}
	for (p = s.pending; p != NULL; p = np) {
		np = p->next;
		if (seen != SPD_ERROR)
			sp_emitprof(&s, p);
		/* Unlinked first: on an error exit the rest stays reachable. */
		s.pending = np;
		freeprof(p);
	}
	spdfree(&s);
	return seen;
}

/*
 * Exit: the record after those of batch b of p has a start or a weight
 * that overflows to inf.
 */
void
sp_xbadrec(struct spd *s, struct prof *p, const struct obatch *b)
{
	const struct orec *o = &b->rec[b->nrec];
	char num[FMTBUF];

	if (b->bad == OB_START)
		sp_xfail("%s: profile \"%s\": the start time of sample %llu "
		    "overflows to inf", json_name(s->j), p->name.data,
		    (unsigned long long)b->badpos);
	buf_reset(&s->sbuf);
	sp_joinframes(s, b->ids + o->ioff, o->nids, 0, &s->sbuf);
	sp_xfail("%s: profile \"%s\": the weight of %llu samples of %s on "
	    "stack \"%s\" overflows to inf", json_name(s->j), p->name.data,
	    (unsigned long long)o->n, fmt_double(num, sizeof(num),
	    o->period), s->sbuf.data);
}

/*
 * Exit 1 with a message, where the reader cannot go on: deep in the
 * reading of a document or in a thread of its own, which have nothing to
 * return an error through.  The progress line goes first.
 */
void
sp_xfail(const char *fmt, ...)
{
	va_list ap;
	char msg[4096];

	progress_hide();
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	errx(1, "%s", msg);
}

/* The same for a failed system call: what, then errno's message. */
void
sp_xsysfail(const char *what)
{
	progress_hide();
	err(1, "%s", what);
}

/* Read n bytes from a spill that holds them, or exit. */
void
sp_xspill(struct spill *sp, void *p, size_t n)
{
	if (xspill_read(sp, p, n) == -1)
		sp_xfail("temporary file: short read");
}

/* Free a profile and what it holds. */
static void
freeprof(struct prof *p)
{
	buf_free(&p->name);
	ht_free(p->stacks);
	free(p->agg);
	free(p->blist);
	spill_free(p->sids);
	spill_free(p->wts);
	spill_free(p->recs);
	spill_free(p->starts);
	free(p->cstarts);
	free(p->crecs);
	zl_free(p->keys);
	free(p->kraw);
	free(p->offs);
	free(p->tags);
	free(p);
}
