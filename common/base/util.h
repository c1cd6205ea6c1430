/*
 * util.h: util (util.c).
 */
#ifndef UTIL_H
#define UTIL_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef __dead
#define __dead __attribute__((__noreturn__))
#endif

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
/* The growth of arrays: doubling from a first capacity (see util.c). */
size_t	 growcap(size_t, size_t, size_t);
size_t	 xgrowcap(size_t, size_t, size_t);
void	*xgrow(void *, size_t *, size_t, size_t, size_t);
/* For big arrays: huge pages from HUGEPAGE bytes up (see util.c). */
#define HUGEPAGE	(2 << 20)
void	*xhuge(size_t, size_t);
void	*xhugezero(size_t, size_t);
void	*xhugegrow(void *, size_t, size_t, size_t);
/* The heap in huge pages, grown HEAPPAD bytes at a time (util.c). */
#define HEAPPAD	(32 << 20)
int	 heap_huge(void);
/* A structure out of room (indices, sizes): exit 1 with the text. */
__dead void xnoroom(const char *);
char	*xstrdup(const char *);
void	*xmemdup(const void *, size_t);
FILE	*xfopen(const char *, const char *);
int	 xopen(const char *);
void	 xfshut(FILE *, const char *);
#define BIGWRITE	(32 * 1024)
void	 xfwrite(const void *, size_t, FILE *, const char *);
void	 sst_init(void);
/* Usage text: with help to stdout and exit 0, else to stderr, exit 2. */
__dead void xusage(int, const char *);
/* An option's number from min to max, or exit 2 (strtonum(3)). */
long long xoptnum(const char *, const char *, long long, long long);
/* The index of an option's word in the names given, or exit 2. */
int	 xoptword(const char *, const char *, const char *,
	    const char *const *, int);
/* Call usage(1) when "--help" comes before any "--" in argv. */
void	 sst_longhelp(int, char *[], void (*)(int));

#endif /* UTIL_H */
