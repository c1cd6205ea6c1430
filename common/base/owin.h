/*
 * owin.h: an ordered window, the waiting elements of a merge that takes
 * them in order while they come nearly in order (sst-gpu's windows:
 * gpuwin.c, gpuidle.c, gpuqlive.c).  Those that come in order, most of
 * them, wait in a ring (a push and a pop in constant time); the others
 * in a binary min-heap; the first of the two is taken.  Header-only, as
 * macros that make the functions for an element type and an order, as
 * <sys/tree.h> does:
 *
 *	OWIN_HEAD(name, type)	struct name, the window
 *	OWIN_FUNCS(name, type, less)
 *				static functions, less(a, b) (two
 *				const type *) true when a comes first:
 *	name_push(struct name *w, const type *e)	e waits
 *	name_first(const struct name *w)	the first waiting (w->n > 0)
 *	name_pop(struct name *w, type *e)	take it out into *e
 *	name_clear(struct name *w)		empty it, keeping its memory
 *	name_free(struct name *w)		empty it, freeing its memory
 *
 * A struct name of zeros is an empty window.  Elements of equal order
 * come out in no set order.
 */
#ifndef OWIN_H
#define OWIN_H

#include <stddef.h>
#include <stdlib.h>

#include "util.h"

/* The functions are static, and some of them unused where they are made. */
#define OWIN_FN	static inline __attribute__((__unused__))

#define OWIN_HEAD(name, type)						\
struct name {								\
	type		*q;		/* in order: a ring */		\
	size_t		 q0, nq, capq;	/* capq a power of 2 */		\
	type		*h;		/* the others: a min-heap */	\
	size_t		 nh, caph;					\
	size_t		 n;		/* nq + nh */			\
}

#define OWIN_FUNCS(name, type, less)					\
OWIN_FN void								\
name##_hpush(struct name *w, const type *e)				\
{									\
	size_t i, p;							\
									\
	w->h = xgrow(w->h, &w->caph, w->nh + 1, 64, sizeof(type));	\
	for (i = w->nh++; i > 0 && less(e, &w->h[p = (i - 1) / 2]);	\
	    i = p)							\
		w->h[i] = w->h[p];					\
	w->h[i] = *e;							\
}									\
									\
OWIN_FN void								\
name##_hpop(struct name *w, type *e)					\
{									\
	type x;								\
	size_t i = 0, c;						\
									\
	*e = w->h[0];							\
	x = w->h[--w->nh];						\
	while ((c = 2 * i + 1) < w->nh) {				\
		if (c + 1 < w->nh && less(&w->h[c + 1], &w->h[c]))	\
			c++;						\
		if (!less(&w->h[c], &x))				\
			break;						\
		w->h[i] = w->h[c];					\
		i = c;							\
	}								\
	if (w->nh > 0)							\
		w->h[i] = x;						\
}									\
									\
OWIN_FN void								\
name##_push(struct name *w, const type *e)				\
{									\
	size_t i, oc = w->capq;						\
	type *nq;							\
									\
	w->n++;								\
	if (w->nq > 0 && less(e, &w->q[(w->q0 + w->nq - 1) & (oc - 1)])) { \
		name##_hpush(w, e);					\
		return;							\
	}								\
	if (w->nq == oc) {						\
		w->capq = xgrowcap(oc, oc + 1, 64);			\
		nq = xreallocarray(NULL, w->capq, sizeof(type));	\
		for (i = 0; i < w->nq; i++)				\
			nq[i] = w->q[(w->q0 + i) & (oc - 1)];		\
		free(w->q);						\
		w->q = nq;						\
		w->q0 = 0;						\
	}								\
	w->q[(w->q0 + w->nq++) & (w->capq - 1)] = *e;			\
}									\
									\
OWIN_FN int								\
name##_inheap(const struct name *w)					\
{									\
	return w->nq == 0 || (w->nh > 0 && less(&w->h[0],		\
	    &w->q[w->q0]));						\
}									\
									\
OWIN_FN const type *							\
name##_first(const struct name *w)					\
{									\
	return name##_inheap(w) ? &w->h[0] : &w->q[w->q0];		\
}									\
									\
OWIN_FN void								\
name##_pop(struct name *w, type *e)					\
{									\
	w->n--;								\
	if (name##_inheap(w)) {						\
		name##_hpop(w, e);					\
		return;							\
	}								\
	*e = w->q[w->q0];						\
	w->q0 = (w->q0 + 1) & (w->capq - 1);				\
	w->nq--;							\
}									\
									\
OWIN_FN void								\
name##_clear(struct name *w)						\
{									\
	w->q0 = w->nq = w->nh = w->n = 0;				\
}									\
									\
OWIN_FN void								\
name##_free(struct name *w)						\
{									\
	free(w->q);							\
	free(w->h);							\
	w->q = w->h = NULL;						\
	w->capq = w->caph = 0;						\
	name##_clear(w);						\
}

#endif /* OWIN_H */
