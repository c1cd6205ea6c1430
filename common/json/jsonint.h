/*
 * jsonint.h: what the parts of the JSON tokenizer share (json.c,
 * jsontok.c, jsonval.c): the buffer sizes, the states, the reader
 * thread's and the tokenizer's structures, and the functions one part
 * calls in another.  Not for use outside them (json.h declares the
 * interface).
 */
#ifndef JSONINT_H
#define JSONINT_H

#include <sys/types.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "buf.h"
#include "progress.h"
#include "json.h"

#define JSON_BUFSZ	(256 * 1024)	/* normal size of the read buffer */
#define JSON_MEMBUFSZ	64		/* smallest buffer for memory input */
#define JSON_PAD	16		/* zero bytes kept after the data */
#define AHEAD		(JSON_BUFSZ / 4)	/* room before a chunk read */
#define JSON_READSZ	(1024 * 1024)	/* a chunk the reader thread reads */



#define ISDIGIT(c)	((unsigned)(c) - '0' < 10)

/* What the next token may be. */
enum state {
	S_AFTER,	/* after a value: ',', a closer or the end */
	S_ELEM,		/* after ',' in an array: a value */
	S_KEY,		/* after ',' in an object: a key */
	S_VALUE,	/* after ':': a value */
	S_FIRSTELEM,	/* after '[': a value or ']' */
	S_FIRSTKEY,	/* after '{': a key or '}' */
	S_CLOSE,	/* a ']' or '}' (overwritten by a NUL) is next */
	S_TOP,		/* at the start: the top-level value */
	S_START,	/* nothing read yet */
	S_EOF,		/* JT_EOF was returned */
	S_ERROR		/* JT_ERROR was returned */
};

/* What the reader thread is doing. */
enum { A_READ, A_READY, A_STOP };

/*
 * The reader thread of a big regular file: it reads the next JSON_READSZ
 * bytes (a MB: fewer handovers, each a wakeup) into buf + AHEAD while
 * the tokenizer works on its own buffer, and the two buffers change
 * places at each refill.
 */
struct ahead {
	pthread_t	 th;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	struct input	*in;
	int		 state;
	unsigned char	*buf;
	size_t		 cap;		/* of buf, without the padding */
	ssize_t		 len;		/* what was read, -1 on error */
	size_t		 used;		/* of it, handed out already */
	int		 lazy;		/* a refill waits for json_kick() */
	atomic_int	 kick;		/* a refill is waiting */
};

/* Container types on the stack; stack[0] is the top level. */
enum { T_TOP, T_ARR, T_OBJ };

/* Results of the token scanners: error, done, need more input. */
enum { SC_ERR = -1, SC_OK, SC_MORE };

struct json {
	struct json_last lt;		/* first: json_text() reads it */
	unsigned char	*p;		/* scan position */
	unsigned char	*end;		/* end of the data, *end == 0 */
	unsigned char	*buf;		/* cap + JSON_PAD bytes */
	size_t		 cap;
	unsigned long long boff;	/* input offset of buf[0] */
	unsigned char	*savep;		/* byte replaced by the NUL after */
	unsigned char	 savec;		/* a number, and its value */
	unsigned char	 dummy;		/* savep when there is none */
	int		 eof;
	enum state	 state;
	int		 depth;
	int		 isint;		/* last number is an integer: 1, or -1
					   if negative; 0 if not */
	uint64_t	 digits;	/* its first 8 digit bytes, xor '0' */
	unsigned long long tokoff;	/* offset of the last token */
	unsigned long long line;	/* current line number */
	unsigned long long lineoff;	/* offset where it starts */
	unsigned long long kline;	/* line of the last key */
	unsigned long long klineoff;
	unsigned long long erroff;	/* offset of the error */
	int		 fd;		/* -1 for memory input */
	off_t		 base;		/* fd's offset of byte 0, or -1 */
	struct input	*in;		/* NULL for memory input */
	unsigned long long rawpos;	/* bytes of the file read, if known */
	struct ahead	*ah;		/* the reader thread, or NULL */
	const unsigned char *src;	/* memory input not yet buffered */
	size_t		 srclen;
	const unsigned char *src0;	/* all of the memory input */
	size_t		 srclen0;
	char		*name;
	struct progress	*prog;		/* told the bytes read, or NULL */
	struct buf	 tok;		/* decoded strings */
	char		 errmsg[128];
	unsigned char	 stack[JSON_MAXDEPTH + 1];
};


/* Input offset of a pointer into the buffer. */
#define OFF(j, q)	((j)->boff + (unsigned long long)((q) - (j)->buf))


void	 jn_stopahead(struct json *);
int	 jn_refill(struct json *);
int	 jn_more(struct json *);
int	 jn_escaped(struct json *, unsigned char *, unsigned char *,
		    unsigned char **);
int	 jn_fail(struct json *, const unsigned char *, const char *, ...)
		    __attribute__((__format__(__printf__, 3, 4)));

#endif
