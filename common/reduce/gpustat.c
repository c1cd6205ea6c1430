/*
 * gpustat.c: the tables of sst-gpu, one per analysis, with the column
 * names of HolisticTraceAnalysis (HTA) and its definitions:
 *
 *  temporal	kernel_time is the last end minus the first start of the
 *		GPU events of a rank; idle what their merged intervals
 *		leave uncovered; compute the merged computation kernels;
 *		non-compute the rest.
 *  kernel-types time covered by each combination of computation,
 *		communication and memory kernels, over all ranks.
 *  kernels	per rank and kernel name: sum, max, min, stddev (n-1),
 *		mean.
 *  idle	per stream, the gap before each kernel: host_wait when
 *		its launch came after the previous kernel ended, else
 *		kernel_wait when shorter than 30 us, else other.
 *  overlap	time when computation and communication overlap, as a
 *		share of the communication time.
 *  launch	per launched GPU event: the runtime call's duration, the
 *		event's, and the delay from the call's end to its start.
 *  queue	per stream, the number of launched but unstarted GPU
 *		operations after each launch and each start, summarised.
 *  annotations, cpu-annotations: per gpu_user_annotation or
 *		user_annotation name, as kernels.
 *
 * Times print in microseconds.  The per-kernel and per-stream state is
 * small; the rows themselves are gpu.c's.  Without hta or a step range,
 * every view is summarised as the rows are read (gpulive.c, gpuwin.c,
 * gpuqlive.c, gpuidle.c), and these functions are its fallback.
 * Several views print one table after another, a blank line between:
 * the first straight out, the others into temporary files until then.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "htab.h"
#include "sort.h"
#include "gpu.h"
#include "gpuq.h"
#include "gpulive.h"
#include "gpuidle.h"
#include "gpustat.h"

static const char *views[] = {
	"temporal", "kernel-types", "kernels", "idle", "overlap", "launch",
	"queue", "annotations", "cpu-annotations"
};

static const char *heads[] = {
	("rank\tidle_time(us)\tcompute_time(us)\tnon_compute_time(us)\t"
	    "kernel_time(us)\tidle_time_pctg\tcompute_time_pctg\t"
	    "non_compute_time_pctg"),
	"kernel_type\tsum\tpercentage",
	("name\tsum (us)\tmax (us)\tmin (us)\tstddev\tmean (us)\t"
	    "kernel_type\trank"),
	"rank\tstream\tidle_category\tidle_time\tidle_time_ratio",
	"rank\tcomp_comm_overlap_pctg",
	"rank\tcorrelation\tcpu_duration\tgpu_duration\tlaunch_delay",
	"rank\tstream\tcount\tmean\tstd\tmin\t25%\t50%\t75%\tmax",
	"name\tsum (us)\tmax (us)\tmin (us)\tstddev\tmean (us)\trank",
	"name\tsum (us)\tmax (us)\tmin (us)\tstddev\tmean (us)\trank"
};

static const char *ktname[] = { "COMPUTATION", "COMMUNICATION", "MEMORY" };

/* A kernel of a rank, kept for the final order. */
struct krow {
	char		*name, *rank;
	int		 type;
	struct agg	 a;
};

struct gstat {
	struct gpu_opt	 o;
	FILE		*fp;		/* the table being written */
	FILE		*vfp[GV_NVIEW];	/* each view's, in o.order */
	int		 head[GV_NVIEW]; /* its header row is out */
	int64_t		 acc[8];	/* kernel-types by mask */
	struct krow	*k;
	size_t		 nk;
	struct glive	*live;
	struct gidle	*idle;		/* idle summarised as read */
};

#define SPILLVIEWS	((1u << GV_TEMPORAL) | (1u << GV_LAUNCH) | \
			    (1u << GV_KTYPES) | (1u << GV_OVERLAP) | \
			    (1u << GV_QUEUE) | (1u << GV_IDLE))
#define LIVEVIEWS	(SPILLVIEWS | (1u << GV_KERNELS) | (1u << GV_ANN) | \
			    (1u << GV_CPUANN))

/* The sink of the views summarised as read: each row read. */
static void
rowsink(void *arg, const struct grow *w)
{
	struct gstat *s = arg;

	glive_row(s->live, w);
	if (s->idle != NULL)
		gidle_row(s->idle, w);
}

/* A temporary file for a table, or exit 1. */
static FILE *
xtmpfile(void)
{
	FILE *fp;

	if ((fp = tmpfile()) == NULL)
		err(1, "temporary file");
	return fp;
}

struct gstat *
gstat_new(struct gpu_opt *o, FILE *fp)
{
	struct gstat *s = xcalloc(1, sizeof(*s));
	size_t i;

	o->live = !o->hta && !o->steps && !o->rowsonly &&
	    (o->views & LIVEVIEWS) != 0;
	o->rows = !o->live || (o->views & ~LIVEVIEWS) != 0;
	o->spill = !o->rows && (o->views & SPILLVIEWS) != 0;
	o->sink = NULL;
	o->sinkarg = NULL;
	if (o->live) {
		s->live = glive_new(o);
		if (HASVIEW(o, GV_IDLE))
			s->idle = gidle_new(o->scale);
		o->sink = rowsink;
		o->sinkarg = s;
	}
	s->o = *o;
	for (i = 0; i < o->nview; i++)
		s->vfp[i] = i == 0 ? fp : xtmpfile();
	s->fp = fp;
	return s;
}

size_t
gpu_addview(struct gpu_opt *o, enum gpu_view v)
{
	if (!HASVIEW(o, v)) {
		o->views |= 1u << v;
		o->order[o->nview++] = v;
	}
	return o->nview;
}

int
gpu_view(const char *s)
{
	size_t i;

	for (i = 0; i < GV_NVIEW; i++)
		if (strcmp(s, views[i]) == 0)
			return (int)i;
	return -1;
}

/* Ticks t as microseconds. */
static void
ptime(const struct gstat *s, int64_t t)
{
	char b[32];

	fwrite(b, 1, gpu_fmtus(b, t, s->o.scale), s->fp);
}

/* A derived number: microseconds if us, else as is; NaN prints empty. */
static void
pnum(const struct gstat *s, double v, int us)
{
	if (isnan(v))
		return;
	if (us)
		v /= (double)s->o.scale;
	fprintf(s->fp, "%.10g", v);
}

/* The statistics columns of a group: sum max min stddev mean. */
static void
pagg(const struct gstat *s, const struct agg *a)
{
	ptime(s, a->sum);
	fputc('\t', s->fp);
	ptime(s, a->max);
	fputc('\t', s->fp);
	ptime(s, a->min);
	fputc('\t', s->fp);
	pnum(s, a->n > 1 ? sqrt(a->m2 / (double)(a->n - 1)) : 0, 1);
	fputc('\t', s->fp);
	pnum(s, a->mean, 1);
}

/*
 * Merge the intervals of the rows ix (by start time) of type t (-1: any)
 * as HTA does (one that starts at or before the end so far joins it);
 * the intervals into iv (pairs) if not NULL; returns their count, their
 * covered time in *busy.
 */
static size_t
merge(const struct grank *r, const size_t *ix, size_t n, int t,
    int64_t *iv, int64_t *busy)
{
	size_t i, m = 0;
	int64_t s = 0, e = 0;

	*busy = 0;
	for (i = 0; i < n; i++) {
		const struct grow *w = ROW(r, ix[i]);

		if (t >= 0 && (int)TYPE(w) != t)
			continue;
		if (m > 0 && w->ts <= e) {
			if (w->end > e)
				e = w->end;
			continue;
		}
		if (m > 0) {
			*busy += e - s;
			if (iv != NULL)
				iv[2 * m - 2] = s, iv[2 * m - 1] = e;
		}
		s = w->ts;
		e = w->end;
		m++;
	}
	if (m > 0) {
		*busy += e - s;
		if (iv != NULL)
			iv[2 * m - 2] = s, iv[2 * m - 1] = e;
	}
	return m;
}

static void
pct(const struct gstat *s, double num, double den, int digits)
{
	if (den == 0)
		return;
	fprintf(s->fp, "%.*f", digits, 100 * num / den);
}

static void
temporal(struct gstat *s, const struct grank *r)
{
	size_t *ix, n, i;
	int64_t busy, comp, kt, idle, last;

	ix = gpu_pick(r, R_GPU, 0, 1, &n);
	if (n == 0) {
		free(ix);
		return;
	}
	merge(r, ix, n, -1, NULL, &busy);
	for (i = 0, last = INT64_MIN; i < n; i++)
		if (ROW(r, ix[i])->end > last)
			last = ROW(r, ix[i])->end;
	kt = last - ROW(r, ix[0])->ts;
	idle = kt - busy;
	merge(r, ix, n, KT_COMP, NULL, &comp);
	fprintf(s->fp, "%s\t", r->label);
	ptime(s, idle);
	fputc('\t', s->fp);
	ptime(s, comp);
	fputc('\t', s->fp);
	ptime(s, kt - comp - idle);
	fputc('\t', s->fp);
	ptime(s, kt);
	fputc('\t', s->fp);
	pct(s, (double)idle, (double)kt, 2);
	fputc('\t', s->fp);
	pct(s, (double)comp, (double)kt, 2);
	fputc('\t', s->fp);
	pct(s, (double)(kt - comp - idle), (double)kt, 2);
	fputc('\n', s->fp);
	free(ix);
}

static int
cmpedge(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Time covered by each combination of kernel types, into s->acc. */
static void
ktypes(struct gstat *s, const struct grank *r)
{
	size_t *ix, n, m, i, k, ne = 0;
	int64_t *iv, *ed, busy, run = 0;
	int t;

	ix = gpu_pick(r, R_GPU, R_SYNC, 1, &n);
	iv = xreallocarray(NULL, 2 * n + 2, sizeof(*iv));
	ed = xreallocarray(NULL, 4 * n + 4, sizeof(*ed));
	for (t = KT_COMP; t <= KT_MEM; t++) {
		m = merge(r, ix, n, t, iv, &busy);
		for (i = 0; i < m; i++) {
			ed[2 * ne] = iv[2 * i];
			ed[2 * ne++ + 1] = 1 << t;
			ed[2 * ne] = iv[2 * i + 1];
			ed[2 * ne++ + 1] = -(1 << t);
		}
	}
	qsort(ed, ne, 2 * sizeof(*ed), cmpedge);
	for (i = 0; i < ne; i = k) {
		for (k = i; k < ne && ed[2 * k] == ed[2 * i]; k++)
			run += ed[2 * k + 1];
		if (run > 0 && run < 8 && k < ne)
			s->acc[run] += ed[2 * k] - ed[2 * i];
	}
	free(ed);
	free(iv);
	free(ix);
}

/* The kernel-types table, largest first. */
static void
ktypesend(struct gstat *s)
{
	int64_t tot = 0;
	int ord[8], i, j, t, n = 0;

	for (i = 1; i < 8; i++)
		if (s->acc[i] > 0) {
			tot += s->acc[i];
			for (j = n++; j > 0 && s->acc[ord[j - 1]] < s->acc[i];
			    j--)
				ord[j] = ord[j - 1];
			ord[j] = i;
		}
	for (i = 0; i < n; i++) {
		const char *sep = "";

		for (t = KT_COMP; t <= KT_MEM; t++)
			if (ord[i] & (1 << t)) {
				fprintf(s->fp, "%s%s", sep, ktname[t]);
				sep = " overlapping ";
			}
		fputc('\t', s->fp);
		ptime(s, s->acc[ord[i]]);
		fputc('\t', s->fp);
		pct(s, (double)s->acc[ord[i]], (double)tot, 1);
		fputc('\n', s->fp);
	}
}

/*
 * Group the kept rows with flags want (none of not) by name (and type):
 * their statistics in a, in first-seen order; returns how many.
 */
static size_t
group(const struct grank *r, unsigned want, unsigned not,
    struct agg **ap, uint32_t **namep, uint8_t **typep)
{
	struct htab *h = ht_new();
	struct agg *a = NULL;
	uint32_t *nm = NULL, key[2];
	uint8_t *ty = NULL;
	size_t *ix, n, i, id, cap = 0;
	int isnew;

	ix = gpu_pick(r, want, not, 0, &n);
	for (i = 0; i < n; i++) {
		const struct grow *w = ROW(r, ix[i]);

		key[0] = w->name;
		key[1] = TYPE(w);
		id = ht_intern(h, key, sizeof(key), &isnew);
		if (id >= cap) {
			cap = cap ? 2 * cap : 64;
			a = xreallocarray(a, cap, sizeof(*a));
			nm = xreallocarray(nm, cap, sizeof(*nm));
			ty = xreallocarray(ty, cap, sizeof(*ty));
		}
		if (isnew) {
			memset(&a[id], 0, sizeof(a[id]));
			nm[id] = w->name;
			ty[id] = (uint8_t)TYPE(w);
		}
		gpu_aggadd(&a[id], w->end - w->ts);
	}
	id = ht_count(h);
	ht_free(h);
	free(ix);
	*ap = a;
	*namep = nm;
	*typep = ty;
	return id;
}

/* The n kernels of r (statistics a, name ids nm, types ty) to s->k. */
static void
kernels(struct gstat *s, const struct grank *r, const struct agg *a,
    const uint32_t *nm, const uint8_t *ty, size_t n)
{
	size_t i;

	s->k = xreallocarray(s->k, s->nk + n, sizeof(*s->k));
	for (i = 0; i < n; i++) {
		struct krow *k = &s->k[s->nk++];

		k->name = xstrdup(gpu_name(r, nm[i]));
		k->rank = xstrdup(r->label);
		k->type = ty[i];
		k->a = a[i];
	}
}

/* kernels() of r's kernels, from the live state or r's rows. */
static void
kernelsof(struct gstat *s, const struct grank *r)
{
	const struct agg *ca;
	const uint32_t *cn;
	const uint8_t *ct;
	struct agg *a;
	uint32_t *nm;
	uint8_t *ty;
	size_t n;

	if (s->live != NULL) {
		n = glive_kernels(s->live, &ca, &cn, &ct);
		kernels(s, r, ca, cn, ct, n);
		return;
	}
	n = group(r, R_GPU, R_SYNC, &a, &nm, &ty);
	kernels(s, r, a, nm, ty, n);
	free(a);
	free(nm);
	free(ty);
}

/* Ranks in numeric order where both are numbers, else as text. */
static int
rankcmp(const char *a, const char *b)
{
	char *ea, *eb;
	double x = strtod(a, &ea), y = strtod(b, &eb);

	if (*a != '\0' && *ea == '\0' && *b != '\0' && *eb == '\0' && x != y)
		return x < y ? -1 : 1;
	return strcmp(a, b);
}

static int
kcmp(size_t a, size_t b, void *arg)
{
	const struct gstat *s = arg;
	const struct krow *x = &s->k[a], *y = &s->k[b];
	int c;

	if (!s->o.hta) {
		if (x->a.sum != y->a.sum)
			return x->a.sum > y->a.sum ? -1 : 1;
	} else if (x->type != y->type)
		return strcmp(ktname[x->type], ktname[y->type]);
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return rankcmp(x->rank, y->rank);
}

/* The kernels table: with hta in HTA's order, else by sum. */
static void
kernelsend(struct gstat *s)
{
	size_t *ix, i;

	ix = xreallocarray(NULL, s->nk + 1, sizeof(*ix));
	for (i = 0; i < s->nk; i++)
		ix[i] = i;
	sst_sort(ix, s->nk, kcmp, s);
	for (i = 0; i < s->nk; i++) {
		struct krow *k = &s->k[ix[i]];

		fprintf(s->fp, "%s\t", k->name);
		pagg(s, &k->a);
		fprintf(s->fp, "\t%s\t%s\n", ktname[k->type], k->rank);
	}
	for (i = 0; i < s->nk; i++) {
		free(s->k[i].name);
		free(s->k[i].rank);
	}
	free(s->k);
	free(ix);
}

static int
namecmp(size_t a, size_t b, void *arg)
{
	const struct grank *r = arg;

	return strcmp(gpu_name(r, (uint32_t)a), gpu_name(r, (uint32_t)b));
}

/*
 * The annotations of r with flag f (R_GANN, R_ANN) by name, from the
 * live state or r's rows.
 */
static void
annotations(struct gstat *s, const struct grank *r, unsigned f)
{
	const struct agg *ca;
	const uint32_t *cn;
	struct agg *a = NULL;
	uint32_t *nm = NULL;
	uint8_t *ty = NULL;
	size_t n, i, *ix, *by;

	if (s->live != NULL)
		n = glive_ann(s->live, f == R_ANN, &ca, &cn);
	else {
		n = group(r, f, R_GPU, &a, &nm, &ty);
		ca = a;
		cn = nm;
	}
	ix = xreallocarray(NULL, n + 1, sizeof(*ix));
	by = xreallocarray(NULL, ht_count(r->names) + 1, sizeof(*by));
	for (i = 0; i < n; i++) {
		ix[i] = cn[i];
		by[cn[i]] = i;
	}
	sst_sort(ix, n, namecmp, (void *)r);
	for (i = 0; i < n; i++) {
		fprintf(s->fp, "%s\t", gpu_name(r, (uint32_t)ix[i]));
		pagg(s, &ca[by[ix[i]]]);
		fprintf(s->fp, "\t%s\n", r->label);
	}
	free(by);
	free(ix);
	free(a);
	free(nm);
	free(ty);
}

/* Communication time overlapped by computation, as a percentage. */
static void
overlap(struct gstat *s, const struct grank *r)
{
	size_t *ix, n, nc, nm, i = 0, k = 0;
	int64_t *cp, *cm, busy, ov = 0, lo, hi;

	ix = gpu_pick(r, R_GPU, R_SYNC, 1, &n);
	cp = xreallocarray(NULL, 2 * n + 2, sizeof(*cp));
	cm = xreallocarray(NULL, 2 * n + 2, sizeof(*cm));
	nc = merge(r, ix, n, KT_COMP, cp, &busy);
	nm = merge(r, ix, n, KT_COMM, cm, &busy);
	while (i < nc && k < nm) {
		lo = cp[2 * i] > cm[2 * k] ? cp[2 * i] : cm[2 * k];
		hi = cp[2 * i + 1] < cm[2 * k + 1] ? cp[2 * i + 1] :
		    cm[2 * k + 1];
		if (hi > lo)
			ov += hi - lo;
		if (cp[2 * i + 1] < cm[2 * k + 1])
			i++;
		else
			k++;
	}
	fprintf(s->fp, "%s\t", r->label);
	if (nm > 0)
		pct(s, (double)ov, (double)busy, 2);
	fputc('\n', s->fp);
	free(cm);
	free(cp);
	free(ix);
}

/* Launch statistics: each runtime call joined to its GPU events. */
static void
launch(struct gstat *s, const struct grank *r)
{
	size_t *ix, *by, n, nb, i, k;

	by = gpu_bycorr(r, R_GPU | R_KEEP, R_GPU | R_KEEP, &nb);
	ix = gpu_pick(r, R_LAUNCH, R_GPU | (s->o.hta ? R_WEIRD : 0), 0, &n);
	for (i = 0; i < n; i++) {
		const struct grow *c = ROW(r, ix[i]);

		for (k = gpu_findcorr(r, by, nb, c->corr); k < nb &&
		    ROW(r, by[k])->corr == c->corr; k++) {
			const struct grow *g = ROW(r, by[k]);

			fprintf(s->fp, "%s\t%lld\t", r->label,
			    (long long)c->corr);
			ptime(s, c->end - c->ts);
			fputc('\t', s->fp);
			ptime(s, g->end - g->ts);
			fputc('\t', s->fp);
			ptime(s, g->ts > c->end ? g->ts - c->end : 0);
			fputc('\n', s->fp);
		}
	}
	free(ix);
	free(by);
}

/* View v's table of rank r, or its part of it. */
static void
view(struct gstat *s, struct grank *r, enum gpu_view v)
{
	switch (v) {
	case GV_TEMPORAL:
		if (s->live == NULL || glive_temporal(s->live, r, s->fp) ==
		    -1) {
			gpu_load(r);
			temporal(s, r);
		}
		break;
	case GV_KTYPES:
		if (s->live == NULL || glive_ktypes(s->live, s->acc) == -1) {
			gpu_load(r);
			ktypes(s, r);
		}
		break;
	case GV_KERNELS:
		kernelsof(s, r);
		break;
	case GV_IDLE:
		if (s->idle == NULL || gidle_end(s->idle, r, s->fp) == -1) {
			gpu_load(r);
			gpu_correlate(r, 1);
			gidle_rows(s->fp, r, s->o.scale);
		}
		break;
	case GV_OVERLAP:
		if (s->live == NULL || glive_overlap(s->live, r->label,
		    s->fp) == -1) {
			gpu_load(r);
			overlap(s, r);
		}
		break;
	case GV_LAUNCH:
		if (s->live == NULL || glive_launch(s->live, r, s->fp) ==
		    -1) {
			gpu_load(r);
			launch(s, r);
		}
		break;
	case GV_QUEUE:
		if (s->live == NULL || glive_queue(s->live, r, s->fp) == -1) {
			gpu_load(r);
			gpu_correlate(r, 0);
			gpu_queue(r, &s->o, s->fp);
		}
		break;
	case GV_ANN:
		annotations(s, r, R_GANN);
		break;
	case GV_CPUANN:
		annotations(s, r, R_ANN);
		break;
	default:
		break;
	}
}

void
gstat_rank(struct gstat *s, struct grank *r)
{
	size_t i;

	for (i = 0; i < s->o.nview; i++) {
		s->fp = s->vfp[i];
		if (!s->head[i]++)
			fprintf(s->fp, "%s\n", heads[s->o.order[i]]);
		view(s, r, s->o.order[i]);
	}
	if (s->live != NULL)
		glive_reset(s->live);
	if (s->idle != NULL)
		gidle_reset(s->idle);
}

/* Copy the table in temporary file from to out; -1 if from failed. */
static int
append(FILE *from, FILE *out)
{
	char b[65536];
	size_t n;

	if (fflush(from) == EOF || fseek(from, 0, SEEK_SET) == -1)
		return -1;
	while ((n = fread(b, 1, sizeof(b), from)) > 0)
		if (fwrite(b, 1, n, out) != n)
			break;
	return ferror(from) ? -1 : 0;
}

int
gstat_end(struct gstat *s)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < s->o.nview; i++) {
		s->fp = s->vfp[i];
		if (s->o.order[i] == GV_KTYPES)
			ktypesend(s);
		else if (s->o.order[i] == GV_KERNELS)
			kernelsend(s);
	}
	for (i = 1; i < s->o.nview; i++) {
		fputc('\n', s->vfp[0]);
		if (append(s->vfp[i], s->vfp[0]) == -1)
			ret = -1;
		fclose(s->vfp[i]);
	}
	glive_free(s->live);
	gidle_free(s->idle);
	free(s);
	return ret;
}
