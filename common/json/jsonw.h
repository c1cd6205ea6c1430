/*
 * jsonw.h: JSON output as Python's json.dump() writes it (jsonw.c).
 */
#ifndef JSONW_H
#define JSONW_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* s[0..n) as a JSON string: ensure_ascii; WTF-8; bad UTF-8 as U+FFFD. */
void	 jsonw_str(FILE *, const char *, size_t);
/* A float: its repr(), or NaN, Infinity, -Infinity. */
void	 jsonw_float(FILE *, double);
/* The same text, in a static buffer kept until the next call. */
const char *jsonw_floattext(double);
/* Whether s[0..n) is a JSON number (which can be written as it is). */
int	 jsonw_isnum(const char *, size_t);

#endif /* JSONW_H */
