/*
 * catmap.h: categories of functions from JSON (sst-categories) (catmap.c).
 */
#ifndef CATMAP_H
#define CATMAP_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "htab.h"

struct catmap {
	struct htab	*names;		/* escaped category names */
	struct htab	*func;		/* escaped function names */
	size_t		*fcat;		/* by function: its category */
};
void	 catmap_init(struct catmap *);
/*
 * Add the categories of a JSON object of lists of function names, text
 * js[0..len) called name in messages: 0, or -1 if it is not one, with
 * the message "NAME: what" in err[0..errlen).  The last list of a
 * category wins, but the category keeps its first place; a function
 * belongs to the last category that lists it.
 */
int	 catmap_load(struct catmap *, const char *, size_t, const char *,
	    char *, size_t);
/*
 * The same with the text of the file path ("-": standard input); a file
 * that cannot be read is "PATH: strerror".
 */
int	 catmap_loadfile(struct catmap *, const char *, char *, size_t);
void	 catmap_free(struct catmap *);

#endif /* CATMAP_H */
