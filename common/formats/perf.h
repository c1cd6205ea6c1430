/*
 * perf.h: the text perf script prints (perf2sst) (perf.c).
 */
#ifndef PERF_H
#define PERF_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "fmt.h"

/* Views of the frame rules of -F (PERF_JAVA: the thread is java's). */
#define PERF_ADDRS	0x01	/* [mod <pc>] for unknown functions */
#define PERF_KERNEL	0x02	/* _[k] after kernel functions */
#define PERF_JIT	0x04	/* _[j] after JIT-compiled functions */
#define PERF_JAVA	0x08	/* "Lpkg/Class" loses its L */
/* What names a thread with -F: comm, comm-pid or comm-pid/tid. */
enum perf_id {
	PERF_COMM,
	PERF_PID,
	PERF_TID
};
/* The views that -F asks for. */
struct perf_view {
	int		 fg;		/* stackcollapse-perf.pl's rules */
	int		 ray;		/* perf.py's, asked for */
	int		 period;	/* a sample weighs its period */
	enum perf_id	 id;
	int		 flags;		/* PERF_ADDRS, PERF_KERNEL, PERF_JIT */
};
/* Apply a comma-separated list of -F keywords to v; -1 if one is bad. */
int	 perf_view(struct perf_view *, char *, const char **);
/* The last "ab" in [s, e), or NULL. */
const char *perf_lastpair(const char *, const char *, char, char);
/* The end of [s, e) without a trailing "+0x" and lower-case hex digits. */
const char *perf_stripoff(const char *, const char *);
/*
 * The event (*ev, *evn: without its ':') that ends a header "...:
 * [period] event:", the period's digits added to *per; 1 if the header
 * ends so, 0 if not (*ev may be set all the same).
 */
int	 perf_event(const char *, size_t, const char **, size_t *, double *);
/*
 * The weight of a sample of event ev[0..evn) with period per: 1 (unit
 * none) if per is 0, per nanoseconds for cpu-clock and task-clock, else
 * per (unit none); its unit in *unit.
 */
double	 perf_weight(const char *, size_t, double, enum sst_unit *);
/* A header by perf.py's rules: its thread is s[*a, *b); 0 if not one. */
int	 perf_rayhead(const char *, size_t, size_t *, size_t *);
/* A sample header "comm pid[/tid] ..." by stackcollapse-perf.pl's rules. */
struct perf_head {
	size_t		 comm;		/* the command is s[0, comm) */
	const char	*pid;		/* "?" if the header gives a tid only */
	size_t		 pidn;
	const char	*tid;
	size_t		 tidn;
};
/* Parse header s[0..n) into h; 0 if it is not one. */
int	 perf_fghead(const char *, size_t, struct perf_head *);
/* Its thread into b, not escaped: comm[-pid[/tid]], each ' ' made '_'. */
void	 perf_fgthread(struct buf *, const char *, const struct perf_head *,
	    enum perf_id);
/*
 * Append the escaped frames of frame line [s, e) to out, ';' before
 * each, by perf.py's rules or by stackcollapse-perf.pl's (fg, with
 * PERF_* flags); tmp is scratch space.  0 ok, -1 if it is no frame line.
 */
int	 perf_rayframe(struct buf *, struct buf *, const char *, const char *);
int	 perf_fgframe(struct buf *, struct buf *, const char *, const char *,
	    int);
/* Frame lines, each parsed once, to ids of their escaped frames. */
#define PERF_NOFRAME	UINT32_MAX	/* a frame line that adds no frame */
#define PERF_BADLINE	(UINT32_MAX - 1) /* a line that is no frame line */
struct perf_frames;
/* A table for perf.py's rules, or for -F's (fg) with PERF_* flags. */
struct perf_frames *perf_frames_new(int, int);
/* The id of frame line [t, e) of a java thread or not, or PERF_NO*. */
uint32_t perf_frames_id(struct perf_frames *, const char *, const char *,
	    int);
/* Append the frames of ids[0..n) (leaf first) to b, root first. */
void	 perf_frames_stack(const struct perf_frames *, const uint32_t *,
	    size_t, struct buf *);
void	 perf_frames_free(struct perf_frames *);
/*
 * Samples summed into sst records by thread, frames ids and unit, with
 * the frames of a frame table; each: each sample is a record at once.
 */
struct perf_recs;
struct perf_recs *perf_recs_new(const struct perf_frames *, int);
/*
 * A sample: escaped thread, frames ids (leaf first), weight, unit; -1
 * if the weight, or its record's summed weight, is not finite.
 */
int	 perf_recs_add(struct perf_recs *, const char *, size_t,
	    const uint32_t *, size_t, double, enum sst_unit);
/* Write the records to standard output in first-seen order. */
void	 perf_recs_put(struct perf_recs *);
void	 perf_recs_free(struct perf_recs *);

#endif /* PERF_H */
