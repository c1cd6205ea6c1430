/*
 * genpyspy: write a synthetic py-spy speedscope profile of about -m
 * megabytes to standard output, for benchmarks.  The output is laid out
 * byte for byte as py-spy writes it: one line, the profiles (one per
 * thread, samples root first, equal weights of 0.01) before the shared
 * frame table, or after it with -r.  Frames are numbered as py-spy
 * numbers them, in the order a sample first uses them, leaf first.
 * Everything comes from a fixed-seed PRNG, so a given command line
 * always writes the same bytes.
 *
 * With -k K every thread has K distinct stacks of its own, picked with
 * Zipf popularity (the stack of rank r with weight 1/r), over about
 * 5,000 frames: the high-cardinality shape of a long Ray driver profile.
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NFILE	160		/* source files */
#define NFUNC	1300		/* functions, spread over the files */
#define ZFUNC	2000		/* functions with -k */
#define MAXFRAME (ZFUNC * 4)	/* each function at 1-4 lines */
#define NCALLEE	6		/* call-graph fan-out per frame */
#define POOL	48000		/* distinct stacks over all threads */
#define MINDEPTH 10
#define MAXDEPTH 60
#define MAXTHREAD 64
#define OBUFSZ	(1 << 20)
#define MB	1048576LL

struct frame {
	int	 func;
	int	 line;
	int	 callee[NCALLEE];
	int	 id;		/* output id, -1 until first used */
};

struct stack {
	int	 depth;
	int	 fr[MAXDEPTH];	/* root first */
	int	 len;		/* bytes of "[..]," once serialized, or 0 */
	size_t	 off;		/* its text in stxt */
};

struct thread {
	char	 name[64];
	int	 lo, hi;	/* its stacks: pool[lo..hi) */
	long	 nsamp;
	uint64_t seed;
};

static void	 build(int);
static void	 extend(struct stack *, int, uint64_t *);
static void	 genframes(void);
static void	 intern(struct stack *);
static int	 pick(struct thread *, uint64_t *, int);
static int	 zipf(double);
static void	 plan(long long);
static void	 put(const char *, size_t);
static void	 putstr(const char *);
static uint64_t	 rnd(uint64_t *);
static int	 rndn(uint64_t *, int);
static void	 writeframes(void);
static void	 writeprofiles(void);
static void	 usage(void);

static const char *words[] = {
	"run", "step", "forward", "backward", "load", "save", "parse",
	"read", "write", "send", "recv", "poll", "wait", "submit", "flush",
	"encode", "decode", "serialize", "deserialize", "get", "put",
	"update", "apply", "reduce", "map", "filter", "sort", "merge",
	"split", "join", "fetch", "compute", "process", "handle", "dispatch",
	"schedule", "execute", "resolve", "build", "init", "close", "open",
	"batch", "block", "task", "actor", "object", "ref", "state", "cache",
	"buffer", "tensor", "frame", "record", "row", "column", "shard",
	"partition", "metrics", "event", "queue", "lock", "future", "result",
	"iter", "next", "chunk", "stream", "pool", "worker", "node", "graph"
};
static const char *special[] = {
	"<module>", "__call__", "__init__", "__iter__", "__next__",
	"<lambda>", "<listcomp>", "<genexpr>", "__enter__", "__exit__",
	"_call_impl", "_wrapped_call_impl", "wrapper", "inner"
};
static const char *dirs[] = {
	"/home/dev/project/app", "/home/dev/project/app/data",
	"/home/dev/project/app/train", "/home/dev/project/app/util",
	"/home/dev/.venv/lib/python3.11/site-packages/ray/data",
	"/home/dev/.venv/lib/python3.11/site-packages/ray/_private",
	"/home/dev/.venv/lib/python3.11/site-packages/torch/nn/modules",
	"/home/dev/.venv/lib/python3.11/site-packages/pyarrow",
	"/home/dev/.venv/lib/python3.11/site-packages/numpy/core",
	"/usr/lib/python3.11", "/usr/lib/python3.11/concurrent/futures",
	"/usr/lib/python3.11/asyncio"
};
static const char *tnames[] = {
	"MainThread", "StreamingExecutor", "ThreadPoolExecutor-0_0",
	"ThreadPoolExecutor-0_1", "ray_listen_error_messages",
	"ThreadPoolExecutor-0_2", "AsyncIO Thread: default", "Thread-2"
};

static char	 fnames[ZFUNC][40];
static int	 ffile[ZFUNC];
static int	 nfunc = NFUNC;
static int	 zipfk;			/* -k: stacks per thread, or 0 */
static double	*zcum;			/* -k: cumulative Zipf weights */
static char	 files[NFILE][112];
static struct frame frames[MAXFRAME];
static int	 nframe;
static int	 order[MAXFRAME];	/* output id -> frame */
static int	 nused;
static struct stack *pool;
static struct thread thr[MAXTHREAD];
static int	 nthr = 8;
static int	 rootframe[3];		/* main roots; worker roots */
static char	*stxt;
static size_t	 stxtlen, stxtcap;
static char	 obuf[OBUFSZ];
static size_t	 olen;

static void
usage(void)
{
	fprintf(stderr, "usage: genpyspy [-r] [-k stacks] [-t threads] "
	    "-m megabytes\n");
	exit(2);
}

/* splitmix64. */
static uint64_t
rnd(uint64_t *s)
{
	uint64_t z;

	z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform integer in [0, n). */
static int
rndn(uint64_t *s, int n)
{
	return (int)((rnd(s) >> 11) % (uint64_t)n);
}

/* Make the files, functions, frames and the call graph between frames. */
static void
genframes(void)
{
	uint64_t s = 1;
	int i, j, k, n;

	for (i = 0; i < NFILE; i++) {
		if (i == 0)
			snprintf(files[i], sizeof(files[i]),
			    "<frozen importlib._bootstrap>");
		else
			snprintf(files[i], sizeof(files[i]), "%s/%s_%s.py",
			    dirs[rndn(&s, (int)(sizeof(dirs) / sizeof(*dirs)))],
			    words[rndn(&s, (int)(sizeof(words) /
			    sizeof(*words)))], words[rndn(&s, (int)(
			    sizeof(words) / sizeof(*words)))]);
	}
	n = (int)(sizeof(words) / sizeof(*words));
	for (i = 0; i < nfunc; i++) {
		ffile[i] = rndn(&s, NFILE);
		if (rndn(&s, 8) == 0)
			snprintf(fnames[i], sizeof(fnames[i]), "%s",
			    special[rndn(&s, (int)(sizeof(special) /
			    sizeof(*special)))]);
		else
			snprintf(fnames[i], sizeof(fnames[i]), "%s%s_%s",
			    rndn(&s, 4) == 0 ? "_" : "",
			    words[rndn(&s, n)], words[rndn(&s, n)]);
	}
	/* Roots: a script's <module>, threading's _bootstrap. */
	ffile[0] = 1, ffile[1] = 2;
	snprintf(fnames[0], sizeof(fnames[0]), "<module>");
	snprintf(fnames[1], sizeof(fnames[1]), "_bootstrap");
	snprintf(fnames[2], sizeof(fnames[2]), "_bootstrap_inner");
	ffile[2] = 2;
	for (i = 0; i < nfunc; i++) {
		k = i < 3 ? 1 : 1 + rndn(&s, 4);
		for (j = 0; j < k; j++) {
			frames[nframe].func = i;
			frames[nframe].line = 1 + rndn(&s, 2000);
			frames[nframe].id = -1;
			nframe++;
		}
	}
	rootframe[0] = 0, rootframe[1] = 1, rootframe[2] = 2;
	for (i = 0; i < nframe; i++)
		for (j = 0; j < NCALLEE; j++)
			frames[i].callee[j] = 3 + rndn(&s, nframe - 3);
}

/*
 * Extend st by a walk down the call graph to depth want; now and then
 * the last few frames repeat, as recursion does.
 */
static void
extend(struct stack *st, int want, uint64_t *s)
{
	int cur, i, l, r, c;

	while (st->depth < want) {
		if (st->depth >= 4 && rndn(s, 25) == 0) {
			l = 1 + rndn(s, 4);
			r = 1 + rndn(s, 4);
			while (r-- > 0 && st->depth + l <= MAXDEPTH)
				for (i = 0; i < l; i++, st->depth++)
					st->fr[st->depth] =
					    st->fr[st->depth - l];
			continue;
		}
		cur = st->fr[st->depth - 1];
		/* Skewed: the first callees are the usual ones. */
		c = rndn(s, NCALLEE);
		c = c < rndn(s, NCALLEE) ? c : rndn(s, NCALLEE);
		st->fr[st->depth++] = frames[cur].callee[c];
	}
}

/* Build the pool of distinct stacks, a tree of shared prefixes per thread. */
static void
build(int total)
{
	uint64_t s = 2;
	struct stack *st, *par;
	int t, k, n, cut, base, want;

	pool = calloc(total, sizeof(*pool));
	if (pool == NULL)
		err(1, NULL);
	n = 0;
	for (t = 0; t < nthr; t++) {
		thr[t].lo = n;
		/* The main thread and the executor own most of the stacks. */
		k = total / (nthr + 2);
		if (t < 2)
			k *= 2;
		if (zipfk > 0)
			k = zipfk;
		if (t == nthr - 1)
			k = total - n;
		base = t == 0 ? 1 : 3;
		for (; k > 0; k--, n++) {
			st = &pool[n];
			if (n == thr[t].lo) {
				if (t == 0)
					st->fr[0] = rootframe[0];
				else {
					st->fr[0] = rootframe[1];
					st->fr[1] = rootframe[2];
					st->fr[2] = frames[rndn(&s, nframe -
					    3) + 3].callee[0];
				}
				st->depth = base;
				extend(st, MINDEPTH + rndn(&s, MAXDEPTH -
				    MINDEPTH + 1), &s);
				continue;
			}
			par = &pool[thr[t].lo + rndn(&s, n - thr[t].lo)];
			cut = base + rndn(&s, par->depth - base + 1);
			if (cut > MINDEPTH + 20)
				cut -= rndn(&s, 20);
			if (cut >= MAXDEPTH)
				cut = MAXDEPTH - 1;
			memcpy(st->fr, par->fr, cut * sizeof(*st->fr));
			st->depth = cut;
			want = MINDEPTH + rndn(&s, MAXDEPTH - MINDEPTH + 1);
			extend(st, want > cut ? want : cut + 1, &s);
		}
		thr[t].hi = n;
	}
}

/* Number st's frames on first use (leaf first) and serialize it. */
static void
intern(struct stack *st)
{
	char num[16];
	int i, f, k;

	for (i = st->depth - 1; i >= 0; i--) {
		f = st->fr[i];
		if (frames[f].id < 0) {
			frames[f].id = nused;
			order[nused++] = f;
		}
	}
	if (stxtlen + (size_t)st->depth * 8 + 8 > stxtcap) {
		stxtcap = stxtcap ? stxtcap * 2 : 1 << 20;
		if ((stxt = realloc(stxt, stxtcap)) == NULL)
			err(1, NULL);
	}
	st->off = stxtlen;
	stxt[stxtlen++] = '[';
	for (i = 0; i < st->depth; i++) {
		k = snprintf(num, sizeof(num), "%s%d", i ? "," : "",
		    frames[st->fr[i]].id);
		memcpy(stxt + stxtlen, num, k);
		stxtlen += k;
	}
	stxt[stxtlen++] = ']';
	stxt[stxtlen++] = ',';
	st->len = (int)(stxtlen - st->off);
}

/* The next sample of t: often the last one again, else a skewed pick. */
static int
pick(struct thread *t, uint64_t *s, int last)
{
	double u;

	if (zipfk > 0)
		return t->lo + zipf((double)(rnd(s) >> 11) /
		    9007199254740992.0);
	if (last >= 0 && rndn(s, 10) < 3)
		return last;
	u = (double)(rnd(s) >> 11) / 9007199254740992.0;
	return t->lo + (int)((t->hi - t->lo) * u * u * u);
}

/* The rank, from 0, whose cumulative Zipf weight first exceeds u. */
static int
zipf(double u)
{
	int lo = 0, hi = zipfk - 1, mid;

	u *= zcum[zipfk - 1];
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (zcum[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Decide each thread's sample count from the byte budget by a dry run
 * of the sampler; the first use of a stack numbers its frames.
 */
static void
plan(long long budget)
{
	long long share, used;
	uint64_t s;
	int t, last;

	/* Frame table: about 110 bytes a frame. */
	budget -= 110LL * nframe + 300LL * nthr;
	for (t = 0; t < nthr; t++) {
		share = budget / (nthr + 2) * (t == 0 ? 3 : 1);
		if (t == nthr - 1)
			share = budget - budget / (nthr + 2) * (nthr + 1);
		s = thr[t].seed = 1000 + (uint64_t)t;
		used = 0;
		last = -1;
		do {
			last = pick(&thr[t], &s, last);
			if (pool[last].len == 0)
				intern(&pool[last]);
			used += pool[last].len + 5;
			thr[t].nsamp++;
		} while (used < share);
	}
}

/* Append n bytes at p to the output buffer, writing it out when full. */
static void
put(const char *p, size_t n)
{
	if (olen + n > OBUFSZ) {
		if (fwrite(obuf, 1, olen, stdout) != olen)
			err(1, "stdout");
		olen = 0;
	}
	if (n > OBUFSZ) {
		if (fwrite(p, 1, n, stdout) != n)
			err(1, "stdout");
		return;
	}
	memcpy(obuf + olen, p, n);
	olen += n;
}

/* Append the string p to the output. */
static void
putstr(const char *p)
{
	put(p, strlen(p));
}

/* Write "profiles": each thread's samples, then its weights. */
static void
writeprofiles(void)
{
	static const char w[] = "0.01,0.01,0.01,0.01,0.01,0.01,0.01,0.01,";
	char hdr[256];
	uint64_t s;
	long i, n;
	int t, last, k;

	putstr("\"profiles\":[");
	for (t = 0; t < nthr; t++) {
		putstr(t ? ",{" : "{");
		snprintf(hdr, sizeof(hdr), "\"type\":\"sampled\",\"name\":"
		    "\"Thread %d \\\"", 4711 + 2 * t);
		putstr(hdr);
		putstr(thr[t].name);
		snprintf(hdr, sizeof(hdr), "\\\"\",\"unit\":\"seconds\","
		    "\"startValue\":0.0,\"endValue\":%ld.%02ld,\"samples\":[",
		    thr[t].nsamp / 100, thr[t].nsamp % 100);
		putstr(hdr);
		s = thr[t].seed;
		last = -1;
		for (i = 0; i < thr[t].nsamp; i++) {
			last = pick(&thr[t], &s, last);
			k = pool[last].len - (i == thr[t].nsamp - 1);
			put(stxt + pool[last].off, k);
		}
		putstr("],\"weights\":[");
		for (n = thr[t].nsamp; n > 0; n -= 8)
			put(w, n > 8 ? sizeof(w) - 1 : (size_t)n * 5 - 1);
		putstr("]}");
	}
	putstr("]");
}

/* Write "shared": the frames in id order. */
static void
writeframes(void)
{
	char buf[256];
	int i, f;

	putstr("\"shared\":{\"frames\":[");
	for (i = 0; i < nused; i++) {
		f = order[i];
		snprintf(buf, sizeof(buf), "%s{\"name\":\"%s\",\"file\":\"%s\","
		    "\"line\":%d,\"col\":null}", i ? "," : "",
		    fnames[frames[f].func], files[ffile[frames[f].func]],
		    frames[f].line);
		putstr(buf);
	}
	putstr("]}");
}

int
main(int argc, char *argv[])
{
	char *end;
	long mb = -1;
	int ch, rev = 0, t;

	while ((ch = getopt(argc, argv, "k:m:rt:")) != -1) {
		switch (ch) {
		case 'k':
			zipfk = (int)strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || zipfk < 1 ||
			    zipfk > 1000000)
				errx(2, "-k: invalid number: %s", optarg);
			break;
		case 'm':
			mb = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || mb < 0 ||
			    mb > 1000000)
				errx(2, "-m: invalid number: %s", optarg);
			break;
		case 'r':
			rev = 1;
			break;
		case 't':
			nthr = (int)strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || nthr < 1 ||
			    nthr > MAXTHREAD)
				errx(2, "-t: invalid number: %s", optarg);
			break;
		default:
			usage();
		}
	}
	if (mb < 0 || optind != argc)
		usage();
	for (t = 0; t < nthr; t++) {
		if (t < (int)(sizeof(tnames) / sizeof(*tnames)))
			snprintf(thr[t].name, sizeof(thr[t].name), "%s",
			    tnames[t]);
		else
			snprintf(thr[t].name, sizeof(thr[t].name),
			    "Thread-%d", t - 4);
	}
	if (zipfk > 0) {
		nfunc = ZFUNC;
		if ((zcum = calloc(zipfk, sizeof(*zcum))) == NULL)
			err(1, NULL);
		for (t = 0; t < zipfk; t++)
			zcum[t] = (t ? zcum[t - 1] : 0) + 1.0 / (t + 1);
	}
	genframes();
	build(zipfk > 0 ? zipfk * nthr : POOL);
	plan(mb * MB);
	putstr("{\"$schema\":\"https://www.speedscope.app/"
	    "file-format-schema.json\",");
	if (rev) {
		writeframes();
		putstr(",");
		writeprofiles();
	} else {
		writeprofiles();
		putstr(",");
		writeframes();
	}
	putstr(",\"activeProfileIndex\":null,\"exporter\":\"py-spy@0.3.14\","
	    "\"name\":\"py-spy profile\"}\n");
	if (fwrite(obuf, 1, olen, stdout) != olen || fflush(stdout) == EOF)
		err(1, "stdout");
	return 0;
}
