/*
 * stacktab.h: stacks kept as sequences of interned frames
 * (common/reduce/stacktab.c), so that a reducer holding many distinct
 * stacks keeps each frame's text once and each stack as one id.
 */
#ifndef STACKTAB_H
#define STACKTAB_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"

struct buf;
struct stacktab;

/* The id of the empty stack. */
#define STK_ROOT	0

struct stacktab *stk_new(void);
void	 stk_free(struct stacktab *);
/*
 * The id of the stack whose frames are the ';'-separated pieces of the
 * n bytes at s (STK_ROOT when n is 0): the same text, the same id; ids
 * count up from 1 in first-seen order of the stacks.  The split is at
 * every ';' byte, so stk_text() gives back the same bytes.
 */
uint32_t stk_intern(struct stacktab *, const char *, size_t);
/*
 * The same for the sequence of the npre ids at pre, then the frames of
 * the text (none when n is 0): a key of a few ids and a stack as one id
 * (never STK_ROOT), in the same count.
 */
uint32_t stk_internp(struct stacktab *, const uint32_t *, size_t,
	    const char *, size_t);
/* Append stack id's text (frames joined by ';') to b. */
void	 stk_text(struct stacktab *, uint32_t, struct buf *);
/* The same for an id of stk_internp(), its npre ids into pre. */
void	 stk_textp(struct stacktab *, uint32_t, size_t, uint32_t *,
	    struct buf *);
/* Frame id's text and its length. */
const char *stk_name(const struct stacktab *, uint32_t, size_t *);
/* Distinct stacks (the empty one included) and frames so far. */
size_t	 stk_count(const struct stacktab *);
size_t	 stk_nframes(const struct stacktab *);

struct sst_rec;
/* How many ';'-separated pieces the n bytes at s hold (at least 1). */
size_t	 stack_pieces(const char *, size_t);
/*
 * Into the buffer (reset), the frames of a record with as many
 * locations, each with its location: "frame TAB loc;...".
 */
void	 stack_zip(struct buf *, const struct sst_rec *);
/*
 * Split stack_zip()'s text in the first buffer into its frames (left
 * there) and its locations (into the second, reset).
 */
void	 stack_unzip(struct buf *, struct buf *);

#endif
