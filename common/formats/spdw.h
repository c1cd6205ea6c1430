/*
 * spdw.h: speedscope JSON as Python writes it (sst2speedscope) (spdw.c).
 */
#ifndef SPDW_H
#define SPDW_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "spill.h"

/*
 * Into the buffer (reset): the key of the frame named s[0..n) (escaped)
 * at location entry l[0..ln) (":::": none).
 */
void	 spdw_framekey(struct buf *, const char *, size_t, const char *,
	    size_t);
/*
 * Whether a location entry is "file:line:col", its line and col each
 * empty, null or a JSON number.
 */
int	 spdw_locvalid(const char *, size_t);
/*
 * Write the entries of shared.frames to standard output: the keys of
 * the frames of the table, in the order of the ids given (NULL: of
 * their ids).
 */
void	 spdw_putframes(const struct htab *, const size_t *, size_t);
/* A record in a spill: n samples of weight w, then nf frame ids. */
struct spdw_rec {
	uint32_t	 tid;
	uint32_t	 nf;
	uint64_t	 n;
	double		 w;
};
/* The frame ids of the last record read. */
struct spdw_ids {
	uint32_t	*id;
	size_t		 cap;
};
/* Read a record and its ids; 0 at the end.  A short read exits 1. */
int	 spdw_xread(struct spill *, struct spdw_rec *, struct spdw_ids *);
/* A thread's profile. */
struct spdw_thread {
	struct buf	 name;		/* decoded */
	enum sst_unit	 unit;
	uint64_t	 n;		/* samples */
	double		 end;		/* their weights summed in order */
	double		 scale;		/* of the weights as written */
	size_t		 rank;		/* in the output */
};
/*
 * Write the profiles of threads thr[order[0..n)] from the records of
 * the spill (thread ids index thr) with frame ids mapped by the array
 * (NULL: as they are).
 */
void	 spdw_putprofiles(struct spill *, const struct spdw_thread *,
	    const size_t *, size_t, const uint32_t *, struct spdw_ids *);
/*
 * The records spilled with their stacks as frame ids, the frames
 * interned by name and location in the order first met.
 */
struct spdw_frames;
struct spdw_frames *spdw_frames_new(void);
void	 spdw_frames_free(struct spdw_frames *);
/* The table of frame keys (spdw_framekey()), ids by first use. */
const struct htab *spdw_frames_table(const struct spdw_frames *);
/*
 * Add a record, of the header given (its nf set here), to those that go
 * to the spill, in order; 0, or -1 with a message in the buffer ("bad
 * location: ...").  They may wait: spdw_frames_flush() writes them all.
 */
int	 spdw_addrec(struct spdw_frames *, const struct sst_rec *,
	    struct spdw_rec *, struct spill *, struct buf *);
void	 spdw_frames_flush(struct spdw_frames *, struct spill *);

#endif /* SPDW_H */
