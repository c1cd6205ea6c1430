/*
 * nsys.c: reading Nsight Systems SQLite exports (NVIDIA's "SQLite Export
 * Schema Reference"): opening one, from a file or from standard input
 * read into memory, with a message that says what the input is when it
 * is not an SQLite database, and the names of its threads.  Standard
 * input is read whole only once its first bytes are an SQLite header:
 * other input is refused after INPUT_HEADMAX bytes at most.  A serialized
 * globalTid holds the PID in globalTid / 0x1000000 % 0x1000000 and the
 * TID in globalTid % 0x1000000; its process is globalTid minus its TID.
 * The spans of an export are read into one struct nest (nest.c) per
 * output thread (nsys_spans()); errors are returned with a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "util.h"
#include "buf.h"
#include "progress.h"
#include "esc.h"
#include "htab.h"
#include "input.h"
#include "nest.h"
#include "nsys.h"

static const char *nvtxsql =
    "SELECT globalTid, start, end, eventType, COALESCE(text, %s), rowid "
    "FROM NVTX_EVENTS WHERE eventType IN (59, 60) ORDER BY rowid";
static const char *kernsql =
    "SELECT deviceId, streamId, start, end, COALESCE(%s), rowid "
    "FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY rowid";

/* A reading: where it is and its message. */
struct rd {
	sqlite3		*db;
	const char	*name;
	struct nsys_spans *sp;
	char		*err;
	size_t		 errlen;
};

static int	 name(sqlite3 *, struct buf *, const char *, int64_t);
static int	 sqlite(const char *, size_t);
static int	 fail(struct rd *, const char *, ...)
		    __attribute__((__format__(__printf__, 2, 3)));
static int	 dberr(struct rd *, const char *);
static struct nest *thread(struct nsys_spans *, enum nsys_kind, int64_t,
		    int64_t);
static int	 count(struct rd *, const char *, unsigned long long *);
static int	 addspan(struct rd *, enum nsys_kind, int64_t, int64_t,
		    sqlite3_stmt *, int);
static int	 rows(struct rd *, const char *, enum nsys_kind,
		    struct progress *, unsigned long long *);
static int	 total(struct rd *, int, int, struct progress *);

/* Whether s[0..n) begins with the 16 bytes of an SQLite header. */
static int
sqlite(const char *s, size_t n)
{
	return n >= 16 && memcmp(s, "SQLite format 3", 16) == 0;
}

sqlite3 *
nsys_open(const char *file, const char *nm, char *err, size_t errlen)
{
	sqlite3 *db = NULL;
	char *data = NULL, head[16], says[256];
	enum sniff k;
	size_t n = 0, cap = 0;
	ssize_t r;
	int fd, in = file == NULL || strcmp(file, "-") == 0;

	if (in)
		fd = STDIN_FILENO;
	else if ((fd = open(file, O_RDONLY)) == -1) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return NULL;
	}
	do {
		if (n == cap) {
			if ((cap = growcap(cap, n + 1, 1 << 16)) == 0 ||
			    (data = sqlite3_realloc64(data, cap)) == NULL) {
				snprintf(err, errlen, "%s: out of memory", nm);
				goto fail;
			}
		}
		if ((r = read(fd, data + n, cap - n)) == -1) {
			snprintf(err, errlen, "%s: %s", nm, strerror(errno));
			goto fail;
		}
		n += (size_t)r;
	} while (r > 0 && (n < INPUT_HEADMAX || (in && sqlite(data, n))));
	memset(head, 0, sizeof(head));
	memcpy(head, data, n < 16 ? n : 16);
	if (memcmp(head, "SQLite format 3", 16) != 0) {
		k = sniff(data, n < INPUT_HEADMAX ? n : INPUT_HEADMAX);
		if (n == 0)
			snprintf(err, errlen, "%s: empty file: not an nsys "
			    "SQLite export", nm);
		else if (sniff_reader(k) != NULL &&
		    sniff_says(k, says, sizeof(says)) != NULL)
			snprintf(err, errlen, "%s: not an SQLite database: %s",
			    nm, says);
		else if (head[0] == '{' || head[0] == '[')
			snprintf(err, errlen, "%s: JSON, not an SQLite "
			    "database: trace2sst, cpuprofile2sst or "
			    "sst-flatten read JSON", nm);
		else
			snprintf(err, errlen, "%s: not an SQLite database: "
			    "make one from a report with nsys export --type "
			    "sqlite", nm);
		goto fail;
	}
	if (!in) {
		close(fd);
		sqlite3_free(data);
		if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL) !=
		    SQLITE_OK) {
			snprintf(err, errlen, "%s: %s", nm, sqlite3_errmsg(db));
			sqlite3_close(db);
			return NULL;
		}
		return db;
	}
	if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
	    sqlite3_deserialize(db, "main", (unsigned char *)data, n, cap,
	    SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", nm, sqlite3_errmsg(db));
		sqlite3_close(db);
		return NULL;
	}
	return db;
fail:
	if (!in)
		close(fd);
	sqlite3_free(data);
	return NULL;
}

int
nsys_hastable(sqlite3 *db, const char *t)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE "
	    "type = 'table' AND name = ?", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, t, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return -1;
	return rc == SQLITE_ROW;
}

/* Append " \"name\"" of the first row of query sql(id), if any. */
static int
name(sqlite3 *db, struct buf *b, const char *sql, int64_t id)
{
	sqlite3_stmt *st;
	const unsigned char *t;
	int rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW &&
	    (t = sqlite3_column_text(st, 0)) != NULL) {
		buf_adds(b, " \"");
		esc_add(b, (const char *)t,
		    (size_t)sqlite3_column_bytes(st, 0));
		buf_addc(b, '"');
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int
nsys_thread(sqlite3 *db, struct buf *b, int64_t gtid)
{
	long long pid = gtid / 0x1000000 % 0x1000000, tid = gtid % 0x1000000;
	int rv = 0;

	buf_printf(b, "Process %lld", pid);
	if (nsys_hastable(db, "PROCESSES") == 1)
		rv |= name(db, b, "SELECT name FROM PROCESSES WHERE "
		    "globalPid = ? AND name IS NOT NULL AND name != '' "
		    "ORDER BY rowid", gtid - tid);
	buf_printf(b, " Thread %lld", tid);
	if (nsys_hastable(db, "ThreadNames") == 1 &&
	    nsys_hastable(db, "StringIds") == 1)
		rv |= name(db, b, "SELECT s.value FROM ThreadNames n JOIN "
		    "StringIds s ON n.nameId = s.id WHERE n.globalTid = ? "
		    "ORDER BY n.priority DESC, n.rowid DESC", gtid);
	return rv;
}

/* The message "NAME: what" into r->err; returns -1. */
static int
fail(struct rd *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, r->errlen, "%s: ", r->name);
	if (n < 0 || (size_t)n >= r->errlen)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A database error while doing what. */
static int
dberr(struct rd *r, const char *what)
{
	return fail(r, "%s: %s", what, sqlite3_errmsg(r->db));
}

const char *
nsys_table(enum nsys_kind k)
{
	return k == NSYS_KERNEL ? "CUPTI_ACTIVITY_KIND_KERNEL" :
	    "NVTX_EVENTS";
}

/* The spans of thread (k, a, b), new ones in first-seen order. */
static struct nest *
thread(struct nsys_spans *sp, enum nsys_kind k, int64_t a, int64_t b)
{
	int64_t key[2] = { a, b };
	size_t id;
	int isnew;

	id = ht_intern(sp->keys[k], key, sizeof(key), &isnew);
	if (isnew) {
		sp->t[k] = xgrow(sp->t[k], &sp->cap[k], id + 1, 16,
		    sizeof(*sp->t[k]));
		sp->t[k][id].a = a;
		sp->t[k][id].b = b;
		sp->t[k][id].ns = nest_new();
	}
	return sp->t[k][id].ns;
}

/* The number in the one row of query sql into *n. */
static int
count(struct rd *r, const char *sql, unsigned long long *n)
{
	sqlite3_stmt *st;
	long long v;

	if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK)
		return dberr(r, "query");
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		return dberr(r, "count");
	}
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	*n += v > 0 ? (unsigned long long)v : 0;
	return 0;
}

/*
 * Add the span of the row of st, of thread (k, a, b), its start, end,
 * name and rowid (for messages) in the columns from c on.
 */
static int
addspan(struct rd *r, enum nsys_kind k, int64_t a, int64_t b,
    sqlite3_stmt *st, int c)
{
	struct nsys_spans *sp = r->sp;
	int64_t s, e;
	const unsigned char *t;
	int hasend, rv;

	s = sqlite3_column_int64(st, c);
	hasend = sqlite3_column_type(st, c + 1) != SQLITE_NULL;
	e = hasend ? sqlite3_column_int64(st, c + 1) : s;
	if (sqlite3_column_type(st, c) != SQLITE_INTEGER ||
	    (hasend && sqlite3_column_type(st, c + 1) != SQLITE_INTEGER))
		return fail(r, "%s: a start or end that is no integer",
		    nsys_table(k));
	if (e < s)
		return fail(r, "%s: a range that ends (%lld) before it starts "
		    "(%lld)", nsys_table(k), (long long)e, (long long)s);
	/* Kernels: the name is the third column, NVTX ranges the fourth. */
	c += k == NSYS_KERNEL ? 2 : 3;
	buf_reset(&sp->name);
	if ((t = sqlite3_column_text(st, c)) != NULL)
		esc_name(&sp->name, (const char *)t,
		    (size_t)sqlite3_column_bytes(st, c));
	else
		esc_name(&sp->name, "", 0);
	if (!sp->hasorigin || s < sp->origin) {
		sp->origin = s;
		sp->hasorigin = 1;
	}
	rv = nest_add(thread(sp, k, a, b), s, e, hasend,
	    sqlite3_column_int64(st, c + 1), sp->name.data, sp->name.len);
	if (rv == -1)
		return fail(r, "%s: too many ranges in a thread",
		    nsys_table(k));
	sp->n++;
	return 0;
}

/*
 * Add the spans of the rows of query sql: kernels for k NSYS_KERNEL,
 * else NVTX ranges; *done counts the rows for pr.
 */
static int
rows(struct rd *r, const char *sql, enum nsys_kind k, struct progress *pr,
    unsigned long long *done)
{
	sqlite3_stmt *st;
	int rc, rv = 0;

	if (sqlite3_prepare_v2(r->db, sql, -1, &st, NULL) != SQLITE_OK)
		return dberr(r, "query");
	while (rv == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (k == NSYS_KERNEL)
			rv = addspan(r, k, sqlite3_column_int64(st, 0),
			    sqlite3_column_int64(st, 1), st, 2);
		else
			rv = addspan(r, sqlite3_column_int(st, 3) == 59 ?
			    NSYS_PUSHPOP : NSYS_STARTEND,
			    sqlite3_column_int64(st, 0), 0, st, 1);
		progress_update(pr, ++*done);
	}
	if (rv == 0 && rc != SQLITE_DONE)
		rv = dberr(r, nsys_table(k));
	sqlite3_finalize(st);
	return rv;
}

/* The rows to read, for pr (none without it). */
static int
total(struct rd *r, int nvtx, int kern, struct progress *pr)
{
	unsigned long long n = 0;

	if (pr != NULL && nvtx && count(r, "SELECT COUNT(*) FROM "
	    "NVTX_EVENTS WHERE eventType IN (59, 60)", &n) == -1)
		return -1;
	if (pr != NULL && kern && count(r, "SELECT COUNT(*) FROM "
	    "CUPTI_ACTIVITY_KIND_KERNEL", &n) == -1)
		return -1;
	progress_total(pr, n, "rows");
	return 0;
}

int
nsys_spans(sqlite3 *db, const char *name, struct nsys_spans *sp,
    struct progress *pr, char *err, size_t errlen)
{
	struct rd r = { db, name, sp, err, errlen };
	char sql[512];
	unsigned long long done = 0;
	int k, strs, nvtx, kern;

	memset(sp, 0, sizeof(*sp));
	for (k = 0; k < NSYS_NKINDS; k++)
		sp->keys[k] = ht_new();
	buf_init(&sp->name);
	if ((strs = nsys_hastable(db, "StringIds")) == -1 ||
	    (nvtx = nsys_hastable(db, "NVTX_EVENTS")) == -1 ||
	    (kern = nsys_hastable(db, "CUPTI_ACTIVITY_KIND_KERNEL")) == -1)
		return dberr(&r, "sqlite_master");
	if (!nvtx && !kern)
		return fail(&r, "no NVTX_EVENTS or CUPTI_ACTIVITY_KIND_KERNEL "
		    "table: not an nsys export with NVTX or CUDA trace");
	if (total(&r, nvtx, kern, pr) == -1)
		return -1;
	if (nvtx) {
		snprintf(sql, sizeof(sql), nvtxsql, strs ? "(SELECT value "
		    "FROM StringIds WHERE id = textId)" : "NULL");
		if (rows(&r, sql, NSYS_PUSHPOP, pr, &done) == -1)
			return -1;
	}
	if (kern) {
		snprintf(sql, sizeof(sql), kernsql, strs ? "(SELECT value "
		    "FROM StringIds WHERE id = demangledName), (SELECT value "
		    "FROM StringIds WHERE id = shortName)" : "NULL, NULL");
		if (rows(&r, sql, NSYS_KERNEL, pr, &done) == -1)
			return -1;
	}
	return 0;
}

void
nsys_spansfree(struct nsys_spans *sp)
{
	size_t i;
	int k;

	for (k = 0; k < NSYS_NKINDS; k++) {
		for (i = 0; sp->keys[k] != NULL && i < ht_count(sp->keys[k]);
		    i++)
			nest_free(sp->t[k][i].ns);
		free(sp->t[k]);
		if (sp->keys[k] != NULL)
			ht_free(sp->keys[k]);
	}
	buf_free(&sp->name);
	memset(sp, 0, sizeof(*sp));
}
