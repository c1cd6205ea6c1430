/*
 * buf.h: a growable byte buffer; data is always NUL-terminated (buf.c).
 */
#ifndef BUF_H
#define BUF_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
};
void	 buf_init(struct buf *);
void	 buf_free(struct buf *);
void	 buf_reset(struct buf *);
void	 buf_grow(struct buf *, size_t);
void	 buf_add(struct buf *, const void *, size_t);
void	 buf_addc(struct buf *, int);
void	 buf_adds(struct buf *, const char *);
void	 buf_printf(struct buf *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
void	 buf_vprintf(struct buf *, const char *, va_list)
	    __attribute__((__format__(__printf__, 2, 0)));

#endif /* BUF_H */
