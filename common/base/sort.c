/*
 * sort.c: a stable merge sort of an array of indices.  Equal elements
 * keep their order, so ties stay in first-seen order as the reference
 * scripts' sorted() does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sort.h"
#include "util.h"

static void	msort(size_t *, size_t *, size_t, sst_cmp, void *);

/* Sort a[0..n) using tmp as scratch space. */
static void
msort(size_t *a, size_t *tmp, size_t n, sst_cmp cmp, void *ctx)
{
	size_t h, i, j, k;

	if (n < 2)
		return;
	h = n / 2;
	msort(a, tmp, h, cmp, ctx);
	msort(a + h, tmp, n - h, cmp, ctx);
	if (cmp(a[h - 1], a[h], ctx) <= 0)
		return;
	memcpy(tmp, a, h * sizeof(*a));
	i = 0;
	j = h;
	k = 0;
	while (i < h && j < n) {
		if (cmp(a[j], tmp[i], ctx) < 0)
			a[k++] = a[j++];
		else
			a[k++] = tmp[i++];
	}
	while (i < h)
		a[k++] = tmp[i++];
}

void
sst_sort(size_t *a, size_t n, sst_cmp cmp, void *ctx)
{
	size_t *tmp;

	if (n < 2)
		return;
	tmp = xhuge(n / 2 + 1, sizeof(*tmp));
	msort(a, tmp, n, cmp, ctx);
	free(tmp);
}

int
sst_cmpi64(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}
