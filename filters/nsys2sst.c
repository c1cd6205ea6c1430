/*
 * nsys2sst: convert Nsight Systems SQLite exports (nsys export --type
 * sqlite) to the sst stream: NVTX push/pop ranges nested per thread by
 * the span-nesting engine trace2sst shares (common/formats/nest.c), NVTX
 * start/end ranges on a thread of their own beside each thread, each at
 * the root, and CUDA kernels per device and stream (read by
 * common/formats/nsys.c).  Times are nanoseconds, weights seconds of self time.
 * Read with libsqlite3; standard input is read into memory.
 * Long runs show the rows read on standard error when it is a terminal
 * (-p: always, -P: never).
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "util.h"
#include "buf.h"
#include "progress.h"
#include "rec.h"
#include "htab.h"
#include "label.h"
#include "nest.h"
#include "nsys.h"

struct conv {
	const char	*path;		/* for messages */
	sqlite3		*db;
	struct buf	 prefix;	/* escaped, with ": ", or empty */
	struct nsys_spans sp;
};

static __dead void usage(int);
static void	emit(const struct sst_rec *, void *);
static void	name(struct conv *, struct buf *, enum nsys_kind, int64_t,
		    int64_t);
static void	putall(struct conv *, int, struct nest_stats *);
static void	convert(const char *, const char *, int, int,
		    const struct label_run *);

/* The usage: for -h and --help on standard output, else an error. */
static __dead void
usage(int help)
{
	xusage(help, "usage: nsys2sst [-HPps] [-L label] [file.sqlite ...]\n");
}

/* Write a record to the stream arg. */
static void
emit(const struct sst_rec *r, void *arg)
{
	rec_write(arg, r);
}

/* The escaped thread field of thread (k, a, b) into out (reset). */
static void
name(struct conv *c, struct buf *out, enum nsys_kind k, int64_t a,
    int64_t b)
{
	buf_reset(out);
	buf_add(out, c->prefix.data, c->prefix.len);
	if (k == NSYS_KERNEL) {
		buf_printf(out, "Device %lld Stream %lld", (long long)a,
		    (long long)b);
		return;
	}
	if (nsys_thread(c->db, out, a) == -1) {
		progress_hide();
		errx(1, "%s: thread names: %s", c->path,
		    sqlite3_errmsg(c->db));
	}
	if (k == NSYS_STARTEND)
		buf_adds(out, " (start/end)");
}

/*
 * Nest the spans of every thread, then write their records: an error
 * (which names its table and row) comes before any output.
 */
static void
putall(struct conv *c, int flags, struct nest_stats *ns)
{
	struct nsys_spans *sp = &c->sp;
	struct buf thr;
	size_t i;
	int k, f;

	for (k = 0; k < NSYS_NKINDS; k++)
		for (i = 0; i < ht_count(sp->keys[k]); i++)
			if (nest_nest(sp->t[k][i].ns, k == NSYS_STARTEND ?
			    NEST_FLAT : 0, ns) == -1)
				errx(1, "%s: %s row %lld: %s", c->path,
				    nsys_table(k), (long long)ns->id, ns->why);
	buf_init(&thr);
	for (k = 0; k < NSYS_NKINDS; k++) {
		f = flags | (k == NSYS_STARTEND ? NEST_FLAT : 0);
		for (i = 0; i < ht_count(sp->keys[k]); i++) {
			name(c, &thr, k, sp->t[k][i].a, sp->t[k][i].b);
			if (nest_put(sp->t[k][i].ns, thr.data, thr.len, 1e9,
			    sp->origin, f, emit, stdout, ns) == -1)
				errx(1, "%s: %s row %lld: %s", c->path,
				    nsys_table(k), (long long)ns->id, ns->why);
		}
	}
	buf_free(&thr);
}

/*
 * Convert one file ("-": standard input); progress, in rows, as run
 * says.
 */
static void
convert(const char *path, const char *label, int prefix, int flags,
    const struct label_run *run)
{
	struct conv c;
	struct nest_stats ns;
	struct progress *pr;
	char err[512];

	memset(&c, 0, sizeof(c));
	c.path = strcmp(path, "-") == 0 ? "<stdin>" : path;
	buf_init(&c.prefix);
	label_prefix(&c.prefix, path, label, prefix);
	pr = progress_open(-1, path, run->progress);
	if (run->nfiles > 1)
		progress_file(pr, run->nth, run->nfiles);
	if ((c.db = nsys_open(path, c.path, err, sizeof(err))) == NULL)
		errx(1, "%s", err);
	if (nsys_spans(c.db, c.path, &c.sp, pr, err, sizeof(err)) == -1) {
		progress_hide();
		errx(1, "%s", err);
	}
	progress_close(pr);
	if (c.sp.n == 0)
		errx(1, "%s: no NVTX ranges and no CUDA kernels", c.path);
	memset(&ns, 0, sizeof(ns));
	putall(&c, flags, &ns);
	if (ns.clipped > 0)
		warnx("%s: ranges ending after their parent, clipped to its "
		    "end: %zu", c.path, ns.clipped);
	if (ns.open > 0)
		warnx("%s: ranges without an end, ended at their thread's "
		    "last timestamp: %zu", c.path, ns.open);
	nsys_spansfree(&c.sp);
	sqlite3_close(c.db);
	buf_free(&c.prefix);
}

int
main(int argc, char *argv[])
{
	struct label_run run = { -1, 0, 0 };
	const char *label = NULL;
	int ch, force = 0, s = 0;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "HhL:Pps")) != -1) {
		switch (ch) {
		case 'H':
			force = 1;
			break;
		case 'h':
			usage(1);
		case 'L':
			label = optarg;
			break;
		case 'P':
			run.progress = 0;
			break;
		case 'p':
			run.progress = 1;
			break;
		case 's':
			s = NEST_PERSPAN;
			break;
		default:
			usage(0);
		}
	}
	label_each(argc - optind, argv + optind, label, force, s, &run,
	    convert);
	xfshut(stdout, "stdout");
	return 0;
}
