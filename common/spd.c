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

#include "sst.h"
#include "zlist.h"
#include "varint.h"
#include "compact.h"
#include "digits.h"

#define SPILLMEM	(1 << 20)
#define CHUNK		4096	/* bytes moved to or from a spill at once */
#define KEYMAX		32
#define RECMAX		(2 * VARINT_MAX + 8)	/* a record's bytes at most */
#define DUPMAX		16	/* "\e" suffixes before "\e#N" ones */
#define NOOFF		UINT64_MAX	/* a key read from no sample */
#define KRAWMAX		512	/* bytes of keys kept as they are */
#define ZLKEY		(1ULL << 63)	/* a key kept in a zlist */
#define RAWTAG		(1ULL << 62)	/* a tag of raw text, see intern() */
#define WIN		65536	/* bytes read again at once, see window() */
#define WINJUMP		4096	/* or after a jump back or far ahead, */
#define WINNEAR		(4 << 20)	/* farther than this */
#define RAWFRAME	4	/* bytes of a sample's text a frame, about */

#define MOVE		32	/* bytes joinframes() moves at once */
#define SLACK		(4 * MOVE)	/* and may write or read past */
#define BIGTEXT		4096	/* frames and text counted past this */
#define OBATCHES	6	/* batches of records made ready */
#define OBRECS		1024	/* records in a batch at most */
#define OBCOST		2048	/* and frames, about: some 150 KB of text */
#define OSPIN		100000	/* looks at a flag before sleeping */
#define OTHREAD		4096	/* records that get a thread making them */
#define QBLOCK		(64 * 1024)	/* samples handed over at once */
#define QBLOCKS		64	/* 4 MB: the misses of a cold cache */
#define QROOM		(QBLOCK + 16384)	/* a block's room, see qinit() */
#define QLAG		4	/* blocks behind: misses converted here */

#define RCSLOTS		32768	/* raw text cache, two ways */
#define RBATCH		512	/* samples read at once, see rawbatch() */
#define RHASH		8	/* hashed this many ahead, their slots loaded */
#define NOSLOT		0xffff	/* no slot of it */
#define RCTEXT		512	/* 16 MB of text in all, touched as used */

/* A sample's key made from its raw text, its largest index and where. */
struct rawk {
	struct buf	 key;
	uint32_t	 max;
	size_t		 at;		/* (size_t)-1: no index */
};

/*
 * What the reading thread hands the interning one, sample by sample,
 * in blocks (see readsamples()): a kind, then
 */
enum qkind {
	Q_SAME,		/* nothing: the stack of the sample before */
	Q_HIT,		/* a cache slot (2 bytes): the stack it was given */
	Q_RAW,		/* a slot or NOSLOT, a struct qplace, raw text, ']' */
	Q_CONV,		/* a slot or NOSLOT, a struct qplace, the hash (8
			   bytes) of the key after it, made of raw text */
	Q_KEY		/* a struct qplace and a key read token by token */
};

/* Of a sample handed over: its length, place, largest index. */
struct qplace {
	uint32_t	 len;		/* of its raw text or key */
	uint32_t	 max;		/* Q_CONV, Q_KEY: its largest index, */
	int		 hasidx;	/* if it has one */
	uint32_t	 rtag;		/* Q_RAW, Q_CONV: its hash's top */
	unsigned long long line, col;	/* Q_RAW: the '[', else max's */
	uint64_t	 off;		/* the input's offset of its '[' */
};

/* Entries whose key intake() makes ahead (see qprep()). */
#define MADEAHEAD(k)	((k) == Q_RAW || (k) == Q_CONV)

/* A block of samples handed over. */
struct qblock {
	struct buf	 b;
	int		 last;		/* the array's last */
	atomic_int	 full;		/* handed over, not yet taken in */
};

/*
 * A Q_RAW or Q_CONV entry being taken in: its key (made ahead of a
 * Q_RAW's raw text, in rk), the key's hash, and the place of its
 * largest index.
 */
struct qahead {
	const unsigned char *e;		/* its entry, or NULL */
	struct rawk	 rk;
	const char	*key;
	size_t		 klen;
	uint64_t	 khash;
	struct qplace	 pl;
};

/*
 * The head of a slot of the raw text cache, whose text is apart (so the
 * heads, 256 KB, stay in the caches): the top half of the text's hash
 * (the bottom picks the slot), a text seen again counts a hit, another
 * one found there a miss; it takes the slot once the misses have taken
 * back the hits (gen says which samples array it is of, see rcnext()).
 * The slot's stack id is kept by the interning thread (s->tid).
 */
struct rctag {
	uint32_t	 hash;
	uint16_t	 len;
	uint8_t		 gen;
	uint8_t		 hits;
};

/*
 * Of a record made ready to write: whether its frame ids are made yet,
 * or are to be made from its sample's text read again (see fill()).
 */
enum later {
	L_MADE,
	L_RAW,		/* from its sample's raw text */
	L_SAME		/* the same as the record's before it */
};

/*
 * A record made ready to write: its numbers, its frames (ioff, nids in
 * the batch's ids) and, with stacks as text, its stack and places
 * fields (toff, tlen in the batch's text).
 */
struct orec {
	uint64_t	 n;
	double		 period, weight, start;
	uint32_t	 id;		/* its stack */
	enum later	 later;		/* its frame ids made yet, */
	size_t		 roff, rlen;	/* or from its sample in b->raw */
	size_t		 ioff, nids;
	size_t		 toff, tlen;
};

/* What ends a profile's records before their end: an error. */
enum obad {
	OB_NONE,
	OB_START,	/* the next record's start overflows */
	OB_WEIGHT	/* its weight does */
};

/* Records made ready to write (see emitprof()). */
struct obatch {
	struct orec	*rec;		/* OBRECS, the bad one after nrec */
	size_t		 nrec;
	uint32_t	*ids;
	size_t		 nids, idscap;
	size_t		 cost;		/* frames of its records */
	int		 later;		/* some records' ids not made, */
	struct buf	 raw;		/* their samples' text, */
	struct buf	 key;		/* and a key made of one */
	struct buf	 text;		/* their lines, stacks as text */
	int		 bymain;	/* made into lines by the writer */
	uint64_t	 seq;		/* the batch's number */
	int		 end;		/* the profile's last */
	enum obad	 bad;
	uint64_t	 badpos;	/* the bad record's number, from 1 */
	atomic_int	 full;		/* made, not yet written, */
	atomic_int	 claim;		/* its lines claimed by a thread, */
	atomic_int	 lined;		/* made by the making one */
};

/* A stack's samples in the current batch. */
struct agg {
	uint64_t	 n;
	uint64_t	 batch;
};

/* What a profile has read of its per-sample arrays. */
enum pstate {
	PS_NONE,
	PS_SAMPLES,	/* samples, waiting for weights */
	PS_WEIGHTS,	/* weights, waiting for samples */
	PS_PAIRED,	/* both, paired into records */
	PS_EVENTS	/* events, made into records */
};

/* Per-sample data being written to or read from a spill. */
struct seqbuf {
	unsigned char	 buf[CHUNK];
	size_t		 len, pos;
	uint64_t	 left;		/* bytes left in the spill */
};

struct prof {
	struct buf	 name;		/* escaped */
	int		 hasname;
	enum sst_unit	 unit;
	double		 factor;
	struct htab	*stacks;	/* uint32 frame index arrays */
	int		 leaf;		/* SPD_LEAVES: of the leaf alone */
	enum pstate	 state;
	struct agg	*agg;		/* by stack id */
	size_t		 aggcap;
	uint32_t	*blist;		/* stack ids of the batch, in order */
	size_t		 blen, bcap;
	double		 bw;		/* the weight of every sample in it */
	uint64_t	 nbatch;
	struct spill	*recs;		/* closed batches, see closebatch() */
	uint64_t	 nrecs;		/* in recs */
	uint64_t	 recbytes;	/* and their bytes */
	unsigned char	*crecs;		/* or these, once pending */
	struct zlist	*keys;		/* the stacks' keys, compressed, */
	unsigned char	*kraw;		/* or, a few, as zl_raw() had them, */
	uint32_t	 krawlen;	/* KRAWMAX bytes at most, */
	int		 reread;	/* or, if 1, read again (rekey()): */
	uint64_t	*offs;		/* by stack id, its first sample's
					   offset, or ZLKEY and its index
					   in keys, */
	uint32_t	*tags;		/* and its key's hash's top half */
	size_t		 offcap;
	struct spill	*sids;		/* the samples' stack ids */
	uint64_t	 nsids;
	struct spill	*wts;		/* the weights, if not the records' */
	uint64_t	 nw;
	int		 hasw;		/* a weights array was read */
	int		 bad;		/* samples, weights: unequal counts */
	double		 startv;	/* startValue */
	double		 tsum;		/* the weights of the samples so far */
	struct spill	*starts;	/* with -s: each record's start, raw */
	double		*cstarts;	/* or these, once pending */
	uint32_t	 maxidx;
	int		 hasidx;
	unsigned long long idxline, idxcol;
	struct prof	*next;
};

struct spd {
	struct json	*j;
	int		 persample;
	int		 ids;		/* SPD_FRAMEIDS */
	int		 leaves;	/* SPD_LEAVES */
	struct sst_frames fr;		/* then the record's frames */
	spd_emit	 emit;		/* records, stacks as frame ids */
	spd_text	 text;		/* lines, stacks as text */
	void		*arg;
	struct buf	 arena;		/* escaped names and locations */
	size_t		*noff, *loff;	/* by frame: name, location */
	size_t		 nframes;
	size_t		 maxtext[2];	/* the longest name, place */
	size_t		 first[2];	/* bytes moved whole, see move() */
	int		 hasframes;
	struct prof	*pending, **tail;
	struct prof	*cur;		/* being read */
	struct htab	*spare;		/* a profile's stacks, emptied, */
	struct agg	*sagg;		/* its agg, */
	size_t		 saggcap;
	struct spill	*ssids;		/* and samples, for the next one */
	struct zlist	*skeys;		/* an empty list of keys, too */
	struct htab	*pnames;	/* thread names written so far */
	size_t		*ndup;		/* by name: profiles named so, less 1 */
	size_t		 ndupcap;
	uint32_t	*stk;
	size_t		 stkcap;
	struct buf	 key;		/* a stack's key: indices as varints */
	struct rawk	 chk;		/* rawcheck()'s scratch */
	struct json_raw	 rb[RBATCH];	/* samples' raw text, */
	uint64_t	 rh[RBATCH];	/* its hashes (see rawbatch()) */
	struct zpool	*zpool;		/* for the profiles' stack keys */
	int		 kfd;		/* the input read again, or -1, */
	off_t		 kbase;		/* at this offset plus a sample's, */
	struct buf	 win;		/* into this window (see window()) */
	uint64_t	 winoff;	/* from this offset */
	struct rctag	*rct;		/* RCSLOTS */
	char		*rctext;	/* RCSLOTS * RCTEXT */
	uint8_t		 rcgen;		/* 1 to 255 */
	struct qblock	 q[QBLOCKS];	/* samples handed over */
	char		*qmem;		/* the blocks' room, see qinit() */
	size_t		 qi;		/* the block being filled */
	int		 qon;		/* the thread taking them in runs */
	atomic_size_t	 qtaken;	/* blocks it has taken in */
	size_t		 qstart;	/* from this block */
	pthread_t	 qth;
	struct prof	*qp;		/* of this profile */
	uint32_t	*tid;		/* by cache slot: its stack id */
	uint32_t	 qprev;		/* the stack id of the sample before */
	struct qahead	 qa[3];
	struct buf	 sbuf;
	struct obatch	 ob[OBATCHES];	/* records being made ready */
	struct prof	*op;		/* of this profile */
	pthread_t	 oth;		/* by this thread, */
	pthread_mutex_t	 omu;		/* which these hand over */
	pthread_cond_t	 ocv;
	atomic_int	 osleep;	/* threads waiting on ocv */
	struct seqbuf	 rd, wr;	/* per-sample data from and to spills */
	struct seqbuf	 rr;		/* records read from a spill */
	const unsigned char *rp, *re;	/* the records to decode */
	double		 rw;		/* the weight of the batch read */
};

static void	 readframes(struct spd *);
static void	 readframe(struct spd *, struct buf *);
static void	 readprofiles(struct spd *);
static void	 readprofile(struct spd *, size_t);
static void	 readsamples(struct spd *, struct prof *);
static void	 readweights(struct spd *, struct prof *);
static void	 readevents(struct spd *, struct prof *);
static void	 readstack(struct spd *);
static size_t	 rawbatch(struct spd *, size_t);
static void	 rawhead(struct spd *, size_t);
static void	 stackkey(struct spd *, size_t);
static int	 rawkey(const char *, size_t, struct rawk *);
static const unsigned char *window(struct spd *, uint64_t,
		    const unsigned char **);
static const unsigned char *rawof(struct spd *, struct prof *, size_t,
		    size_t *);
static size_t	 rekey(struct spd *, struct prof *, size_t,
		    const unsigned char *, size_t, struct buf *, uint32_t *);
static __dead void changed(struct spd *, uint64_t);
static int	 rawcheck(const char *, size_t, struct rawk *);
static void	 notemax(struct prof *, uint32_t, int, unsigned long long,
		    unsigned long long);
static void	 rcnext(struct spd *);
static size_t	 rcfind(struct spd *, uint64_t, const char *, size_t);
static size_t	 rcput(struct spd *, uint64_t, const char *, size_t);
static void	 qhit(struct spd *, size_t);
static void	 qraw(struct spd *, size_t, const struct qplace *,
		    const char *);
static void	 qkey(struct spd *, const struct qplace *, const char *);
static void	 qconv(struct spd *, size_t, const struct json_raw *);
static uint64_t	 keyof(struct spd *, const struct rawk *, struct qplace *);
static int	 qlags(struct spd *);
static void	 qinit(struct spd *);
static int	 inqmem(const struct spd *, const char *);
static unsigned char *qroom(struct spd *, size_t);
static void	 qdone(struct spd *);
static void	 qhand(struct spd *, int);
#ifndef SPD_ONETHREAD
static void	*intaker(void *);
#endif
static void	 qprep(struct spd *, struct qahead *, const unsigned char *);
static void	 intake(struct spd *, struct qblock *);
static const unsigned char *qskip(const unsigned char *,
		    const unsigned char *);
static void	 await(struct spd *, atomic_int *, int);
static void	 aset(struct spd *, atomic_int *, int);
static void	 addsample(struct spd *, struct prof *, size_t, double,
		    double);
static void	 putseq(struct spd *, struct spill *, const void *, size_t);
static void	 endseq(struct spd *, struct spill *);
static int	 getseq(struct spd *, struct spill *, void *, size_t);
static void	 rewindseq(struct spd *, struct spill *, uint64_t, size_t);
static void	 resetrecs(struct prof *);
static void	 resetstacks(struct spd *, struct prof *);
static void	 transit(struct spd *, struct prof *, enum pstate);
static void	 shrink(struct spd *, struct prof *);
static void	 unspare(struct spd *);
static const char *pkey(struct prof *, size_t, size_t *);
static void	 rewindrecs(struct spd *, struct prof *);
static int	 nextrec(struct spd *, struct prof *, uint64_t *, uint32_t *,
		    uint64_t *, double *);
static void	 pname(struct spd *, struct prof *);
static void	 emitprof(struct spd *, struct prof *);
static size_t	 intern(struct prof *, const char *, size_t, uint64_t,
		    uint64_t, uint32_t, int *);
static size_t	 keyids(uint32_t *, const char *, size_t);
static void	 idsroom(struct obatch *, size_t);
static void	 addids(struct obatch *, struct orec *, const char *, size_t);
static void	 fill(struct spd *, struct prof *, struct obatch *);
static void	 frametext(const void *, uint32_t, const char **, size_t *,
		    const char **, size_t *);
static size_t	 joinframes(const struct spd *, const uint32_t *, size_t,
		    int, struct buf *);
static void	 produce(struct spd *, struct prof *, struct obatch *,
		    uint64_t *);
static int	 hasstarts(const struct prof *);
static double	 startof(struct prof *, uint64_t);
static void	 lines(struct spd *, struct prof *, struct obatch *);
static void	 linehead(struct buf *, const struct prof *,
		    const struct sst_rec *);
#ifndef SPD_ONETHREAD
static struct obatch *steal(struct spd *);
static void	*producer(void *);
#endif
static void	 consume(struct spd *, struct prof *, struct sst_rec *,
		    struct obatch *);
static __dead void badrec(struct spd *, struct prof *,
		    const struct obatch *);
static void	 freeprof(struct prof *);
static void	 expect(struct spd *, enum json_tok, enum json_tok,
		    const char *);
static enum json_tok next(struct spd *);
static uint64_t	 rawhash(const struct json_raw *);
static uint32_t	 rawtag(const struct json_raw *);
static enum json_tok member(struct spd *, char *);

/*
 * The hash of a sample's raw text r, which picks its cache slot and
 * tells texts apart before their bytes are compared: ht_hashto()'s,
 * made as its end was found (json_rawarrays(), or readstack()).  Built
 * with SPD_COLLIDE (test_spdcollide), the texts of a length share one,
 * so that the cache meets heads that say "maybe" of another text at
 * every turn.
 */
static inline uint64_t
rawhash(const struct json_raw *r)
{
#ifdef SPD_COLLIDE
	return r->len * 0x9e3779b97f4a7c15ULL;
#else
	return r->hash;
#endif
}

/*
 * The tag of a sample's raw text r (see intern()): the top half of its
 * ht_hashto(), whatever rawhash() gives the cache.
 */
static inline uint32_t
rawtag(const struct json_raw *r)
{
	return (uint32_t)(r->hash >> 32);
}

/* The next token; a tokenizer error ends the program. */
static enum json_tok
next(struct spd *s)
{
	enum json_tok t;

	if ((t = json_next(s->j)) == JT_ERROR)
		json_fail(s->j, "%s", json_errmsg(s->j));
	return t;
}

/*
 * Read an object member's key into k (KEYMAX bytes; a longer key reads
 * as "" and so matches nothing) and return the first token of its value.
 * JT_OBJ_END when the object ends.
 */
static enum json_tok
member(struct spd *s, char *k)
{
	enum json_tok t;
	const char *v;
	size_t len;

	if ((t = next(s)) != JT_KEY) {
		k[0] = '\0';
		return t;
	}
	v = json_text(s->j, &len);
	if (len < KEYMAX && memchr(v, '\0', len) == NULL)
		memcpy(k, v, len + 1);
	else
		k[0] = '\0';
	if ((t = next(s)) == JT_OBJ_END)
		json_fail(s->j, "missing value");
	return t;
}

/* Fail unless the token just read is want. */
static void
expect(struct spd *s, enum json_tok t, enum json_tok want, const char *what)
{
	if (t != want)
		json_fail(s->j, "%s", what);
}

/* Skip a value whose first token t was just read. */
static void
skip(struct spd *s, enum json_tok t)
{
	if (json_skip(s->j, t) == -1)
		json_fail(s->j, "%s", json_errmsg(s->j));
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

unsigned
spd_flatten(struct json *j, int flags, spd_emit emit, spd_text text,
    void *arg)
{
	struct spd s;
	struct prof *p, *np;
	enum json_tok t;
	char k[KEYMAX];
	unsigned seen = 0;
	int i;

	if ((t = json_next(j)) == JT_ERROR)
		return SPD_NOTJSON;
	if (t != JT_OBJ)
		return SPD_NOTOBJ;

	memset(&s, 0, sizeof(s));
	s.j = j;
	s.persample = flags & SPD_SAMPLES;
	s.ids = (flags & SPD_FRAMEIDS) != 0;
	s.leaves = (flags & SPD_LEAVES) != 0;
	s.fr.text = frametext;
	s.fr.src = &s;
	s.fr.serial = cp_serial();
	s.emit = emit;
	s.text = text;
	s.arg = arg;
	s.tail = &s.pending;
	s.stkcap = 256;
	s.stk = xreallocarray(NULL, s.stkcap, sizeof(*s.stk));
	buf_init(&s.arena);
	s.pnames = ht_new();
	buf_init(&s.key);
	buf_init(&s.chk.key);
	for (i = 0; i < 3; i++)
		buf_init(&s.qa[i].rk.key);
	qinit(&s);
	atomic_init(&s.qtaken, 0);
	for (i = 0; i < OBATCHES; i++) {
		s.ob[i].rec = xreallocarray(NULL, OBRECS, sizeof(*s.ob[i].rec));
		s.ob[i].idscap = 4096;
		s.ob[i].ids = xreallocarray(NULL, s.ob[i].idscap,
		    sizeof(*s.ob[i].ids));
		buf_init(&s.ob[i].text);
		buf_init(&s.ob[i].raw);
		buf_init(&s.ob[i].key);
		atomic_init(&s.ob[i].full, 0);
		atomic_init(&s.ob[i].claim, 0);
		atomic_init(&s.ob[i].lined, 0);
	}
	s.tid = xcalloc(RCSLOTS, sizeof(*s.tid));
	s.rct = xcalloc(RCSLOTS, sizeof(*s.rct));
	s.rctext = xhuge(RCSLOTS, RCTEXT);
	s.zpool = zp_new();
	s.kfd = json_reread(j, &s.kbase);
	buf_init(&s.win);
	s.rcgen = 1;
	buf_init(&s.sbuf);
	atomic_init(&s.osleep, 0);
	if (pthread_mutex_init(&s.omu, NULL) != 0 ||
	    pthread_cond_init(&s.ocv, NULL) != 0)
		errx(1, "cannot make a mutex");
	while ((t = member(&s, k)) != JT_OBJ_END) {
		seen |= keybit(k);
		/* A key given again replaces the first, as in Python. */
		if (strcmp(k, "shared") == 0) {
			expect(&s, t, JT_OBJ, "shared: expected an object");
			s.hasframes = 0;
			while ((t = member(&s, k)) != JT_OBJ_END) {
				if (strcmp(k, "frames") != 0) {
					skip(&s, t);
					continue;
				}
				expect(&s, t, JT_ARR,
				    "shared.frames: expected an array");
				readframes(&s);
			}
		} else if (strcmp(k, "profiles") == 0) {
			expect(&s, t, JT_ARR, "profiles: expected an array");
			for (p = s.pending; p != NULL; p = np) {
				np = p->next;
				freeprof(p);
			}
			s.pending = NULL;
			s.tail = &s.pending;
			readprofiles(&s);
		} else
			skip(&s, t);
	}
	if (next(&s) != JT_EOF)
		json_fail(j, "trailing data after JSON value");
	/* Not needed to write the records. */
	unspare(&s);
	free(s.tid);
	free(s.rct);
	free(s.rctext);
	s.tid = NULL;
	s.rct = NULL;
	s.rctext = NULL;
	for (p = s.pending; p != NULL; p = np) {
		np = p->next;
		if (!s.hasframes) {
			progress_hide();
			errx(1, "%s: no shared.frames", json_name(j));
		}
		emitprof(&s, p);
		/* Unlinked first: on an error exit the rest stays reachable. */
		s.pending = np;
		freeprof(p);
	}
	buf_free(&s.arena);
	ht_free(s.pnames);
	free(s.ndup);
	buf_free(&s.key);
	buf_free(&s.chk.key);
	for (i = 0; i < 3; i++)
		buf_free(&s.qa[i].rk.key);
	for (i = 0; i < QBLOCKS; i++)
		if (!inqmem(&s, s.q[i].b.data))
			buf_free(&s.q[i].b);
	free(s.qmem);
	zp_free(s.zpool);
	buf_free(&s.win);
	buf_free(&s.sbuf);
	for (i = 0; i < OBATCHES; i++) {
		free(s.ob[i].rec);
		free(s.ob[i].ids);
		buf_free(&s.ob[i].text);
		buf_free(&s.ob[i].raw);
		buf_free(&s.ob[i].key);
	}
	pthread_mutex_destroy(&s.omu);
	pthread_cond_destroy(&s.ocv);
	free(s.noff);
	free(s.loff);
	free(s.stk);
	return seen;
}

/* Read the elements of shared.frames, the '[' already read. */
static void
readframes(struct spd *s)
{
	struct buf loc;
	enum json_tok t;
	size_t i, cap = 0;

	buf_init(&loc);
	buf_reset(&s->arena);
	s->nframes = 0;
	while ((t = next(s)) != JT_ARR_END) {
		expect(s, t, JT_OBJ, "frame: expected an object");
		if (s->nframes + 1 >= cap) {
			cap = xgrowcap(cap, s->nframes + 2, 1024);
			s->noff = xreallocarray(s->noff, cap, sizeof(size_t));
			s->loff = xreallocarray(s->loff, cap, sizeof(size_t));
		}
		readframe(s, &loc);
		s->nframes++;
	}
	/* The room that joinframes() reads past a name or place into. */
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
	while ((t = member(s, k)) != JT_OBJ_END) {
		v = json_text(s->j, &vlen);
		if (strcmp(k, "name") == 0) {
			expect(s, t, JT_STR, "frame name: expected a string");
			if (hasname)
				json_fail(s->j, "frame name given twice");
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
				json_fail(s->j, "frame %s: wrong type", k);
		} else
			skip(s, t);
	}
	if (!hasname)
		json_fail(s->j, "frame %zu has no name", s->nframes);
	s->loff[s->nframes] = s->arena.len;
	buf_add(&s->arena, loc->data, loc->len);
	buf_printf(&s->arena, ":%s:%s:%zu", line.data, col.data, s->nframes);
	s->loff[s->nframes + 1] = s->arena.len;
	s->noff[s->nframes + 1] = s->arena.len;
	buf_free(&line);
	buf_free(&col);
}

/* Read the elements of profiles, the '[' already read. */
static void
readprofiles(struct spd *s)
{
	enum json_tok t;
	size_t i = 0;

	while ((t = next(s)) != JT_ARR_END) {
		expect(s, t, JT_OBJ, "profile: expected an object");
		readprofile(s, i++);
	}
}

/* Read one profile object; emit it now if the frames are known. */
static void
readprofile(struct spd *s, size_t i)
{
	struct prof *p;
	enum json_tok t;
	const char *v;
	char k[KEYMAX];
	size_t vlen;

	s->cur = p = xcalloc(1, sizeof(*p));
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
	while ((t = member(s, k)) != JT_OBJ_END) {
		v = json_text(s->j, &vlen);
		if (strcmp(k, "name") == 0 && t == JT_STR) {
			buf_reset(&p->name);
			esc_add(&p->name, v, vlen);
			p->hasname = 1;
		} else if (strcmp(k, "unit") == 0) {
			expect(s, t, JT_STR, "unit: expected a string");
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
				json_fail(s->j, "unknown unit \"%s\"", v);
		} else if (strcmp(k, "startValue") == 0 && t == JT_NUM) {
			if (json_double(s->j, &p->startv) == -1)
				json_fail(s->j, "startValue: expected a finite "
				    "number");
		} else if (strcmp(k, "type") == 0) {
			expect(s, t, JT_STR, "type: expected a string");
			if (strcmp(v, "sampled") != 0 &&
			    strcmp(v, "evented") != 0)
				json_fail(s->j, "unknown profile type \"%s\"",
				    v);
		} else if (strcmp(k, "samples") == 0) {
			expect(s, t, JT_ARR, "samples: expected an array");
			readsamples(s, p);
		} else if (strcmp(k, "weights") == 0) {
			expect(s, t, JT_ARR, "weights: expected an array");
			readweights(s, p);
		} else if (strcmp(k, "events") == 0) {
			expect(s, t, JT_ARR, "events: expected an array");
			readevents(s, p);
		} else if (strcmp(k, "name") == 0 && t != JT_NULL)
			json_fail(s->j, "profile name: expected a string");
		else
			skip(s, t);
	}
	if (p->state == PS_SAMPLES)
		json_fail(s->j, "profile %zu: %llu samples but no weights", i,
		    (unsigned long long)p->nsids);
	if (p->state == PS_WEIGHTS)
		json_fail(s->j, "profile %zu: %llu weights but no samples", i,
		    (unsigned long long)p->nw);
	/* Known only now: a later array might have replaced one. */
	if (p->bad)
		json_fail(s->j, "profile %zu: %llu samples but %llu weights",
		    i, (unsigned long long)p->nsids, (unsigned long long)p->nw);
	s->cur = NULL;
	/* Held to the end: another "profiles" would replace this one. */
	shrink(s, p);
	*s->tail = p;
	s->tail = &p->next;
}

/*
 * The id of stack key k[0..len), of hash hv, in p, of the sample at
 * offset off of the input (NOOFF: none); *isnew (if isnew is not NULL)
 * says it was new.  A new key is kept for the records: compressed, or,
 * when the input can be read again, as the offset of its sample, which
 * rekey() reads again, and a tag that tells whether it is the same: the
 * top half of the hash of the sample's raw text, rtag, when off has
 * RAWTAG set (the sample was handed over by its raw text), else of the
 * key.  With SPD_LEAVES the key is cut to
 * its last frame (a stack of the leaf alone, or of none), and every
 * stack counts as new: its largest index is noted again, which changes
 * nothing.
 */
static size_t
intern(struct prof *p, const char *k, size_t len, uint64_t hv,
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
 * rawbatch() takes it, else its tokens, made into a key.
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
		if (rawbatch(s, 1) == 1) {
			json_rawskip(s->j, s->rb[0].len);
			return;
		}
	}
	pl.off = json_offset(s->j);
	pl.hasidx = 0;
	pl.max = 0;
	while ((t = next(s)) != JT_ARR_END) {
		if (t != JT_NUM || json_int(s->j, &v) == -1 || v < 0 ||
		    v > UINT32_MAX - 1)
			json_fail(s->j, "sample: expected a frame index");
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
	stackkey(s, n);
	pl.len = (uint32_t)s->key.len;
	qkey(s, &pl, s->key.data);
	qdone(s);
}

/*
 * Hash the raw text of sample i of s->rb and start loading its cache
 * set: both heads, and as much of both slots' text as the sample has.
 * Loading the text only when a head says it may be there would wait on
 * the head first.
 */
static void
rawhead(struct spd *s, size_t i)
{
	const char *x;
	size_t m, slot;

	s->rh[i] = rawhash(&s->rb[i]);
	slot = s->rh[i] & (RCSLOTS - 2);
	__builtin_prefetch(&s->rct[slot]);
	x = s->rctext + slot * RCTEXT;
	for (m = 0; m < s->rb[i].len && m < RCTEXT; m += 64) {
		__builtin_prefetch(x + m);
		__builtin_prefetch(x + RCTEXT + m);
	}
}

/*
 * Hand over samples s->rb[0..n) (json_rawarrays(), json_rawarray()) by
 * their raw text while that can be: the same as the sample's before
 * it, found in the cache, or else checked to be in key form, to be
 * converted and looked up by the interning thread (converted here
 * while that thread lags, see qlags()).  Returns how many were; the
 * next one, if any, is to be read token by token.  The cache
 * waits on memory, so each sample is hashed RHASH samples ahead and its
 * cache set loaded.
 */
static size_t
rawbatch(struct spd *s, size_t n)
{
	const struct json_raw *r = s->rb;
	struct qplace pl;
	size_t i, k, slot;

	for (i = 0; i < n && i < RHASH; i++)
		rawhead(s, i);
	for (i = 0; i < n; i++) {
		if ((k = i + RHASH) < n)
			rawhead(s, k);
		if (i > 0 && r[i].len == r[i - 1].len &&
		    s->rh[i] == s->rh[i - 1] &&
		    memcmp(r[i].p, r[i - 1].p, r[i].len) == 0)
			*qroom(s, 1) = Q_SAME;
		else if ((slot = rcfind(s, s->rh[i], r[i].p, r[i].len)) !=
		    NOSLOT)
			qhit(s, slot);
		else if (qlags(s)) {
			if (rawkey(r[i].p, r[i].len, &s->chk) == -1)
				break;
			qconv(s, rcput(s, s->rh[i], r[i].p, r[i].len), &r[i]);
		} else if (rawcheck(r[i].p, r[i].len, &s->chk) == 0) {
			pl.len = (uint32_t)r[i].len;
			pl.rtag = rawtag(&r[i]);
			pl.off = json_rawplace(s->j, &r[i], &pl.line, &pl.col);
			qraw(s, rcput(s, s->rh[i], r[i].p, r[i].len), &pl,
			    r[i].p);
		} else
			break;
		qdone(s);
	}
	return i;
}

/*
 * Forget the raw text cache: a new generation, and when they wrap
 * round, heads cleared so that none is of the new one.
 */
static void
rcnext(struct spd *s)
{
	if (++s->rcgen == 0) {
		memset(s->rct, 0, RCSLOTS * sizeof(*s->rct));
		s->rcgen = 1;
	}
}

/* The cache slot of raw text raw of len bytes (hash h), or NOSLOT. */
static size_t
rcfind(struct spd *s, uint64_t h, const char *raw, size_t len)
{
	struct rctag *t;
	size_t i, slot = h & (RCSLOTS - 2);

	for (i = 0, t = &s->rct[slot]; i < 2; i++, t++)
		if (t->gen == s->rcgen && t->hash == h >> 32 && t->len == len &&
		    memcmp(s->rctext + (slot + i) * RCTEXT, raw, len) == 0) {
			t->hits += t->hits < UINT8_MAX;
			return slot + i;
		}
	return NOSLOT;
}

/*
 * The cache slot that raw text raw of len bytes (hash h), not found
 * there, takes, or NOSLOT: of the two of its set, the one of fewer
 * hits, once misses have taken them back.  The stack id of the slot is
 * known when the interning thread has looked the text up.
 */
static size_t
rcput(struct spd *s, uint64_t h, const char *raw, size_t len)
{
	struct rctag *t;
	size_t slot = h & (RCSLOTS - 2);

	if (len == 0 || len > RCTEXT)
		return NOSLOT;
	t = &s->rct[slot];
	if (t[1].gen != s->rcgen || (t->gen == s->rcgen && t[1].hits <
	    t->hits)) {
		t++;
		slot++;
	}
	if (t->gen == s->rcgen && t->hits > 0) {
		t->hits--;
		return NOSLOT;
	}
	t->hash = (uint32_t)(h >> 32);
	t->gen = s->rcgen;
	t->len = (uint16_t)len;
	t->hits = 1;
	memcpy(s->rctext + slot * RCTEXT, raw, len);
	return slot;
}

/* Hand over a sample found in cache slot slot. */
static void
qhit(struct spd *s, size_t slot)
{
	unsigned char *q = qroom(s, 3);
	uint16_t v = (uint16_t)slot;

	q[0] = Q_HIT;
	memcpy(q + 1, &v, sizeof(v));
}

/* Hand over raw text raw of a sample, to take cache slot slot. */
static void
qraw(struct spd *s, size_t slot, const struct qplace *pl, const char *raw)
{
	unsigned char *q = qroom(s, 3 + sizeof(*pl) + pl->len + 1);
	uint16_t v = (uint16_t)slot;

	q[0] = Q_RAW;
	memcpy(q + 1, &v, sizeof(v));
	memcpy(q + 3, pl, sizeof(*pl));
	memcpy(q + 3 + sizeof(*pl), raw, pl->len);
	q[3 + sizeof(*pl) + pl->len] = ']';
}

/* Hand over key key of a sample read token by token. */
static void
qkey(struct spd *s, const struct qplace *pl, const char *key)
{
	unsigned char *q = qroom(s, 1 + sizeof(*pl) + pl->len);

	q[0] = Q_KEY;
	memcpy(q + 1, pl, sizeof(*pl));
	memcpy(q + 1 + sizeof(*pl), key, pl->len);
}

/*
 * Hand over sample r, converted to the key in s->chk by rawkey(), to
 * take cache slot slot: with its largest index's place, and the key's
 * hash (that of its leaf is made over there, see intern()).
 */
static void
qconv(struct spd *s, size_t slot, const struct json_raw *r)
{
	struct qplace pl;
	unsigned char *q;
	uint64_t h;
	uint16_t v = (uint16_t)slot;

	pl.len = (uint32_t)s->chk.key.len;
	pl.rtag = rawtag(r);
	pl.off = json_rawplace(s->j, r, &pl.line, &pl.col);
	h = keyof(s, &s->chk, &pl);
	q = qroom(s, 3 + sizeof(pl) + sizeof(h) + pl.len);
	q[0] = Q_CONV;
	memcpy(q + 1, &v, sizeof(v));
	memcpy(q + 3, &pl, sizeof(pl));
	memcpy(q + 3 + sizeof(pl), &h, sizeof(h));
	memcpy(q + 3 + sizeof(pl) + sizeof(h), s->chk.key.data, pl.len);
}

/*
 * Of key rk, made of a sample's raw text whose '[' is at pl's place:
 * its largest index and that index's place, into pl, and the key's hash
 * (none with leaves: intern() cuts the key to its leaf and hashes that).
 */
static uint64_t
keyof(struct spd *s, const struct rawk *rk, struct qplace *pl)
{
	pl->max = rk->max;
	pl->hasidx = rk->at != (size_t)-1;
	if (pl->hasidx)
		pl->col += 1 + rk->at;
	return s->qp->leaf ? 0 : ht_hash(rk->key.data, rk->key.len);
}

/*
 * Whether the interning thread is QLAG blocks or more behind: then the
 * samples not in the cache are converted here (this thread would
 * wait, the other one would not; so z200k's misses, 27% of its
 * samples).  Built with SPD_CONVERT (test_spdconv), always.
 */
static int
qlags(struct spd *s)
{
#ifdef SPD_CONVERT
	(void)s;
	return 1;
#else
	return s->qon && s->qi - atomic_load_explicit(&s->qtaken,
	    memory_order_relaxed) >= QLAG;
#endif
}

/*
 * The blocks of samples handed over, in one region of QROOM bytes each,
 * in huge pages: the reading thread writes them, and faulting in a
 * block page by page as it grew took that thread some 3% of z50k.
 */
static void
qinit(struct spd *s)
{
	size_t i;

	s->qmem = xhuge(QBLOCKS, QROOM);
	for (i = 0; i < QBLOCKS; i++) {
		s->q[i].b.data = s->qmem + i * QROOM;
		s->q[i].b.cap = QROOM;
		buf_reset(&s->q[i].b);
		atomic_init(&s->q[i].full, 0);
	}
}

/* Whether p lies in the blocks' region (else it was allocated apart). */
static int
inqmem(const struct spd *s, const char *p)
{
	return p >= s->qmem && p < s->qmem + QBLOCKS * QROOM;
}

/*
 * Room for n more bytes in the block being filled: a block in the
 * region that needs more (a sample of many frames) is moved out of it.
 */
static unsigned char *
qroom(struct spd *s, size_t n)
{
	struct buf *b = &s->q[s->qi % QBLOCKS].b, nb;

	/* buf_grow()'s test, without a call for each sample. */
	if (b->len + n + 1 > b->cap) {
		if (inqmem(s, b->data)) {
			buf_init(&nb);
			buf_grow(&nb, b->len + n);
			memcpy(nb.data, b->data, b->len);
			nb.len = b->len;
			*b = nb;
		} else
			buf_grow(b, n);
	}
	b->len += n;
	return (unsigned char *)b->data + b->len - n;
}

/* A sample handed over: hand the block over if it is full. */
static void
qdone(struct spd *s)
{
	if (s->q[s->qi % QBLOCKS].b.len >= QBLOCK)
		qhand(s, 0);
}

/*
 * Hand over the block being filled (the last of the array if last) and
 * start filling the next one.  The first full block of an array starts
 * the thread that takes them in; the last one, if the thread has not
 * started, is taken in here, so that a small array does not wait for a
 * thread (nor does the fuzzers' build, SPD_ONETHREAD, ever start it).
 * So is every block if the thread cannot start.  The thread is waited
 * for at the end of the array.
 */
static void
qhand(struct spd *s, int last)
{
	struct qblock *q = &s->q[s->qi % QBLOCKS];

	q->last = last;
#ifndef SPD_ONETHREAD
	if (!s->qon && !last) {
		s->qstart = s->qi;
		atomic_store(&s->qtaken, s->qi);
		s->qon = pthread_create(&s->qth, NULL, intaker, s) == 0;
		/* That thread starts the reads ahead (json_lazyahead()). */
		json_lazyahead(s->j, s->qon);
	}
#endif
	if (!s->qon) {
		intake(s, q);
		buf_reset(&q->b);
		return;
	}
	aset(s, &q->full, 1);
	q = &s->q[++s->qi % QBLOCKS];
	if (last) {
		pthread_join(s->qth, NULL);
		s->qon = 0;
		json_lazyahead(s->j, 0);
	} else
		await(s, &q->full, 0);
	buf_reset(&q->b);
}

#ifndef SPD_ONETHREAD
/* The thread that takes in the samples handed over, block after block. */
static void *
intaker(void *arg)
{
	struct spd *s = arg;
	struct qblock *q;
	size_t i = s->qstart;
	int last;

	do {
		q = &s->q[i++ % QBLOCKS];
		json_kick(s->j);
		await(s, &q->full, 1);
		intake(s, q);
		last = q->last;
		atomic_store_explicit(&s->qtaken, i, memory_order_relaxed);
		aset(s, &q->full, 0);
	} while (!last);
	return NULL;
}
#endif

/*
 * Make the key of entry e (Q_RAW: convert its raw text; Q_CONV: the key
 * and hash it holds) ahead of taking it in, and start loading its table
 * slot.
 */
static void
qprep(struct spd *s, struct qahead *a, const unsigned char *e)
{
	a->e = e;
	memcpy(&a->pl, e + 3, sizeof(a->pl));
	if (*e == Q_CONV) {
		memcpy(&a->khash, e + 3 + sizeof(a->pl), sizeof(a->khash));
		a->key = (const char *)e + 3 + sizeof(a->pl) +
		    sizeof(a->khash);
		a->klen = a->pl.len;
	} else {
		if (rawkey((const char *)e + 3 + sizeof(a->pl), a->pl.len,
		    &a->rk) == -1)
			errx(1, "internal error: a sample checked is not in "
			    "key form");
		a->key = a->rk.key.data;
		a->klen = a->rk.key.len;
		a->khash = keyof(s, &a->rk, &a->pl);
	}
	if (!s->qp->leaf)
		ht_prefetch(s->qp->stacks, a->khash, 0);
}

/*
 * Take in a block of samples: the stack id of each, looked up or
 * interned, paired with its weight if the weights came first, kept in
 * order.  Raw text is converted two entries ahead and its table entry
 * loaded one ahead (as rawbatch() does the cache's).
 */
static void
intake(struct spd *s, struct qblock *q)
{
	struct prof *p = s->qp;
	struct qplace pl;
	struct qahead *a;
	const unsigned char *x, *nx, *af, *end;
	uint16_t slot;
	size_t id, i;
	double w;
	int isnew;

	end = (unsigned char *)q->b.data + q->b.len;
	for (i = 0; i < 3; i++)
		s->qa[i].e = NULL;
	x = q->b.len > 0 ? (unsigned char *)q->b.data : NULL;
	if ((nx = qskip(x, end)) != NULL && MADEAHEAD(*nx))
		qprep(s, &s->qa[1], nx);
	for (i = 0; x != NULL; i++, x = nx, nx = af) {
		if ((af = qskip(nx, end)) != NULL && MADEAHEAD(*af))
			qprep(s, &s->qa[(i + 2) % 3], af);
		if (nx != NULL && MADEAHEAD(*nx) && !p->leaf)
			ht_prefetch(p->stacks, s->qa[(i + 1) % 3].khash, 1);
		a = &s->qa[i % 3];
		switch (*x) {
		case Q_SAME:
			id = s->qprev;
			break;
		case Q_HIT:
			memcpy(&slot, x + 1, sizeof(slot));
			id = s->tid[slot];
			break;
		case Q_RAW:
		case Q_CONV:
			if (a->e != x)
				qprep(s, a, x);
			memcpy(&slot, x + 1, sizeof(slot));
			id = intern(p, a->key, a->klen, a->khash,
			    a->pl.off | RAWTAG, a->pl.rtag, &isnew);
			if (isnew)
				notemax(p, a->pl.max, a->pl.hasidx, a->pl.line,
				    a->pl.col);
			if (slot != NOSLOT)
				s->tid[slot] = (uint32_t)id;
			break;
		default:
			memcpy(&pl, x + 1, sizeof(pl));
			notemax(p, pl.max, pl.hasidx, pl.line, pl.col);
			id = intern(p, (const char *)x + 1 + sizeof(pl),
			    pl.len, ht_hash(x + 1 + sizeof(pl), pl.len), pl.off,
			    0, NULL);
			break;
		}
		s->qprev = (uint32_t)id;
		if (p->hasw && !p->bad) {
			if (getseq(s, p->wts, &w, sizeof(w)) == -1)
				p->bad = 1;
			else {
				addsample(s, p, id, w, p->tsum);
				p->tsum += w;
			}
		}
		putseq(s, p->sids, &s->qprev, sizeof(s->qprev));
	}
}

/* The entry after entry e (or NULL) of a block that ends at end, or NULL. */
static const unsigned char *
qskip(const unsigned char *e, const unsigned char *end)
{
	struct qplace pl;

	if (e == NULL)
		return NULL;
	switch (*e) {
	case Q_SAME:
		e += 1;
		break;
	case Q_HIT:
		e += 3;
		break;
	case Q_RAW:
		memcpy(&pl, e + 3, sizeof(pl));
		e += 3 + sizeof(pl) + pl.len + 1;
		break;
	case Q_CONV:
		memcpy(&pl, e + 3, sizeof(pl));
		e += 3 + sizeof(pl) + sizeof(uint64_t) + pl.len;
		break;
	default:
		memcpy(&pl, e + 1, sizeof(pl));
		e += 1 + sizeof(pl) + pl.len;
		break;
	}
	return e < end ? e : NULL;
}

/*
 * Make h's key of the raw text q[0..len) of a sample if that is in key
 * form: indices of no more digits than they need, each followed by a
 * ',' but the last.  Its largest index and the offset of the first
 * place it is at are noted.  Anything else, even a valid spelling, is
 * -1, left to the tokens, which say what is wrong where.  q[len] is the
 * array's ']' (json_rawarray(), json_rawnext()), which ends the digits
 * of the last index.  An index of d digits takes d varint bytes or
 * fewer.  While 8 bytes up to that ']' can be read, an index of 7
 * digits or fewer is read 8 bytes at a time (digits.h): its length is
 * that of the run of digits, with no branch that depends on it; so is
 * its varint of one byte or two, which writes a byte more.
 */
static int
rawkey(const char *q, size_t len, struct rawk *h)
{
	const unsigned char *b = (const unsigned char *)q, *e = b + len, *u, *d;
	unsigned char *k, *k0;
	uint32_t max = 0;
	uint64_t v, w, m;
	size_t n;
	unsigned c;

	buf_reset(&h->key);
	buf_grow(&h->key, len + 1);
	k = k0 = (unsigned char *)h->key.data;
	h->at = (size_t)-1;
	for (u = b; u < e; u++) {
		d = u;
		if (e - u >= 7) {
			w = load64(u);
			m = nondigits(w);
			n = m != 0 ? (size_t)__builtin_ctzll(m) >> 3 : 8;
			if (n == 0 || (n > 1 && *u == '0'))
				return -1;
			if (n < 8) {
				v = digitsval(w ^ ZEROS, n);
				u += n;
				goto ended;
			}
		}
		if ((v = (unsigned)*u - '0') > 9)
			return -1;
		while ((c = (unsigned)*++u - '0') <= 9)
			v = v * 10 + c;
		if (u - d > 10 || (*d == '0' && u - d > 1) ||
		    v > UINT32_MAX - 1)
			return -1;
ended:
		if (u < e && (*u != ',' || u + 1 == e))
			return -1;
		if (v > max || h->at == (size_t)-1) {
			max = (uint32_t)v;
			h->at = (size_t)(d - b);
		}
		if (v < 1 << 14) {
			/* One or two bytes, without a branch on which. */
			k[0] = (unsigned char)(v | (v > 0x7f) << 7);
			k[1] = (unsigned char)(v >> 7);
			k += 1 + (v > 0x7f);
		} else
			k += varint_put(k, v);
	}
	h->max = max;
	h->key.len = (size_t)(k - k0);
	return 0;
}

#ifdef __SSE2__
/* Bits of the digits, commas and zeros of the 16 bytes at q. */
static inline void
classify16(const char *q, unsigned *d, unsigned *c, unsigned *z)
{
	__m128i x = _mm_loadu_si128((const __m128i *)q);

	*d = (unsigned)_mm_movemask_epi8(_mm_and_si128(
	    _mm_cmpgt_epi8(x, _mm_set1_epi8('0' - 1)),
	    _mm_cmplt_epi8(x, _mm_set1_epi8('9' + 1))));
	*c = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x,
	    _mm_set1_epi8(',')));
	*z = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x,
	    _mm_set1_epi8('0')));
}

#endif

/*
 * 0 if raw text q[0..len) is in key form, as rawkey() would find (q[len]
 * is not a digit); -1 if not.  With SSE2, from bit masks of the digits,
 * commas and zeros, 64 bytes at a time: nothing else, no comma first,
 * last or after a comma, no zero that starts a number followed by a
 * digit; a run of 10 digits or more (which may be too big) is left to
 * rawkey() itself, as is everything without SSE2, converted into
 * scratch.
 */
static int
rawcheck(const char *q, size_t len, struct rawk *scratch)
{
#ifdef __SSE2__
	char tail[64];
	const char *w;
	uint64_t D, C, Z, V, pd = 0, pc = 1, plz = 0, run, lz;
	unsigned d, c, z;
	size_t o, i, k;

	if (len > 0 && q[len - 1] == ',')
		return -1;
	/* pd: the digits before; pc, plz: a comma, a leading zero last. */
	for (o = 0; o < len; o += 64) {
		w = q + o;
		if (len - o < 64) {
			memset(tail, 0, sizeof(tail));
			memcpy(tail, w, len - o);
			w = tail;
			V = ((uint64_t)1 << (len - o)) - 1;
		} else
			V = ~(uint64_t)0;
		D = C = Z = 0;
		for (i = 0; i < 4; i++) {
			classify16(w + 16 * i, &d, &c, &z);
			D |= (uint64_t)d << (16 * i);
			C |= (uint64_t)c << (16 * i);
			Z |= (uint64_t)z << (16 * i);
		}
		D &= V;
		C &= V;
		Z &= V;
		lz = Z & ~(D << 1 | pd >> 63);
		if ((D | C) != V || (C & (C << 1 | pc)) != 0 ||
		    (D & (lz << 1 | plz)) != 0)
			return -1;
		for (run = D, k = 1; k < 10; k++)
			run &= D << k | pd >> (64 - k);
		if (run != 0)
			return rawkey(q, len, scratch);
		pd = D;
		pc = C >> 63;
		plz = lz >> 63;
	}
	return 0;
#else
	return rawkey(q, len, scratch);
#endif
}

/*
 * Note the largest index max (if hasidx) of a new stack, at line and
 * col, as reading its tokens would: the first place of a larger one than
 * any before.
 */
static void
notemax(struct prof *p, uint32_t max, int hasidx, unsigned long long line,
    unsigned long long col)
{
	if (hasidx && (!p->hasidx || max > p->maxidx)) {
		p->hasidx = 1;
		p->maxidx = max;
		p->idxline = line;
		p->idxcol = col;
	}
}

/* Write the key of the stack s->stk[0 .. n - 1] into s->key. */
static void
stackkey(struct spd *s, size_t n)
{
	unsigned char *q, *q0;
	size_t i;

	buf_reset(&s->key);
	buf_grow(&s->key, n * VARINT_MAX);
	q = q0 = (unsigned char *)s->key.data;
	for (i = 0; i < n; i++)
		q += varint_put(q, s->stk[i]);
	s->key.len = (size_t)(q - q0);
}

/*
 * Write out the current batch: one record per distinct stack of the
 * batch, in first-seen order: a varint of its stack id times 2, plus 1
 * for the first record of the batch, which the batch's weight (8 bytes)
 * then follows; a varint of its samples.  About 4 bytes a record.
 */
static void
closebatch(struct prof *p)
{
	unsigned char rec[RECMAX], *q;
	uint32_t id;
	size_t i;

	if (p->blen == 0)
		return;
	if (p->recs == NULL)
		p->recs = spill_new(SPILLMEM);
	for (i = 0; i < p->blen; i++) {
		id = p->blist[i];
		q = rec + varint_put(rec, (uint64_t)id << 1 | (i == 0));
		q += varint_put(q, p->agg[id].n);
		if (i == 0) {
			memcpy(q, &p->bw, sizeof(p->bw));
			q += sizeof(p->bw);
		}
		spill_write(p->recs, rec, (size_t)(q - rec));
		p->recbytes += (uint64_t)(q - rec);
	}
	p->nrecs += p->blen;
	p->blen = 0;
	p->nbatch++;
}

/*
 * Account one sample of stack id with raw weight w.  Samples are summed
 * per stack within a batch of consecutive samples of equal weight, and a
 * new batch starts when the weight changes: adding each record's period
 * samples times, record after record, then gives exactly the sums that
 * adding every sample's weight in file order gives.
 */
static void
addsample(struct spd *s, struct prof *p, size_t id, double w, double t)
{
	struct agg *a;
	size_t cap;

	if (p->blen > 0 && w != p->bw)
		closebatch(p);
	if (p->blen == 0)
		p->bw = w;
	if (id >= p->aggcap) {
		cap = xgrowcap(p->aggcap, id + 1, 256);
		p->agg = xhugegrow(p->agg, p->aggcap, cap, sizeof(*p->agg));
		memset(p->agg + p->aggcap, 0,
		    (cap - p->aggcap) * sizeof(*p->agg));
		p->aggcap = cap;
	}
	a = &p->agg[id];
	if (a->batch != p->nbatch) {
		a->batch = p->nbatch;
		a->n = 0;
		if (p->blen == p->bcap)
			p->blist = xgrow(p->blist, &p->bcap, p->blen + 1, 256,
			    sizeof(*p->blist));
		p->blist[p->blen++] = (uint32_t)id;
	}
	a->n++;
	if (s->persample) {
		closebatch(p);
		if (p->starts == NULL)
			p->starts = spill_new(SPILLMEM);
		spill_write(p->starts, &t, sizeof(t));
	}
}

/* Write n bytes of per-sample data to sp, through s->wr. */
static void
putseq(struct spd *s, struct spill *sp, const void *v, size_t n)
{
	if (s->wr.len + n > CHUNK) {
		spill_write(sp, s->wr.buf, s->wr.len);
		s->wr.len = 0;
	}
	memcpy(s->wr.buf + s->wr.len, v, n);
	s->wr.len += n;
}

/* The end of the data written to sp. */
static void
endseq(struct spd *s, struct spill *sp)
{
	spill_write(sp, s->wr.buf, s->wr.len);
	s->wr.len = 0;
}

/*
 * Read the next n bytes of per-sample data from sp, CHUNK bytes at a
 * time (a whole number of items), through s->rd; -1 at the end.
 */
static int
getseq(struct spd *s, struct spill *sp, void *v, size_t n)
{
	size_t k;

	if (s->rd.pos + n > s->rd.len) {
		k = s->rd.left < CHUNK ? s->rd.left : CHUNK;
		if (k == 0 || spill_read(sp, s->rd.buf, k) == -1)
			return -1;
		s->rd.left -= k;
		s->rd.len = k;
		s->rd.pos = 0;
	}
	memcpy(v, s->rd.buf + s->rd.pos, n);
	s->rd.pos += n;
	return 0;
}

/* Start reading back sp, of n items of size bytes. */
static void
rewindseq(struct spd *s, struct spill *sp, uint64_t n, size_t size)
{
	spill_rewind(sp);
	s->rd.left = n * size;
	s->rd.len = s->rd.pos = 0;
}

/* Forget the records made so far (their arrays are read again). */
static void
resetrecs(struct prof *p)
{
	spill_free(p->recs);
	spill_free(p->starts);
	p->starts = NULL;
	p->tsum = 0;
	p->recs = NULL;
	free(p->crecs);
	p->crecs = NULL;
	p->nrecs = p->recbytes = 0;
	p->blen = 0;
	p->nbatch++;
}

/* Forget the stacks and frame indices seen (their array is read again). */
static void
resetstacks(struct spd *s, struct prof *p)
{
	ht_clear(p->stacks);
	zl_free(p->keys);
	p->keys = zl_new(s->zpool);
	free(p->agg);
	p->agg = NULL;
	p->aggcap = 0;
	p->hasidx = 0;
	rcnext(s);
}

/*
 * The one transition check of a profile's state for its next array,
 * of kind k: events go with no samples nor weights; a second array of a
 * kind replaces the first (the last wins, as in Python's json.load), so
 * what was made of the first is forgotten.  Samples and weights pair
 * whatever their order, and a later samples or weights array pairs with
 * the other kind again: so the samples' stack ids are always kept (in
 * p->sids), the weights when they come first (in p->wts), and when they
 * come second they are those of the records, taken back from them.
 */
static void
transit(struct spd *s, struct prof *p, enum pstate k)
{
	struct spill *w;
	uint64_t pos = 0, n, i;
	uint32_t id;
	double x;

	if ((k == PS_EVENTS) != (p->state == PS_EVENTS) &&
	    p->state != PS_NONE)
		json_fail(s->j, "%s in a profile with %s", k == PS_EVENTS ?
		    "events" : k == PS_SAMPLES ? "samples" : "weights",
		    k == PS_EVENTS ? "samples or weights" : "events");
	if (k == PS_EVENTS) {
		resetrecs(p);
		resetstacks(s, p);
	} else if (k == PS_SAMPLES && p->sids != NULL) {
		if (p->state == PS_PAIRED && p->wts == NULL) {
			/* The weights, from the records, in sample order. */
			w = spill_new(SPILLMEM);
			closebatch(p);
			rewindrecs(s, p);
			while (nextrec(s, p, &pos, &id, &n, &x))
				for (i = 0; i < n; i++)
					putseq(s, w, &x, sizeof(x));
			endseq(s, w);
			p->wts = w;
		}
		spill_free(p->sids);
		p->sids = NULL;
		p->nsids = 0;
		resetrecs(p);
		resetstacks(s, p);
	} else if (k == PS_WEIGHTS && p->hasw) {
		spill_free(p->wts);
		p->wts = NULL;
		resetrecs(p);
		p->hasw = 0;
	}
	p->bad = 0;
	p->state = k;
}

/*
 * Read the samples array, pairing with the weights, if any.  Reading
 * the samples, finding them in the cache of raw text and checking them
 * is done here, as many at once as the buffer holds one after the
 * other (json_rawarrays(), rawbatch()), one by one where that stops
 * (readstack()); what is handed over in blocks (qroom(), qhand()) is
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

	transit(s, p, PS_SAMPLES);
	rcnext(s);
	if (p->hasw)
		rewindseq(s, p->wts, p->nw, sizeof(double));
	if ((p->sids = s->ssids) != NULL)
		s->ssids = NULL;
	else
		p->sids = spill_new(SPILLMEM);
	s->qp = p;
	for (;;) {
		if ((k = json_rawarrays(s->j, s->rb, RBATCH)) > 0) {
			r = rawbatch(s, k);
			if (json_rawtake(s->j, s->rb, r) == -1)
				errx(1, "internal error: samples taken out of "
				    "place");
			n += r;
			if (r == k)
				continue;
		}
		if ((t = next(s)) == JT_ARR_END)
			break;
		expect(s, t, JT_ARR, "sample: expected an array");
		readstack(s);
		n++;
	}
	qhand(s, 1);
	endseq(s, p->sids);
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

	transit(s, p, PS_WEIGHTS);
	if (p->sids != NULL)
		rewindseq(s, p->sids, p->nsids, sizeof(id));
	else
		p->wts = spill_new(SPILLMEM);
	while ((t = next(s)) != JT_ARR_END) {
		if (t != JT_NUM)
			json_fail(s->j, "weight: expected a finite number");
		v = json_text(s->j, &len);
		if (len != lastlen || memcmp(v, last, len) != 0) {
			if (json_double(s->j, &w) == -1)
				json_fail(s->j, "weight: expected a finite "
				    "number");
			lastlen = len < sizeof(last) ? len : 0;
			memcpy(last, v, lastlen);
		}
		/* This weight and those spelled the same right after it. */
		k = 1 + json_skipsame(s->j, SIZE_MAX);
		n += k;
		if (p->sids != NULL) {
			for (; k > 0 && !p->bad; k--)
				if (getseq(s, p->sids, &id, sizeof(id)) == -1)
					p->bad = 1;
				else {
					addsample(s, p, id, w, p->tsum);
					p->tsum += w;
				}
		} else
			for (; k > 0; k--)
				putseq(s, p->wts, &w, sizeof(w));
	}
	p->hasw = 1;
	p->nw = n;
	if (p->sids == NULL) {
		endseq(s, p->wts);
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

	transit(s, p, PS_EVENTS);
	while ((t = next(s)) != JT_ARR_END) {
		expect(s, t, JT_OBJ, "event: expected an object");
		type = 0;
		hasat = hasfr = 0;
		while ((t = member(s, k)) != JT_OBJ_END) {
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
				skip(s, t);
		}
		if ((type != 'O' && type != 'C') || !hasat || !hasfr)
			json_fail(s->j, "event: expected type O or C, at "
			    "and frame");
		if (started && at < last)
			json_fail(s->j, "event: time goes backwards");
		if (started && isinf(at - last))
			json_fail(s->j, "event: the time since the last event "
			    "overflows to inf");
		if (depth > 0 && at > last) {
			stackkey(s, depth);
			id = intern(p, s->key.data, s->key.len,
			    ht_hash(s->key.data, s->key.len), NOOFF, 0, NULL);
			addsample(s, p, id, at - last, last);
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
				json_fail(s->j, "event: closing frame %lld "
				    "that is not the innermost open one", fr);
			depth--;
		}
	}
	if (depth > 0)
		json_fail(s->j, "events: %zu frames left open", depth);
}

/*
 * The frame indices of a kept stack key (varints) of len bytes, into ids,
 * which has room for len (a varint takes a byte at least); returns how
 * many.
 */
static size_t
keyids(uint32_t *ids, const char *key, size_t len)
{
	const unsigned char *k = (const unsigned char *)key, *e = k + len;
	size_t n;
	uint64_t fr;

	for (n = 0; k < e; n++) {
		k = varint_get(k, e, &fr);
		ids[n] = (uint32_t)fr;
	}
	return n;
}

/* Frame id's name and location (sst_frames' text()). */
static void
frametext(const void *src, uint32_t id, const char **name, size_t *nlen,
    const char **loc, size_t *llen)
{
	const struct spd *s = src;

	*name = s->arena.data + s->noff[id];
	*nlen = s->loff[id] - s->noff[id];
	*loc = s->arena.data + s->loff[id];
	*llen = s->noff[id + 1] - s->loff[id];
}

/*
 * Copy n bytes from src to dst: the first first bytes (a multiple of
 * MOVE up to SLACK, s->first: the longest name or place, rounded up)
 * whole, then moves of MOVE bytes, so that the names and places of a
 * stack are copied without a branch that depends on their length, which
 * memcpy() and a loop would mispredict (places of 32 to 95 bytes,
 * copied in one move or two, cost z200k a quarter of its joins): up to
 * SLACK - 1 bytes past dst + n are written and past src + n read.
 */
static inline char *
move(char *dst, const char *src, size_t n, size_t first)
{
	size_t i;

	for (i = 0; i < first; i += MOVE)
		memcpy(dst + i, src + i, MOVE);
	for (; i < n; i += MOVE)
		memcpy(dst + i, src + i, MOVE);
	return dst + n;
}

/*
 * Append the names (which 0) or places (1) of frames ids[0 .. n - 1],
 * joined by ';' and ended by a NUL, to b; returns their length.  The
 * room is that of n of the longest (s->maxtext), or counted when that
 * is much more than needed.
 */
static size_t
joinframes(const struct spd *s, const uint32_t *ids, size_t n, int which,
    struct buf *b)
{
	const size_t *from = which ? s->loff : s->noff;
	const size_t *to = which ? s->noff + 1 : s->loff;
	size_t i, len = 0, first = s->first[which];
	char *q, *q0;

	if (s->maxtext[which] < BIGTEXT && n < BIGTEXT)
		len = n * (s->maxtext[which] + 1);
	else
		for (i = 0; i < n; i++)
			len += to[ids[i]] - from[ids[i]] + 1;
	buf_grow(b, len + 1 + SLACK);
	q = q0 = b->data + b->len;
	for (i = 0; i < n; i++) {
		q = move(q, s->arena.data + from[ids[i]],
		    to[ids[i]] - from[ids[i]], first);
		*q++ = ';';
	}
	if (n > 0)
		q--;
	*q = '\0';
	b->len += (size_t)(q - q0) + 1;
	return (size_t)(q - q0);
}

/*
 * Make a pending profile (read whole, waiting for shared.frames) cost
 * what its records and stacks need: the stacks' keys packed, the
 * per-batch arrays freed, records that fit in memory moved out of their
 * spill (which reserves SPILLMEM).  The table, the agg array, the
 * samples' spill and an empty list of keys are kept for the next one (see
 * readprofile()), which would grow them again page by page: a page
 * first touched is a fault, dearer than its memory.  Only what this
 * profile used is kept (see ht_clear()); an agg array four times its
 * stacks or more is not.
 */
static void
shrink(struct spd *s, struct prof *p)
{
	const char *r;
	size_t n;

	closebatch(p);
	free(p->blist);
	p->blist = NULL;
	p->bcap = 0;
	unspare(s);
	/*
	 * Of many small profiles, the slack of these is most of the cost:
	 * an empty list (all keys read again) is the next one's, and a few
	 * keys are kept as they are (see pkey()), with no list, which
	 * costs some 4 KB compressed, nor its compressing thread.
	 */
	if (zl_count(p->keys) == 0) {
		s->skeys = p->keys;
		p->keys = NULL;
	} else if ((r = zl_raw(p->keys, &n)) != NULL && n <= KRAWMAX) {
		p->kraw = xmalloc(n);
		memcpy(p->kraw, r, n);
		p->krawlen = (uint32_t)n;
		zl_free(p->keys);
		p->keys = NULL;
	} else
		zl_done(p->keys);
	if (p->offs != NULL && (n = ht_count(p->stacks)) < p->offcap) {
		p->offs = xreallocarray(p->offs, n, sizeof(*p->offs));
		p->tags = xreallocarray(p->tags, n, sizeof(*p->tags));
		p->offcap = n;
	}
	p->name.data = xreallocarray(p->name.data, p->name.len + 1, 1);
	p->name.cap = p->name.len + 1;
	if (p->aggcap / 4 < ht_count(p->stacks)) {
		s->sagg = p->agg;
		s->saggcap = p->aggcap;
	} else
		free(p->agg);
	ht_clear(p->stacks);
	s->spare = p->stacks;
	if (p->sids != NULL)
		spill_clear(p->sids);
	s->ssids = p->sids;
	p->stacks = NULL;
	p->agg = NULL;
	p->aggcap = 0;
	p->sids = NULL;
	spill_free(p->wts);
	p->wts = NULL;
	if (p->recs != NULL && p->recbytes <= SPILLMEM) {
		p->crecs = xmalloc(p->recbytes);
		spill_rewind(p->recs);
		if (spill_read(p->recs, p->crecs, p->recbytes) == -1)
			errx(1, "temporary file: short read");
		spill_free(p->recs);
		p->recs = NULL;
	}
	if (p->starts != NULL && p->nrecs * sizeof(double) <= SPILLMEM) {
		p->cstarts = xreallocarray(NULL, p->nrecs, sizeof(double));
		spill_rewind(p->starts);
		if (spill_read(p->starts, p->cstarts, p->nrecs *
		    sizeof(double)) == -1)
			errx(1, "temporary file: short read");
		spill_free(p->starts);
		p->starts = NULL;
	}
}

/* Free what shrink() kept for the next profile. */
static void
unspare(struct spd *s)
{
	ht_free(s->spare);
	free(s->sagg);
	spill_free(s->ssids);
	zl_free(s->skeys);
	s->skeys = NULL;
	s->spare = NULL;
	s->sagg = NULL;
	s->saggcap = 0;
	s->ssids = NULL;
}

/*
 * The key of stack id of p (varints) kept compressed, or among a few
 * as they are (KRAWMAX bytes: found from the first).
 */
static const char *
pkey(struct prof *p, size_t id, size_t *len)
{
	const unsigned char *u, *e;
	uint64_t n;
	size_t i;

	i = p->reread ? p->offs[id] & ~ZLKEY : id;
	if (p->kraw == NULL)
		return zl_get(p->keys, i, len);
	u = p->kraw;
	e = u + p->krawlen;
	for (;;) {
		u = varint_get(u, e, &n);
		if (i-- == 0)
			break;
		u += n;
	}
	*len = (size_t)n;
	return (const char *)u;
}

/*
 * The text of the first sample of stack id of p, read again from the
 * input (see intern()), from its '[' to its ']' (*len bytes).
 */
static const unsigned char *
rawof(struct spd *s, struct prof *p, size_t id, size_t *len)
{
	const unsigned char *c, *e;

	if ((c = window(s, p->offs[id] & ~RAWTAG, &e)) == NULL || *c != '[')
		changed(s, p->offs[id]);
	*len = (size_t)(e - c) + 1;
	return c;
}

/*
 * The frame ids of stack id of p made again into ids (room for clen / 2
 * + 1) from the text c[0..clen) of its first sample (rawof()), which 7
 * bytes follow; returns how many.  The same, if the input is the same,
 * which its tag checks (see intern()): the top half of the hash of the
 * sample's raw text, or of its key, made in kb.  The sample's array was
 * read as valid JSON, so its numbers are its runs of digits (the only
 * other bytes are blanks, commas and the '-' of a -0): of 8 digits or
 * fewer and followed by ',' or ']', a number is read 8 bytes at a time
 * (digits.h).
 */
static size_t
rekey(struct spd *s, struct prof *p, size_t id, const unsigned char *c,
    size_t clen, struct buf *kb, uint32_t *ids)
{
	const unsigned char *b = c, *e = c + clen - 1;
	unsigned char *k, *k0, *last;
	uint64_t v, w, m, h;
	size_t n = 0, d;
	int raw = (p->offs[id] & RAWTAG) != 0;

	/* A varint takes no more bytes than the digits of its number. */
	buf_reset(kb);
	buf_grow(kb, clen);
	k = k0 = last = (unsigned char *)kb->data;
	for (c++; c < e;) {
		w = load64(c);
		m = nondigits(w);
		d = m != 0 ? (size_t)__builtin_ctzll(m) >> 3 : 8;
		if (d == 0) {
			c++;
			continue;
		}
		if (d < 8 && (c[d] == ',' || c[d] == ']')) {
			v = digitsval(w ^ ZEROS, d);
			c += d + 1;
		} else
			for (v = 0; *c >= '0' && *c <= '9'; c++)
				if ((v = v * 10 + (*c - '0')) > UINT32_MAX)
					changed(s, p->offs[id]);
		ids[n++] = (uint32_t)v;
		if (!raw) {
			last = k;
			k += varint_put(k, v);
		}
	}
	if (p->leaf && n > 0) {
		k0 = last;
		ids[0] = ids[n - 1];
		n = 1;
	}
	h = raw ? ht_hashto(b + 1, b + clen, ']', &d) :
	    ht_hash(k0, (size_t)(k - k0));
	if ((uint32_t)(h >> 32) != p->tags[id])
		changed(s, p->offs[id]);
	return n;
}

/*
 * The input from offset off to the first ']' after it, read again into
 * s->win: *end is the ']'; NULL if the input ends before one.  Keys are
 * made again in about the order their samples came, so WIN bytes are
 * read at once, and the next key is mostly in them; WINJUMP bytes after
 * a jump back or WINNEAR ahead (records in another order); more if the
 * array is longer.
 */
static const unsigned char *
window(struct spd *s, uint64_t off, const unsigned char **end)
{
	struct buf *w = &s->win;
	const unsigned char *q;
	size_t want;
	ssize_t r;

	if (off >= s->winoff && off < s->winoff + w->len &&
	    (q = memchr(w->data + (off - s->winoff), ']', w->len -
	    (off - s->winoff))) != NULL) {
		*end = q;
		return (unsigned char *)w->data + (off - s->winoff);
	}
	want = off >= s->winoff && off - s->winoff < WINNEAR ? WIN : WINJUMP;
	buf_reset(w);
	s->winoff = off;
	for (;;) {
		buf_grow(w, want);
		if ((r = pread(s->kfd, w->data + w->len, want, s->kbase +
		    (off_t)(off + w->len))) == -1) {
			progress_hide();
			err(1, "%s", json_name(s->j));
		}
		if (r == 0)
			return NULL;
		q = memchr(w->data + w->len, ']', (size_t)r);
		w->len += (size_t)r;
		if (q != NULL) {
			*end = q;
			return (unsigned char *)w->data;
		}
		want = w->len;
	}
}

/* Exit: the sample at offset off of the input is not what was read. */
static __dead void
changed(struct spd *s, uint64_t off)
{
	progress_hide();
	errx(1, "%s: the sample at byte %llu changed while the file was "
	    "read", json_name(s->j), (unsigned long long)(off & ~RAWTAG));
}

/* Start reading p's records from the first. */
static void
rewindrecs(struct spd *s, struct prof *p)
{
	if (p->crecs != NULL) {
		s->rp = p->crecs;
		s->re = p->crecs + p->recbytes;
		return;
	}
	if (p->recs != NULL)
		spill_rewind(p->recs);
	s->rr.left = p->recbytes;
	s->rp = s->re = s->rr.buf;
}

/*
 * The next record of p (*pos: records read); 0 at the end.  Records are
 * decoded from memory, or from s->rr, topped up from the spill so that
 * a whole record is there.
 */
static int
nextrec(struct spd *s, struct prof *p, uint64_t *pos, uint32_t *id,
    uint64_t *n, double *w)
{
	uint64_t v;
	size_t k, have;

	if (*pos == p->nrecs)
		return 0;
	if (p->crecs == NULL && (size_t)(s->re - s->rp) < RECMAX &&
	    s->rr.left > 0) {
		have = (size_t)(s->re - s->rp);
		memmove(s->rr.buf, s->rp, have);
		k = CHUNK - have;
		if (k > s->rr.left)
			k = (size_t)s->rr.left;
		if (spill_read(p->recs, s->rr.buf + have, k) == -1)
			errx(1, "temporary file: short read");
		s->rr.left -= k;
		s->rp = s->rr.buf;
		s->re = s->rr.buf + have + k;
	}
	s->rp = varint_get(s->rp, s->re, &v);
	*id = (uint32_t)(v >> 1);
	s->rp = varint_get(s->rp, s->re, n);
	if (v & 1) {
		if ((size_t)(s->re - s->rp) < sizeof(s->rw))
			errx(1, "temporary file: short read");
		memcpy(&s->rw, s->rp, sizeof(s->rw));
		s->rp += sizeof(s->rw);
	}
	*w = s->rw;
	(*pos)++;
	return 1;
}

/*
 * A profile named like earlier ones gets "\e" (nothing) appended once
 * for each of them, up to DUPMAX: it reads the same, yet stays a thread
 * of its own, as the profiles are apart in the input.  Past DUPMAX, the
 * (DUPMAX + 2)th and later get "\e#N", N their rank among the profiles
 * named so, so that names and the time to make them stay linear.  An
 * escaped name from the input never holds "\e", so these are new.
 */
static void
pname(struct spd *s, struct prof *p)
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

/*
 * Make the next records of p, *pos made so far, ready in batch b: each
 * record's numbers, its start (-s) and its frame ids in b's ids (a
 * record of the stack of the record before it shares them), until b is
 * full or the records end; with stacks as text, unless the writing
 * thread is to, make them into lines too.  A start or weight that
 * overflows ends the records at the one before it (see badrec()).
 */
static void
produce(struct spd *s, struct prof *p, struct obatch *b, uint64_t *pos)
{
	struct orec *o;
	const unsigned char *c;
	const char *k;
	uint32_t id, last = UINT32_MAX;
	size_t len;
	double w;
	int starts = hasstarts(p);

	b->nrec = b->nids = b->cost = 0;
	b->end = 0;
	b->bad = OB_NONE;
	b->later = 0;
	buf_reset(&b->raw);
	while (b->nrec < OBRECS && b->cost < OBCOST) {
		o = &b->rec[b->nrec];
		if (!nextrec(s, p, pos, &id, &o->n, &w)) {
			b->end = 1;
			break;
		}
		o->id = id;
		if (id == last) {
			o->later = o[-1].later == L_MADE ? L_MADE : L_SAME;
			o->rlen = o[-1].rlen;
			o->ioff = o[-1].ioff;
			o->nids = o[-1].nids;
		} else if (p->reread && !(p->offs[id] & ZLKEY)) {
			c = rawof(s, p, id, &o->rlen);
			o->later = L_RAW;
			o->roff = b->raw.len;
			buf_add(&b->raw, c, o->rlen);
			/* The 7 bytes that rekey() reads past its end. */
			buf_grow(&b->raw, 7);
			memset(b->raw.data + b->raw.len, 0, 7);
			b->later = 1;
		} else {
			k = pkey(p, id, &len);
			o->later = L_MADE;
			addids(b, o, k, len);
		}
		last = id;
		b->cost += (o->later == L_MADE ? o->nids : o->rlen / RAWFRAME) +
		    1;
		o->period = w * p->factor;
		o->weight = fmt_pysum(0, o->period, o->n);
		if (starts && !isfinite(o->start = startof(p, *pos)))
			b->bad = OB_START;
		else if (!isfinite(o->weight))
			b->bad = OB_WEIGHT;
		if (b->bad != OB_NONE) {
			b->badpos = *pos;
			b->end = 1;
			break;
		}
		b->nrec++;
	}
	if (!s->ids && !b->bymain)
		lines(s, p, b);
}

/* Room in batch b for n more frame ids. */
static void
idsroom(struct obatch *b, size_t n)
{
	if (b->nids + n > b->idscap) {
		while (b->nids + n > b->idscap)
			b->idscap *= 2;
		b->ids = xreallocarray(b->ids, b->idscap, sizeof(*b->ids));
	}
}

/* Record o of batch b gets the frame ids of key k of len bytes. */
static void
addids(struct obatch *b, struct orec *o, const char *k, size_t len)
{
	idsroom(b, len);
	o->ioff = b->nids;
	o->nids = keyids(b->ids + b->nids, k, len);
	b->nids += o->nids;
}

/*
 * The frame ids of the records of batch b of p (the bad one's too) that
 * produce() left to make from their samples' text, which takes time:
 * made by the thread that makes b's lines, or writes its records.
 */
static void
fill(struct spd *s, struct prof *p, struct obatch *b)
{
	struct orec *o, *e = b->rec + b->nrec + (b->bad != OB_NONE);

	for (o = b->rec; o < e; o++)
		if (o->later == L_RAW) {
			idsroom(b, o->rlen / 2 + 1);
			o->ioff = b->nids;
			o->nids = rekey(s, p, o->id, (unsigned char *)
			    b->raw.data + o->roff, o->rlen, &b->key,
			    b->ids + b->nids);
			b->nids += o->nids;
		} else if (o->later == L_SAME) {
			o->ioff = o[-1].ioff;
			o->nids = o[-1].nids;
		}
	b->later = 0;
}

/* Whether p's records have starts (-s). */
static int
hasstarts(const struct prof *p)
{
	return p->cstarts != NULL || p->starts != NULL;
}

/* With -s: when record pos (from 1) of p began, in seconds or as read. */
static double
startof(struct prof *p, uint64_t pos)
{
	double t;

	if (p->cstarts != NULL)
		t = p->cstarts[pos - 1];
	else if (spill_read(p->starts, &t, sizeof(t)) == -1)
		errx(1, "temporary file: short read");
	return (p->state == PS_EVENTS ? t : p->startv + t) * p->factor;
}

/*
 * Make the records of batch b of p into lines of the stream, laid out
 * as rec_write() writes them, in b's text.  A record of the stack of the
 * record before it copies that one's stack and places.
 */
static void
lines(struct spd *s, struct prof *p, struct obatch *b)
{
	struct sst_rec r;
	struct orec *o, *e = b->rec + b->nrec;
	struct buf *t = &b->text;
	const char *x;
	size_t n;

	if (b->later)
		fill(s, p, b);
	buf_reset(t);
	memset(&r, 0, sizeof(r));
	r.unit = p->unit;
	r.hasperiod = 1;
	for (o = b->rec; o < e; o++) {
		r.samples = o->n;
		r.weight = o->weight;
		r.period = o->period;
		linehead(t, p, &r);
		o->toff = t->len;
		if (o > b->rec && o->ioff == o[-1].ioff &&
		    o->nids == o[-1].nids) {
			o->tlen = o[-1].tlen;
			buf_grow(t, o->tlen);
			memcpy(t->data + t->len, t->data + o[-1].toff, o->tlen);
			t->len += o->tlen;
		} else {
			/* Each join ends in a NUL: a tab, then dropped. */
			joinframes(s, b->ids + o->ioff, o->nids, 0, t);
			t->data[t->len - 1] = '\t';
			joinframes(s, b->ids + o->ioff, o->nids, 1, t);
			t->len--;
			o->tlen = t->len - o->toff;
		}
		if (hasstarts(p)) {
			x = fmt_dshort(o->start, &n);
			buf_addc(t, '\t');
			buf_add(t, x, n);
		}
		buf_addc(t, '\n');
	}
}

/* Append record r's thread, its numbers and their tabs to t. */
static void
linehead(struct buf *t, const struct prof *p, const struct sst_rec *r)
{
	buf_grow(t, p->name.len + REC_NUMSZ + 2);
	memcpy(t->data + t->len, p->name.data, p->name.len);
	t->len += p->name.len;
	t->data[t->len++] = '\t';
	t->len += rec_nums(t->data + t->len, r);
	t->data[t->len++] = '\t';
}

/*
 * Wait until flag f (a block's or batch's full) is v, set by the other
 * thread (see aset()).  That thread is about as fast, so f is looked at
 * for a while before sleeping: a block takes some 50 microseconds to
 * make, less than a sleep and a wakeup cost.
 */
static void
await(struct spd *s, atomic_int *f, int v)
{
	unsigned n;

	for (n = 0; n < OSPIN; n++)
		if (atomic_load(f) == v)
			return;
	pthread_mutex_lock(&s->omu);
	atomic_fetch_add(&s->osleep, 1);
	while (atomic_load(f) != v)
		pthread_cond_wait(&s->ocv, &s->omu);
	atomic_fetch_sub(&s->osleep, 1);
	pthread_mutex_unlock(&s->omu);
}

/*
 * Set flag f to v and wake the other thread if it sleeps (it counts
 * itself in before it looks, and looks with the mutex held).
 */
static void
aset(struct spd *s, atomic_int *f, int v)
{
	atomic_store(f, v);
	if (atomic_load(&s->osleep) > 0) {
		pthread_mutex_lock(&s->omu);
		pthread_cond_broadcast(&s->ocv);
		pthread_mutex_unlock(&s->omu);
	}
}

#ifndef SPD_ONETHREAD
/*
 * The batch made last whose lines no thread has claimed, claimed for
 * the making thread; NULL if there is none (or the writing thread took
 * it first).
 */
static struct obatch *
steal(struct spd *s)
{
	struct obatch *b = NULL;
	size_t i;
	int z = 0;

	for (i = 0; i < OBATCHES; i++)
		if (atomic_load(&s->ob[i].full) &&
		    !atomic_load(&s->ob[i].claim) &&
		    (b == NULL || s->ob[i].seq > b->seq))
			b = &s->ob[i];
	if (b == NULL || !atomic_compare_exchange_strong(&b->claim, &z, 1))
		return NULL;
	return b;
}

/*
 * The thread that makes the records of s->op ready, batch after batch,
 * while the caller writes the batches before (see emitprof()); while
 * they are all still to write, it makes the lines of the one it made
 * last, unless the caller has begun them.
 */
static void *
producer(void *arg)
{
	struct spd *s = arg;
	struct obatch *b, *x;
	uint64_t pos = 0, i = 0;

	do {
		b = &s->ob[i % OBATCHES];
		while (!s->ids && atomic_load(&b->full) &&
		    (x = steal(s)) != NULL) {
			lines(s, s->op, x);
			aset(s, &x->lined, 1);
		}
		await(s, &b->full, 0);
		/* Written, its lines claimed: no longer stolen. */
		atomic_store(&b->claim, 0);
		atomic_store(&b->lined, 0);
		b->seq = i++;
		b->bymain = 1;
		produce(s, s->op, b, &pos);
		aset(s, &b->full, 1);
	} while (!b->end);
	return NULL;
}
#endif

/*
 * Hand batch b of p's records to s->text as lines, made now if the
 * batch says so, or, stacks as frame ids, one by one to s->emit as r;
 * then exit if a record could not be made.
 */
static void
consume(struct spd *s, struct prof *p, struct sst_rec *r, struct obatch *b)
{
	const struct orec *o, *e = b->rec + b->nrec;

	if (!s->ids) {
		if (b->bymain)
			lines(s, p, b);
		if (b->nrec > 0)
			s->text(b->text.data, b->text.len, b->nrec, s->arg);
	} else {
		if (b->later)
			fill(s, p, b);
		for (o = b->rec; o < e; o++) {
			s->fr.ids = b->ids + o->ioff;
			s->fr.n = o->nids;
			r->samples = o->n;
			r->period = o->period;
			r->weight = o->weight;
			r->start = o->start;
			s->emit(r, s->arg);
		}
	}
	if (b->bad != OB_NONE)
		badrec(s, p, b);
}

/*
 * Exit: the record after those of batch b of p has a start or a weight
 * that overflows to inf.
 */
static void
badrec(struct spd *s, struct prof *p, const struct obatch *b)
{
	const struct orec *o = &b->rec[b->nrec];
	char num[FMTBUF];

	progress_hide();
	if (b->bad == OB_START)
		errx(1, "%s: profile \"%s\": the start time of sample %llu "
		    "overflows to inf", json_name(s->j), p->name.data,
		    (unsigned long long)b->badpos);
	buf_reset(&s->sbuf);
	joinframes(s, b->ids + o->ioff, o->nids, 0, &s->sbuf);
	errx(1, "%s: profile \"%s\": the weight of %llu samples of %s on "
	    "stack \"%s\" overflows to inf", json_name(s->j), p->name.data,
	    (unsigned long long)o->n, fmt_double(num, sizeof(num),
	    o->period), s->sbuf.data);
}

/*
 * Write a profile's records.  They are made ready in batches
 * (produce(): the keys made into frame ids, the numbers made) and, with
 * stacks as text, made into lines (lines(): the names and places
 * joined), which s->text writes in one piece; with frame ids, each
 * record is handed to s->emit.  A profile of OTHREAD records or more
 * has them made ready by a thread of its own while the batches before
 * are written, in turns over OBATCHES batches; the writing thread makes
 * them into lines, but the making one, when all are still to write,
 * makes those of the one it made last (see steal()), and whichever
 * makes a batch's lines makes the frame ids left to make first (see
 * fill()).  The fuzzers' build (SPD_ONETHREAD), whose allocator and err()
 * are for one thread, makes and writes them in turns, as does a profile
 * whose thread cannot start.
 */
static void
emitprof(struct spd *s, struct prof *p)
{
	struct sst_rec r;
	uint64_t pos = 0;
#ifndef SPD_ONETHREAD
	struct obatch *b;
	size_t i;
	int end, z;
#endif

	if (p->hasidx && p->maxidx >= s->nframes) {
		progress_hide();
		errx(1, "%s:%llu:%llu: frame index %lu out of range "
		    "(%zu frames)", json_name(s->j), p->idxline, p->idxcol,
		    (unsigned long)p->maxidx, s->nframes);
	}
	pname(s, p);
	memset(&r, 0, sizeof(r));
	r.thread = p->name.data;
	r.threadlen = p->name.len;
	r.unit = p->unit;
	r.hasperiod = 1;
	closebatch(p);
	if (p->nrecs == 0) {
		r.hasperiod = 0;
		r.stack = r.locs = "";
		if (s->ids)
			s->emit(&r, s->arg);
		else {
			buf_reset(&s->sbuf);
			linehead(&s->sbuf, p, &r);
			buf_adds(&s->sbuf, "\t\n");
			s->text(s->sbuf.data, s->sbuf.len, 1, s->arg);
		}
		return;
	}
	rewindrecs(s, p);
	if (p->starts != NULL)
		spill_rewind(p->starts);
	r.stack = r.locs = "";
	r.frames = &s->fr;
	r.hasstart = hasstarts(p);
#ifndef SPD_ONETHREAD
	s->op = p;
	if (p->nrecs >= OTHREAD &&
	    pthread_create(&s->oth, NULL, producer, s) == 0) {
		for (i = 0, end = 0; !end; i++) {
			b = &s->ob[i % OBATCHES];
			await(s, &b->full, 1);
			z = 0;
			b->bymain = atomic_compare_exchange_strong(&b->claim,
			    &z, 1);
			if (!s->ids && !b->bymain)
				await(s, &b->lined, 1);
			end = b->end;
			if (end)
				pthread_join(s->oth, NULL);
			consume(s, p, &r, b);
			aset(s, &b->full, 0);
		}
		return;
	}
#endif
	s->ob[0].bymain = 0;
	do {
		produce(s, p, &s->ob[0], &pos);
		consume(s, p, &r, &s->ob[0]);
	} while (!s->ob[0].end);
}

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
