/*
 * seqtab.h: an interning table of sequences of 32-bit ids, each kept
 * once as varints in one arena (common/base/seqtab.c): a reducer that
 * holds many distinct stacks of frame ids keeps a byte or two a frame.
 */
#ifndef SEQTAB_H
#define SEQTAB_H

#include <stddef.h>
#include <stdint.h>

struct seqtab;

struct seqtab *seq_new(void);
void	 seq_free(struct seqtab *);
/*
 * The id of the sequence of the n ids at v: the same ids, the same id;
 * ids count up from 0 in first-seen order.
 */
uint32_t seq_intern(struct seqtab *, const uint32_t *, size_t);
/* How many distinct sequences. */
size_t	 seq_count(const struct seqtab *);
/* Bytes held by the table (its arena, offsets and slots). */
size_t	 seq_memory(const struct seqtab *);
/*
 * Sequence id's encoded ids: from the return value to *end, each read
 * by seq_next().
 */
const unsigned char *seq_bytes(const struct seqtab *, uint32_t,
	    const unsigned char **);
/* Sequence id's ids into *v (grown, *cap its room); returns their count. */
size_t	 seq_get(const struct seqtab *, uint32_t, uint32_t **, size_t *);

/* The id at *p, *p moved past it (a varint: 7 bits a byte, low first). */
static inline uint32_t
seq_next(const unsigned char **p)
{
	const unsigned char *q = *p;
	uint32_t v = 0;
	int s = 0;

	while (*q & 0x80) {
		v |= (uint32_t)(*q++ & 0x7f) << s;
		s += 7;
	}
	v |= (uint32_t)*q++ << s;
	*p = q;
	return v;
}

#endif
