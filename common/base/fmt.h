/*
 * fmt.h: numbers (fmt.c).
 */
#ifndef FMT_H
#define FMT_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum sst_unit {
	U_SECONDS,
	U_NONE,
	U_BYTES
};

/* Shortest text that reads back as the same double (like Python repr). */
char	*fmt_double(char *, size_t, double);
/* The same text, remembered for the doubles seen last; len its length. */
const char *fmt_dshort(double, size_t *);
/* The same digits as Python's repr() writes them: "1.0", "1e+16", "inf". */
char	*fmt_pyfloat(char *, size_t, double);
/* v in decimal, not terminated (20 bytes at most); returns the length. */
size_t	 fmt_u64(char *, uint64_t);
/* Integer with thousands separators, as Python's "{:,}". */
char	*fmt_commas(char *, size_t, uint64_t);
/*
 * A weight in its unit, for people (FMTBUF bytes do): seconds "12.34s",
 * counts (none) "12,994" or "1,234.50", bytes "4,096 B".
 */
char	*fmt_weight(char *, size_t, double, enum sst_unit);
/* What a weight of the unit is, for headings: "time", "count", "bytes". */
const char *fmt_unitnoun(enum sst_unit);
/* Add w to acc n times, left to right, as Python's sum() does. */
double	 fmt_pysum(double, double, uint64_t);
/* Parse a whole field as a number; 0 ok, -1 if not a number. */
int	 fmt_strtod(const char *, size_t, double *);
int	 fmt_strtou64(const char *, size_t, uint64_t *);

#define FMTBUF	64

#endif /* FMT_H */
