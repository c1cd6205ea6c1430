/*
 * spdint.h: what the parts of the speedscope reader share (spd.c,
 * spdread.c, spdraw.c, spdq.c, spdrec.c, spdout.c): the sizes, the
 * profile and reader state, the handoff blocks and the output batches,
 * and the functions one part calls in another.  Not for use outside
 * them (spd.h declares spd_flatten()).
 */
#ifndef SPDINT_H
#define SPDINT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "util.h"
#include "buf.h"
#include "json.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "spill.h"
#include "spd.h"

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
#define QROOM		(QBLOCK + 16384) /* a block's room, see qinit() */
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



uint32_t	 sp_rawtag(const struct json_raw *);
enum json_tok sp_next(struct spd *);
void	 sp_skip(struct spd *, enum json_tok);
void	 sp_closebatch(struct prof *);
enum json_tok sp_member(struct spd *, char *);
void	 sp_expect(struct spd *, enum json_tok, enum json_tok,
		    const char *);
void	 sp_readframes(struct spd *);
void	 sp_readprofiles(struct spd *);
size_t	 sp_intern(struct prof *, const char *, size_t, uint64_t,
		    uint64_t, uint32_t, int *);
size_t	 sp_rawbatch(struct spd *, size_t);
void	 sp_rcnext(struct spd *);
void	 sp_qhit(struct spd *, size_t);
void	 sp_qraw(struct spd *, size_t, const struct qplace *,
		    const char *);
void	 sp_qkey(struct spd *, const struct qplace *, const char *);
void	 sp_qconv(struct spd *, size_t, const struct json_raw *);
int	 sp_qlags(struct spd *);
void	 sp_qinit(struct spd *);
int	 sp_inqmem(const struct spd *, const char *);
unsigned char *sp_qroom(struct spd *, size_t);
void	 sp_qdone(struct spd *);
void	 sp_qhand(struct spd *, int);
int	 sp_rawkey(const char *, size_t, struct rawk *);
void	 sp_notemax(struct prof *, uint32_t, int, unsigned long long,
		    unsigned long long);
void	 sp_stackkey(struct spd *, size_t);
void	 sp_addsample(struct spd *, struct prof *, size_t, double,
		    double);
void	 sp_putseq(struct spd *, struct spill *, const void *, size_t);
void	 sp_endseq(struct spd *, struct spill *);
int	 sp_getseq(struct spd *, struct spill *, void *, size_t);
void	 sp_rewindseq(struct spd *, struct spill *, uint64_t, size_t);
void	 sp_transit(struct spd *, struct prof *, enum pstate);
void	 sp_frametext(const void *, uint32_t, const char **, size_t *,
		    const char **, size_t *);
size_t	 sp_joinframes(const struct spd *, const uint32_t *, size_t,
		    int, struct buf *);
void	 sp_shrink(struct spd *, struct prof *);
void	 sp_unspare(struct spd *);
const char *sp_pkey(struct prof *, size_t, size_t *);
const unsigned char *sp_rawof(struct spd *, struct prof *, size_t,
		    size_t *);
size_t	 sp_rekey(struct spd *, struct prof *, size_t,
		    const unsigned char *, size_t, struct buf *, uint32_t *);
void	 sp_rewindrecs(struct spd *, struct prof *);
int	 sp_nextrec(struct spd *, struct prof *, uint64_t *, uint32_t *,
		    uint64_t *, double *);
void	 sp_pname(struct spd *, struct prof *);
void	 sp_await(struct spd *, atomic_int *, int);
void	 sp_aset(struct spd *, atomic_int *, int);
__dead void sp_xbadrec(struct spd *, struct prof *,
		    const struct obatch *);
__dead void sp_xfail(const char *, ...)
		    __attribute__((__format__(__printf__, 1, 2)));
__dead void sp_xsysfail(const char *);
void	 sp_xspill(struct spill *, void *, size_t);
void	 sp_emitprof(struct spd *, struct prof *);

#endif
