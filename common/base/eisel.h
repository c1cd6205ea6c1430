/*
 * eisel.h: the double nearest a decimal of up to 19 digits, when it can
 * be found quickly (Eisel-Lemire), for fmt.c's fmt_strtod.
 */
#ifndef EISEL_H
#define EISEL_H

#include <stdint.h>

int	eisel(uint64_t, int, int, double *);

#endif
