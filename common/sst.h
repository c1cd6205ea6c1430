/*
 * sst.h: the library every sst filter links (libsst.a).
 *
 * One module per concern: util.c (x-helpers, xfshut), buf.c (growable
 * bytes), json.c (streaming JSON tokenizer), rec.c (the sst stream),
 * esc.c (field escaping), htab.c (interning hash table), sort.c (stable
 * sort), fmt.c (number formatting and Python-compatible sums),
 * spill.c (append-only spill buffer backed by a temporary file),
 * lines.c (fast line reader), spd.c (speedscope reader), progress.c
 * (a progress line for long runs), jsonw.c (JSON output as Python
 * writes it), tally.c (totals per key), chain.c (chain rows), perf.c
 * (perf script text), spdw.c (speedscope writer), folded.c (folded
 * stacks), catmap.c (categories of functions).
 */
#ifndef SST_H
#define SST_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef __dead
#define __dead __attribute__((__noreturn__))
#endif

/* util.c */
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
/* The growth of arrays: doubling from a first capacity (see util.c). */
size_t	 growcap(size_t, size_t, size_t);
size_t	 xgrowcap(size_t, size_t, size_t);
void	*xgrow(void *, size_t *, size_t, size_t, size_t);
/* For big arrays: huge pages from HUGEPAGE bytes up (see util.c). */
#define HUGEPAGE	(2 << 20)
void	*xhuge(size_t, size_t);
void	*xhugezero(size_t, size_t);
void	*xhugegrow(void *, size_t, size_t, size_t);
/* The heap in huge pages, grown HEAPPAD bytes at a time (util.c). */
#define HEAPPAD	(32 << 20)
int	 heap_huge(void);
char	*xstrdup(const char *);
void	*xmemdup(const void *, size_t);
FILE	*xfopen(const char *, const char *);
int	 xopen(const char *);
void	 xfshut(FILE *, const char *);
#define BIGWRITE	(32 * 1024)
void	 xfwrite(const void *, size_t, FILE *, const char *);
void	 sst_init(void);
/* Usage text: with help to stdout and exit 0, else to stderr, exit 2. */
__dead void xusage(int, const char *);
/* Call usage(1) when "--help" comes before any "--" in argv. */
void	 sst_longhelp(int, char *[], void (*)(int));

/* buf.c: a growable byte buffer; data is always NUL-terminated */
struct buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
};
void	 buf_init(struct buf *);
void	 buf_free(struct buf *);
void	 buf_reset(struct buf *);
void	 buf_grow(struct buf *, size_t);
void	 buf_add(struct buf *, const void *, size_t);
void	 buf_addc(struct buf *, int);
void	 buf_adds(struct buf *, const char *);
void	 buf_printf(struct buf *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
void	 buf_vprintf(struct buf *, const char *, va_list)
	    __attribute__((__format__(__printf__, 2, 0)));

/* lines.c: read lines from a file descriptor through a large buffer */
struct lines;
struct lines *lines_open(int, const char *);
/*
 * Returns a pointer to the next line without its newline, or NULL at
 * the end or on an error (a line too long, a NUL byte, a failed read):
 * then lines_error() is its message "NAME:LINE: what", else NULL.
 */
char	*lines_next(struct lines *, size_t *);
const char *lines_error(const struct lines *);
/* lines_next(), exiting 1 with the message ("prog: " before it). */
char	*xlines_next(struct lines *, size_t *);
unsigned long long lines_lineno(const struct lines *);
const char *lines_name(const struct lines *);
/* The first bytes read (up to INPUT_HEADMAX), for sniff() in input.h. */
const char *lines_head(const struct lines *, size_t *);
void	 lines_close(struct lines *);

/* progress.c: a progress line on standard error for long runs */
struct progress;
/*
 * For input fd called name; force 1: show it, 0: never, -1: only if
 * standard error is a terminal and standard output is not.  NULL when
 * there is none to show.
 */
struct progress *progress_open(int, const char *, int);
/* The first n bytes of the input have been read. */
void	 progress_update(struct progress *, unsigned long long);
/*
 * The same, cheap enough for every line (the clock is read once in 256
 * calls): of a regular file, the descriptor's offset is taken instead of
 * n (so a compressed file's percentage is right), else n.
 */
void	 progress_poll(struct progress *, unsigned long long);
/* Counts are of unit ("rows"), total of them (0: unknown), not bytes. */
void	 progress_total(struct progress *, unsigned long long, const char *);
/* The input is file i (from 1) of the n given. */
void	 progress_file(struct progress *, size_t, size_t);
void	 progress_close(struct progress *);
/* Take the line off the screen before a message. */
void	 progress_hide(void);

/* json.c: pull tokenizer over a refillable buffer */
enum json_tok {
	JT_ERROR = -1,
	JT_EOF = 0,
	JT_OBJ,		/* { */
	JT_OBJ_END,	/* } */
	JT_ARR,		/* [ */
	JT_ARR_END,	/* ] */
	JT_KEY,		/* "name": (value follows) */
	JT_STR,
	JT_NUM,
	JT_TRUE,
	JT_FALSE,
	JT_NULL
};
#define JSON_MAXDEPTH	1024
#define JSON_MAXTOKEN	(64UL << 20)
/*
 * The deepest nesting of spans (trace2sst, nsys2sst) or of a profile's
 * nodes (cpuprofile2sst) a producer accepts: one level more is a located
 * error.  A record carries its whole stack, so output grows with the
 * square of the depth; 4,096 levels (four times Python's default
 * recursion limit) keep that bounded.
 */
#define SST_MAXDEPTH	4096
/* The longest line a line reader accepts (as JSON_MAXTOKEN). */
#define SST_MAXLINE	(64UL << 20)
struct json;
struct json *json_open(int, const char *);
struct json *json_open_mem(const void *, size_t, const char *);
void	 json_close(struct json *);
enum json_tok json_next(struct json *);
/* Text of the last KEY or STR (decoded, NUL-terminated) or NUM (raw). */
const char *json_text(const struct json *, size_t *);
/* Depth of the current container after the last token (0 = top level). */
int	 json_depth(const struct json *);
/* The last NUM as a double / as an integer; 0 on success, -1 if not. */
int	 json_double(const struct json *, double *);
int	 json_int(const struct json *, long long *);
/* Skip the value whose first token was just returned. */
int	 json_skip(struct json *, enum json_tok);
/* Position of the last token start: byte offset, line, column (1-based). */
unsigned long long json_offset(const struct json *);
unsigned long long json_line(const struct json *);
unsigned long long json_col(const struct json *);
/* The input's name for messages ("<stdin>" for standard input). */
const char *json_name(const struct json *);
/*
 * The descriptor of a plain regular file, whose bytes can be read again
 * with pread(2) at *base plus json_offset()'s offsets; else -1.
 */
int	 json_reread(const struct json *, off_t *);
void	 json_lazyahead(struct json *, int);
void	 json_kick(struct json *);
/* The first bytes read (up to INPUT_HEADMAX), for sniff() in input.h. */
const char *json_head(const struct json *, size_t *);
/* Message for the last JT_ERROR. */
const char *json_errmsg(const struct json *);
/*
 * The member keys of an object, for the document readers.  json_key():
 * the next token, and when it is a JT_KEY its text into k (size bytes;
 * a key of size bytes or more, or one holding a NUL, reads as "" and so
 * matches nothing), else k is "": JT_OBJ_END at the end of the object,
 * JT_ERROR on an error (json_errmsg()).  json_member(): json_key(), and
 * after a key the first token of its value instead (or JT_ERROR).
 */
enum json_tok json_key(struct json *, char *, size_t);
enum json_tok json_member(struct json *, char *, size_t);
/* Report "prog: NAME:LINE:COL: message" and exit 1. */
__dead void xjson_fail(struct json *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
/* Total bytes consumed so far (for progress). */
unsigned long long json_consumed(const struct json *);
/* Report the bytes read to pr (NULL: none) as they are read. */
void	 json_setprogress(struct json *, struct progress *);
/*
 * Right after a JT_ARR: point at the bytes from after the '[' up to the
 * first ']' after it and return 0, or -1 if that is not in the buffer.
 * The bytes are not checked: they are the array's elements only if they
 * hold no '[', '{' or '"'.  They stay valid until the next call, and the
 * tokenizer does not move: go on with json_next() or, if the bytes are
 * known to be the elements of a valid array and to hold no newline (for
 * instance equal to bytes read token by token before), move past the
 * ']' with json_rawskip(their length), as if every token up to the
 * JT_ARR_END had been read (-1 if the position is wrong).
 */
int	 json_rawarray(struct json *, const char **, size_t *);
int	 json_rawskip(struct json *, size_t);
/*
 * Where json_next() would return the JT_ARR of an element of an array:
 * the raw bytes of up to max arrays from there on (as json_rawarray()
 * gives them, each up to the first ']' after its '['), one after the
 * other while ",[" lies between, as many as are in the buffer; returns
 * how many (0 elsewhere, or if a blank comes first).  Nothing moves and
 * nothing is read: go on with json_next() or, if the first n are known
 * to be valid arrays without a newline, move past them with
 * json_rawtake(n).  json_rawplace() gives the offset of the '[' of one
 * of them (and its line and column, once those before it are known to
 * hold no newline).
 */
struct json_raw {
	const char	*p;
	size_t		 len;
	uint64_t	 hash;		/* ht_hashto() of its bytes and ']' */
};
size_t	 json_rawarrays(struct json *, struct json_raw *, size_t);
int	 json_rawtake(struct json *, const struct json_raw *, size_t);
unsigned long long json_rawplace(const struct json *,
	    const struct json_raw *, unsigned long long *,
	    unsigned long long *);
/*
 * Right after a JT_NUM element of an array that a ',' follows: move past
 * the elements after it that are spelled the same and followed by a ','
 * (as many as the buffer holds, max at most), as if each had been read
 * with json_next(); returns how many.  The last one's JT_NUM stays the
 * last token read.
 */
size_t	 json_skipsame(struct json *, size_t);

/* esc.c: the stream's escaping (see sst(5)) */
void	 esc_add(struct buf *, const char *, size_t);
/* The same, but \e (the empty name) when n is 0, as in stacks. */
void	 esc_name(struct buf *, const char *, size_t);
/* Unescape in place into dst (dst may equal src); returns length. */
size_t	 esc_decode(char *, const char *, size_t);
/* Check that s is a well-formed escaped field (no control byte, TAB
 * included, no bad escape); 0 ok, -1 not. */
int	 esc_valid(const char *, size_t);
/* The same, and (if not NULL) the count of ';' in it. */
int	 esc_scan(const char *, size_t, size_t *);

/* rec.c: the sst stream */
enum sst_unit {
	U_SECONDS,
	U_NONE,
	U_BYTES
};
struct sst_rec {
	const char	*thread;	/* escaped, as in the stream */
	size_t		 threadlen;
	uint64_t	 samples;
	double		 weight;
	enum sst_unit	 unit;
	int		 hasperiod;
	double		 period;
	const char	*stack;		/* escaped frames joined by ';' */
	size_t		 stacklen;
	const char	*locs;		/* escaped file:line:col joined by ';' */
	size_t		 locslen;
	int		 hasstart;	/* the optional eighth field */
	double		 start;		/* seconds from the profile's start */
	const struct sst_frames *frames; /* or NULL: see below */
};
/*
 * A producer may hand out a record's stack as frame numbers of its own
 * instead of stack and locs (empty then): the compact writer (compact.h)
 * writes each frame's text once, got from text().
 */
struct sst_frames {
	const uint32_t	*ids;		/* root first */
	size_t		 n;
	void		(*text)(const void *, uint32_t, const char **,
			    size_t *, const char **, size_t *);
	const void	*src;		/* text()'s first argument */
	uint64_t	 serial;	/* of the numbering (compact.h) */
};
struct sst_reader;
struct sst_reader *rec_open(int, const char *);
/*
 * A reader of the file path (NULL or "-": standard input), which
 * rec_close() closes; NULL with "PATH: why" in msg if it cannot be
 * opened.
 */
struct sst_reader *rec_openfile(const char *, char *, size_t);
/*
 * 1: a record was read; 0: end of input; -1 on malformed input (or one
 * of lines_next()'s errors), and then rec_error() is the message
 * "NAME:LINE: what".  When the first line is no record but the input
 * looks like another format (input.h's sniff()), the message names the
 * program to use.  An error ends the input: 0 from then on.
 */
int	 rec_read(struct sst_reader *, struct sst_rec *);
const char *rec_error(const struct sst_reader *);
/*
 * An error of the program's about the last record: rec_error() becomes
 * "NAME:LINE: " and the message, and the input ends; returns -1.
 */
int	 rec_seterror(struct sst_reader *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
/* rec_read(), exiting 1 with the message ("prog: " before it). */
int	 xrec_read(struct sst_reader *, struct sst_rec *);
void	 rec_close(struct sst_reader *);
/* The line of the last record read, as it is (no newline). */
const char *rec_line(const struct sst_reader *, size_t *);
/*
 * The caller reads no stack or locs of the records (nor rec_line()'s
 * text, which still has them): in the compact form they are left empty
 * and not built.
 */
void	 rec_nostacks(struct sst_reader *);
/*
 * The leaf frame of the last record read, rec, and its location entry
 * (empty when the record has no locations); NULL when it has no frames.
 * Works after rec_nostacks().
 */
const char *rec_leaf(const struct sst_reader *, const struct sst_rec *,
	    size_t *, const char **, size_t *);
const char *rec_unitname(enum sst_unit);
int	 rec_parseunit(const char *, size_t, enum sst_unit *);
void	 rec_write(FILE *, const struct sst_rec *);
/* Fields samples..period of r, TAB-separated, into buf; the length. */
#define REC_NUMSZ	(3 * FMTBUF + 32)
size_t	 rec_nums(char *, const struct sst_rec *);
/* Parse one line; 0 ok, else -1 with a static message in *why. */
int	 rec_parse(char *, size_t, struct sst_rec *, const char **);
/* Its parts: fields thread..period (f[0..5)); the start field (NULL:
 * none) and the checks of a whole record's numbers (compact.c). */
int	 rec_head(char *const *, const size_t *, struct sst_rec *,
	    const char **);
int	 rec_tail(const char *, size_t, struct sst_rec *, const char **);
/*
 * From now on stop with an error at a record with samples whose unit
 * differs from *unit, naming both; *unit is -1 until such a record sets
 * it.  Readers of several inputs share one *unit (for reducers that add
 * weights); records of 0 samples (thread declarations) add nothing.
 */
void	 rec_oneunit(struct sst_reader *, int *);
/* Report "prog: NAME:LINE: message" about the last record; exit 1. */
__dead void xrec_fail(struct sst_reader *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
/* Number of frames in a stack/locs field, and the last one. */
size_t	 rec_nframes(const char *, size_t);
const char *rec_last(const char *, size_t, size_t *);
/* acc plus the weight of r, sample by sample as Python sums it. */
double	 rec_addw(double, const struct sst_rec *);

/* htab.c: interning hash table, ids are dense and in first-seen order */
struct htab;
struct htab *ht_new(void);
void	 ht_free(struct htab *);
/* Empties it, keeping the memory its keys took. */
void	 ht_clear(struct htab *);
size_t	 ht_intern(struct htab *, const void *, size_t, int *);
/* The same, given the key's ht_hash(). */
size_t	 ht_internh(struct htab *, const void *, size_t, uint64_t, int *);
/* Returns the id of key, or (size_t)-1 if absent. */
size_t	 ht_find(const struct htab *, const void *, size_t);
/* The same, given the key's ht_hash() (a wrong one finds nothing). */
size_t	 ht_findh(const struct htab *, const void *, size_t, uint64_t);
/*
 * Start loading what finding a key of that hash reads: its slots (0), or
 * the keys of its slots, which should be loaded by then (1).
 */
void	 ht_prefetch(const struct htab *, uint64_t, int);
const char *ht_key(const struct htab *, size_t, size_t *);
size_t	 ht_count(const struct htab *);
uint64_t ht_hash(const void *, size_t);
/*
 * The hash of the bytes from the first pointer up to the first byte c
 * before the second, their length into *len (SIZE_MAX: no c).
 */
uint64_t ht_hashto(const void *, const void *, int, size_t *);

/* sort.c: stable merge sort of an index array */
typedef int (*sst_cmp)(size_t, size_t, void *);
void	 sst_sort(size_t *, size_t, sst_cmp, void *);

/* fmt.c: numbers */
/* Shortest text that reads back as the same double (like Python repr). */
char	*fmt_double(char *, size_t, double);
/* The same text, remembered for the doubles seen last; len its length. */
const char *fmt_dshort(double, size_t *);
/* The same digits as Python's repr() writes them: "1.0", "1e+16", "inf". */
char	*fmt_pyfloat(char *, size_t, double);
/* v in decimal, not terminated (20 bytes at most); returns the length. */
size_t	 fmt_u64(char *, uint64_t);
/* Integer with thousands separators, as Python's "{:,}". */
char	*fmt_commas(char *, size_t, uint64_t);
/*
 * A weight in its unit, for people (FMTBUF bytes do): seconds "12.34s",
 * counts (none) "12,994" or "1,234.50", bytes "4,096 B".
 */
char	*fmt_weight(char *, size_t, double, enum sst_unit);
/* What a weight of the unit is, for headings: "time", "count", "bytes". */
const char *fmt_unitnoun(enum sst_unit);
/* Add w to acc n times, left to right, as Python's sum() does. */
double	 fmt_pysum(double, double, uint64_t);
/* Parse a whole field as a number; 0 ok, -1 if not a number. */
int	 fmt_strtod(const char *, size_t, double *);
int	 fmt_strtou64(const char *, size_t, uint64_t *);

/*
 * spill.c: append-only byte store that spills to an unlinked temp file;
 * a failure of that file exits 1 (out of memory of a kind).
 */
struct spill;
struct spill *spill_new(size_t);
void	 xspill_write(struct spill *, const void *, size_t);
void	 xspill_rewind(struct spill *);
/* Read exactly n bytes; returns 0 on success, -1 at end. */
int	 xspill_read(struct spill *, void *, size_t);
void	 spill_clear(struct spill *);
void	 spill_free(struct spill *);

/* spd.c: speedscope JSON -> sst records, in bounded memory */
typedef void (*spd_emit)(const struct sst_rec *, void *);
typedef void (*spd_text)(const char *, size_t, size_t, void *);
/*
 * Read one speedscope document, with flags SPD_SAMPLES, SPD_FRAMEIDS,
 * SPD_LEAVES (below).  Records go to text() as len bytes of whole lines
 * of the stream, n records, as rec_write() writes them; with
 * SPD_FRAMEIDS, one by one to emit() instead.
 * Returns what it found at the top level: SPD_NOTJSON (a tokenizer
 * error at the first token) or SPD_NOTOBJ (not an object) with nothing
 * read past the first token, else the SPD_* keys the object has; or
 * SPD_ERROR with a message in err[0..errlen) (profiles but no frames,
 * no mutex).  Malformed input met while reading exits 1 with a located
 * message (xjson_fail()), as does a failure of the temporary files.
 */
#define SPD_NOTJSON	0x01
#define SPD_NOTOBJ	0x02
#define SPD_PROFILES	0x04	/* "profiles" */
#define SPD_TRACE	0x08	/* "traceEvents" */
#define SPD_NODES	0x10	/* "nodes" */
#define SPD_META	0x20	/* "meta" */
#define SPD_THREADS	0x40	/* "threads" */
#define SPD_RECORDING	0x80	/* "recording" */
#define SPD_PROFILE	0x100	/* "profile" */
#define SPD_TICKS	0x200	/* "ticks" */
#define SPD_ERROR	0x400	/* alone: see the message */
#define SPD_SAMPLES	0x01	/* flags: one record per sample */
#define SPD_FRAMEIDS	0x02	/* stacks as frame numbers (sst_frames) */
#define SPD_LEAVES	0x04	/* each stack its leaf frame only */
unsigned spd_flatten(struct json *, int, spd_emit, spd_text, void *,
	    char *, size_t);

#define FMTBUF	64

/* --- jsonw.c: JSON output as Python's json.dump() writes it --- */
/* s[0..n) as a JSON string: ensure_ascii; WTF-8; bad UTF-8 as U+FFFD. */
void	 jsonw_str(FILE *, const char *, size_t);
/* A float: its repr(), or NaN, Infinity, -Infinity. */
void	 jsonw_float(FILE *, double);
/* The same text, in a static buffer kept until the next call. */
const char *jsonw_floattext(double);
/* Whether s[0..n) is a JSON number (which can be written as it is). */
int	 jsonw_isnum(const char *, size_t);
/* --- end jsonw.c --- */

/* --- tally.c: totals per key (sst-leaf, sst-threads, chain.c, ...) --- */
/*
 * Keys interned in first-seen order, each with its samples and its
 * weight summed by rec_addw(); samples and weight are indexed by id.
 */
struct tally {
	struct htab	*keys;
	uint64_t	*samples;
	double		*weight;
	size_t		 cap;
	int		 unit;		/* -1, or the unit of tally_leaves */
	const char	*over;		/* what overflowed, or NULL */
};
void	 tally_init(struct tally *);
void	 tally_free(struct tally *);
/* The id of key, new ones with zero totals; *isnew (if not NULL) set. */
size_t	 tally_intern(struct tally *, const void *, size_t, int *);
/*
 * Add r to the totals of id; 0, or -1 if the samples would pass 2^64-1
 * or the weight overflow: the totals stay and over says which.
 */
int	 tally_addid(struct tally *, size_t, const struct sst_rec *);
/* Add r to the totals of key, interned if new; returns its id (over
 * set if the totals would overflow). */
size_t	 tally_add(struct tally *, const void *, size_t,
	    const struct sst_rec *);
size_t	 tally_count(const struct tally *);
/* Every id, heaviest first, ties in id order; free() the array. */
size_t	*tally_sort(const struct tally *);
/* Sort ids ix[0..n) by w[id], heaviest first; ties keep their order. */
void	 tally_sortw(size_t *, size_t, const double *);
/*
 * Read the stream path (NULL or "-": standard input) into totals keyed
 * "name TAB location" of each leaf, escaped; add every sample to *total.
 * Records must have one unit, t->unit.  0, or -1 with the message
 * ("PATH: why", or "NAME:LINE: what" as rec_error()) in err: a file that
 * cannot be opened, malformed input, an overflow.
 */
int	 tally_leaves(struct tally *, double *, const char *, struct buf *);
/* --- end tally.c --- */

/* --- chain.c: chain rows (sst-callers, sst-callees, sst-stacks) --- */
/* The frames of one stack field: frame i is s[off[i], off[i + 1] - 1). */
struct frames {
	size_t	*off;
	size_t	 n;
	size_t	 cap;
};
void	 frames_split(struct frames *, const char *, size_t);
/* Index of the first (last: the last) frame spelt name, or (size_t)-1. */
size_t	 frames_find(const struct frames *, const char *, const char *,
	    size_t, int);
/* Frames a to b - 1 of s as one field (empty when a >= b). */
const char *frames_span(const struct frames *, const char *, size_t, size_t,
	    size_t *);
void	 frames_free(struct frames *);
/* Groups by (thread, chain) with samples and exact weights. */
struct chains;
struct chains *chains_new(void);
/* Add r to (thread, chain); -1 if its totals would overflow. */
int	 chains_add(struct chains *, const char *, size_t, const char *,
	    size_t, const struct sst_rec *);
/* What overflowed when chains_add() returned -1. */
const char *chains_over(const struct chains *);
/*
 * Write "samples TAB weight TAB unit TAB thread TAB chain" rows,
 * heaviest first, the first max of them (all if max < 0); rows of a
 * timed stream (kind.h) end in a sixth field, "spans".
 */
void	 chains_put(const struct chains *, long long);
void	 chains_free(struct chains *);
/* One chain row, its names escaped, pointing into the line. */
struct chainrow {
	uint64_t	 samples;
	double		 weight;
	enum sst_unit	 unit;
	const char	*thread;
	size_t		 threadlen;
	const char	*chain;
	size_t		 chainlen;
	int		 timed;		/* a sixth field "spans" (kind.h) */
};
/* Parse one line; 0 ok, else -1 with a static message in *why. */
int	 chainrow_parse(const char *, size_t, struct chainrow *,
	    const char **);
/* Chain rows read whole, each pointing into its own copy of its line. */
struct chainset {
	struct chainrow	*rows;
	char		**lines;
	size_t		 n, cap;
};
/*
 * Add the rows of path (NULL or "-": stdin): 0 ok; -1 on a bad row or
 * a row of another unit than the first, with "file:line: what" in the
 * buffer (the rows before it kept); a file that cannot be opened is
 * "PATH: why", one that cannot be read lines_error()'s message.
 */
int	 chainset_read(struct chainset *, const char *, char *, size_t);
void	 chainset_free(struct chainset *);
/*
 * The frame that every chain with frames ends with (last) or begins
 * with, escaped, its length in *len; NULL when they differ or there is
 * none.
 */
const char *chainset_common(const struct chainset *, int, size_t *);
/*
 * The function the rows are about, decoded into the buffer: if last,
 * the frame they all end with; if none and first, the one they all
 * begin with; NULL if neither.
 */
const char *chainset_name(const struct chainset *, int, int, struct buf *);
/* The short name of a thread: Python's name.rsplit('"', 2)[-2]. */
const char *chain_shortthread(const char *, size_t, size_t *);
/* --- end chain.c --- */

/* --- perf.c: the text perf script prints (perf2sst) --- */
/* Views of the frame rules of -F (PERF_JAVA: the thread is java's). */
#define PERF_ADDRS	0x01	/* [mod <pc>] for unknown functions */
#define PERF_KERNEL	0x02	/* _[k] after kernel functions */
#define PERF_JIT	0x04	/* _[j] after JIT-compiled functions */
#define PERF_JAVA	0x08	/* "Lpkg/Class" loses its L */
/* What names a thread with -F: comm, comm-pid or comm-pid/tid. */
enum perf_id {
	PERF_COMM,
	PERF_PID,
	PERF_TID
};
/* The views that -F asks for. */
struct perf_view {
	int		 fg;		/* stackcollapse-perf.pl's rules */
	int		 ray;		/* perf.py's, asked for */
	int		 period;	/* a sample weighs its period */
	enum perf_id	 id;
	int		 flags;		/* PERF_ADDRS, PERF_KERNEL, PERF_JIT */
};
/* Apply a comma-separated list of -F keywords to v; -1 if one is bad. */
int	 perf_view(struct perf_view *, char *, const char **);
/* The last "ab" in [s, e), or NULL. */
const char *perf_lastpair(const char *, const char *, char, char);
/* The end of [s, e) without a trailing "+0x" and lower-case hex digits. */
const char *perf_stripoff(const char *, const char *);
/*
 * The event (*ev, *evn: without its ':') that ends a header "...:
 * [period] event:", the period's digits added to *per; 1 if the header
 * ends so, 0 if not (*ev may be set all the same).
 */
int	 perf_event(const char *, size_t, const char **, size_t *, double *);
/*
 * The weight of a sample of event ev[0..evn) with period per: 1 (unit
 * none) if per is 0, per nanoseconds for cpu-clock and task-clock, else
 * per (unit none); its unit in *unit.
 */
double	 perf_weight(const char *, size_t, double, enum sst_unit *);
/* A header by perf.py's rules: its thread is s[*a, *b); 0 if not one. */
int	 perf_rayhead(const char *, size_t, size_t *, size_t *);
/* A sample header "comm pid[/tid] ..." by stackcollapse-perf.pl's rules. */
struct perf_head {
	size_t		 comm;		/* the command is s[0, comm) */
	const char	*pid;		/* "?" if the header gives a tid only */
	size_t		 pidn;
	const char	*tid;
	size_t		 tidn;
};
/* Parse header s[0..n) into h; 0 if it is not one. */
int	 perf_fghead(const char *, size_t, struct perf_head *);
/* Its thread into b, not escaped: comm[-pid[/tid]], each ' ' made '_'. */
void	 perf_fgthread(struct buf *, const char *, const struct perf_head *,
	    enum perf_id);
/*
 * Append the escaped frames of frame line [s, e) to out, ';' before
 * each, by perf.py's rules or by stackcollapse-perf.pl's (fg, with
 * PERF_* flags); tmp is scratch space.  0 ok, -1 if it is no frame line.
 */
int	 perf_rayframe(struct buf *, struct buf *, const char *, const char *);
int	 perf_fgframe(struct buf *, struct buf *, const char *, const char *,
	    int);
/* Frame lines, each parsed once, to ids of their escaped frames. */
#define PERF_NOFRAME	UINT32_MAX	/* a frame line that adds no frame */
#define PERF_BADLINE	(UINT32_MAX - 1) /* a line that is no frame line */
struct perf_frames;
/* A table for perf.py's rules, or for -F's (fg) with PERF_* flags. */
struct perf_frames *perf_frames_new(int, int);
/* The id of frame line [t, e) of a java thread or not, or PERF_NO*. */
uint32_t perf_frames_id(struct perf_frames *, const char *, const char *,
	    int);
/* Append the frames of ids[0..n) (leaf first) to b, root first. */
void	 perf_frames_stack(const struct perf_frames *, const uint32_t *,
	    size_t, struct buf *);
void	 perf_frames_free(struct perf_frames *);
/*
 * Samples summed into sst records by thread, frames ids and unit, with
 * the frames of a frame table; each: each sample is a record at once.
 */
struct perf_recs;
struct perf_recs *perf_recs_new(const struct perf_frames *, int);
/*
 * A sample: escaped thread, frames ids (leaf first), weight, unit; -1
 * if the weight, or its record's summed weight, is not finite.
 */
int	 perf_recs_add(struct perf_recs *, const char *, size_t,
	    const uint32_t *, size_t, double, enum sst_unit);
/* Write the records to standard output in first-seen order. */
void	 perf_recs_put(struct perf_recs *);
void	 perf_recs_free(struct perf_recs *);
/* --- end perf.c --- */

/* --- spdw.c: speedscope JSON as Python writes it (sst2speedscope) --- */
/*
 * Into the buffer (reset): the key of the frame named s[0..n) (escaped)
 * at location entry l[0..ln) (":::": none).
 */
void	 spdw_framekey(struct buf *, const char *, size_t, const char *,
	    size_t);
/*
 * Whether a location entry is "file:line:col", its line and col each
 * empty, null or a JSON number.
 */
int	 spdw_locvalid(const char *, size_t);
/*
 * Write the entries of shared.frames to standard output: the keys of
 * the frames of the table, in the order of the ids given.
 */
void	 spdw_putframes(const struct htab *, const size_t *, size_t);
/* A record in a spill: n samples of weight w, then nf frame ids. */
struct spdw_rec {
	uint32_t	 tid;
	uint32_t	 nf;
	uint64_t	 n;
	double		 w;
};
/* The frame ids of the last record read. */
struct spdw_ids {
	uint32_t	*id;
	size_t		 cap;
};
/* Read a record and its ids; 0 at the end.  A short read exits 1. */
int	 spdw_xread(struct spill *, struct spdw_rec *, struct spdw_ids *);
/* A thread's profile. */
struct spdw_thread {
	struct buf	 name;		/* decoded */
	enum sst_unit	 unit;
	uint64_t	 n;		/* samples */
	double		 end;		/* their weights summed in order */
	size_t		 rank;		/* in the output */
};
/*
 * Write the profiles of threads thr[order[0..n)] from the records of
 * the spill (thread ids index thr) with frame ids mapped by the array.
 */
void	 spdw_putprofiles(struct spill *, const struct spdw_thread *,
	    const size_t *, size_t, const uint32_t *, struct spdw_ids *);
/*
 * The records spilled with their stacks as frame ids, the frames
 * interned by name and location in the order first met.
 */
struct spdw_frames;
struct spdw_frames *spdw_frames_new(void);
void	 spdw_frames_free(struct spdw_frames *);
/* The table of frame keys (spdw_framekey()), ids by first use. */
const struct htab *spdw_frames_table(const struct spdw_frames *);
/*
 * Add a record, of the header given (its nf set here), to those that go
 * to the spill, in order; 0, or -1 with a message in the buffer ("bad
 * location: ...").  They may wait: spdw_frames_flush() writes them all.
 */
int	 spdw_addrec(struct spdw_frames *, const struct sst_rec *,
	    struct spdw_rec *, struct spill *, struct buf *);
void	 spdw_frames_flush(struct spdw_frames *, struct spill *);
/* --- end spdw.c --- */

/* --- folded.c: folded stacks "root;...;leaf weight" (collapsed2sst) --- */
/* The length of s[0..n) without trailing white space (Python's). */
size_t	 fold_rstrip(const char *, size_t);
/*
 * A weight as Python's int() or float() reads it into *w, and in *isint
 * whether it is an int literal; the buffer is scratch space.  0 ok, -1
 * if it is not a finite number.
 */
int	 fold_weight(const char *, size_t, double *, int *, struct buf *);
/*
 * The weight s[0..n) (valid for fold_weight()) as a count: 1 and *v
 * when it is a non-negative int literal, 0 when not, -1 when it passes
 * 2^64 - 1.
 */
int	 fold_count(const char *, size_t, uint64_t *);
/*
 * The stack s[0..n) without each frame's trailing "+0x<hex>", in the
 * buffer, or s if no frame has one; its length in *len.
 */
const char *fold_strip(struct buf *, const char *, size_t, size_t *);
/* Into the buffer (reset): a stack as an sst(5) stack field. */
void	 fold_stack(struct buf *, const char *, size_t);
/*
 * The scale to seconds (or none) and the unit of a unit name of -u,
 * count being the scale of "count"; -1 if there is no such unit.
 */
int	 fold_unit(const char *, double, double *, enum sst_unit *);
/* The weights of the lines, for their median. */
struct fold_med {
	double		 w;
	size_t		 i;		/* line number, to break ties */
	int		 isint;		/* an int literal, not a float */
};
struct fold_meds {
	struct fold_med	*m;
	size_t		 n, cap;
};
/* Add the next line's weight, an int literal (1) or not (0). */
void	 fold_medadd(struct fold_meds *, double, int);
/*
 * sorted(weights)[n // 2] into the buffer as Python prints the int or
 * float read; NULL if there is none.  The weights get sorted.
 */
char	*fold_median(struct fold_meds *, char *, size_t);
/* --- end folded.c --- */

/* --- catmap.c: categories of functions from JSON (sst-categories) --- */
struct catmap {
	struct htab	*names;		/* escaped category names */
	struct htab	*func;		/* escaped function names */
	size_t		*fcat;		/* by function: its category */
};
void	 catmap_init(struct catmap *);
/*
 * Add the categories of a JSON object of lists of function names, text
 * js[0..len) called name in messages: 0, or -1 if it is not one, with
 * the message "NAME: what" in err[0..errlen).  The last list of a
 * category wins, but the category keeps its first place; a function
 * belongs to the last category that lists it.
 */
int	 catmap_load(struct catmap *, const char *, size_t, const char *,
	    char *, size_t);
/*
 * The same with the text of the file path ("-": standard input); a file
 * that cannot be read is "PATH: strerror".
 */
int	 catmap_loadfile(struct catmap *, const char *, char *, size_t);
void	 catmap_free(struct catmap *);
/* --- end catmap.c --- */

#endif
