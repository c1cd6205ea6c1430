/*
 * input.c: the bytes of an input file, decompressed on the fly when
 * they are gzip (1f 8b) or zstd (28 b5 2f fd) data, told by the magic
 * bytes at the start, or (50-5f) 2a 4d 18, a zstd skippable frame, as
 * pzstd writes first; and sniff(), a guess of what the first bytes of an
 * input are, for the messages of programs given the wrong input.
 *
 * Decompression streams: compressed bytes are read RAWSZ at a time and
 * decompressed straight into the caller's buffer, so memory stays fixed
 * (zlib's 32 KiB window, zstd's frame window).  gzip members may follow
 * one another (as "cat a.gz b.gz" makes them), zstd frames too; their
 * output is joined.  zstd's skippable frames (magic 0x184D2A50 to
 * 0x184D2A5F, a length, that many bytes) give no output, wherever they
 * are; the decoder skips them.  Anything else after a gzip member, a member or
 * frame cut off by the end of the file, and corrupt data are errors
 * that give the offset of the compressed byte where they were found
 * (for zstd, the range of the bytes given to the decoder).
 * Plain input is read with read(2) into the caller's buffer, past the
 * few bytes read first to tell the kind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_createDCtx_advanced */
#include <zstd.h>

#include "util.h"
#include "input.h"

/* zlib's allocator: this file's calloc. */
static voidpf
zalloc_cb(voidpf op, uInt n, uInt sz)
{
	(void)op;
	return calloc(n, sz);
}

/* zlib's deallocator: this file's free. */
static void
zfree_cb(voidpf op, voidpf p)
{
	(void)op;
	free(p);
}

/* zstd's allocator: this file's malloc. */
static void *
zstdalloc(void *op, size_t n)
{
	(void)op;
	return malloc(n);
}

/* zstd's deallocator: this file's free. */
static void
zstdfree(void *op, void *p)
{
	(void)op;
	free(p);
}

static const ZSTD_customMem zstdmem = { zstdalloc, zstdfree, NULL };

#define RAWSZ	(128 * 1024)	/* compressed bytes read at once */
#define MAGICN	4		/* bytes read first, to tell the kind */
#define JSONWS(c)	((c) == ' ' || (c) == '\t' || (c) == '\r' || \
			    (c) == '\n')

struct input {
	int		 fd;
	enum input_kind	 kind;
	unsigned char	*raw;		/* bytes read from fd */
	size_t		 rp, re;	/* unused ones: raw[rp..re) */
	size_t		 rawcap;
	int		 eof;		/* fd is at its end */
	int		 failed;
	unsigned long long rawtotal;	/* bytes read from fd */
	z_stream	 z;
	int		 zinit;
	int		 inmember;	/* a gzip member or zstd frame open */
	ZSTD_DCtx	*zd;
	char		 head[INPUT_HEADMAX];
	size_t		 headlen;
	char		 errmsg[200];
};

static int	 rawfill(struct input *);
static ssize_t	 fail(struct input *, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));
static ssize_t	 readgzip(struct input *, unsigned char *, size_t);
static ssize_t	 readzstd(struct input *, unsigned char *, size_t);
static void	 keephead(struct input *, const void *, size_t);

/* Record an error; returns -1. */
static ssize_t
fail(struct input *in, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(in->errmsg, sizeof(in->errmsg), fmt, ap);
	va_end(ap);
	in->failed = 1;
	return -1;
}

/* The offset in the file of the next compressed byte to use. */
#define RAWOFF(in)	((in)->rawtotal - ((in)->re - (in)->rp))

/*
 * Read more bytes of the file behind the unused ones; 1 if some came,
 * 0 at the end of the file, -1 on a read error.
 */
static int
rawfill(struct input *in)
{
	ssize_t r;

	if (in->rp == in->re)
		in->rp = in->re = 0;
	else if (in->re == in->rawcap) {
		memmove(in->raw, in->raw + in->rp, in->re - in->rp);
		in->re -= in->rp;
		in->rp = 0;
	}
	if (in->eof)
		return 0;
	while ((r = read(in->fd, in->raw + in->re, in->rawcap - in->re)) ==
	    -1 && errno == EINTR)
		continue;
	if (r == -1) {
		fail(in, "read error: %s", strerror(errno));
		return -1;
	}
	if (r == 0)
		in->eof = 1;
	in->re += (size_t)r;
	in->rawtotal += (unsigned long long)r;
	return r > 0;
}

struct input *
input_open(int fd)
{
	struct input *in;
	const unsigned char *m;

	in = xcalloc(1, sizeof(*in));
	in->fd = fd;
	in->rawcap = MAGICN;
	in->raw = xmalloc(in->rawcap);
	while (in->re < MAGICN && rawfill(in) == 1)
		continue;
	if (in->failed)
		return in;
	m = in->raw;
	if (in->re >= 2 && m[0] == 0x1f && m[1] == 0x8b)
		in->kind = IN_GZIP;
	else if (in->re >= 4 && ((m[0] == 0x28 && m[1] == 0xb5 &&
	    m[2] == 0x2f && m[3] == 0xfd) || ((m[0] & 0xf0) == 0x50 &&
	    m[1] == 0x2a && m[2] == 0x4d && m[3] == 0x18)))
		in->kind = IN_ZSTD;
	if (in->kind == IN_PLAIN)
		return in;
	in->rawcap = RAWSZ;
	in->raw = xreallocarray(in->raw, in->rawcap, 1);
	if (in->kind == IN_GZIP) {
		/*
		 * The decoders allocate through this file's malloc and
		 * free, so that an allocator wrapping them (the fuzzers')
		 * sees their memory too.  15 + 16: a gzip wrapper, the
		 * largest window.
		 */
		in->z.zalloc = zalloc_cb;
		in->z.zfree = zfree_cb;
		in->z.opaque = Z_NULL;
		/* A failure is the first read's error. */
		if (inflateInit2(&in->z, 15 + 16) != Z_OK)
			fail(in, "inflateInit2 failed");
		else
			in->zinit = 1;
	} else if ((in->zd = ZSTD_createDCtx_advanced(zstdmem)) == NULL)
		fail(in, "ZSTD_createDCtx failed");
	return in;
}

/* Keep the first bytes handed out, for input_head(). */
static void
keephead(struct input *in, const void *p, size_t n)
{
	if (in->headlen >= INPUT_HEADMAX)
		return;
	if (n > INPUT_HEADMAX - in->headlen)
		n = INPUT_HEADMAX - in->headlen;
	memcpy(in->head + in->headlen, p, n);
	in->headlen += n;
}

ssize_t
input_read(struct input *in, void *buf, size_t n)
{
	ssize_t r;
	size_t k;

	if (in->failed)
		return -1;
	switch (in->kind) {
	case IN_GZIP:
		r = readgzip(in, buf, n);
		break;
	case IN_ZSTD:
		r = readzstd(in, buf, n);
		break;
	default:
		/* The bytes read to tell the kind, and more behind them. */
		k = in->re - in->rp < n ? in->re - in->rp : n;
		memcpy(buf, in->raw + in->rp, k);
		in->rp += k;
		if (k == n || (k > 0 && in->eof)) {
			r = (ssize_t)k;
			break;
		}
		while ((r = read(in->fd, (char *)buf + k, n - k)) == -1 &&
		    errno == EINTR)
			continue;
		if (r == -1) {
			if (k > 0) {
				/* The error again at the next call. */
				r = (ssize_t)k;
				break;
			}
			return fail(in, "read error: %s", strerror(errno));
		}
		in->rawtotal += (unsigned long long)r;
		r += (ssize_t)k;
		break;
	}
	if (r > 0)
		keephead(in, buf, (size_t)r);
	return r;
}

/* Decompress gzip members into buf[0..n). */
static ssize_t
readgzip(struct input *in, unsigned char *buf, size_t n)
{
	z_stream *z = &in->z;
	size_t got;
	int ret, r;

	if (n > UINT_MAX)
		n = UINT_MAX;
	z->next_out = buf;
	z->avail_out = (unsigned)n;
	got = 0;
	for (;;) {
		if (!in->inmember) {
			/* The next member, if any: its magic bytes. */
			while (in->re - in->rp < 2 && (r = rawfill(in)) != 0)
				if (r == -1)
					return -1;
			if (in->rp == in->re)
				return (ssize_t)got;
			if (in->re - in->rp < 2 || in->raw[in->rp] != 0x1f ||
			    in->raw[in->rp + 1] != 0x8b)
				return fail(in, "gzip: trailing garbage at "
				    "compressed byte %llu", RAWOFF(in));
			if (inflateReset(z) != Z_OK)
				return fail(in, "gzip: inflateReset failed");
			in->inmember = 1;
		}
		z->next_in = in->raw + in->rp;
		z->avail_in = (unsigned)(in->re - in->rp);
		ret = inflate(z, Z_NO_FLUSH);
		in->rp = (size_t)(z->next_in - in->raw);
		got = n - z->avail_out;
		if (ret == Z_STREAM_END) {
			in->inmember = 0;
			if (got > 0)
				return (ssize_t)got;
			continue;
		}
		if (ret != Z_OK && ret != Z_BUF_ERROR)
			return fail(in, "gzip: corrupt data at compressed "
			    "byte %llu: %s", RAWOFF(in), z->msg != NULL ?
			    z->msg : "error");
		if (got > 0)
			return (ssize_t)got;
		if (in->rp < in->re)
			continue;
		if ((r = rawfill(in)) == -1)
			return -1;
		if (r == 0)
			return fail(in, "gzip: truncated data: the input ends "
			    "inside a member, after %llu compressed bytes",
			    in->rawtotal);
	}
}

/* Decompress zstd frames into buf[0..n). */
static ssize_t
readzstd(struct input *in, unsigned char *buf, size_t n)
{
	ZSTD_inBuffer zi;
	ZSTD_outBuffer zo;
	size_t ret, pos;
	int r;

	zo.dst = buf;
	zo.size = n;
	zo.pos = 0;
	for (;;) {
		zi.src = in->raw;
		zi.size = in->re;
		zi.pos = pos = in->rp;
		ret = ZSTD_decompressStream(in->zd, &zo, &zi);
		in->rp = zi.pos;
		/* zstd does not say where: the bytes it was given. */
		if (ZSTD_isError(ret))
			return fail(in, "zstd: corrupt data in compressed "
			    "bytes %llu to %llu: %s", in->rawtotal -
			    (in->re - pos), in->rawtotal,
			    ZSTD_getErrorName(ret));
		/* A call that moves nothing tells nothing of frames. */
		if (zo.pos > 0 || zi.pos > pos)
			in->inmember = ret != 0;
		if (zo.pos > 0)
			return (ssize_t)zo.pos;
		if (in->rp < in->re)
			continue;
		if ((r = rawfill(in)) == -1)
			return -1;
		if (r == 0) {
			if (in->inmember)
				return fail(in, "zstd: truncated data: the "
				    "input ends inside a frame, after %llu "
				    "compressed bytes", in->rawtotal);
			return 0;
		}
	}
}

const char *
input_errmsg(const struct input *in)
{
	return in->errmsg;
}

enum input_kind
input_kind(const struct input *in)
{
	return in->kind;
}

const char *
input_kindname(enum input_kind k)
{
	return k == IN_GZIP ? "gzip" : k == IN_ZSTD ? "zstd" : "plain";
}

unsigned long long
input_rawpos(const struct input *in)
{
	return in->rawtotal;
}

const char *
input_head(const struct input *in, size_t *n)
{
	*n = in->headlen;
	return in->head;
}

void
input_close(struct input *in)
{
	if (in == NULL)
		return;
	if (in->zinit)
		inflateEnd(&in->z);
	ZSTD_freeDCtx(in->zd);
	free(in->raw);
	free(in);
}

/* Whether s[0..n) holds the string k. */
static int
has(const char *s, size_t n, const char *k)
{
	return memmem(s, n, k, strlen(k)) != NULL;
}

/* Whether line s[0..n) is an sst(5) record: 7 fields, a unit 4th. */
static int
sstline(const char *s, size_t n)
{
	const char *f[8], *e = s + n;
	size_t i = 0;

	/* The compact form's \D, \F and \R lines. */
	if (cp_isline(s, n))
		return 1;
	f[i++] = s;
	for (; s < e && i < 8; s++)
		if (*s == '\t')
			f[i++] = s + 1;
	if (i != 7)
		return 0;
	n = (size_t)(f[4] - f[3] - 1);
	return (n == 7 && memcmp(f[3], "seconds", 7) == 0) ||
	    (n == 4 && memcmp(f[3], "none", 4) == 0) ||
	    (n == 5 && memcmp(f[3], "bytes", 5) == 0);
}

/*
 * Whether line s[0..n) is a perf script frame: "\t<hex> <symbol>", or
 * not indented (as old perf versions write them) "<hex> <symbol> (dso)".
 */
static int
perfframe(const char *s, size_t n)
{
	const char *e = s + n, *h;
	int indent;

	while (n > 0 && s[n - 1] == '\r')
		e = s + --n;
	if (n == 0)
		return 0;
	indent = *s == ' ' || *s == '\t';
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	for (h = s; s < e && ((*s >= '0' && *s <= '9') ||
	    (*s >= 'a' && *s <= 'f')); s++)
		continue;
	if (s == h || s == e || *s != ' ')
		return 0;
	return indent || (s - h >= 6 && e[-1] == ')');
}

/* Whether line s[0..n) is folded: "frame;...;frame count". */
static int
foldedline(const char *s, size_t n)
{
	const char *sp, *e = s + n;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		e = s + --n;
	if (n == 0 || *s == ' ' || *s == '\t' ||
	    (sp = memrchr(s, ' ', n)) == NULL || sp == s)
		return 0;
	for (sp++; sp < e && ((*sp >= '0' && *sp <= '9') || *sp == '.');
	    sp++)
		continue;
	return sp == e && e[-1] != ' ';
}

/*
 * Whether s[0..n) starts as a pprof profile.proto (gzip taken off by
 * now): a byte no text has (a control byte or one of 0x80 and up), so
 * that lines of text are not taken; then a run of fields, each of the
 * Profile message's numbers (1 to 15) with its wire type (2 for the
 * messages and strings, 0 for the numbers, 13 either) or a field
 * unknown to it (16 and up, not a group), each whole but one running
 * past the bytes seen.  Three such fields, or all the bytes seen, will
 * do: a profile cut or corrupt further on still looks like one.
 */
static int
pprofhead(const unsigned char *s, size_t n)
{
	/* Each field's wire type: 2 or 0, 3 for 13 (either). */
	static const unsigned char wire[16] = { 9, 2, 2, 2, 2, 2, 2, 0, 0,
	    0, 0, 2, 0, 3, 0, 2 };
	const unsigned char *p = s, *e = s + n;
	uint64_t t, v;
	size_t i, k, nf = 0;
	int bin = 0, w;

	for (i = 0; i < n && !bin; i++)
		bin = s[i] >= 0x80 || (s[i] < 0x20 && s[i] != '\t' &&
		    s[i] != '\n' && s[i] != '\r');
	while (bin && p < e) {
		/* The tag, then the number or the length of the bytes. */
		for (i = 0; i < 2; i++) {
			for (v = 0, k = 0; p < e && k < 10; k++) {
				v |= (uint64_t)(*p & 0x7f) << (7 * k);
				if (!(*p++ & 0x80))
					break;
			}
			if (k == 10 || (p == e && (p[-1] & 0x80)))
				return nf >= 3 || (k < 10 && nf > 0);
			if (i == 0)
				t = v;
			w = (int)(t & 7);
			if (i == 0 && (t >> 3 == 0 || (t >> 3 < 16 ? w !=
			    wire[t >> 3] && !(wire[t >> 3] == 3 && w != 5) :
			    (w != 0 && w != 1 && w != 2 && w != 5))))
				return nf >= 3;
			if (i == 0 && (w == 1 || w == 5)) {
				v = w == 1 ? 8 : 4;
				break;
			}
		}
		nf++;
		if (w != 0 && v >= (uint64_t)(e - p))
			return 1;	/* runs past the bytes seen */
		if (w != 0)
			p += v;
	}
	return bin && nf > 0;
}

/* A JSON document from its first bytes, at s (its '{' or '['). */
static enum sniff
sniffjson(const char *s, size_t n)
{
	const char *e = s + n;

	if (*s == '[') {
		for (s++; s < e && JSONWS(*s); s++)
			continue;
		return s < e && *s == '{' && has(s, (size_t)(e - s), "\"ph\"") ?
		    SN_TRACEARRAY : SN_JSON;
	}
	if (has(s, n, "\"traceEvents\""))
		return SN_TRACE;
	if (has(s, n, "\"profiles\"") || has(s, n, "speedscope"))
		return SN_SPEEDSCOPE;
	if (has(s, n, "\"nodes\"") && has(s, n, "\"callFrame\""))
		return SN_CPUPROFILE;
	if ((has(s, n, "\"meta\"") && has(s, n, "\"threads\"")) ||
	    (has(s, n, "\"ticks\"") && has(s, n, "\"profile\"")))
		return SN_FIREFOX;
	if (has(s, n, "\"recording\""))
		return SN_SAFARI;
	return SN_JSON;
}

enum sniff
sniff(const char *s, size_t n)
{
	const char *e = s + n, *nl;
	size_t len, lines = 0, nsst = 0, nframe = 0, nfold = 0;

	if (pprofhead((const unsigned char *)s, n))
		return SN_PPROF;
	if (n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		s += 3;
	while (s < e && JSONWS(*s))
		s++;
	if (s == e)
		return SN_EMPTY;
	if ((size_t)(e - s) >= 7 && memcmp(s, "PERFILE", 7) == 0)
		return SN_PERFDATA;
	if (memchr(s, '\0', (size_t)(e - s)) != NULL)
		return SN_BINARY;
	if (*s == '{' || *s == '[')
		return sniffjson(s, (size_t)(e - s));
	/* Whole lines only, but the first even if it is cut off. */
	for (; s < e; s = nl + 1) {
		if ((nl = memchr(s, '\n', (size_t)(e - s))) == NULL) {
			if (lines > 0)
				break;
			nl = e;
		}
		len = (size_t)(nl - s);
		if (len == 0 || *s == '#')
			continue;
		lines++;
		nsst += sstline(s, len);
		nframe += perfframe(s, len);
		nfold += foldedline(s, len);
	}
	if (nsst > 0 && 2 * nsst >= lines)
		return SN_SST;
	if (nframe > 0)
		return SN_PERF;
	if (nfold > 0 && 2 * nfold >= lines)
		return SN_FOLDED;
	return SN_TEXT;
}

const char *
sniff_what(enum sniff k)
{
	static const char *what[] = {
		[SN_EMPTY] = "empty",
		[SN_SST] = "an sst stream",
		[SN_PERF] = "perf script text",
		[SN_PERFDATA] = "a perf.data file",
		[SN_PPROF] = "a pprof profile (profile.proto)",
		[SN_FOLDED] = "folded stacks",
		[SN_SPEEDSCOPE] = "speedscope JSON",
		[SN_TRACE] = "a Chrome trace (traceEvents)",
		[SN_TRACEARRAY] = "a Chrome trace (an array of events)",
		[SN_CPUPROFILE] = "a .cpuprofile (nodes and samples)",
		[SN_FIREFOX] = "a Firefox profile",
		[SN_SAFARI] = "a Safari timeline recording",
		[SN_JSON] = "JSON",
		[SN_BINARY] = "binary data",
		[SN_TEXT] = "text"
	};

	return what[k];
}

const char *
sniff_reader(enum sniff k)
{
	switch (k) {
	case SN_SST:
		return "sst filters read it";
	case SN_PERF:
		return "perf2sst reads it";
	case SN_PERFDATA:
		return "perf script turns it into text for perf2sst";
	case SN_FOLDED:
		return "collapsed2sst reads it";
	case SN_SPEEDSCOPE:
		return "sst-flatten reads it";
	case SN_TRACE:
	case SN_TRACEARRAY:
		return "trace2sst reads it";
	case SN_CPUPROFILE:
		return "cpuprofile2sst reads it";
	case SN_PPROF:
		return "pprof2sst reads it";
	case SN_FIREFOX:
	case SN_SAFARI:
		return "not supported by sst";
	default:
		return NULL;
	}
}

const char *
sniff_says(enum sniff k, char *buf, size_t n)
{
	if (sniff_reader(k) == NULL)
		return NULL;
	snprintf(buf, n, "this looks like %s: %s", sniff_what(k),
	    sniff_reader(k));
	return buf;
}

/* Whether s[0..n) is a line of the compact form (sst(5)): \D, \F, \R. */
int
cp_isline(const char *s, size_t n)
{
	return n >= 2 && s[0] == '\\' && (s[1] == 'D' || s[1] == 'F' ||
	    s[1] == 'R') && (n == 2 || s[2] == '\t');
}
