/*
 * htab.h: interning hash table, ids are dense and in first-seen order
 * (htab.c).
 */
#ifndef HTAB_H
#define HTAB_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

#endif /* HTAB_H */
