/*
 * json.h: pull tokenizer over a refillable buffer (json.c).
 */
#ifndef JSON_H
#define JSON_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"
#include "progress.h"

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
struct json;
struct json *json_open(int, const char *);
struct json *json_open_mem(const void *, size_t, const char *);
void	 json_close(struct json *);
enum json_tok json_next(struct json *);
/*
 * The last token and its text, the first member of the tokenizer's
 * structure (jsonint.h), so that json_text() is inline: a reader calls
 * it for nearly every token.  Not to be written outside json/.
 */
struct json_last {
	const char	*text;
	size_t		 textlen;
	enum json_tok	 tok;
};

/* Text of the last KEY or STR (decoded, NUL-terminated) or NUM (raw). */
static inline const char *
json_text(const struct json *j, size_t *lenp)
{
	/* A structure's address is that of its first member. */
	const struct json_last *l = (const struct json_last *)(const void *)j;
	int text;

	text = l->tok == JT_KEY || l->tok == JT_STR || l->tok == JT_NUM;
	if (lenp != NULL)
		*lenp = text ? l->textlen : 0;
	return text ? l->text : "";
}
/* Depth of the current container after the last token (0 = top level). */
int	 json_depth(const struct json *);
/* The last NUM as a double / as an integer; 0 on success, -1 if not. */
int	 json_double(const struct json *, double *);
int	 json_int(const struct json *, long long *);
/*
 * The last NUM times 10^scale (0 to 3) as an exact integer, for a number
 * of the usual form: no exponent, at most 15 integer digits and at most
 * scale decimals; 0 on success, -1 for any other number (the caller
 * reads those another way).
 */
int	 json_scaled(const struct json *, int, int64_t *);
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

#endif /* JSON_H */
