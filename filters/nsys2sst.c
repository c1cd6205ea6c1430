/*
 * nsys2sst: convert Nsight Systems SQLite exports (nsys export --type
 * sqlite) to the sst stream: NVTX push/pop ranges nested per thread by
 * trace2sst's rules (common/nest.c), NVTX start/end ranges on a thread
 * of their own beside each thread, each at the root, and CUDA kernels
 * per device and stream.  Times are nanoseconds, weights seconds of self
 * time.  Read with libsqlite3; standard input is read into memory.
 * Long runs show the rows read on standard error when it is a terminal
 * (-p: always, -P: never).
 */
#include <err.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "sst.h"
#include "label.h"
#include "nest.h"
#include "nsys.h"

enum kind { K_PUSHPOP, K_STARTEND, K_KERNEL, NKINDS };

/* A thread of the output: its key (kind, two ids) and spans. */
struct thr {
	int64_t		 a, b;
	struct nest	*ns;
};

struct conv {
	const char	*file;		/* as given */
	const char	*path;		/* for messages */
	sqlite3		*db;
	struct buf	 prefix;	/* escaped, with ": ", or empty */
	int		 flags;
	struct htab	*keys[NKINDS];
	struct thr	*t[NKINDS];
	int64_t		 origin;	/* the earliest start */
	int		 hasorigin;
	size_t		 cap[NKINDS];
};

static const char *nvtxsql =
    "SELECT globalTid, start, end, eventType, COALESCE(text, %s), rowid "
    "FROM NVTX_EVENTS WHERE eventType IN (59, 60) ORDER BY rowid";
static const char *kernsql =
    "SELECT deviceId, streamId, start, end, COALESCE(%s), rowid "
    "FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY rowid";

static void	emit(const struct sst_rec *, void *);
static void	usage(int);
static __dead void fatal(const char *, ...);
static __dead void dberr(struct conv *, const char *);
static int	hastable(struct conv *, const char *);
static sqlite3_stmt *prepare(struct conv *, const char *);
static struct nest *thread(struct conv *, enum kind, int64_t, int64_t);
static unsigned long long count(struct conv *, const char *);
static void	rows(struct conv *, const char *, enum kind, struct progress *,
		    unsigned long long *);
static void	addspan(struct conv *, enum kind, int64_t, int64_t,
		    sqlite3_stmt *, int, int, int);
static void	name(struct conv *, struct buf *, enum kind, int64_t, int64_t);
static const char *table(enum kind);
static void	putall(struct conv *, int, struct nest_stats *);
static void	convert(const char *, const char *, int, int,
		    const struct label_run *);

static void
usage(int help)
{
	fprintf(help ? stdout : stderr,
	    "usage: nsys2sst [-HPps] [-L label] [file.sqlite ...]\n");
	if (help)
		xfshut(stdout, "stdout");
	exit(help ? 0 : 2);
}

static void
emit(const struct sst_rec *r, void *arg)
{
	rec_write(arg, r);
}

/* Exit 1 with a message, the progress line taken off first. */
static __dead void
fatal(const char *fmt, ...)
{
	va_list ap;

	progress_hide();
	va_start(ap, fmt);
	verrx(1, fmt, ap);
}

static __dead void
dberr(struct conv *c, const char *what)
{
	fatal("%s: %s: %s", c->path, what, sqlite3_errmsg(c->db));
}

static int
hastable(struct conv *c, const char *t)
{
	int rv;

	if ((rv = nsys_hastable(c->db, t)) == -1)
		dberr(c, "sqlite_master");
	return rv;
}

static sqlite3_stmt *
prepare(struct conv *c, const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
		dberr(c, "query");
	return st;
}

/* The spans of thread (k, a, b), new ones in first-seen order. */
static struct nest *
thread(struct conv *c, enum kind k, int64_t a, int64_t b)
{
	int64_t key[2] = { a, b };
	size_t id;
	int isnew;

	id = ht_intern(c->keys[k], key, sizeof(key), &isnew);
	if (isnew) {
		if (id == c->cap[k]) {
			c->cap[k] = c->cap[k] ? c->cap[k] * 2 : 16;
			c->t[k] = xreallocarray(c->t[k], c->cap[k],
			    sizeof(*c->t[k]));
		}
		c->t[k][id].a = a;
		c->t[k][id].b = b;
		c->t[k][id].ns = nest_new();
	}
	return c->t[k][id].ns;
}

/* The number in the one row of query sql. */
static unsigned long long
count(struct conv *c, const char *sql)
{
	sqlite3_stmt *st;
	long long n;

	st = prepare(c, sql);
	if (sqlite3_step(st) != SQLITE_ROW)
		dberr(c, "count");
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n > 0 ? (unsigned long long)n : 0;
}

/*
 * Add the spans of the rows of query sql: kernels for k K_KERNEL, else
 * NVTX ranges; *done counts the rows for pr.
 */
static void
rows(struct conv *c, const char *sql, enum kind k, struct progress *pr,
    unsigned long long *done)
{
	sqlite3_stmt *st;
	int rc;

	st = prepare(c, sql);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (k == K_KERNEL)
			addspan(c, K_KERNEL, sqlite3_column_int64(st, 0),
			    sqlite3_column_int64(st, 1), st, 2, 3, 4);
		else
			addspan(c, sqlite3_column_int(st, 3) == 59 ?
			    K_PUSHPOP : K_STARTEND,
			    sqlite3_column_int64(st, 0), 0, st, 1, 2, 4);
		progress_update(pr, ++*done);
	}
	if (rc != SQLITE_DONE)
		dberr(c, table(k));
	sqlite3_finalize(st);
}

/* The table the spans of kind k come from. */
static const char *
table(enum kind k)
{
	return k == K_KERNEL ? "CUPTI_ACTIVITY_KIND_KERNEL" : "NVTX_EVENTS";
}

/*
 * Add the span of the row of st (columns start, end, name, then its
 * rowid, for messages).
 */
static void
addspan(struct conv *c, enum kind k, int64_t a, int64_t b, sqlite3_stmt *st,
    int cs, int ce, int cn)
{
	struct buf nm;
	int64_t s, e;
	const unsigned char *t;
	int hasend;

	s = sqlite3_column_int64(st, cs);
	hasend = sqlite3_column_type(st, ce) != SQLITE_NULL;
	e = hasend ? sqlite3_column_int64(st, ce) : s;
	if (sqlite3_column_type(st, cs) != SQLITE_INTEGER ||
	    (hasend && sqlite3_column_type(st, ce) != SQLITE_INTEGER))
		fatal("%s: %s: a start or end that is no integer", c->path,
		    table(k));
	if (e < s)
		fatal("%s: %s: a range that ends (%lld) before it starts "
		    "(%lld)", c->path, table(k), (long long)e, (long long)s);
	buf_init(&nm);
	if ((t = sqlite3_column_text(st, cn)) != NULL)
		esc_name(&nm, (const char *)t,
		    (size_t)sqlite3_column_bytes(st, cn));
	else
		esc_name(&nm, "", 0);
	if (!c->hasorigin || s < c->origin) {
		c->origin = s;
		c->hasorigin = 1;
	}
	nest_add(thread(c, k, a, b), s, e, hasend,
	    sqlite3_column_int64(st, cn + 1), nm.data, nm.len);
	buf_free(&nm);
}

/* The escaped thread field of thread (k, a, b) into b (reset). */
static void
name(struct conv *c, struct buf *out, enum kind k, int64_t a, int64_t b)
{
	buf_reset(out);
	buf_add(out, c->prefix.data, c->prefix.len);
	if (k == K_KERNEL) {
		buf_printf(out, "Device %lld Stream %lld", (long long)a,
		    (long long)b);
		return;
	}
	if (nsys_thread(c->db, out, a) == -1)
		dberr(c, "thread names");
	if (k == K_STARTEND)
		buf_adds(out, " (start/end)");
}

/*
 * Nest the spans of every thread, then write their records and free
 * them: an error (which names its table and row) comes before any
 * output.
 */
static void
putall(struct conv *c, int flags, struct nest_stats *ns)
{
	struct buf thr;
	size_t i;
	int k, f;

	for (k = 0; k < NKINDS; k++)
		for (i = 0; i < ht_count(c->keys[k]); i++)
			if (nest_nest(c->t[k][i].ns, k == K_STARTEND ?
			    NEST_FLAT : 0, ns) == -1)
				errx(1, "%s: %s row %lld: %s", c->path,
				    table(k), (long long)ns->id, ns->why);
	buf_init(&thr);
	for (k = 0; k < NKINDS; k++) {
		f = flags | (k == K_STARTEND ? NEST_FLAT : 0);
		for (i = 0; i < ht_count(c->keys[k]); i++) {
			name(c, &thr, k, c->t[k][i].a, c->t[k][i].b);
			if (nest_put(c->t[k][i].ns, thr.data, thr.len, 1e9,
			    c->origin, f, emit, stdout, ns) == -1)
				errx(1, "%s: %s row %lld: %s", c->path,
				    table(k), (long long)ns->id, ns->why);
			nest_free(c->t[k][i].ns);
		}
		free(c->t[k]);
		ht_free(c->keys[k]);
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
	char sql[512], err[512];
	unsigned long long done = 0, total = 0;
	size_t i, nspans = 0;
	int k, strs, nvtx, kern;

	memset(&c, 0, sizeof(c));
	c.file = path;
	c.path = strcmp(path, "-") == 0 ? "<stdin>" : path;
	c.flags = flags;
	buf_init(&c.prefix);
	label_prefix(&c.prefix, path, label, prefix);
	pr = progress_open(-1, path, run->progress);
	if (run->nfiles > 1)
		progress_file(pr, run->nth, run->nfiles);
	if ((c.db = nsys_open(path, c.path, err, sizeof(err))) == NULL)
		errx(1, "%s", err);
	for (k = 0; k < NKINDS; k++)
		c.keys[k] = ht_new();
	strs = hastable(&c, "StringIds");
	nvtx = hastable(&c, "NVTX_EVENTS");
	kern = hastable(&c, "CUPTI_ACTIVITY_KIND_KERNEL");
	if (!nvtx && !kern)
		errx(1, "%s: no NVTX_EVENTS or CUPTI_ACTIVITY_KIND_KERNEL "
		    "table: not an nsys export with NVTX or CUDA trace",
		    c.path);
	if (pr != NULL && nvtx)
		total += count(&c, "SELECT COUNT(*) FROM NVTX_EVENTS "
		    "WHERE eventType IN (59, 60)");
	if (pr != NULL && kern)
		total += count(&c, "SELECT COUNT(*) FROM "
		    "CUPTI_ACTIVITY_KIND_KERNEL");
	progress_total(pr, total, "rows");
	if (nvtx) {
		snprintf(sql, sizeof(sql), nvtxsql, strs ? "(SELECT value "
		    "FROM StringIds WHERE id = textId)" : "NULL");
		rows(&c, sql, K_PUSHPOP, pr, &done);
	}
	if (kern) {
		snprintf(sql, sizeof(sql), kernsql, strs ? "(SELECT value "
		    "FROM StringIds WHERE id = demangledName), (SELECT value "
		    "FROM StringIds WHERE id = shortName)" : "NULL, NULL");
		rows(&c, sql, K_KERNEL, pr, &done);
	}
	progress_close(pr);
	for (k = 0; k < NKINDS; k++)
		for (i = 0; i < ht_count(c.keys[k]); i++)
			nspans += nest_count(c.t[k][i].ns);
	if (nspans == 0)
		errx(1, "%s: no NVTX ranges and no CUDA kernels", c.path);
	memset(&ns, 0, sizeof(ns));
	putall(&c, flags, &ns);
	if (ns.clipped > 0)
		warnx("%s: ranges ending after their parent, clipped to its "
		    "end: %zu", c.path, ns.clipped);
	if (ns.open > 0)
		warnx("%s: ranges without an end, ended at their thread's "
		    "last timestamp: %zu", c.path, ns.open);
	sqlite3_close(c.db);
	buf_free(&c.prefix);
}

int
main(int argc, char *argv[])
{
	sst_init();
	return label_main(argc, argv, usage, convert, NEST_PERSPAN);
}
