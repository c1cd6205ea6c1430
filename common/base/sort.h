/*
 * sort.h: stable merge sort of an index array (sort.c).
 */
#ifndef SORT_H
#define SORT_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef int (*sst_cmp)(size_t, size_t, void *);
void	 sst_sort(size_t *, size_t, sst_cmp, void *);
/* qsort(3)'s order of int64_t values. */
int	 sst_cmpi64(const void *, const void *);

#endif /* SORT_H */
