/*
 * nsys.c: reading Nsight Systems SQLite exports (NVIDIA's "SQLite Export
 * Schema Reference"): opening one, from a file or from standard input
 * read into memory, with a message that says what the input is when it
 * is not an SQLite database, and the names of its threads.  Standard
 * input is read whole only once its first bytes are an SQLite header:
 * other input is refused after INPUT_HEADMAX bytes at most.  A serialized
 * globalTid holds the PID in globalTid / 0x1000000 % 0x1000000 and the
 * TID in globalTid % 0x1000000; its process is globalTid minus its TID.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "sst.h"
#include "input.h"
#include "nsys.h"

static int	 name(sqlite3 *, struct buf *, const char *, int64_t);
static int	 sqlite(const char *, size_t);

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

	fd = xopen(file);
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
