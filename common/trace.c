/*
 * trace.c: Chrome trace-event JSON to sst(5) records.
 *
 * The document (an object with "traceEvents", or a bare array of
 * events) is read token by token with json.c's pull tokenizer, so an
 * event may span many lines and the whole file may be one line.  Each
 * event keeps only what the rules need: X events and matched B/E pairs
 * become spans of their thread (pid, tid), M events name processes and
 * threads, everything else is skipped.
 *
 * Times are read from the decimal text, microseconds, as integer
 * nanoseconds, so that nesting compares exact values and self times add
 * up exactly whatever their order; weights are nanoseconds / 1e9.
 *
 * A span is one small entry (start, duration, name, input order) in its
 * thread's array.  Spans are taken by start, longer first on equal
 * starts, then input order, and nested with a stack of open spans: a
 * span that starts at or after the end of the innermost open span
 * closes it, a span that ends after its parent is cut to the parent's
 * end, and self time is the duration less the durations of the direct
 * children.  Stacks are nodes (thread, parent, name) of a hash table;
 * the records of a thread come out in the order their stacks were first
 * entered.
 *
 * Memory: while a thread's X, B and E events come in time order and no
 * B is open, its pending spans that start before the latest event can
 * no longer be preceded, and are nested a batch at a time (flush()) and
 * kept only in a spill (memory, then an unlinked temporary file).  A
 * thread that turns out not to be in order after that is "tainted": at
 * the end its spans are read back from the spill and it is nested again
 * from the start (reset(), readback()).  A thread never in order keeps
 * all its spans until the end (finish()).  The unit test checks that
 * any batch size gives the same records.
 *
 * Python frames: an event of category python_function named
 * "PATH(LINE): FUNC" is the frame FUNC at location PATH:LINE, as
 * sst-flatten gives py-spy's frames; " at 0x..." addresses are cut out
 * of the function name (pyframe()).  A frame with a location has an id
 * of its own, counted down from NAMEMASK, so that a span's name is a
 * frame: the names table's ids count up from 0 and the two must not
 * meet.  Kineto's pseudo-process "Spans" (its "PyTorch Profiler (N)"
 * span) is no thread of work and is left out (unless -A).
 *
 * With -g each GPU span (kernel, gpu_memcpy, gpu_memset) is also added
 * under the node of the launch (cuda_runtime, cuda_driver) that shares
 * its args.correlation (or, without one, the id of the ac2g flow event
 * at its start), on the launching thread, once the whole file is read.
 */
#define _GNU_SOURCE		/* memmem */
#include <err.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "sst.h"
#include "trace.h"

#define NONE	UINT32_MAX

/* A span: times in nanoseconds. */
struct span {
	int64_t		 start;
	int64_t		 dur;
	uint32_t	 name;		/* and its kind in the top 2 bits */
	uint32_t	 seq;		/* input order; -g: key of cs */
};
#define KINDSHIFT	30
#define NAMEMASK	((1U << KINDSHIFT) - 1)
#define FLUSHN		256	/* pending spans of a sorted thread */
#define NOCORR		INT64_MIN	/* no correlation id */

/* An open B event. */
struct bopen {
	int64_t		 start;
	int64_t		 corr;
	uint32_t	 name;
	uint32_t	 seq;
	int		 kept;
	int		 kind;
};

/* An open span while nesting. */
struct frame {
	int64_t		 start;
	int64_t		 end;
	int64_t		 kids;		/* durations of direct children */
	uint32_t	 node;
	uint32_t	 gs;		/* -g: its entry in gs, or NONE */
	uint64_t	 order;
};

/* What -g does with a span. */
enum kind {
	K_CPU,
	K_LAUNCH,	/* has a correlation id */
	K_GPU		/* kernel, gpu_memcpy, gpu_memset */
};

/*
 * A thread.  While its X, B and E events come in time order (sorted),
 * the spans that start before the latest event are nested as the input
 * goes and written to the spill; if it turns out not to be sorted after
 * that (tainted), they are read back and the thread nested again.
 */
struct thread {
	int64_t		 last;		/* latest time seen */
	int64_t		 maxts;		/* latest X, B or E ts */
	struct span	*sp;		/* pending */
	struct bopen	*b;		/* open B events, at most
					   SST_MAXDEPTH */
	struct frame	*f;		/* open spans, outermost first, at
					   most SST_MAXDEPTH */
	uint32_t	 n, cap;	/* of sp */
	uint32_t	 nb, capb;
	uint32_t	 nf, capf;
	uint32_t	 clipped;	/* spans cut to their parent's end */
	uint32_t	 pid;		/* id in the pids table */
	uint32_t	 name;		/* thread_name, or NONE */
	unsigned char	 hastime, hasmax;
	unsigned char	 sorted, flushed, tainted;
};

/* A record of -s, or a span attached with -g. */
struct one {
	int64_t		 start;
	int64_t		 self;
	uint32_t	 thread;
	uint32_t	 node;
	uint64_t	 order;
};

/* A GPU span waiting for its launch (-g). */
struct gspan {
	int64_t		 corr;
	int64_t		 start;
	int64_t		 dur;
	int64_t		 self;		/* once closed */
	uint64_t	 order;		/* when taken */
	uint32_t	 name;
	uint32_t	 thread;
	uint32_t	 seq;
	uint32_t	 node;		/* on its stream */
	int		 dead;		/* of a thread nested again */
};

/*
 * -g: the correlation id of a launch or GPU span by its seq, and the
 * node of a launch once nested (else NONE); for a launch without one,
 * in nl, its start in corr.
 */
struct cent {
	int64_t		 corr;
	uint32_t	 seq;
	uint32_t	 node;
};

/* -g: a launch nested: its seq and its node. */
struct lnest {
	uint32_t	 seq;
	uint32_t	 node;
};

/* The event being read. */
struct event {
	int		 ph;		/* its one letter, 0 none, -1 longer */
	uint32_t	 name;		/* in the names table, or NONE */
	uint32_t	 aname;		/* args.name, or NONE */
	int		 kept;		/* by -c and -C */
	int		 gpu;		/* of a GPU category */
	int		 py;		/* of category python_function */
	struct buf	 pid, tid;	/* type byte and text */
	int		 hasts, hasdur, hascorr, hasid;
	int64_t		 ts, dur, corr, id;	/* id: of a flow event */
};

struct trace {
	struct json		*j;
	const struct trace_opt	*opt;
	struct trace_stats	*st;
	struct htab		*names;		/* span and M names */
	struct htab		*locs;		/* Python frames' PATH:LINE */
	struct htab		*pyf;		/* Python frames: name, loc */
	uint32_t		*pyname, *pyloc;	/* by Python frame */
	size_t			 pycap;
	uint32_t		 pylow;		/* lowest Python frame id */
	uint32_t		*cook;		/* by name: 1 + its frame as a
						   python_function, or 0 */
	size_t			 cookcap;
	uint32_t		 pnid, tnid;	/* "process_name", "thread_name" */
	uint32_t		 emptyid;	/* "" */
	int			 nocatok;	/* an event without cat is kept */
	struct buf		 lpid, ltid;	/* the last thread looked up */
	size_t			 lid;
	struct htab		*pids;		/* type byte + text */
	uint32_t		*pname;		/* by pid: process_name */
	size_t			 pcap;
	struct htab		*tids;		/* pid key, NUL, tid key */
	struct thread		*th;
	size_t			 thcap;
	struct spill		*spill;		/* spans nested early */
	struct cent		*cs;		/* -g: correlation ids */
	size_t			 ncs, capcs;
	struct lnest		*ln;		/* -g: launches nested */
	size_t			 nln, capln;
	struct cent		*nl;		/* -g: launches without id */
	size_t			 nnl, capnl;
	struct spill		*flowsp;	/* -g: the ac2g flow events */
	int			 needflows;	/* a span has no correlation */
	struct htab		*flows;		/* by thread and ts, made from
						   flowsp when needed */
	int64_t			*flowv;
	size_t			 flowcap;
	struct gspan		*gs;
	size_t			 ngs, capgs;
	struct htab		*nodes;		/* thread, parent, name */
	uint32_t		*nthread, *nparent, *nname;
	uint64_t		*nsamples;
	int64_t			*nns, *nfirst;
	uint64_t		*nrank;		/* when first entered */
	char			*nmixed;
	size_t			 ncap;
	struct one		*ones;		/* -s */
	size_t			 nones, capones;
	uint32_t		*path;		/* a stack, leaf first */
	size_t			 npath, cappath;
	uint64_t		 order;
	uint64_t		 rank;
	uint32_t		 seq;
	uint64_t		 nspan;		/* spans before -c, -C */
	int			 partial;	/* the array had no ']' */
	struct event		 ev;
};

static void	 digit(char, char *, size_t *, long *, int *);
static enum json_tok next(struct trace *);
static void	 skip(struct trace *, enum json_tok);
static void	 getid(struct trace *, enum json_tok, struct buf *,
		    const char *);
static int64_t	 getns(struct trace *, enum json_tok, const char *);
static uint32_t	 strid(struct trace *);
static int	 gpucat(const char *, size_t);
static int	 hascat(const char *, size_t, const char *);
static size_t	 funcpart(const char *, size_t, size_t *);
static void	 unaddress(struct buf *, const char *, size_t);
static uint32_t	 pyframe(struct trace *, uint32_t);
static uint32_t	 frameof(const struct trace *, uint32_t, uint32_t *);
static void	 readargs(struct trace *);
static void	 readevent(struct trace *);
static void	 events(struct trace *, int);
static size_t	 thread(struct trace *);
static void	 seen(struct thread *, int64_t);
static void	 addspan(struct trace *, size_t, int64_t, int64_t, uint32_t,
		    uint32_t, int, int64_t);
static void	 addflow(struct trace *, uint32_t, int64_t, int64_t);
static void	 flowtable(struct trace *);
static void	 nonspan(struct trace *);
static void	 dispatch(struct trace *);
static uint32_t	 node(struct trace *, uint32_t, uint32_t, uint32_t);
static void	 account(struct trace *, uint32_t, int64_t, int64_t,
		    uint64_t);
static int	 before(const struct span *, const struct span *);
static void	 swap(struct span *, struct span *);
static void	 sortspans(struct span *, size_t);
static int	 onecmp(const void *, const void *);
static void	 close1(struct trace *, struct thread *);
static uint32_t	 enter(struct trace *, uint32_t, uint32_t, uint32_t);
static void	*grow(void *, size_t *, size_t, size_t);
static void	 addcent(struct cent **, size_t *, size_t *, int64_t,
		    uint32_t);
static int	 centlt(const struct cent *, const struct cent *, int);
static void	 swapcent(struct cent *, struct cent *);
static void	 sortcents(struct cent *, size_t, int);
static size_t	 findcent(const struct cent *, size_t, int64_t, int);
static uint32_t	 gpuspan(struct trace *, uint32_t, const struct span *,
		    int64_t, uint32_t);
static void	 nestspans(struct trace *, uint32_t, const struct span *,
		    size_t);
static void	 flush(struct trace *, uint32_t, int64_t);
static void	 reset(struct trace *, uint32_t);
static void	 readback(struct trace *);
static void	 finish(struct trace *, uint32_t);
static int	 gscmp(const void *, const void *);
static int64_t	 corrof(struct trace *, uint32_t, int64_t, int64_t);
static void	 flowlinks(struct trace *);
static void	 attach(struct trace *);
static int	 nodecmp(size_t, size_t, void *);
static void	 threadfield(struct trace *, uint32_t, const char *,
		    struct buf *);
static void	 stackfield(struct trace *, uint32_t, struct buf *,
		    struct buf *);
static void	 output(struct trace *, const char *, FILE *);
static void	 freetrace(struct trace *);
static void	 refuse(struct json *, enum json_tok);

/* The next token; a tokenizer error ends the program. */
static enum json_tok
next(struct trace *t)
{
	enum json_tok tok;

	if ((tok = json_next(t->j)) == JT_ERROR)
		json_fail(t->j, "%s", json_errmsg(t->j));
	return tok;
}

/* Skip a value whose first token tok was just read. */
static void
skip(struct trace *t, enum json_tok tok)
{
	if (json_skip(t->j, tok) == -1)
		json_fail(t->j, "%s", json_errmsg(t->j));
}

/* A pid or tid, number or string, into b behind a type byte. */
static void
getid(struct trace *t, enum json_tok tok, struct buf *b, const char *what)
{
	const char *s;
	size_t n;

	if (tok != JT_STR && tok != JT_NUM)
		json_fail(t->j, "%s: expected a number or a string", what);
	s = json_text(t->j, &n);
	buf_reset(b);
	buf_addc(b, tok == JT_STR ? 's' : 'n');
	buf_add(b, s, n);
}

/* A time in microseconds (a number, or a string holding one) in ns. */
static int64_t
getns(struct trace *t, enum json_tok tok, const char *what)
{
	const char *s;
	size_t n;
	int64_t v;

	if (tok != JT_NUM && tok != JT_STR)
		json_fail(t->j, "%s: expected a number", what);
	s = json_text(t->j, &n);
	if (trace_ns(s, n, &v) == -1) {
		if (tok == JT_STR)
			json_fail(t->j, "%s: expected a number, not \"%s\"",
			    what, s);
		json_fail(t->j, "%s: %s out of range", what, s);
	}
	return v;
}

/*
 * Add a digit of a number to dig: leading zeros only move the point
 * (*pt), digits past the 64th only tell whether they are all zero.
 */
static void
digit(char c, char *dig, size_t *nd, long *pt, int *rest)
{
	if (*nd == 0 && c == '0')
		(*pt)--;
	else if (*nd < 64)
		dig[(*nd)++] = c;
	else if (c != '0')
		*rest = 1;
}

int
trace_ns(const char *s, size_t n, int64_t *out)
{
	const char *e = s + n, *p = s, *ip, *ie, *fp = NULL, *fe = NULL;
	char dig[64];
	size_t nd = 0, i;
	long long x = 0;
	long pt;
	uint64_t v = 0;
	int neg = 0, up = 0, esign = 1, rest = 0;

	/* The usual case: up to 15 digits, then at most 3 decimals. */
	if (n > 0 && n <= 19) {
		for (v = 0; p < e && *p >= '0' && *p <= '9' && p - s < 15; p++)
			v = v * 10 + (uint64_t)(*p - '0');
		if (p > s && (p == e || (*p == '.' && e - p > 1 &&
		    e - p <= 4))) {
			i = 0;
			if (p < e)
				for (p++; p < e && *p >= '0' && *p <= '9'; p++)
					i = i * 10 + (size_t)(*p - '0'), nd++;
			if (p == e && !(nd == 0 && e[-1] == '.')) {
				for (; nd < 3; nd++)
					i *= 10;
				*out = (int64_t)(v * 1000 + i);
				return 0;
			}
		}
		p = s;
		v = 0;
		nd = 0;
	}
	if (p < e && *p == '-')
		neg = *p++ == '-';
	for (ip = p; p < e && *p >= '0' && *p <= '9'; p++)
		;
	if ((ie = p) == ip)
		return -1;
	if (p < e && *p == '.') {
		for (fp = ++p; p < e && *p >= '0' && *p <= '9'; p++)
			;
		if ((fe = p) == fp)
			return -1;
	}
	if (p < e && (*p == 'e' || *p == 'E')) {
		if (++p < e && (*p == '+' || *p == '-'))
			esign = *p++ == '-' ? -1 : 1;
		if (p == e)
			return -1;
		for (; p < e && *p >= '0' && *p <= '9'; p++)
			if (x < 100000)
				x = x * 10 + (*p - '0');
	}
	if (p != e)
		return -1;
	/* pt digits of dig stand before the point of the value in ns. */
	pt = (long)(ie - ip) + 3 + (long)(esign * x);
	for (p = ip; p < ie; p++)
		digit(*p, dig, &nd, &pt, &rest);
	for (p = fp; fp != NULL && p < fe; p++)
		digit(*p, dig, &nd, &pt, &rest);
	if (nd == 0 || pt < 0) {
		*out = 0;
		return 0;
	}
	if (pt > 19)
		return -1;
	for (i = 0; (long)i < pt; i++)
		v = v * 10 + (i < nd ? (uint64_t)(dig[i] - '0') : 0);
	/* What is left rounds half to even. */
	if ((size_t)pt < nd) {
		for (i = (size_t)pt + 1; i < nd; i++)
			if (dig[i] != '0')
				rest = 1;
		if (dig[pt] > '5' || (dig[pt] == '5' && (rest || (v & 1))))
			up = 1;
	}
	v += (uint64_t)up;
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

struct htab *
trace_cats(const char *list)
{
	struct htab *h = ht_new();
	const char *p, *e;

	for (p = list;; p = e + 1) {
		if ((e = strchr(p, ',')) == NULL)
			e = p + strlen(p);
		if (e > p)
			ht_intern(h, p, (size_t)(e - p), NULL);
		if (*e == '\0')
			break;
	}
	return h;
}

int
trace_catok(const struct trace_opt *o, const char *cat, size_t n)
{
	const char *p, *e, *end = cat + n;
	int inkeep = 0;

	if (o->keep == NULL && o->drop == NULL)
		return 1;
	for (p = cat;; p = e + 1) {
		if ((e = memchr(p, ',', (size_t)(end - p))) == NULL)
			e = end;
		if (o->drop != NULL &&
		    ht_find(o->drop, p, (size_t)(e - p)) != (size_t)-1)
			return 0;
		if (o->keep != NULL &&
		    ht_find(o->keep, p, (size_t)(e - p)) != (size_t)-1)
			inkeep = 1;
		if (e == end)
			break;
	}
	return o->keep == NULL || inkeep;
}

/* The members of args that matter: name (of M events), correlation. */
static void
readargs(struct trace *t)
{
	enum json_tok tok;
	const char *k;
	size_t n;
	long long v;

	while ((tok = next(t)) == JT_KEY) {
		k = json_text(t->j, &n);
		if (n == 4 && memcmp(k, "name", 4) == 0) {
			if ((tok = next(t)) == JT_STR)
				t->ev.aname = strid(t);
			else
				skip(t, tok);
		} else if (n == 11 && memcmp(k, "correlation", 11) == 0) {
			tok = next(t);
			if (tok == JT_NUM && json_int(t->j, &v) == 0) {
				t->ev.corr = v;
				t->ev.hascorr = 1;
			} else
				skip(t, tok);
		} else
			skip(t, tok);
	}
}

/* The id of the string just read in the names table. */
static uint32_t
strid(struct trace *t)
{
	const char *v;
	size_t n, id;

	v = json_text(t->j, &n);
	if ((id = ht_intern(t->names, v, n, NULL)) >= t->pylow)
		errx(1, "%s: too many names", json_name(t->j));
	return (uint32_t)id;
}

/*
 * Whether categories cat[0..n) hold one of GPU work (1), of a launch
 * (2: cuda_runtime, cuda_driver), of a launch-to-GPU flow (3: ac2g).
 */
static int
gpucat(const char *cat, size_t n)
{
	const char *p, *e, *end = cat + n;

	for (p = cat;; p = e + 1) {
		if ((e = memchr(p, ',', (size_t)(end - p))) == NULL)
			e = end;
		if ((e - p == 6 && memcmp(p, "kernel", 6) == 0) ||
		    (e - p == 10 && memcmp(p, "gpu_memcpy", 10) == 0) ||
		    (e - p == 10 && memcmp(p, "gpu_memset", 10) == 0))
			return 1;
		if ((e - p == 12 && memcmp(p, "cuda_runtime", 12) == 0) ||
		    (e - p == 11 && memcmp(p, "cuda_driver", 11) == 0))
			return 2;
		if (e - p == 4 && memcmp(p, "ac2g", 4) == 0)
			return 3;
		if (e == end)
			return 0;
	}
}

/* Whether categories cat[0..n) (comma-separated) list c. */
static int
hascat(const char *cat, size_t n, const char *c)
{
	const char *p, *e, *end = cat + n;
	size_t cn = strlen(c);

	for (p = cat;; p = e + 1) {
		if ((e = memchr(p, ',', (size_t)(end - p))) == NULL)
			e = end;
		if ((size_t)(e - p) == cn && memcmp(p, c, cn) == 0)
			return 1;
		if (e == end)
			return 0;
	}
}

/*
 * Where FUNC starts in a name s[0..n) of the form "PATH(LINE): FUNC"
 * (PATH and FUNC not empty, LINE decimal digits, the first such "("),
 * with the place of that "(" in *paren; or 0 if it has not that form.
 */
static size_t
funcpart(const char *s, size_t n, size_t *paren)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		if (s[i] != '(')
			continue;
		for (j = i + 1; j < n && s[j] >= '0' && s[j] <= '9'; j++)
			;
		if (j > i + 1 && j + 3 < n && s[j] == ')' && s[j + 1] == ':' &&
		    s[j + 2] == ' ') {
			*paren = i;
			return j + 3;
		}
	}
	return 0;
}

/* s[0..n) into b without its " at 0x" and hexadecimal digits. */
static void
unaddress(struct buf *b, const char *s, size_t n)
{
	const char *e = s + n, *p, *h;

	buf_reset(b);
	while ((p = memmem(s, (size_t)(e - s), " at 0x", 6)) != NULL) {
		for (h = p + 6; h < e && ((*h >= '0' && *h <= '9') ||
		    (*h >= 'a' && *h <= 'f') || (*h >= 'A' && *h <= 'F')); h++)
			;
		buf_add(b, s, (size_t)((h > p + 6 ? p : h) - s));
		s = h;
	}
	buf_add(b, s, (size_t)(e - s));
}

/*
 * The frame of name id raw as a python_function's: "PATH(LINE): FUNC"
 * is FUNC (without addresses) at PATH:LINE, any other name the name
 * without addresses.  Worked out once per name.
 */
static uint32_t
pyframe(struct trace *t, uint32_t raw)
{
	struct buf b, f;
	const char *s;
	size_t n, fs, cap, p, paren = 0;
	uint32_t key[2], id;

	if (raw < t->cookcap && t->cook[raw] != 0)
		return t->cook[raw] - 1;
	buf_init(&b);
	buf_init(&f);
	s = ht_key(t->names, raw, &n);
	buf_add(&b, s, n);
	fs = funcpart(b.data, b.len, &paren);
	unaddress(&f, b.data + fs, b.len - fs);
	id = (uint32_t)ht_intern(t->names, f.data, f.len, NULL);
	if (id >= t->pylow)
		errx(1, "%s: too many names", json_name(t->j));
	if (fs > 0) {
		b.data[paren] = ':';		/* PATH(LINE) as PATH:LINE */
		key[0] = id;
		key[1] = (uint32_t)ht_intern(t->locs, b.data, fs - 3, NULL);
		p = ht_intern(t->pyf, key, sizeof(key), NULL);
		if (p >= t->pycap) {
			t->pycap = t->pycap ? 2 * t->pycap : 256;
			t->pyname = xreallocarray(t->pyname, t->pycap,
			    sizeof(*t->pyname));
			t->pyloc = xreallocarray(t->pyloc, t->pycap,
			    sizeof(*t->pyloc));
		}
		t->pyname[p] = key[0];
		t->pyloc[p] = key[1];
		id = NAMEMASK - 1 - (uint32_t)p;
		if (id <= ht_count(t->names))
			errx(1, "%s: too many names", json_name(t->j));
		if (id < t->pylow)
			t->pylow = id;
	}
	if (raw >= t->cookcap) {
		cap = t->cookcap ? t->cookcap : 256;
		while (cap <= raw)
			cap *= 2;
		t->cook = xreallocarray(t->cook, cap, sizeof(*t->cook));
		memset(t->cook + t->cookcap, 0,
		    (cap - t->cookcap) * sizeof(*t->cook));
		t->cookcap = cap;
	}
	t->cook[raw] = id + 1;
	buf_free(&b);
	buf_free(&f);
	return id;
}

/*
 * The name id of frame id, and in *loc its location's id in the locs
 * table, or NONE.
 */
static uint32_t
frameof(const struct trace *t, uint32_t id, uint32_t *loc)
{
	if (id < t->pylow) {
		*loc = NONE;
		return id;
	}
	*loc = t->pyloc[NAMEMASK - 1 - id];
	return t->pyname[NAMEMASK - 1 - id];
}

/* Read one event object, its '{' just read, and act on it. */
static void
readevent(struct trace *t)
{
	struct event *ev = &t->ev;
	enum json_tok tok;
	const char *k;
	long long id;
	size_t n;

	ev->ph = 0;
	ev->name = ev->aname = NONE;
	ev->kept = t->nocatok;
	ev->gpu = ev->py = 0;
	buf_reset(&ev->pid);
	buf_reset(&ev->tid);
	ev->hasts = ev->hasdur = ev->hascorr = ev->hasid = 0;
	ev->corr = 0;
	while ((tok = next(t)) == JT_KEY) {
		k = json_text(t->j, &n);
		if (n == 2 && memcmp(k, "ph", 2) == 0) {
			if (next(t) != JT_STR)
				json_fail(t->j, "ph: expected a string");
			k = json_text(t->j, &n);
			ev->ph = n == 1 ? (unsigned char)k[0] : n == 0 ? 0 : -1;
		} else if (n == 4 && memcmp(k, "name", 4) == 0) {
			if ((tok = next(t)) == JT_STR)
				ev->name = strid(t);
			else
				skip(t, tok);
		} else if (n == 3 && memcmp(k, "cat", 3) == 0) {
			if ((tok = next(t)) == JT_STR) {
				k = json_text(t->j, &n);
				ev->kept = trace_catok(t->opt, k, n);
				ev->gpu = gpucat(k, n);
				ev->py = hascat(k, n, "python_function");
			} else
				skip(t, tok);
		} else if (n == 3 && memcmp(k, "pid", 3) == 0)
			getid(t, next(t), &ev->pid, "pid");
		else if (n == 3 && memcmp(k, "tid", 3) == 0)
			getid(t, next(t), &ev->tid, "tid");
		else if (n == 2 && memcmp(k, "ts", 2) == 0) {
			ev->ts = getns(t, next(t), "ts");
			ev->hasts = 1;
		} else if (n == 3 && memcmp(k, "dur", 3) == 0) {
			ev->dur = getns(t, next(t), "dur");
			if (ev->dur < 0)
				json_fail(t->j, "dur: negative duration");
			ev->hasdur = 1;
		} else if (n == 4 && memcmp(k, "args", 4) == 0) {
			if ((tok = next(t)) == JT_OBJ)
				readargs(t);
			else
				skip(t, tok);
		} else if (n == 2 && memcmp(k, "id", 2) == 0 && t->opt->gpu) {
			tok = next(t);
			if (tok == JT_NUM && json_int(t->j, &id) == 0) {
				ev->id = id;
				ev->hasid = 1;
			} else
				skip(t, tok);
		} else
			skip(t, next(t));
	}
	/* A missing pid or tid is an empty one. */
	if (ev->pid.len == 0)
		buf_addc(&ev->pid, 'm');
	if (ev->tid.len == 0)
		buf_addc(&ev->tid, 'm');
	dispatch(t);
}

/* The thread of the current event, made on first sight. */
static size_t
thread(struct trace *t)
{
	struct buf *k = &t->ev.pid;
	size_t pid, id, cap;
	int isnew;

	if (t->lid != NONE && k->len == t->lpid.len &&
	    t->ev.tid.len == t->ltid.len &&
	    memcmp(k->data, t->lpid.data, k->len) == 0 &&
	    memcmp(t->ev.tid.data, t->ltid.data, t->ev.tid.len) == 0)
		return t->lid;
	buf_reset(&t->lpid);
	buf_add(&t->lpid, k->data, k->len);
	buf_reset(&t->ltid);
	buf_add(&t->ltid, t->ev.tid.data, t->ev.tid.len);
	pid = ht_intern(t->pids, t->ev.pid.data, t->ev.pid.len, &isnew);
	if (isnew) {
		if (pid >= t->pcap) {
			cap = t->pcap ? 2 * t->pcap : 16;
			t->pname = xreallocarray(t->pname, cap,
			    sizeof(*t->pname));
			t->pcap = cap;
		}
		t->pname[pid] = NONE;
	}
	buf_addc(k, '\0');
	buf_add(k, t->ev.tid.data, t->ev.tid.len);
	id = ht_intern(t->tids, k->data, k->len, &isnew);
	k->len -= t->ev.tid.len + 1;
	k->data[k->len] = '\0';
	if (isnew) {
		if (id >= NONE)
			errx(1, "too many threads");
		if (id >= t->thcap) {
			cap = t->thcap ? 2 * t->thcap : 16;
			t->th = xreallocarray(t->th, cap, sizeof(*t->th));
			t->thcap = cap;
		}
		memset(&t->th[id], 0, sizeof(t->th[id]));
		t->th[id].sorted = 1;
		t->th[id].pid = (uint32_t)pid;
		t->th[id].name = NONE;
	}
	t->lid = id;
	return id;
}

/* Time v was seen on thread th. */
static void
seen(struct thread *th, int64_t v)
{
	if (!th->hastime || v > th->last)
		th->last = v;
	th->hastime = 1;
}

/* Add a span to thread id. */
static void
addspan(struct trace *t, size_t id, int64_t start, int64_t dur,
    uint32_t name, uint32_t seq, int kind, int64_t corr)
{
	struct thread *th = &t->th[id];
	struct span *sp;

	if (th->n == th->cap) {
		if (th->cap > UINT32_MAX / 2)
			errx(1, "%s: too many spans in a thread",
			    json_name(t->j));
		th->cap = th->cap ? 2 * th->cap : 1;
		th->sp = xreallocarray(th->sp, th->cap, sizeof(*th->sp));
	}
	if (name > NAMEMASK)
		errx(1, "%s: too many names", json_name(t->j));
	sp = &th->sp[th->n++];
	sp->start = start;
	sp->dur = dur;
	sp->name = name | (uint32_t)kind << KINDSHIFT;
	sp->seq = seq;
	t->st->spans++;
	if (kind == K_CPU)
		return;
	addcent(&t->cs, &t->ncs, &t->capcs, corr, seq);
	if (corr == NOCORR)
		t->needflows = 1;
	if (corr == NOCORR && kind == K_LAUNCH)
		addcent(&t->nl, &t->nnl, &t->capnl, start, seq);
}

/*
 * Room for n + 1 elements of size sz in p of *cap: grown by half, so
 * that large arrays waste a third of their room at most.
 */
static void *
grow(void *p, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return p;
	*cap = *cap + *cap / 2 + 64;
	return xreallocarray(p, *cap, sz);
}

/* Append (corr, seq) to the array *a of *n entries. */
static void
addcent(struct cent **a, size_t *n, size_t *cap, int64_t corr,
    uint32_t seq)
{
	*a = grow(*a, cap, *n, sizeof(**a));
	(*a)[*n].corr = corr;
	(*a)[*n].seq = seq;
	(*a)[*n].node = NONE;
	(*n)++;
}

/*
 * An ac2g flow event with id fid at time ts of thread id (-g): kept in
 * a spill, to be looked up only if some span has no correlation id.
 */
static void
addflow(struct trace *t, uint32_t id, int64_t ts, int64_t fid)
{
	unsigned char k[20];

	memcpy(k, &id, 4);
	memcpy(k + 4, &ts, 8);
	memcpy(k + 12, &fid, 8);
	spill_write(t->flowsp, k, sizeof(k));
}

/* The table of the flow events, from the spill. */
static void
flowtable(struct trace *t)
{
	unsigned char k[20];
	size_t c;

	t->flows = ht_new();
	spill_rewind(t->flowsp);
	while (spill_read(t->flowsp, k, sizeof(k)) == 0) {
		c = ht_intern(t->flows, k, 12, NULL);
		if (c >= t->flowcap) {
			t->flowcap = t->flowcap ? 2 * t->flowcap : 256;
			t->flowv = xreallocarray(t->flowv, t->flowcap,
			    sizeof(*t->flowv));
		}
		memcpy(&t->flowv[c], k + 12, 8);
	}
}

/* Act on the event just read, which is no X, B or E event. */
static void
nonspan(struct trace *t)
{
	struct event *ev = &t->ev;
	size_t id;

	if (ev->ph == 'M') {
		if (ev->aname == NONE)
			return;
		if (ev->name == t->pnid) {
			id = thread(t);
			t->pname[t->th[id].pid] = ev->aname;
		} else if (ev->name == t->tnid) {
			id = thread(t);
			t->th[id].name = ev->aname;
		}
	} else if (ev->ph != 0 && ev->hasts) {
		id = thread(t);		/* may move t->th */
		seen(&t->th[id], ev->ts);
		if ((ev->ph == 's' || ev->ph == 'f') && ev->gpu == 3 &&
		    ev->hasid && t->flowsp != NULL)
			addflow(t, (uint32_t)id, ev->ts, ev->id);
	}
}

/* Act on the event just read. */
static void
dispatch(struct trace *t)
{
	struct event *ev = &t->ev;
	struct thread *th;
	struct bopen *b;
	size_t id;
	uint32_t seq;
	int kept, kind;

	if (t->seq == NONE)
		errx(1, "%s: too many events", json_name(t->j));
	seq = t->seq++;
	if (ev->ph != 'X' && ev->ph != 'B' && ev->ph != 'E') {
		nonspan(t);
		return;
	}
	if (!ev->hasts)
		json_fail(t->j, "%c event without ts", ev->ph);
	id = thread(t);
	th = &t->th[id];
	seen(th, ev->ts);
	if (th->hasmax && ev->ts < th->maxts && th->sorted) {
		th->sorted = 0;
		th->tainted = th->flushed;
	}
	if (!th->hasmax || ev->ts > th->maxts)
		th->maxts = ev->ts;
	th->hasmax = 1;
	kept = ev->kept;
	if (!t->opt->allthreads && ev->pid.len == 6 &&
	    memcmp(ev->pid.data, "sSpans", 6) == 0)
		kept = 0;		/* Kineto's pseudo-process */
	if (ev->name == NONE)
		ev->name = t->emptyid;
	else if (ev->py && !t->opt->rawnames && ev->ph != 'E')
		ev->name = pyframe(t, ev->name);
	kind = !t->opt->gpu ? K_CPU : ev->gpu == 1 ? K_GPU :
	    ev->hascorr || ev->gpu == 2 ? K_LAUNCH : K_CPU;
	if (!ev->hascorr)
		ev->corr = NOCORR;
	if (ev->ph != 'E')
		t->nspan++;
	switch (ev->ph) {
	case 'X':
		if (!ev->hasdur)
			ev->dur = 0;
		if (ev->dur > INT64_MAX - ev->ts)
			json_fail(t->j, "ts + dur out of range");
		seen(th, ev->ts + ev->dur);
		if (kept)
			addspan(t, id, ev->ts, ev->dur, ev->name, seq, kind,
			    ev->corr);
		break;
	case 'B':
		if (th->nb == SST_MAXDEPTH)
			json_fail(t->j, "spans nested deeper than %d levels "
			    "(B events without E)", SST_MAXDEPTH);
		if (th->nb == th->capb) {
			th->capb = th->capb ? 2 * th->capb : 2;
			th->b = xreallocarray(th->b, th->capb, sizeof(*th->b));
		}
		b = &th->b[th->nb++];
		b->start = ev->ts;
		b->name = ev->name;
		b->seq = seq;
		b->kept = kept;
		b->kind = kind;
		b->corr = ev->corr;
		break;
	case 'E':
		if (th->nb == 0) {
			t->st->unmatched++;
			break;
		}
		b = &th->b[--th->nb];
		if (ev->ts < b->start)
			json_fail(t->j, "E event before its B");
		if (b->kept)
			addspan(t, id, b->start, ev->ts - b->start, b->name,
			    b->seq, b->kind, b->corr);
		break;
	}
	if (th->sorted && th->nb == 0 &&
	    th->n >= (t->opt->batch > 0 ? t->opt->batch : FLUSHN))
		flush(t, (uint32_t)id, ev->ts);
}

/*
 * The events of the array just opened; bare: the top-level array, whose
 * closing ']' may be missing, as the trace-event format allows.
 */
static void
events(struct trace *t, int bare)
{
	enum json_tok tok;

	for (;;) {
		tok = json_next(t->j);
		if (tok == JT_ERROR && bare && t->seq > 0 &&
		    strcmp(json_errmsg(t->j), "unexpected end of input") == 0) {
			t->partial = 1;
			return;
		}
		if (tok == JT_ERROR)
			json_fail(t->j, "%s", json_errmsg(t->j));
		if (tok == JT_ARR_END)
			break;
		if (tok != JT_OBJ)
			json_fail(t->j, "event: expected an object");
		readevent(t);
	}
}

/* The node of name under parent (NONE: the root) on thread th. */
static uint32_t
node(struct trace *t, uint32_t th, uint32_t parent, uint32_t name)
{
	uint32_t key[3] = { th, parent, name };
	size_t id, cap;
	int isnew;

	id = ht_intern(t->nodes, key, sizeof(key), &isnew);
	if (!isnew)
		return (uint32_t)id;
	if (id >= NONE)
		errx(1, "too many stacks");
	if (id >= t->ncap) {
		cap = t->ncap ? 2 * t->ncap : 256;
		t->nthread = xreallocarray(t->nthread, cap, sizeof(uint32_t));
		t->nparent = xreallocarray(t->nparent, cap, sizeof(uint32_t));
		t->nname = xreallocarray(t->nname, cap, sizeof(uint32_t));
		t->nsamples = xreallocarray(t->nsamples, cap,
		    sizeof(uint64_t));
		t->nns = xreallocarray(t->nns, cap, sizeof(int64_t));
		t->nfirst = xreallocarray(t->nfirst, cap, sizeof(int64_t));
		t->nmixed = xreallocarray(t->nmixed, cap, 1);
		t->nrank = xreallocarray(t->nrank, cap, sizeof(uint64_t));
		t->ncap = cap;
	}
	t->nthread[id] = th;
	t->nparent[id] = parent;
	t->nname[id] = name;
	t->nsamples[id] = 0;
	t->nns[id] = 0;
	t->nmixed[id] = 0;
	t->nrank[id] = UINT64_MAX;
	return (uint32_t)id;
}

/* A span of self time self ns ended at node n; with -s a record. */
static void
account(struct trace *t, uint32_t n, int64_t start, int64_t self,
    uint64_t order)
{
	struct one *o;

	if (t->nsamples[n] == 0)
		t->nfirst[n] = self;
	else if (t->nfirst[n] != self)
		t->nmixed[n] = 1;
	t->nsamples[n]++;
	t->nns[n] += self;
	if (!t->opt->persample)
		return;
	if (t->nones == t->capones) {
		t->capones = t->capones ? 2 * t->capones : 256;
		t->ones = xreallocarray(t->ones, t->capones, sizeof(*t->ones));
	}
	o = &t->ones[t->nones++];
	o->start = start;
	o->self = self;
	o->thread = t->nthread[n];
	o->node = n;
	o->order = order;
}

/* Whether span x is taken before y: by start, longer first, then input. */
static int
before(const struct span *x, const struct span *y)
{
	if (x->start != y->start)
		return x->start < y->start;
	if (x->dur != y->dur)
		return x->dur > y->dur;
	return x->seq < y->seq;
}

/* Swap two spans. */
static void
swap(struct span *x, struct span *y)
{
	struct span tmp = *x;

	*x = *y;
	*y = tmp;
}

/*
 * Sort spans in place (qsort(3) may take a copy as large as the array):
 * quicksort on the median of three, the smaller part first, insertion
 * sort for short runs.  The order is total, so stability is moot.
 */
static void
sortspans(struct span *a, size_t n)
{
	size_t i, j, m;
	struct span p;

	while (n > 16) {
		m = n / 2;
		if (before(&a[m], &a[0]))
			swap(&a[m], &a[0]);
		if (before(&a[n - 1], &a[0]))
			swap(&a[n - 1], &a[0]);
		if (before(&a[n - 1], &a[m]))
			swap(&a[n - 1], &a[m]);
		p = a[m];
		i = 0;
		j = n - 1;
		for (;;) {
			while (before(&a[i], &p))
				i++;
			while (before(&p, &a[j]))
				j--;
			if (i >= j)
				break;
			swap(&a[i++], &a[j--]);
		}
		/* a[0..j] <= p <= a[j+1..n) */
		if (j + 1 < n - j - 1) {
			sortspans(a, j + 1);
			a += j + 1;
			n -= j + 1;
		} else {
			sortspans(a + j + 1, n - j - 1);
			n = j + 1;
		}
	}
	for (i = 1; i < n; i++) {
		p = a[i];
		for (j = i; j > 0 && before(&p, &a[j - 1]); j--)
			a[j] = a[j - 1];
		a[j] = p;
	}
}

/* By thread, start, then the order the spans were taken. */
static int
onecmp(const void *a, const void *b)
{
	const struct one *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Close the innermost open span of thread th. */
static void
close1(struct trace *t, struct thread *th)
{
	struct frame *c = &th->f[--th->nf];
	int64_t dur = c->end - c->start;

	if (c->gs != NONE) {
		/* A GPU span: accounted where attach() puts it. */
		t->gs[c->gs].self = dur - c->kids;
		t->gs[c->gs].order = c->order;
	} else
		account(t, c->node, c->start, dur - c->kids, c->order);
	if (th->nf > 0)
		th->f[th->nf - 1].kids += dur;
}

/* The node of name under parent on thread id, entered now. */
static uint32_t
enter(struct trace *t, uint32_t id, uint32_t parent, uint32_t name)
{
	uint32_t n = node(t, id, parent, name);

	if (t->nrank[n] == UINT64_MAX)
		t->nrank[n] = t->rank++;
	return n;
}

/*
 * With -g: a launch's node, or a GPU span to attach at the end (its
 * index in gs, else NONE).
 */
static uint32_t
gpuspan(struct trace *t, uint32_t id, const struct span *s, int64_t end,
    uint32_t n)
{
	struct gspan *g;

	if (s->name >> KINDSHIFT == K_LAUNCH) {
		t->ln = grow(t->ln, &t->capln, t->nln, sizeof(*t->ln));
		t->ln[t->nln].seq = s->seq;
		t->ln[t->nln++].node = n;
		return NONE;
	}
	if (t->ngs >= NONE)
		errx(1, "%s: too many GPU spans", json_name(t->j));
	t->gs = grow(t->gs, &t->capgs, t->ngs, sizeof(*t->gs));
	g = &t->gs[t->ngs];
	g->corr = NOCORR;
	g->start = s->start;
	g->dur = end - s->start;
	g->self = 0;
	g->order = 0;
	g->name = s->name & NAMEMASK;
	g->thread = id;
	g->seq = s->seq;
	g->node = n;
	g->dead = 0;
	return (uint32_t)t->ngs++;
}

/* Nest the n sorted spans sp of thread id, after those nested before. */
static void
nestspans(struct trace *t, uint32_t id, const struct span *sp, size_t n)
{
	struct thread *th = &t->th[id];
	struct frame *f;
	const struct span *s;
	size_t i;
	int64_t end;
	uint32_t nd;

	for (i = 0; i < n; i++) {
		s = &sp[i];
		while (th->nf > 0 && s->start >= th->f[th->nf - 1].end)
			close1(t, th);
		end = s->start + s->dur;
		if (th->nf > 0 && end > th->f[th->nf - 1].end) {
			end = th->f[th->nf - 1].end;
			if (th->clipped < UINT32_MAX)
				th->clipped++;	/* the count saturates */
		}
		nd = enter(t, id, th->nf > 0 ? th->f[th->nf - 1].node : NONE,
		    s->name & NAMEMASK);
		if (th->nf == SST_MAXDEPTH)
			errx(1, "%s: event %llu: spans nested deeper than %d "
			    "levels", json_name(t->j),
			    (unsigned long long)s->seq + 1, SST_MAXDEPTH);
		if (th->nf == th->capf) {
			th->capf = th->capf ? 2 * th->capf : 4;
			th->f = xreallocarray(th->f, th->capf, sizeof(*th->f));
		}
		f = &th->f[th->nf++];
		f->start = s->start;
		f->end = end;
		f->kids = 0;
		f->node = nd;
		f->order = t->order++;
		f->gs = NONE;
		if (s->name >> KINDSHIFT != K_CPU)
			f->gs = gpuspan(t, id, s, end, nd);
	}
}

/*
 * Thread id is sorted and has no open B: nest its pending spans that
 * start before ts, which no later event can precede, and keep them in
 * the spill in case the thread turns out not to be sorted after all.
 */
static void
flush(struct trace *t, uint32_t id, int64_t ts)
{
	struct thread *th = &t->th[id];
	uint32_t hd[2];
	size_t k;

	sortspans(th->sp, th->n);
	for (k = 0; k < th->n && th->sp[k].start < ts && k < NONE; k++)
		;
	if (k == 0)
		return;
	nestspans(t, id, th->sp, k);
	/* A block: the thread, the count, the spans. */
	hd[0] = id;
	hd[1] = (uint32_t)k;
	spill_write(t->spill, hd, sizeof(hd));
	spill_write(t->spill, th->sp, k * sizeof(*th->sp));
	memmove(th->sp, th->sp + k, (th->n - k) * sizeof(*th->sp));
	th->n -= k;
	th->flushed = 1;
}

/* Forget what was made of the tainted thread id: it is nested again. */
static void
reset(struct trace *t, uint32_t id)
{
	struct thread *th = &t->th[id];
	size_t i, k;

	for (i = 0; i < ht_count(t->nodes); i++)
		if (t->nthread[i] == id) {
			t->nsamples[i] = 0;
			t->nns[i] = 0;
			t->nmixed[i] = 0;
			t->nrank[i] = UINT64_MAX;
		}
	for (i = k = 0; i < t->nones; i++)
		if (t->ones[i].thread != id)
			t->ones[k++] = t->ones[i];
	t->nones = k;
	for (i = 0; i < t->ngs; i++)
		if (t->gs[i].thread == id)
			t->gs[i].dead = 1;	/* open frames index gs */
	for (i = k = 0; i < t->nln; i++)
		if (t->nthread[t->ln[i].node] != id)
			t->ln[k++] = t->ln[i];
	t->nln = k;
	th->nf = 0;
	th->clipped = 0;
}

/* Read the spans of tainted threads back from the spill. */
static void
readback(struct trace *t)
{
	struct thread *th;
	struct span sp;
	uint32_t hd[2], i;

	spill_rewind(t->spill);
	while (spill_read(t->spill, hd, sizeof(hd)) == 0) {
		th = &t->th[hd[0]];
		for (i = 0; i < hd[1]; i++) {
			if (spill_read(t->spill, &sp, sizeof(sp)) == -1)
				errx(1, "spill: short read");
			if (!th->tainted)
				continue;
			if (th->n == th->cap) {
				if (th->cap > UINT32_MAX / 2)
					errx(1, "too many spans in a thread");
				th->cap = th->cap ? 2 * th->cap : 1;
				th->sp = xreallocarray(th->sp, th->cap,
				    sizeof(*th->sp));
			}
			th->sp[th->n++] = sp;
		}
	}
}

/* At the end of the input: nest what is left of thread id. */
static void
finish(struct trace *t, uint32_t id)
{
	struct thread *th = &t->th[id];
	struct bopen *b;

	/* B events never closed end at the thread's last time. */
	while (th->nb > 0) {
		b = &th->b[--th->nb];
		t->st->unclosed++;
		if (b->kept)
			addspan(t, id, b->start, th->last - b->start, b->name,
			    b->seq, b->kind, b->corr);
	}
	if (th->tainted)
		reset(t, id);
	sortspans(th->sp, th->n);
	nestspans(t, id, th->sp, th->n);
	while (th->nf > 0)
		close1(t, th);
	t->st->clipped += th->clipped;
	free(th->sp);
	th->sp = NULL;
	th->n = th->cap = 0;
	free(th->f);
	th->f = NULL;
	th->capf = 0;
	free(th->b);
	th->b = NULL;
	th->capb = 0;
}

/* GPU spans by thread, then as nestspans() took them. */
static int
gscmp(const void *a, const void *b)
{
	const struct gspan *x = a, *y = b;

	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Whether x comes before y: by seq, or (bycorr) by corr then seq. */
static int
centlt(const struct cent *x, const struct cent *y, int bycorr)
{
	if (bycorr && x->corr != y->corr)
		return x->corr < y->corr;
	return x->seq < y->seq;
}

/* Swap two entries. */
static void
swapcent(struct cent *x, struct cent *y)
{
	struct cent tmp = *x;

	*x = *y;
	*y = tmp;
}

/*
 * Sort a[0..n) in place (no copy of the array, as qsort(3) may take):
 * quicksort on the median of three, the smaller part first, insertion
 * sort for short runs.
 */
static void
sortcents(struct cent *a, size_t n, int bycorr)
{
	size_t i, j, m;
	struct cent p;

	for (i = 1; i < n && !centlt(&a[i], &a[i - 1], bycorr); i++)
		;
	if (i >= n)
		return;		/* already in order, as usual: linear */
	while (n > 16) {
		m = n / 2;
		if (centlt(&a[m], &a[0], bycorr))
			swapcent(&a[m], &a[0]);
		if (centlt(&a[n - 1], &a[0], bycorr))
			swapcent(&a[n - 1], &a[0]);
		if (centlt(&a[n - 1], &a[m], bycorr))
			swapcent(&a[n - 1], &a[m]);
		p = a[m];
		i = 0;
		j = n - 1;
		for (;;) {
			while (centlt(&a[i], &p, bycorr))
				i++;
			while (centlt(&p, &a[j], bycorr))
				j--;
			if (i >= j)
				break;
			swapcent(&a[i++], &a[j--]);
		}
		if (j + 1 < n - j - 1) {
			sortcents(a, j + 1, bycorr);
			a += j + 1;
			n -= j + 1;
		} else {
			sortcents(a + j + 1, n - j - 1, bycorr);
			n = j + 1;
		}
	}
	for (i = 1; i < n; i++) {
		p = a[i];
		for (j = i; j > 0 && centlt(&p, &a[j - 1], bycorr); j--)
			a[j] = a[j - 1];
		a[j] = p;
	}
}

/*
 * In a[0..n) sorted as sortcents() sorts it, the first entry whose seq
 * (bycorr: correlation id) is v, or (size_t)-1.
 */
static size_t
findcent(const struct cent *a, size_t n, int64_t v, int bycorr)
{
	size_t lo = 0, hi = n, m;

	while (lo < hi) {
		m = lo + (hi - lo) / 2;
		if ((bycorr ? a[m].corr : (int64_t)a[m].seq) < v)
			lo = m + 1;
		else
			hi = m;
	}
	if (lo < n && (bycorr ? a[lo].corr : (int64_t)a[lo].seq) == v)
		return lo;
	return (size_t)-1;
}

/*
 * The id of the ac2g flow event of thread th at time ts, when corr (a
 * span's own correlation id) is NOCORR.
 */
static int64_t
corrof(struct trace *t, uint32_t th, int64_t ts, int64_t corr)
{
	unsigned char k[12];
	size_t c;

	if (corr != NOCORR || t->flows == NULL)
		return corr;
	memcpy(k, &th, 4);
	memcpy(k + 4, &ts, 8);
	if ((c = ht_find(t->flows, k, sizeof(k))) == (size_t)-1)
		return NOCORR;
	return t->flowv[c];
}

/*
 * The flow table, and from it the correlation ids of the nested
 * launches that have none (cs sorted by seq).
 */
static void
flowlinks(struct trace *t)
{
	struct cent *c;
	size_t i, k;

	flowtable(t);
	sortcents(t->nl, t->nnl, 0);
	for (i = 0; i < t->ncs; i++) {
		c = &t->cs[i];
		if (c->node == NONE || c->corr != NOCORR ||
		    (k = findcent(t->nl, t->nnl, c->seq, 0)) == (size_t)-1)
			continue;
		c->corr = corrof(t, t->nthread[c->node], t->nl[k].corr,
		    NOCORR);
	}
	free(t->nl);
	t->nl = NULL;
	t->nnl = t->capnl = 0;
}

/*
 * With -g: the launches by correlation id (of those sharing one, the
 * first in the input), then each GPU span under the node of its launch,
 * or on its stream if it has none: its time is counted once.
 */
static void
attach(struct trace *t)
{
	struct gspan *g;
	size_t i, j, k;
	uint32_t n;

	sortcents(t->cs, t->ncs, 0);
	for (i = k = 0; i < t->nln; i++) {
		/* A few steps on while ln is in seq order, else a search. */
		for (j = 0; j < 16 && k < t->ncs &&
		    t->cs[k].seq < t->ln[i].seq; j++)
			k++;
		if (k >= t->ncs || t->cs[k].seq != t->ln[i].seq)
			k = findcent(t->cs, t->ncs, t->ln[i].seq, 0);
		if (k == (size_t)-1)
			k = 0;
		else
			t->cs[k].node = t->ln[i].node;
	}
	free(t->ln);
	t->ln = NULL;
	t->nln = t->capln = 0;
	if (t->needflows)
		flowlinks(t);
	for (i = 0; i < t->ngs; i++) {
		g = &t->gs[i];
		k = findcent(t->cs, t->ncs, g->seq, 0);
		g->corr = corrof(t, g->thread, g->start,
		    k != (size_t)-1 ? t->cs[k].corr : NOCORR);
	}
	for (i = k = 0; i < t->ncs; i++)
		if (t->cs[i].node != NONE && t->cs[i].corr != NOCORR)
			t->cs[k++] = t->cs[i];
	t->ncs = k;
	sortcents(t->cs, t->ncs, 1);
	if (t->ngs > 1)
		qsort(t->gs, t->ngs, sizeof(*t->gs), gscmp);
	for (i = 0; i < t->ngs; i++) {
		g = &t->gs[i];
		if (g->dead)
			continue;
		if (g->corr == NOCORR || (k = findcent(t->cs, t->ncs, g->corr,
		    1)) == (size_t)-1) {
			account(t, g->node, g->start, g->self, g->order);
			continue;
		}
		n = enter(t, t->nthread[t->cs[k].node], t->cs[k].node,
		    g->name);
		account(t, n, g->start, g->self, t->order++);
	}
}

/* Nodes by thread, then in the order they were first entered. */
static int
nodecmp(size_t a, size_t b, void *arg)
{
	const struct trace *t = arg;

	if (t->nthread[a] != t->nthread[b])
		return t->nthread[a] < t->nthread[b] ? -1 : 1;
	if (t->nrank[a] != t->nrank[b])
		return t->nrank[a] < t->nrank[b] ? -1 : 1;
	return 0;
}

/* The escaped thread field of thread id into b. */
static void
threadfield(struct trace *t, uint32_t id, const char *prefix, struct buf *b)
{
	struct buf raw;
	const struct thread *th = &t->th[id];
	const char *k, *tid;
	size_t n;

	buf_init(&raw);
	if (prefix != NULL)
		buf_printf(&raw, "%s: ", prefix);
	k = ht_key(t->pids, th->pid, &n);
	buf_adds(&raw, "Process ");
	buf_add(&raw, k + 1, n - 1);
	if (t->pname[th->pid] != NONE) {
		k = ht_key(t->names, t->pname[th->pid], &n);
		buf_adds(&raw, " \"");
		buf_add(&raw, k, n);
		buf_addc(&raw, '"');
	}
	k = ht_key(t->tids, id, &n);
	tid = (const char *)memchr(k, 0, n) + 2;
	buf_adds(&raw, " Thread ");
	buf_add(&raw, tid, n - (size_t)(tid - k));
	if (th->name != NONE) {
		k = ht_key(t->names, th->name, &n);
		buf_adds(&raw, " \"");
		buf_add(&raw, k, n);
		buf_addc(&raw, '"');
	}
	buf_reset(b);
	esc_add(b, raw.data, raw.len);
	buf_free(&raw);
}

/*
 * The escaped stack field of node n into b and its locations field into
 * l (empty when no frame has a location).
 */
static void
stackfield(struct trace *t, uint32_t n, struct buf *b, struct buf *l)
{
	const char *k;
	size_t len, i;
	uint32_t name, loc;
	int hasloc = 0;

	t->npath = 0;
	for (; n != NONE; n = t->nparent[n]) {
		if (t->npath == t->cappath) {
			t->cappath = t->cappath ? 2 * t->cappath : 64;
			t->path = xreallocarray(t->path, t->cappath,
			    sizeof(*t->path));
		}
		t->path[t->npath++] = t->nname[n];
		if (t->nname[n] >= t->pylow)
			hasloc = 1;
	}
	buf_reset(b);
	buf_reset(l);
	for (i = t->npath; i > 0; i--) {
		name = frameof(t, t->path[i - 1], &loc);
		k = ht_key(t->names, name, &len);
		esc_name(b, k, len);
		if (hasloc && loc != NONE) {
			k = ht_key(t->locs, loc, &len);
			esc_add(l, k, len);
			buf_adds(l, "::");
		} else if (hasloc)
			buf_adds(l, ":::");
		if (i > 1) {
			buf_addc(b, ';');
			if (hasloc)
				buf_addc(l, ';');
		}
	}
	t->npath = 0;
}

/* Write the records, threads in the order they were first seen. */
static void
output(struct trace *t, const char *prefix, FILE *fp)
{
	struct sst_rec r;
	struct buf tf, sf, lf;
	size_t *ix, i, nn = ht_count(t->nodes), k;
	int64_t t0;
	uint32_t cur = NONE;

	buf_init(&tf);
	buf_init(&sf);
	buf_init(&lf);
	memset(&r, 0, sizeof(r));
	r.unit = U_SECONDS;
	if (t->opt->persample) {
		if (t->nones > 1)
			qsort(t->ones, t->nones, sizeof(*t->ones), onecmp);
		/* Start times count from the earliest span of the file. */
		for (i = 0, t0 = INT64_MAX; i < t->nones; i++)
			if (t->ones[i].start < t0)
				t0 = t->ones[i].start;
		for (i = 0; i < t->nones; i++) {
			if (t->ones[i].thread != cur) {
				cur = t->ones[i].thread;
				threadfield(t, cur, prefix, &tf);
			}
			stackfield(t, t->ones[i].node, &sf, &lf);
			r.thread = tf.data;
			r.threadlen = tf.len;
			r.samples = 1;
			r.weight = r.period = (double)t->ones[i].self / 1e9;
			r.hasperiod = 1;
			r.stack = sf.data;
			r.stacklen = sf.len;
			r.locs = lf.len > 0 ? lf.data : "";
			r.locslen = lf.len;
			r.hasstart = 1;
			r.start = (double)(t->ones[i].start - t0) / 1e9;
			rec_write(fp, &r);
			t->st->records++;
		}
		buf_free(&tf);
		buf_free(&sf);
		buf_free(&lf);
		return;
	}
	ix = xreallocarray(NULL, nn ? nn : 1, sizeof(*ix));
	for (i = 0; i < nn; i++)
		ix[i] = i;
	sst_sort(ix, nn, nodecmp, t);
	for (k = 0; k < nn; k++) {
		i = ix[k];
		if (t->nsamples[i] == 0)
			continue;
		if (t->nthread[i] != cur) {
			cur = t->nthread[i];
			threadfield(t, cur, prefix, &tf);
		}
		stackfield(t, (uint32_t)i, &sf, &lf);
		r.thread = tf.data;
		r.threadlen = tf.len;
		r.samples = t->nsamples[i];
		if (t->nmixed[i]) {
			r.hasperiod = 0;
			r.weight = (double)t->nns[i] / 1e9;
		} else {
			r.hasperiod = 1;
			r.period = (double)t->nfirst[i] / 1e9;
			r.weight = fmt_pysum(0, r.period, r.samples);
		}
		r.stack = sf.data;
		r.stacklen = sf.len;
		r.locs = lf.len > 0 ? lf.data : "";
		r.locslen = lf.len;
		rec_write(fp, &r);
		t->st->records++;
	}
	free(ix);
	buf_free(&tf);
	buf_free(&sf);
	buf_free(&lf);
}

/* Free everything of t. */
static void
freetrace(struct trace *t)
{
	size_t i;

	for (i = 0; i < ht_count(t->tids); i++) {
		free(t->th[i].sp);
		free(t->th[i].b);
		free(t->th[i].f);
	}
	free(t->th);
	free(t->pname);
	ht_free(t->names);
	ht_free(t->locs);
	ht_free(t->pyf);
	free(t->pyname);
	free(t->pyloc);
	free(t->cook);
	ht_free(t->pids);
	ht_free(t->tids);
	ht_free(t->nodes);
	if (t->flowsp != NULL) {
		spill_free(t->flowsp);
		if (t->flows != NULL)
			ht_free(t->flows);
	}
	free(t->cs);
	free(t->ln);
	free(t->nl);
	free(t->flowv);
	spill_free(t->spill);
	free(t->gs);
	free(t->nthread);
	free(t->nparent);
	free(t->nname);
	free(t->nsamples);
	free(t->nns);
	free(t->nfirst);
	free(t->nmixed);
	free(t->nrank);
	free(t->ones);
	free(t->path);
	buf_free(&t->ev.pid);
	buf_free(&t->ev.tid);
	buf_free(&t->lpid);
	buf_free(&t->ltid);
}

/*
 * Exit 1 for a document whose first token tok is no '[' or '{', saying
 * what it looks like and what reads it when that is known.
 */
static void
refuse(struct json *j, enum json_tok tok)
{
	const char *head, *says;
	char msg[256];
	size_t n;
	enum sniff k;

	head = json_head(j, &n);
	k = sniff(head, n);
	if (k != SN_TRACE && k != SN_TRACEARRAY && sniff_reader(k) != NULL &&
	    (says = sniff_says(k, msg, sizeof(msg))) != NULL) {
		fflush(stdout);
		errx(1, "%s: not a Chrome trace: %s", json_name(j), says);
	}
	if (tok == JT_ERROR)
		json_fail(j, "%s", json_errmsg(j));
	json_fail(j, "not a Chrome trace: expected an object with "
	    "traceEvents or an array of events");
}

void
trace_convert(struct json *j, const struct trace_opt *opt,
    const char *prefix, FILE *fp, struct trace_stats *st)
{
	struct trace t;
	enum json_tok tok;
	const char *k;
	size_t n, i;
	int got = 0;

	memset(&t, 0, sizeof(t));
	t.j = j;
	t.opt = opt;
	t.st = st;
	t.names = ht_new();
	t.locs = ht_new();
	t.pyf = ht_new();
	t.pylow = NAMEMASK;
	t.pids = ht_new();
	t.tids = ht_new();
	t.nodes = ht_new();
	t.spill = spill_new(1 << 20);
	if (opt->gpu)
		t.flowsp = spill_new(1 << 20);
	buf_init(&t.ev.pid);
	buf_init(&t.ev.tid);
	buf_init(&t.lpid);
	buf_init(&t.ltid);
	t.lid = NONE;
	t.emptyid = (uint32_t)ht_intern(t.names, "", 0, NULL);
	t.pnid = (uint32_t)ht_intern(t.names, "process_name", 12, NULL);
	t.tnid = (uint32_t)ht_intern(t.names, "thread_name", 11, NULL);
	t.nocatok = trace_catok(opt, "", 0);
	if ((tok = json_next(j)) == JT_ERROR || (tok != JT_ARR && tok != JT_OBJ))
		refuse(j, tok);
	if (tok == JT_ARR) {
		events(&t, 1);
		got = 1;
	} else if (tok == JT_OBJ) {
		while ((tok = next(&t)) == JT_KEY) {
			k = json_text(j, &n);
			if (n == 11 && memcmp(k, "traceEvents", 11) == 0) {
				if (got)
					json_fail(j, "traceEvents given twice");
				if (next(&t) != JT_ARR)
					json_fail(j, "traceEvents: expected "
					    "an array");
				events(&t, 0);
				got = 1;
			} else if ((n == 7 && memcmp(k, "$schema", 7) == 0) ||
			    (n == 8 && memcmp(k, "profiles", 8) == 0) ||
			    (n == 6 && memcmp(k, "shared", 6) == 0))
				json_fail(j, "speedscope JSON, not a trace: "
				    "use sst-flatten");
			else if ((n == 5 && memcmp(k, "nodes", 5) == 0) ||
			    (n == 10 && memcmp(k, "timeDeltas", 10) == 0))
				json_fail(j, "a .cpuprofile, not a trace: "
				    "use cpuprofile2sst");
			else
				skip(&t, next(&t));
		}
		if (!got)
			json_fail(j, "no traceEvents: not a Chrome trace");
	}
	if (!t.partial && next(&t) != JT_EOF)
		json_fail(j, "trailing data after JSON value");
	if (t.nspan == 0)
		json_fail(j, "no spans (X events or B/E pairs) in the trace");
	for (i = 0; i < ht_count(t.tids); i++)
		if (t.th[i].tainted) {
			readback(&t);
			break;
		}
	for (i = 0; i < ht_count(t.tids); i++)
		finish(&t, (uint32_t)i);
	if (opt->gpu)
		attach(&t);
	output(&t, prefix, fp);
	freetrace(&t);
}
