/*
 * gpu.h: GPU analyses of Chrome/Kineto traces (sst-gpu): one rank (a
 * trace file) is read into compact rows, trimmed as HolisticTraceAnalysis
 * trims it when asked, and summarised into the tables of gpustat.c; or,
 * for the views that can, summarised as it is read (gpulive.c) with the
 * rows in a spill to fall back on.  Library code: errors are returned
 * (-1, the message from gpu_errmsg()).
 */
#ifndef GPU_H
#define GPU_H
#include "json.h"
#include "htab.h"
#include "spill.h"

/* The analyses, as -F names them. */
enum gpu_view {
	GV_TEMPORAL, GV_KTYPES, GV_KERNELS, GV_IDLE, GV_OVERLAP,
	GV_LAUNCH, GV_QUEUE, GV_ANN, GV_CPUANN, GV_NVIEW
};

/* Kernel types, as HTA names them; SYNC is none of its three. */
enum { KT_COMP, KT_COMM, KT_MEM, KT_SYNC };

/* Row flags. */
#define R_GPU	0x001	/* an integer args.stream: on a stream */
#define R_GK	0x002	/* HTA's GPU kernel (stream >= 0, correlation >= 0) */
#define R_SYNC	0x004	/* category cuda_sync */
#define R_LAUNCH 0x008	/* a runtime call that launches GPU work */
#define R_WEIRD	0x010	/* args.stream that is not an integer */
#define R_ANN	0x020	/* category user_annotation */
#define R_GANN	0x040	/* category gpu_user_annotation */
#define R_STEP	0x080	/* named ProfilerStep#N */
#define R_KEEP	0x100	/* left by the step trimming */
#define R_IC	0x200	/* correlated with an event of the other side */
#define R_TYPE	12	/* the KT_* of an R_GPU row, in bits 12-13 */
#define TYPE(w)	(((w)->flags >> R_TYPE) & 3)

/* One event kept, 32 bytes: times in ticks (ns, or whole us with hta). */
struct grow {
	int64_t		 ts, end;
	int64_t		 corr;		/* -1: none */
	uint32_t	 name;		/* in the rank's names */
	uint16_t	 flags;
	uint16_t	 stream;	/* index in the rank's streams */
};

/*
 * The bounds of the views summarised as read: what a window holds
 * (intervals, events or queue steps) and the correlations queue keeps
 * joined (GPU_WIN), the calls or events idle lets wait (GPU_WAIT).  The
 * fuzz build (SST_SMALLWIN) makes them small, so that the fallbacks on
 * the rows and the letting go run on small inputs.
 */
#ifdef SST_SMALLWIN
#define GPU_WIN		3
#define GPU_WAIT	4
#else
#define GPU_WIN		4096
#define GPU_WAIT	65536
#endif

/* Rows live in blocks of 1 << GBLK, so that growing copies nothing. */
#define GBLK	14

/* One rank: a trace file's rows. */
struct grank {
	char		*label;
	struct grow	**blk;
	size_t		 nrow, nblk;
	uint32_t	*ic;		/* idle: each R_IC row's other side */
	struct htab	*names;
	int64_t		*streams;	/* the stream numbers, first-seen */
	size_t		 nstream;
	int		 floats;	/* a ts was not an integer */
	size_t		 nsteps;	/* distinct ProfilerStep names */
	struct spill	*spill;		/* the rows, when not in memory */
	size_t		 nspilt;
	int		 corred;	/* R_IC set on the rows in memory */
	uint8_t		*ntype;		/* kernel type by name id + 1 */
	size_t		 ntypecap;
	char		 err[256];	/* the last error's message */
	int		 errloc;	/* it has the JSON position */
};

/* Row i of r. */
static inline struct grow *
ROW(const struct grank *r, size_t i)
{
	return &r->blk[i >> GBLK][i & ((1 << GBLK) - 1)];
}

/* Called with each row read that some view needs (gpu_opt's sink). */
typedef void gpu_sink(void *, const struct grow *);

struct gpu_opt {
	unsigned	 views;		/* 1 << each gpu_view asked for */
	enum gpu_view	 order[GV_NVIEW]; /* in the order asked */
	size_t		 nview;
	int		 hta;		/* HTA's defaults */
	int64_t		 scale;		/* ticks per us */
	int		 steps;		/* a step range: first to last */
	long long	 first, last;
	int		 rowsonly;	/* every view from the rows (tests) */
	/* Set by gstat_new(): */
	int		 live;		/* views summarised as read */
	int		 rows;		/* rows kept in memory */
	int		 spill;		/* else in a spill, to fall back on */
	gpu_sink	*sink;		/* the live views' (NULL: none) */
	void		*sinkarg;
};

/* Whether o asks for view v. */
#define HASVIEW(o, v)	(((o)->views >> (v)) & 1)

/* gpu.c */
/*
 * Read the trace of j into r; label is the rank's name if the trace has
 * no distributedInfo.rank (NULL: "0", as HTA names it).  0, or -1 with
 * r's error (gpu_errmsg()).
 */
int	 gpu_read(struct grank *, struct json *, const struct gpu_opt *,
	    const char *);
/* Trim and correlate r as the views need; 0, or -1 with r's error. */
int	 gpu_trim(struct grank *, const struct gpu_opt *);
/*
 * The message of r's last error, and in *loc whether it is about the
 * place the JSON reader is at (xjson_fail() adds it), else whole.
 */
const char *gpu_errmsg(const struct grank *, int *);
/*
 * Set R_IC on r's rows as gpu_trim() does, and if ic fill r->ic (at most
 * UINT32_MAX rows: gpu_read() refuses more when the idle view is asked
 * for), if not done.
 */
void	 gpu_correlate(struct grank *, int);
/* Bring spilt rows into memory (rows stay in trace order). */
void	 gpu_load(struct grank *);
/* Row *i of r into w, from memory or the spill; 0 at the end. */
int	 gpu_nextrow(struct grank *, size_t *, struct grow *);
void	 gpu_free(struct grank *);
const char *gpu_name(const struct grank *, uint32_t);
/*
 * The kept rows with all of the flags in want and none of those in not,
 * in trace order, or by start time (stably) if sorted; count in *n.
 */
size_t	*gpu_pick(const struct grank *, unsigned, unsigned, int, size_t *);
/* Row indices ix[0..n) by start time, stably. */
void	 gpu_sortts(const struct grank *, size_t *, size_t);
/* The rows with flags & mask == want, by correlation (then order). */
size_t	*gpu_bycorr(const struct grank *, unsigned, unsigned, size_t *);
/* The first of them with correlation c, or n if none. */
size_t	 gpu_findcorr(const struct grank *, const size_t *, size_t, int64_t);
int	 gpu_ktype(const char *, size_t, int);

#endif
