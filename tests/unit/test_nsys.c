/*
 * test_nsys.c: Check suite for Nsight Systems exports (common/formats/nsys.c):
 * what nsys_open() says of inputs that are no SQLite database, the
 * thread names of a small database made here, with and without the
 * PROCESSES and ThreadNames tables, and the spans nsys_spans() reads,
 * or the message it returns.
 */

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "buf.h"
#include "htab.h"
#include "nsys.h"
#include "tutil.h"

static char	*mkdb(const char *);
static const char *thread(sqlite3 *, int64_t);
static const char *spans(const char *, struct nsys_spans *);
static Suite	*nsys_suite(void);

/* A new database file made by sql; unlink() it and free() the name. */
static char *
mkdb(const char *sql)
{
	sqlite3 *db;
	char *path;

	path = tu_tmpfile("");
	unlink(path);
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	return path;
}

/* nsys_thread into a static buffer. */
static const char *
thread(sqlite3 *db, int64_t gtid)
{
	static struct buf b;
	static int init;

	if (!init) {
		buf_init(&b);
		init = 1;
	}
	buf_reset(&b);
	ck_assert_int_eq(nsys_thread(db, &b, gtid), 0);
	return b.data;
}

/*
 * nsys_spans() on a database made by sql, called "f": "" when it read
 * the spans into *sp (to be freed), else its message.
 */
static const char *
spans(const char *sql, struct nsys_spans *sp)
{
	static char err[256];
	sqlite3 *db;
	char *path;
	int rv;

	path = mkdb(sql);
	db = nsys_open(path, "f", err, sizeof(err));
	ck_assert_ptr_nonnull(db);
	err[0] = '\0';
	rv = nsys_spans(db, "f", sp, NULL, err, sizeof(err));
	ck_assert_int_eq(rv, err[0] == '\0' ? 0 : -1);
	if (rv == -1)
		nsys_spansfree(sp);
	sqlite3_close(db);
	unlink(path);
	free(path);
	return err;
}

#define NVTX	"CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end " \
		"INTEGER, eventType INTEGER NOT NULL, text TEXT, " \
		"globalTid INTEGER);"
#define KERN	"CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, " \
		"end INTEGER, deviceId INTEGER, streamId INTEGER, " \
		"demangledName INTEGER, shortName INTEGER);"

/*
 * The errors come back as messages (issue 36, item 4), as nsys2sst
 * writes them; a good export gives its spans by output thread: two
 * push/pop ranges of one thread, a start/end range beside it, a kernel
 * of device 0 stream 7, the earliest start 5.
 */
START_TEST(test_spans)
{
	struct nsys_spans sp;

	ck_assert_str_eq(spans("CREATE TABLE x (a);", &sp), "f: no "
	    "NVTX_EVENTS or CUPTI_ACTIVITY_KIND_KERNEL table: not an nsys "
	    "export with NVTX or CUDA trace");
	ck_assert_str_eq(spans(NVTX "INSERT INTO NVTX_EVENTS VALUES "
	    "(5, 1, 59, 'a', 1);", &sp), "f: NVTX_EVENTS: a range that ends "
	    "(1) before it starts (5)");
	ck_assert_str_eq(spans(KERN "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL "
	    "VALUES ('x', 1, 0, 0, NULL, NULL);", &sp), "f: "
	    "CUPTI_ACTIVITY_KIND_KERNEL: a start or end that is no integer");
	ck_assert_str_eq(spans(NVTX "CREATE TABLE StringIds (id INTEGER);",
	    &sp), "f: query: no such column: value");
	ck_assert_str_eq(spans(NVTX KERN "INSERT INTO NVTX_EVENTS VALUES "
	    "(10, 20, 59, 'a', 1), (12, NULL, 59, 'b', 1), "
	    "(5, 30, 60, 'c', 1), (1, 2, 34, 'mark', 1);"
	    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES "
	    "(6, 9, 0, 7, NULL, NULL);", &sp), "");
	ck_assert_uint_eq(sp.n, 4);
	ck_assert_int_eq(sp.origin, 5);
	ck_assert_uint_eq(ht_count(sp.keys[NSYS_PUSHPOP]), 1);
	ck_assert_uint_eq(nest_count(sp.t[NSYS_PUSHPOP][0].ns), 2);
	ck_assert_uint_eq(ht_count(sp.keys[NSYS_STARTEND]), 1);
	ck_assert_uint_eq(ht_count(sp.keys[NSYS_KERNEL]), 1);
	ck_assert_int_eq(sp.t[NSYS_KERNEL][0].a, 0);
	ck_assert_int_eq(sp.t[NSYS_KERNEL][0].b, 7);
	nsys_spansfree(&sp);
}
END_TEST

START_TEST(test_notdb)
{
	static const struct {
		const char	*text;
		const char	*err;
	} c[] = {
		{ "", "f: empty file: not an nsys SQLite export" },
		{ "[1]", "f: JSON, not an SQLite database: trace2sst, "
		    "cpuprofile2sst or sst-flatten read JSON" },
		{ "{\"traceEvents\":[]}", "f: not an SQLite database: this "
		    "looks like a Chrome trace (traceEvents): trace2sst reads "
		    "it" },
		{ "a;b 3\n", "f: not an SQLite database: this looks like "
		    "folded stacks: collapsed2sst reads it" },
		{ "SQLite format", "f: not an SQLite database: make one from "
		    "a report with nsys export --type sqlite" },
	};
	char err[256], *path;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		path = tu_tmpfile(c[i].text);
		ck_assert_ptr_null(nsys_open(path, "f", err, sizeof(err)));
		ck_assert_str_eq(err, c[i].err);
		unlink(path);
		free(path);
	}
	/* A file that cannot be opened: returned, as err(3) says it. */
	ck_assert_ptr_null(nsys_open("/nonexistent/x", "f", err, sizeof(err)));
	ck_assert_str_eq(err, "/nonexistent/x: No such file or directory");
}
END_TEST

START_TEST(test_names)
{
	sqlite3 *db;
	char err[256], *path;

	path = mkdb("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, "
	    "value TEXT NOT NULL);"
	    "CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, "
	    "globalTid INTEGER);"
	    "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, "
	    "name TEXT);"
	    "INSERT INTO StringIds VALUES (1, 'low'), (2, 'high'), "
	    "(3, 'a\tb');"
	    /* 0x2000064000007: hardware id 2, PID 100, TID 7 */
	    "INSERT INTO ThreadNames VALUES (1, 0, 562951631142919), "
	    "(2, 5, 562951631142919), (3, 0, 562951631142920);"
	    "INSERT INTO PROCESSES VALUES (562951631142912, 100, 'py');");
	db = nsys_open(path, "f", err, sizeof(err));
	ck_assert_ptr_nonnull(db);
	ck_assert_int_eq(nsys_hastable(db, "PROCESSES"), 1);
	ck_assert_int_eq(nsys_hastable(db, "NVTX_EVENTS"), 0);
	ck_assert_str_eq(thread(db, 562951631142919),
	    "Process 100 \"py\" Thread 7 \"high\"");
	ck_assert_str_eq(thread(db, 562951631142920),
	    "Process 100 \"py\" Thread 8 \"a\\tb\"");
	ck_assert_str_eq(thread(db, 16777217), "Process 1 Thread 1");
	sqlite3_close(db);
	unlink(path);
	free(path);

	path = mkdb("CREATE TABLE NVTX_EVENTS (start INTEGER);");
	db = nsys_open(path, "f", err, sizeof(err));
	ck_assert_ptr_nonnull(db);
	ck_assert_str_eq(thread(db, 562951631142919),
	    "Process 100 Thread 7");
	sqlite3_close(db);
	unlink(path);
	free(path);
}
END_TEST

static Suite *
nsys_suite(void)
{
	Suite *s = suite_create("nsys");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_notdb);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_spans);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(nsys_suite());
}
