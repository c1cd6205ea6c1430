/*
 * foldrec.c: the lines of folded stacks ("root;...;leaf weight") read
 * and summed into sst(5) records (collapsed2sst).  Whether a weight is
 * nanoseconds or a count of samples is known only once the median
 * weight of the whole input is, so the sums are kept at each candidate
 * scale; a weight that is a non-negative int literal is also counted
 * as that many samples.  Records are per distinct stack, or with each
 * per line, in first-seen order.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "htab.h"
#include "fmt.h"
#include "folded.h"
#include "foldrec.h"
#include "esc.h"
#include "rec.h"

/* The lines of a stack so far. */
struct acc {
	uint64_t	 n;			/* lines */
	uint64_t	 ns;			/* samples: counts, or 1 */
	int		 allcnt;		/* every weight a count */
	double		 sum[FOLDREC_NSMAX];	/* scaled, in line order */
	double		 per[FOLDREC_NSMAX];	/* the first scaled */
	int		 same[FOLDREC_NSMAX];	/* all scaled equal per */
};

/* A line kept as it is (each). */
struct kept {
	double		 w;
	size_t		 off, len;		/* its stack in text */
	uint64_t	 cnt;
	int		 iscnt;
};

struct foldrecs {
	struct htab	*stacks;
	struct acc	*acc;			/* by stack id */
	size_t		 accap;
	struct kept	*ln;			/* with each */
	struct buf	 text;			/* their stacks, end to end */
	size_t		 nlines, cap;		/* lines added */
	size_t		 nsmall;		/* weighing <= FOLDREC_NSMIN */
	double		 sc[FOLDREC_NSMAX];
	int		 nsc;
	int		 each;
	struct buf	 key, tmp;		/* scratch */
};

/* A table of records at the scales sc[0..nsc); each: one a line. */
struct foldrecs *
foldrec_new(const double *sc, int nsc, int each)
{
	struct foldrecs *fr;

	fr = xcalloc(1, sizeof(*fr));
	fr->nsc = nsc < FOLDREC_NSMAX ? nsc : FOLDREC_NSMAX;
	memcpy(fr->sc, sc, (size_t)fr->nsc * sizeof(*sc));
	fr->each = each;
	fr->stacks = ht_new();
	buf_init(&fr->key);
	buf_init(&fr->tmp);
	buf_init(&fr->text);
	return fr;
}

/* Read a line: its stack without offsets, its weight as a count. */
enum foldrec_kind
foldrec_parse(struct foldrecs *fr, struct foldrec_line *l, const char *s,
    size_t n)
{
	const char *sp;
	size_t wn;

	if ((n = fold_rstrip(s, n)) == 0)
		return FOLDREC_BLANK;
	if ((sp = memrchr(s, ' ', n)) == NULL)
		return FOLDREC_NOSPACE;
	wn = (size_t)(s + n - sp - 1);
	if (fold_weight(sp + 1, wn, &l->w, &l->isint, &fr->tmp) == -1)
		return FOLDREC_BADWEIGHT;
	l->cnt = 1;
	l->iscnt = l->isint ? fold_count(sp + 1, wn, &l->cnt) : 0;
	l->stack = fold_strip(&fr->key, s, (size_t)(sp - s), &l->stackn);
	return FOLDREC_OK;
}

/* The record of a line alone at scale sc. */
void
foldrec_linerec(const struct foldrec_line *l, double sc, int counting,
    struct foldrec_rec *r)
{
	double x = l->w * sc;

	if (counting && l->iscnt == 1)
		*r = (struct foldrec_rec){ l->cnt, fmt_pysum(0, sc, l->cnt), 1,
		    sc };
	else
		*r = (struct foldrec_rec){ 1, x, 1, x };
}

/* Add a line to its stack's sums, or keep it; what overflowed. */
int
foldrec_add(struct foldrecs *fr, const struct foldrec_line *l)
{
	struct acc *a;
	uint64_t cnt = l->iscnt == 1 ? l->cnt : 1;
	size_t id;
	double x;
	int i, isnew, r = 0;

	if (l->iscnt == -1)
		r |= FOLDREC_BIGCNT;
	fr->nsmall += l->w <= FOLDREC_NSMIN;
	if (fr->each) {
		/* Each line its own record: its stack copied, not looked up. */
		if (fr->nlines == fr->cap)
			fr->ln = xgrow(fr->ln, &fr->cap, fr->nlines + 1, 4096,
			    sizeof(*fr->ln));
		fr->ln[fr->nlines++] = (struct kept){ l->w, fr->text.len,
		    l->stackn, cnt, l->iscnt };
		buf_add(&fr->text, l->stack, l->stackn);
		return r;
	}
	id = ht_intern(fr->stacks, l->stack, l->stackn, &isnew);
	fr->nlines++;
	if (isnew) {
		if (id == fr->accap)
			fr->acc = xgrow(fr->acc, &fr->accap, id + 1, 1024,
			    sizeof(*fr->acc));
		memset(&fr->acc[id], 0, sizeof(fr->acc[id]));
		fr->acc[id].allcnt = 1;
	}
	a = &fr->acc[id];
	for (i = 0; i < fr->nsc; i++) {
		x = l->w * fr->sc[i];
		if (a->n == 0) {
			a->per[i] = x;
			a->same[i] = 1;
		} else if (x != a->per[i])
			a->same[i] = 0;
		if (isinf(a->sum[i] += x))
			r |= FOLDREC_INF(i);
	}
	a->n++;
	a->allcnt &= l->iscnt == 1;
	if (l->iscnt == -1 || a->ns > UINT64_MAX - cnt)
		r |= FOLDREC_BIGCNT;
	else
		a->ns += cnt;
	return r;
}

/* Count a line for foldrec_pick() alone: neither kept nor summed. */
void
foldrec_note(struct foldrecs *fr, const struct foldrec_line *l)
{
	fr->nsmall += l->w <= FOLDREC_NSMIN;
	fr->nlines++;
}

/* sorted(weights)[n // 2] <= FOLDREC_NSMIN: counts, else nanoseconds. */
int
foldrec_pick(const struct foldrecs *fr)
{
	return fr->nsc > 1 && fr->nsmall > fr->nlines / 2;
}

/* The number of records. */
size_t
foldrec_count(const struct foldrecs *fr)
{
	return fr->each ? fr->nlines : ht_count(fr->stacks);
}

/* Record i at scale sel, counts as samples if counting; its stack. */
const char *
foldrec_get(const struct foldrecs *fr, size_t i, int sel, int counting,
    struct foldrec_rec *r, size_t *n)
{
	const struct acc *a;
	const struct kept *k;
	double sc = fr->sc[sel];

	if (fr->each) {
		k = &fr->ln[i];
		foldrec_linerec(&(struct foldrec_line){ .w = k->w,
		    .iscnt = k->iscnt, .cnt = k->cnt }, sc, counting, r);
		*n = k->len;
		return fr->text.data + k->off;
	}
	a = &fr->acc[i];
	if (!counting)
		*r = (struct foldrec_rec){ a->n, a->sum[sel], a->same[sel],
		    a->per[sel] };
	else if (a->allcnt)
		*r = (struct foldrec_rec){ a->ns, fmt_pysum(0, sc, a->ns), 1,
		    sc };
	else
		*r = (struct foldrec_rec){ a->ns, a->sum[sel], a->ns == a->n &&
		    a->same[sel], a->per[sel] };
	return ht_key(fr->stacks, i, n);
}

/* Free the table and all it holds. */
void
foldrec_free(struct foldrecs *fr)
{
	if (fr == NULL)
		return;
	ht_free(fr->stacks);
	free(fr->acc);
	free(fr->ln);
	buf_free(&fr->key);
	buf_free(&fr->tmp);
	buf_free(&fr->text);
	free(fr);
}

/*
 * Record r of the stripped stack k[0..n) into *out, the stack made in
 * the buffer stack; with setthread its thread is k's first frame, made
 * in the buffer thread, else thread as it holds (-L).
 */
void
foldrec_make(struct buf *thread, struct buf *stack, int setthread,
    const char *k, size_t n, const struct foldrec_rec *r, enum sst_unit u,
    struct sst_rec *out)
{
	const char *f, *sf;
	size_t sn;

	sf = fold_field(stack, k, n, &sn);
	if (setthread) {
		buf_reset(thread);
		f = memchr(k, ';', n);
		esc_add(thread, k, f != NULL ? (size_t)(f - k) : n);
	}
	*out = (struct sst_rec){ .thread = thread->data,
	    .threadlen = thread->len, .samples = r->samples,
	    .weight = r->weight, .unit = u, .hasperiod = r->hasper,
	    .period = r->per, .stack = sf, .stacklen = sn, .locs = "" };
}

/* Write record r of the stripped stack k[0..n) to fp (foldrec_make()). */
void
foldrec_put(FILE *fp, struct buf *thread, struct buf *stack, int setthread,
    const char *k, size_t n, const struct foldrec_rec *r, enum sst_unit u)
{
	struct sst_rec out;

	foldrec_make(thread, stack, setthread, k, n, r, u, &out);
	rec_write(fp, &out);
}

/*
 * The candidate scales of the weights to seconds into sc: nanoseconds
 * or samples at freq Hz, picked later by the weights; with a unit name
 * of -u (uarg), that unit's alone, and in *ucount whether a count is
 * N samples.  How many (1 or 2), or -1 for a unit there is not.
 */
int
foldrec_scales(const char *uarg, long long freq, double *sc, int *ucount,
    enum sst_unit *u)
{
	sc[0] = 1e-9;
	sc[1] = 1.0 / (double)freq;
	*u = U_SECONDS;
	*ucount = 0;
	if (uarg == NULL)
		return 2;
	if (fold_unit(uarg, sc[1], &sc[0], u) == -1)
		return -1;
	*ucount = strcmp(uarg, "count") == 0 || strcmp(uarg, "none") == 0;
	return 1;
}
