/*
 * input.h: the bytes of an input file, decompressed when they are gzip
 * or zstd data (told by their magic bytes), and a guess of what kind of
 * profile the first bytes of an input are (sniffing), so that a program
 * can say which program reads what it cannot.
 */
#ifndef INPUT_H
#define INPUT_H

#include <stddef.h>
#include <sys/types.h>

/* How the input is stored. */
enum input_kind {
	IN_PLAIN,
	IN_GZIP,
	IN_ZSTD
};

/* The first bytes of an input kept for sniffing. */
#define INPUT_HEADMAX	4096

struct input;
/*
 * Read fd (not closed by input_close()): its first bytes are read at
 * once to tell the kind; a read error then, or a decoder that cannot
 * be made, is the first input_read()'s.
 */
struct input *input_open(int);
/*
 * Read up to n (> 0) decompressed bytes; the count, 0 at the end, or
 * -1 on an error, which input_errmsg() describes with its place in the
 * compressed input.  After -1 every call returns -1.
 */
ssize_t	 input_read(struct input *, void *, size_t);
const char *input_errmsg(const struct input *);
enum input_kind input_kind(const struct input *);
/* "gzip", "zstd" or "plain". */
const char *input_kindname(enum input_kind);
/* The bytes read from the file so far (compressed ones, if it is). */
unsigned long long input_rawpos(const struct input *);
/* The first (up to INPUT_HEADMAX) decompressed bytes handed out. */
const char *input_head(const struct input *, size_t *);
void	 input_close(struct input *);

/* What the first bytes of an input look like. */
enum sniff {
	SN_EMPTY,		/* nothing, or white space only */
	SN_SST,			/* an sst(5) stream */
	SN_PERF,		/* perf script text */
	SN_PERFDATA,		/* perf.data (binary) */
	SN_PPROF,		/* pprof's profile.proto */
	SN_FOLDED,		/* folded stacks */
	SN_SPEEDSCOPE,		/* speedscope JSON */
	SN_TRACE,		/* Chrome trace events (object) */
	SN_TRACEARRAY,		/* Chrome trace events (bare array) */
	SN_CPUPROFILE,		/* Chrome/node .cpuprofile */
	SN_FIREFOX,		/* Firefox profiler JSON */
	SN_SAFARI,		/* Safari timeline recording JSON */
	SN_JSON,		/* other JSON */
	SN_BINARY,		/* other binary data */
	SN_TEXT			/* other text */
};
/* Guess from the first n bytes of an input (at EOF or not). */
enum sniff sniff(const char *, size_t);
/* What it is, for a message: "perf script text". */
const char *sniff_what(enum sniff);
/*
 * What reads it, for a message: "perf2sst reads it", "not supported by
 * sst"; NULL if nothing is known.
 */
const char *sniff_reader(enum sniff);
/*
 * "this looks like WHAT: READER" into buf[0..n), for a message; NULL
 * when sniff_reader() knows nothing.
 */
const char *sniff_says(enum sniff, char *, size_t);

/*
 * Whether s[0..n) is a line of the compact form of the stream (sst(5),
 * compact.h): sniffing needs it, so it is here.
 */
int	 cp_isline(const char *, size_t);

#endif
