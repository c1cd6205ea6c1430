/*
 * zlist.h: an append-only list of byte strings kept compressed, in
 * blocks of about 1 MB, for strings that are read back in about the
 * order they were added (spd.c's pending stacks).
 */
#ifndef ZLIST_H
#define ZLIST_H

#include <stddef.h>

struct zlist;
struct zpool;
/*
 * A pool that lists made one after another take memory from; the
 * blocks they keep are in it, so it is freed after them.
 */
struct zpool *zp_new(void);
void	 zp_free(struct zpool *);
/* A list that takes from and hands on to pool (NULL: one of its own). */
struct zlist *zl_new(struct zpool *);
void	 zl_free(struct zlist *);
/* Append s[0..n) as string number zl_count(). */
void	 zl_add(struct zlist *, const void *, size_t);
/* Compress what is left (in the background); zl_add() may follow. */
void	 zl_flush(struct zlist *);
/* The same, and no zl_add() follows: the compressor's state is freed. */
void	 zl_done(struct zlist *);
size_t	 zl_count(const struct zlist *);
/*
 * The strings as they are kept before they are compressed, each a
 * varint of its length and its bytes, *len bytes in all, if none has
 * been compressed yet (no zl_flush() nor a block filled), else NULL;
 * valid until the next call.
 */
const char *zl_raw(const struct zlist *, size_t *);
/*
 * String i and its length; valid until the next call.  Fast when i is
 * in the block of the string got before, else a block is decompressed.
 */
const char *zl_get(struct zlist *, size_t, size_t *);

#endif
