/*
 * folded.c: folded stacks, "root;...;leaf weight" one a line, as
 * stackcollapse-perf.pl and py-spy write them (collapsed2sst).  A
 * weight is read as Python's int() or float() reads it, frames lose
 * their "+0x<hex>" offsets, stacks become sst(5) fields, and the median
 * weight is printed as Python prints the int or float it read.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "util.h"
#include "buf.h"
#include "esc.h"
#include "fmt.h"
#include "input.h"

static int	isws(int);
static size_t	digitpart(const char *, size_t, size_t *, int *);
static int	bymed(const void *, const void *);

/* Python's white space among the ASCII bytes. */
static int
isws(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* The length of s[0..n) without trailing white space (Python's). */
size_t
fold_rstrip(const char *s, size_t n)
{
	while (n > 0 && isws((unsigned char)s[n - 1]))
		n--;
	return n;
}

/* Skip digits, with single '_' between digits; returns the digit count. */
static size_t
digitpart(const char *s, size_t n, size_t *i, int *under)
{
	size_t k = 0;

	while (*i < n) {
		if (s[*i] >= '0' && s[*i] <= '9')
			k++;
		else if (s[*i] == '_' && k > 0 && *i + 1 < n &&
		    s[*i + 1] >= '0' && s[*i + 1] <= '9')
			*under = 1;
		else
			break;
		(*i)++;
	}
	return k;
}

/*
 * A weight as Python's int() or float() reads it into *w, and in *isint
 * whether it is an int literal; tmp is scratch space.  0 ok, -1 not.
 */
int
fold_weight(const char *s, size_t n, double *w, int *isint, struct buf *tmp)
{
	size_t i = 0, j, nd;
	uint64_t v = 0;
	int under = 0, plain;

	while (n > 0 && isws((unsigned char)*s))
		s++, n--;
	if (n > 0 && (s[0] == '+' || s[0] == '-'))
		i++;
	nd = digitpart(s, n, &i, &under);
	plain = i == n && !under && nd <= 19;
	*isint = i == n || (s[i] != '.' && s[i] != 'e' && s[i] != 'E');
	if (i < n && s[i] == '.') {
		i++;
		nd += digitpart(s, n, &i, &under);
	}
	if (nd == 0)
		return -1;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (digitpart(s, n, &i, &under) == 0)
			return -1;
	}
	if (i != n)
		return -1;
	if (plain) {
		/* A cast rounds to nearest, as Python's int * float does. */
		for (j = s[0] == '+' || s[0] == '-'; j < n; j++)
			v = v * 10 + (uint64_t)(s[j] - '0');
		*w = s[0] == '-' ? -(double)v : (double)v;
		return 0;
	}
	/* Without '_' the text is fmt_strtod's: correctly rounded too. */
	if (!under && n < 128)
		return fmt_strtod(s, n, w);
	buf_reset(tmp);
	for (j = 0; j < n; j++)
		if (s[j] != '_')
			buf_addc(tmp, s[j]);
	*w = strtod(tmp->data, NULL);
	return isfinite(*w) ? 0 : -1;
}

/* The stack without each frame's trailing "+0x<hex>"; s if none has one. */
const char *
fold_strip(struct buf *b, const char *s, size_t n, size_t *len)
{
	const char *p, *f, *q, *e = s + n;

	*len = n;
	for (p = s; (p = memchr(p, '+', (size_t)(e - p))) != NULL; p++)
		if (e - p > 3 && p[1] == '0' && p[2] == 'x')
			break;
	if (p == NULL)
		return s;
	buf_reset(b);
	for (p = s;; p = f + 1) {
		if ((f = memchr(p, ';', (size_t)(e - p))) == NULL)
			f = e;
		for (q = f; q > p && ((q[-1] >= '0' && q[-1] <= '9') ||
		    (q[-1] >= 'a' && q[-1] <= 'f')); q--)
			;
		if (q < f && q - p >= 3 && memcmp(q - 3, "+0x", 3) == 0)
			buf_add(b, p, (size_t)(q - 3 - p));
		else
			buf_add(b, p, (size_t)(f - p));
		if (f == e)
			break;
		buf_addc(b, ';');
	}
	*len = b->len;
	return b->data;
}

/* Whether a byte of x is below 0x20, a backslash or DEL (x's bytes). */
#define ONES		0x0101010101010101ULL
#define HIGHS		0x8080808080808080ULL
#define ZERO(x)		(((x) - ONES) & ~(x) & HIGHS)
#define ESCBYTE(x)	((((x) - ONES * 0x20) & ~(x) & HIGHS) | \
			    ZERO((x) ^ (ONES * '\\')) | \
			    ZERO((x) ^ (ONES * 0x7f)))

/*
 * Whether the stack k[0..n) is its own sst(5) field: no frame empty and
 * no byte that esc_name() escapes in any.  Eight bytes at a time.
 */
static int
plainstack(const char *k, size_t n)
{
	const unsigned char *p = (const unsigned char *)k;
	uint64_t x;
	size_t i;

	if (n == 0 || k[0] == ';' || k[n - 1] == ';' ||
	    memmem(k, n, ";;", 2) != NULL)
		return 0;
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&x, p + i, 8);
		if (ESCBYTE(x) != 0)
			return 0;
	}
	for (; i < n; i++)
		if (p[i] < 0x20 || p[i] == '\\' || p[i] == 0x7f)
			return 0;
	return 1;
}

/* Into b (reset): the stack k[0..n) as an sst(5) stack field. */
void
fold_stack(struct buf *b, const char *k, size_t n)
{
	const char *p, *f, *e = k + n;

	buf_reset(b);
	if (plainstack(k, n)) {
		buf_add(b, k, n);
		return;
	}
	for (p = k;; p = f + 1) {
		if ((f = memchr(p, ';', (size_t)(e - p))) == NULL)
			f = e;
		esc_name(b, p, (size_t)(f - p));
		if (f == e)
			break;
		buf_addc(b, ';');
	}
}

/* Stack k[0..n) as a stack field: k when it is one, else in the buffer. */
const char *
fold_field(struct buf *b, const char *k, size_t n, size_t *len)
{
	if (plainstack(k, n)) {
		*len = n;
		return k;
	}
	fold_stack(b, k, n);
	*len = b->len;
	return b->data;
}

/*
 * The scale to seconds (or none) of unit name u of -u, count being
 * samples at a frequency (1 / Hz); -1 if no such unit.
 */
int
fold_unit(const char *u, double count, double *scale, enum sst_unit *unit)
{
	static const char *units[] = { "ns", "us", "ms", "s", "count", "none" };
	static const double scales[] = { 1e-9, 1e-6, 1e-3, 1 };
	size_t i;

	for (i = 0; i < 6 && strcmp(u, units[i]) != 0; i++)
		;
	if (i == 6)
		return -1;
	*scale = i < 4 ? scales[i] : i == 4 ? count : 1;
	*unit = i == 5 ? U_NONE : U_SECONDS;
	return 0;
}

/* Add a line's weight w (an int literal if isint) to the median's. */
void
fold_medadd(struct fold_meds *m, double w, int isint)
{
	if (m->n == m->cap)
		m->m = xgrow(m->m, &m->cap, m->n + 1, 1024, sizeof(*m->m));
	m->m[m->n] = (struct fold_med){ w, m->n, isint };
	m->n++;
}

/* Weights in Python's sort order: by value, then by line. */
static int
bymed(const void *a, const void *b)
{
	const struct fold_med *x = a, *y = b;

	if (x->w != y->w)
		return x->w < y->w ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Reorder m[0..n) so that m[k] is the one a sort by bymed() would put
 * there (Hoare's selection, the pivot the median of three): linear,
 * where a sort of a million weights took most of the report's time.
 */
static void
select_k(struct fold_med *m, size_t n, size_t k)
{
	struct fold_med p, t;
	size_t lo = 0, hi = n - 1, i, j, mid;

	while (hi > lo) {
		mid = lo + (hi - lo) / 2;
		if (bymed(&m[mid], &m[lo]) < 0)
			t = m[mid], m[mid] = m[lo], m[lo] = t;
		if (bymed(&m[hi], &m[lo]) < 0)
			t = m[hi], m[hi] = m[lo], m[lo] = t;
		if (bymed(&m[hi], &m[mid]) < 0)
			t = m[hi], m[hi] = m[mid], m[mid] = t;
		p = m[mid];
		i = lo;
		j = hi;
		while (i <= j) {
			while (bymed(&m[i], &p) < 0)
				i++;
			while (bymed(&m[j], &p) > 0)
				j--;
			if (i <= j) {
				t = m[i], m[i] = m[j], m[j] = t;
				i++;
				if (j-- == 0)
					break;
			}
		}
		if (k <= j && j != (size_t)-1)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/*
 * sorted(weights)[n // 2] into buf, as Python prints the int or float;
 * NULL if there are no weights.  The weights are reordered.
 */
char *
fold_median(struct fold_meds *m, char *buf, size_t size)
{
	struct fold_med *p;

	if (m->n == 0)
		return NULL;
	select_k(m->m, m->n, m->n / 2);
	p = &m->m[m->n / 2];
	if (p->isint)
		snprintf(buf, size, "%.0f", p->w + 0.0);
	else
		fmt_pyfloat(buf, size, p->w);
	return buf;
}

/*
 * The weight s[0..n) (already read by fold_weight()) as a count: 1 and
 * *v when it is a non-negative int literal, 0 when not, -1 when it
 * passes 2^64 - 1.
 */
int
fold_count(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i = 0;

	while (i < n && isws((unsigned char)s[i]))
		i++;
	if (i < n && s[i] == '+')
		i++;
	for (; i < n; i++) {
		if (s[i] == '_')
			continue;
		if (s[i] < '0' || s[i] > '9')
			return 0;
		if (x > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return 1;
}

/*
 * Why non-empty input with no folded stack in it is not folded stacks,
 * from its first bytes head[0..n): what sniff() says it is (the message
 * in the buffer), else a fixed text.
 */
const char *
fold_notfolded(const char *head, size_t n, char *msg, size_t msgsz)
{
	const char *says;
	enum sniff k;

	k = sniff(head, n);
	if ((says = sniff_says(k, msg, msgsz)) == NULL)
		says = k == SN_BINARY ? "this looks like binary data" :
		    "not folded stacks";
	return says;
}

/*
 * Into the buffer: the lines read, their median weight and the unit
 * taken (-V), as "N lines, median weight W, unit U".
 */
char *
fold_summary(struct fold_meds *m, const char *unit, char *b, size_t bsz)
{
	char n[FMTBUF], w[FMTBUF];
	const char *l = m->n == 1 ? "line" : "lines";

	fmt_commas(n, sizeof(n), m->n);
	if (fold_median(m, w, sizeof(w)) == NULL)
		snprintf(b, bsz, "%s %s", n, l);
	else
		snprintf(b, bsz, "%s %s, median weight %s, unit %s", n, l, w,
		    unit);
	return b;
}

/* Note the first place p of an event (an overflow). */
void
fold_placeat(struct fold_place *p, const char *name, unsigned long long line)
{
	if (p->line == 0) {
		p->name = name;
		p->line = line;
	}
}
