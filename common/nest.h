/*
 * nest.h: spans of one thread nested by the rules of trace2sst (issue
 * 11, part 1), written as sst records (nsys2sst).  Needs sst.h first.
 */
#ifndef NEST_H
#define NEST_H

#include <stdint.h>

/* Flags of nest_put(). */
#define NEST_PERSPAN	0x01	/* one record per span, in start order */
#define NEST_FLAT	0x02	/* no nesting: every span at the root */

/* What nest_put() found, for warnings, or the error it stopped at. */
struct nest_stats {
	size_t		 clipped;	/* spans clipped to their parent */
	size_t		 open;		/* spans without an end */
	int64_t		 id;		/* the span of the error */
	char		 why[160];	/* the error */
};

struct nest;
struct nest *nest_new(void);
/*
 * A span [start, end) named by escaped name n[0..len), in input order,
 * called id in messages; without an end (hasend 0), the thread's last
 * timestamp.
 */
void	 nest_add(struct nest *, int64_t, int64_t, int, int64_t,
	    const char *, size_t);
/* How many spans were added since the last nest_put(). */
size_t	 nest_count(const struct nest *);
/*
 * Nest the spans added (nest_put() does if it was not done): 0, or -1
 * with st->why and st->id saying which span is in error: a duration
 * past 2^63 - 1 or a span nested deeper than SST_MAXDEPTH.
 */
int	 nest_nest(struct nest *, int, struct nest_stats *);
/*
 * Nest the spans added and hand out their records, thread thr[0..len)
 * (escaped), weights in seconds (times divided by div): one record
 * per distinct stack with the spans ending there and their summed self
 * time, or with NEST_PERSPAN one per span in start order, with its start
 * (sst(5)'s eighth field) counted from origin.  Forgets the spans; adds
 * what it found to *st.  0, or -1 with nothing handed out, as
 * nest_nest(), or when a stack's summed self time passes 2^63 - 1.
 */
int	 nest_put(struct nest *, const char *, size_t, double, int64_t, int,
	    spd_emit, void *, struct nest_stats *);
void	 nest_free(struct nest *);

#endif
