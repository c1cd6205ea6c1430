/*
 * i64map.h: a hash map from 64-bit integer keys to three 64-bit values,
 * open addressing with deletion (i64map.c); and on it a set of integers
 * kept as bits, for keys that come in runs (correlation numbers).
 */
#ifndef I64MAP_H
#define I64MAP_H

#include <stddef.h>
#include <stdint.h>

/* The key that marks an empty slot (kept apart: any key can be stored). */
#define IM_EMPTY	UINT64_MAX

struct imslot {
	uint64_t	 key;
	int64_t		 v[3];
};

struct i64map {
	struct imslot	*s;
	size_t		 cap;		/* a power of 2, or 0 */
	size_t		 n;		/* keys, IM_EMPTY's included */
	int		 hasx;		/* key IM_EMPTY is in, its values: */
	int64_t		 xv[3];
};

void	 im_init(struct i64map *);
/* The values of key k, or NULL if it is not there. */
int64_t	*im_find(const struct i64map *, uint64_t);
/*
 * The values of key k, added with zero values if it was not there
 * (*isnew 1, else 0; isnew may be NULL).  Valid until the next im_put()
 * or im_del().
 */
int64_t	*im_put(struct i64map *, uint64_t, int *);
/* Remove key k; 0, or -1 if it was not there. */
int	 im_del(struct i64map *, uint64_t);
/*
 * The next slot in use from *pos (0 to start): its key and values, or
 * NULL at the end.  No im_put() or im_del() meanwhile.
 */
int64_t	*im_next(const struct i64map *, size_t *, uint64_t *);
size_t	 im_count(const struct i64map *);
/* Empty it, keeping its memory. */
void	 im_clear(struct i64map *);
void	 im_free(struct i64map *);

/*
 * Set x in the bit set m (a map of 192-bit words); returns whether it
 * was set already.  Any int64_t, -1 included.  A run of n consecutive
 * numbers costs about n / 6 bytes.
 */
int	 im_bitset(struct i64map *, int64_t);
/* Whether x is in the bit set m. */
int	 im_bittest(const struct i64map *, int64_t);

#endif /* I64MAP_H */
