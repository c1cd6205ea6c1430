/*
 * spd.h: speedscope JSON -> sst records, in bounded memory (spd.c).
 */
#ifndef SPD_H
#define SPD_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "json.h"
#include "rec.h"

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

#endif /* SPD_H */
