/*
 * compact.h: the compact form of the sst stream (sst(5), COMPACT FORM):
 * each distinct frame written once, each stack as the frames it keeps
 * of the record before and the frame numbers it adds.  rec.c reads it
 * as it reads the text form; cpw writes it.
 */
#ifndef COMPACT_H
#define COMPACT_H

#include <stdint.h>
#include <stdio.h>
#include "rec.h"
#include "input.h"


/* --- reading (rec.c) --- */
enum cp_kind {
	CP_ERR = -1,	/* malformed: *why says how */
	CP_DICT,	/* a \D or \F line: nothing to hand out */
	CP_REC		/* a \R line: the record is in r */
};
struct cpr;
struct cpr *cpr_new(void);
void	 cpr_free(struct cpr *);
/*
 * A compact line (cp_isline()) s[0..n), kept by the caller until the
 * next call; r's names point into s and into cpr's buffers.  A record's
 * r->frames are its frames as numbered by the \D that began them, so
 * that a compact writer copies them as they are.
 */
enum cp_kind cpr_line(struct cpr *, char *, size_t, struct sst_rec *,
	    const char **);
/* The last record as a line of the text form (no newline). */
const char *cpr_text(struct cpr *, size_t *);
/* From now on leave stack and locs of records empty (rec_nostacks()). */
void	 cpr_lazy(struct cpr *);
/* The last record's leaf frame and its location; NULL: no frames. */
const char *cpr_leaf(const struct cpr *, size_t *, const char **, size_t *);

/* --- writing --- */
struct cpw;
struct cpw *cpw_new(FILE *);
/*
 * Write r; the first record is preceded by the \D line.  A record with
 * frames (rec.h's sst_frames) has its frames' text written once for
 * each of the producer's frame numbers, as long as their serial stays.
 * 0, or -1 when the frames can be numbered no more (UINT32_MAX - 1 of
 * them): then cpw_error() says so and nothing more can be written.
 */
int	 cpw_write(struct cpw *, const struct sst_rec *);
const char *cpw_error(const struct cpw *);
/* A new serial for a numbering of frames (sst_frames). */
uint64_t cp_serial(void);
void	 cpw_free(struct cpw *);

#endif
