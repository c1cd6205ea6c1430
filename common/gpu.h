/*
 * gpu.h: GPU analyses of Chrome/Kineto traces (sst-gpu): one rank (a
 * trace file) is read into compact rows, trimmed as HolisticTraceAnalysis
 * trims it when asked, and summarised into the tables of gpustat.c.
 * Needs sst.h first.
 */
#ifndef GPU_H
#define GPU_H

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

/* Rows live in blocks of 1 << GBLK, so that growing copies nothing. */
#define GBLK	14

/* One rank: a trace file's rows. */
struct grank {
	char		*label;
	struct grow	**blk;
	size_t		 nrow, nblk;
	uint32_t	*ic;		/* idle: each R_IC row's correlated row */
	struct htab	*names;
	int64_t		*streams;	/* the stream numbers, first-seen */
	size_t		 nstream;
	int		 floats;	/* a ts was not an integer */
	size_t		 nsteps;	/* distinct ProfilerStep names */
};

/* Row i of r. */
static inline struct grow *
ROW(const struct grank *r, size_t i)
{
	return &r->blk[i >> GBLK][i & ((1 << GBLK) - 1)];
}

struct gpu_opt {
	enum gpu_view	 view;
	int		 hta;		/* HTA's defaults */
	int64_t		 scale;		/* ticks per us */
};

/* gpu.c */
/*
 * Read the trace of j into r; label is the rank's name if the trace has
 * no distributedInfo.rank (NULL: "0", as HTA names it).
 */
void	 gpu_read(struct grank *, struct json *, const struct gpu_opt *,
	    const char *);
void	 gpu_trim(struct grank *, const struct gpu_opt *);
void	 gpu_free(struct grank *);
const char *gpu_name(const struct grank *, uint32_t);
/* The rows with flags & mask == want, by correlation (then order). */
size_t	*gpu_bycorr(const struct grank *, unsigned, unsigned, size_t *);
/* The first of them with correlation c, or n if none. */
size_t	 gpu_findcorr(const struct grank *, const size_t *, size_t, int64_t);
int	 gpu_ktype(const char *, size_t, int);

/* gpuq.c: the queue table of a rank. */
void	 gpu_queue(const struct grank *, const struct gpu_opt *, FILE *);

/* gpustat.c */
struct gstat;
struct gstat *gstat_new(const struct gpu_opt *, FILE *);
void	 gstat_rank(struct gstat *, const struct grank *);
void	 gstat_end(struct gstat *);
/* The view called s, or -1. */
int	 gpu_view(const char *);

#endif
