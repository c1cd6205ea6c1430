/*
 * shortest.h: the shortest decimal digits that read back as a double
 * (Ryu), for fmt.c's repr() and %g texts.
 */
#ifndef SHORTEST_H
#define SHORTEST_H

#define SHORTEST_MAX	17	/* digits at most */

int	shortest(double, char *, int *);

#endif
