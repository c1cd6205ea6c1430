/*
 * spill.h: append-only byte store that spills to an unlinked temp file
 * (spill.c).
 */
#ifndef SPILL_H
#define SPILL_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

#endif /* SPILL_H */
