/*
 * nsys.h: Nsight Systems SQLite exports (nsys2sst).  Needs sst.h and
 * sqlite3.h first.
 */
#ifndef NSYS_H
#define NSYS_H

#include <stdint.h>

/*
 * Open the export at file ("-": standard input, read into memory),
 * called name in messages, read-only.  NULL if it cannot be read or is
 * no SQLite database, with a message saying what it looks like in err.
 */
sqlite3	*nsys_open(const char *, const char *, char *, size_t);
/* Whether the database has that table: 1, 0, or -1 on an error. */
int	 nsys_hastable(sqlite3 *, const char *);
/*
 * Append to b the escaped thread field of globalTid gtid:
 * Process PID ["name"] Thread TID ["name"], names from PROCESSES and
 * ThreadNames where there are.  -1 on a database error.
 */
int	 nsys_thread(sqlite3 *, struct buf *, int64_t);

#endif
