/*
 * nsys.h: Nsight Systems SQLite exports (nsys2sst): opening one, the
 * names of its threads, and its spans by output thread.
 */
#ifndef NSYS_H
#define NSYS_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "buf.h"
#include "progress.h"
#include "htab.h"
#include "nest.h"

/*
 * Open the export at file ("-": standard input, read into memory),
 * called name in messages, read-only.  NULL if it cannot be opened
 * ("FILE: why") or read, or is no SQLite database, with a message saying
 * what it looks like, in err.
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

/* The output threads of an export: what their spans are. */
enum nsys_kind {
	NSYS_PUSHPOP,		/* NVTX push/pop ranges of a thread */
	NSYS_STARTEND,		/* NVTX start/end ranges of a thread */
	NSYS_KERNEL,		/* kernels of a device and stream */
	NSYS_NKINDS
};

/* An output thread: its key (a globalTid and 0, or device and stream). */
struct nsys_thr {
	int64_t		 a, b;
	struct nest	*ns;
};

/* The spans of an export. */
struct nsys_spans {
	struct htab	*keys[NSYS_NKINDS];	/* (a, b) to thread */
	struct nsys_thr	*t[NSYS_NKINDS];	/* in first-seen order */
	size_t		 cap[NSYS_NKINDS];
	int64_t		 origin;		/* the earliest start */
	int		 hasorigin;
	size_t		 n;			/* spans */
	struct buf	 name;
};

/* The table spans of kind k come from, for messages. */
const char *nsys_table(enum nsys_kind);
/*
 * Read the NVTX ranges (eventType 59, push/pop, and 60, start/end) and
 * CUDA kernels of db, called name in messages, into *sp, the rows
 * counted on pr (NULL: none): 0 (sp->n may be 0), or -1 with
 * "NAME: what" in err: a database error, an export with neither table,
 * a start or end that is no integer, a range that ends before it
 * starts.  Free *sp
 * with nsys_spansfree() in both cases.
 */
int	 nsys_spans(sqlite3 *, const char *, struct nsys_spans *,
	    struct progress *, char *, size_t);
void	 nsys_spansfree(struct nsys_spans *);

#endif
