/*
 * esc.h: the stream's escaping (see sst(5)) (esc.c).
 */
#ifndef ESC_H
#define ESC_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"

void	 esc_add(struct buf *, const char *, size_t);
/* The same, but \e (the empty name) when n is 0, as in stacks. */
void	 esc_name(struct buf *, const char *, size_t);
/* Unescape in place into dst (dst may equal src); returns length. */
size_t	 esc_decode(char *, const char *, size_t);
/* Check that s is a well-formed escaped field (no control byte, TAB
 * included, no bad escape); 0 ok, -1 not. */
int	 esc_valid(const char *, size_t);
/* The same, and (if not NULL) the count of ';' in it. */
int	 esc_scan(const char *, size_t, size_t *);

#endif /* ESC_H */
