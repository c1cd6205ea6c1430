/*
 * test_rec.c: Check suite for the sst stream reader and writer
 * (common/stream/rec.c): parsing of each field, every error message,
 * byte-for-byte rewriting, rec_read returning -1 with its message at
 * a malformed line, and xrec_read exiting 1 with it.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "rec.h"
#include "recread.h"
#include "fmt.h"

static int	 parse(const char *, struct sst_rec *, const char **);
static const char *why(const char *);
static char	*rewrite(const char *);
static int	 tmpfd(const char *);
static char	*readerr(const char *, const char *, int *);
static Suite	*rec_suite(void);

/* rec_parse of a copy of s; r points into it until the next call. */
static int
parse(const char *s, struct sst_rec *r, const char **w)
{
	static char line[4096];

	ck_assert_uint_lt(strlen(s), sizeof(line));
	strcpy(line, s);
	return rec_parse(line, strlen(line), r, w);
}

/* The error message for line s, or "ok". */
static const char *
why(const char *s)
{
	struct sst_rec r;
	const char *w = "ok";

	if (parse(s, &r, &w) == 0)
		return "ok";
	return w;
}

/* Parse s and write it back with rec_write. */
static char *
rewrite(const char *s)
{
	struct sst_rec r;
	const char *w;
	char *out = NULL;
	size_t n = 0;
	FILE *fp;

	ck_assert_msg(parse(s, &r, &w) == 0, "rejected: %s", w);
	ck_assert_ptr_nonnull(fp = open_memstream(&out, &n));
	rec_write(fp, &r);
	fclose(fp);
	return out;
}

/* An unlinked temporary file holding s, at offset 0. */
static int
tmpfd(const char *s)
{
	char path[] = "/tmp/test_rec.XXXXXX";
	int fd;

	ck_assert_int_ne(fd = mkstemp(path), -1);
	unlink(path);
	ck_assert_int_eq(write(fd, s, strlen(s)), (ssize_t)strlen(s));
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* Whether readerr() allows one unit only. */
static int	 oneunit;

/*
 * Read doc with xrec_read() in a child (one unit only if oneunit); its
 * exit status in *st, its standard error as the result.
 */
static char *
readerr(const char *doc, const char *name, int *st)
{
	struct sst_reader *rd;
	struct sst_rec r;
	struct buf b;
	char tmp[512];
	ssize_t n;
	pid_t pid;
	int p[2], fd, unit = -1;

	fd = tmpfd(doc);
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_ne(pid = fork(), -1);
	if (pid == 0) {
		dup2(p[1], 2);
		close(p[0]);
		rd = rec_open(fd, name);
		if (oneunit)
			rec_oneunit(rd, &unit);
		while (xrec_read(rd, &r) == 1)
			continue;
		rec_close(rd);
		_exit(0);
	}
	close(p[1]);
	close(fd);
	buf_init(&b);
	while ((n = read(p[0], tmp, sizeof(tmp))) > 0)
		buf_add(&b, tmp, (size_t)n);
	close(p[0]);
	ck_assert_int_eq(waitpid(pid, st, 0), pid);
	return b.data;
}

START_TEST(test_parse_full)
{
	struct sst_rec r;
	const char *w;

	ck_assert_int_eq(parse("Thread 4713 \"StreamingExecutor\"\t37\t0.037"
	    "\tseconds\t0.001\t<module>;run;select\tmain.py:1::0;"
	    "executor.py:88::3;policy.py:40:7:9", &r, &w), 0);
	ck_assert_uint_eq(r.threadlen, 31);
	ck_assert_mem_eq(r.thread, "Thread 4713 \"StreamingExecutor\"", 31);
	ck_assert_uint_eq(r.samples, 37);
	ck_assert(r.weight == 0.037);
	ck_assert_int_eq(r.unit, U_SECONDS);
	ck_assert_int_eq(r.hasperiod, 1);
	ck_assert(r.period == 0.001);
	ck_assert_uint_eq(r.stacklen, 19);
	ck_assert_mem_eq(r.stack, "<module>;run;select", 19);
	ck_assert_uint_eq(r.locslen, 47);
	ck_assert_mem_eq(r.locs, "main.py:1::0;executor.py:88::3;"
	    "policy.py:40:7:9", 47);
}
END_TEST

START_TEST(test_parse_variants)
{
	struct sst_rec r;
	const char *w;

	/* No period. */
	ck_assert_int_eq(parse("t\t3\t0.30000000000000004\tseconds\t-\ta;b\t",
	    &r, &w), 0);
	ck_assert_int_eq(r.hasperiod, 0);
	ck_assert(r.weight == 0.1 + 0.2);
	ck_assert_uint_eq(r.locslen, 0);
	ck_assert_uint_eq(r.stacklen, 3);
	/* Empty stack, empty locations, empty thread: a declaration. */
	ck_assert_int_eq(parse("\t0\t0\tseconds\t-\t\t", &r, &w), 0);
	ck_assert_uint_eq(r.threadlen, 0);
	ck_assert_uint_eq(r.samples, 0);
	ck_assert(r.weight == 0);
	ck_assert_uint_eq(r.stacklen, 0);
	ck_assert_uint_eq(r.locslen, 0);
	/* A 4-part location with null, the other units. */
	ck_assert_int_eq(parse("main\t1\t5\tnone\t5\tf\tf.py:12:null:3", &r,
	    &w), 0);
	ck_assert_int_eq(r.unit, U_NONE);
	ck_assert(r.period == 5);
	ck_assert_uint_eq(r.locslen, 14);
	ck_assert_mem_eq(r.locs, "f.py:12:null:3", 14);
	ck_assert_int_eq(parse("m\t2\t4096\tbytes\t2048\ta;\\e\t:::0;x:::1",
	    &r, &w), 0);
	ck_assert_int_eq(r.unit, U_BYTES);
	ck_assert(r.weight == 4096);
	/* A file name with colons and escapes. */
	ck_assert_int_eq(parse("t\\x3b\t18446744073709551615\t1e-05\tseconds"
	    "\t1e-05\t\\\\\tC:\\\\x\\x3by:1:2:3", &r, &w), 0);
	ck_assert_uint_eq(r.samples, UINT64_MAX);
	ck_assert(r.weight == 1e-5);
	ck_assert_uint_eq(r.threadlen, 5);
}
END_TEST

START_TEST(test_parse_errors)
{
	static const struct {
		const char	*line;
		const char	*why;
	} t[] = {
		{ "", "expected 7 TAB-separated fields" },
		{ "t\t1\t1\tseconds\t1\ta",
		    "expected 7 TAB-separated fields" },
		{ "t\t1\t1\tseconds\t1\ta\tf:1::0\textra",
		    "bad start time" },
		{ "t\t1\t1\tseconds\t1\ta\t\t", "bad start time" },
		{ "t\t1\t1\tseconds\t1\ta\t\t1\t",
		    "expected 7 or 8 TAB-separated fields" },
		{ "t\t1\t1\tseconds\t1\ta\t\t1\t2",
		    "expected 7 or 8 TAB-separated fields" },
		{ "t\t1\t1\tseconds\t1\ta\t\tinf", "bad start time" },
		{ "t\t1\t1\tseconds\t1\ta\t\t1s", "bad start time" },
		{ "t\t1\t1\tseconds\t1\ta\t\t 1", "bad start time" },
		{ "t\t1\t1\tseconds\t1\ta;b\tf:1::0\t1",
		    "stack and locations differ in length" },
		{ "t\t1\t1\tseconds\t1\ta\tf\x4:1::0\t1",
		    "bad escape sequence" },
		/* Weights that samples and period do not make. */
		{ "t\t0\t1\tseconds\t-\ta\t",
		    "0 samples with a non-zero weight" },
		{ "t\t0\t1\tseconds\t1\ta\t",
		    "0 samples with a non-zero weight" },
		{ "t\t0\t-0.5\tnone\t-\t\t",
		    "0 samples with a non-zero weight" },
		{ "t\t3\t4\tseconds\t1\ta\t",
		    "weight is not samples times period" },
		{ "t\t1\t1\tseconds\t2\ta\t",
		    "weight is not samples times period" },
		{ "t\t2\t2\tnone\t-1\ta\t",
		    "weight is not samples times period" },
		{ "t\t0\t0\tnone\t5\ta\t", "ok" },
		/* 0.1 added ten times is 0.9999999999999999. */
		{ "t\t10\t0.9999999999999999\tseconds\t0.1\ta\t", "ok" },
		{ "t\t10\t1\tseconds\t0.1\ta\t", "ok" },
		{ "t\t10\t1.0000000000000004\tseconds\t0.1\ta\t", "ok" },
		{ "t\t10\t1.000001\tseconds\t0.1\ta\t",
		    "weight is not samples times period" },
		{ "t\t37\t0.037\tseconds\t0.001\ta\t", "ok" },
		{ "t\t37\t0.03700000000000002\tseconds\t0.001\ta\t",
		    "ok" },
		{ "t\t1\t5e-324\tseconds\t5e-324\ta\t", "ok" },
		{ "t\t3\t1e-323\tseconds\t5e-324\ta\t", "ok" },
		{ "t\t2\t1e+308\tseconds\t5e+307\ta\t", "ok" },
		/* 2^53 + 2 samples of 1 sum to 2^53: the sum stops growing. */
		{ "t\t9007199254740994\t9007199254740992\tnone\t1\ta\t",
		    "ok" },
		{ "t\t18446744073709551615\t9007199254740992\tnone\t1\ta\t",
		    "ok" },
		{ "t\t18446744073709551615\t-1\tnone\t1\ta\t",
		    "weight is not samples times period" },
		{ "t 1 1 seconds 1 a f:1::0",
		    "expected 7 TAB-separated fields" },
		{ "t\t\t1\tseconds\t1\ta\t", "bad sample count" },
		{ "t\t-1\t1\tseconds\t1\ta\t", "bad sample count" },
		{ "t\t1.0\t1\tseconds\t1\ta\t", "bad sample count" },
		{ "t\t 1\t1\tseconds\t1\ta\t", "bad sample count" },
		{ "t\t18446744073709551616\t1\tseconds\t1\ta\t",
		    "bad sample count" },
		{ "t\t1\t\tseconds\t1\ta\t", "bad weight" },
		{ "t\t1\tabc\tseconds\t1\ta\t", "bad weight" },
		{ "t\t1\tinf\tseconds\t1\ta\t", "bad weight" },
		{ "t\t1\tnan\tseconds\t1\ta\t", "bad weight" },
		{ "t\t1\t1e999\tseconds\t1\ta\t", "bad weight" },
		{ "t\t1\t1s\tseconds\t1\ta\t", "bad weight" },
		{ "t\t1\t1\tms\t1\ta\t", "bad unit" },
		{ "t\t1\t1\t\t1\ta\t", "bad unit" },
		{ "t\t1\t1\tSeconds\t1\ta\t", "bad unit" },
		{ "t\t1\t1\tsecond\t1\ta\t", "bad unit" },
		{ "t\t1\t1\tseconds \t1\ta\t", "bad unit" },
		{ "t\t1\t1\tseconds\t\ta\t", "bad period" },
		{ "t\t1\t1\tseconds\t--\ta\t", "bad period" },
		{ "t\t1\t1\tseconds\tx\ta\t", "bad period" },
		{ "t\t1\t1\tseconds\tinf\ta\t", "bad period" },
		{ "t\\q\t1\t1\tseconds\t1\ta\t", "bad escape sequence" },
		{ "t\t1\t1\tseconds\t1\ta\\\t", "bad escape sequence" },
		{ "t\t1\t1\tseconds\t1\ta\\x4\t", "bad escape sequence" },
		{ "t\t1\t1\tseconds\t1\ta\tf\\x4:1::0",
		    "bad escape sequence" },
		{ "t\t1\t1\tseconds\t1\ta\tf:1::0\r", "bad escape sequence" },
		{ "t\x01\t1\t1\tseconds\t1\ta\t", "bad escape sequence" },
		{ "t\t1\t1\tseconds\t1\ta;b\tf:1::0",
		    "stack and locations differ in length" },
		{ "t\t1\t1\tseconds\t1\ta\tf:1::0;g:2::1",
		    "stack and locations differ in length" },
		{ "t\t0\t0\tseconds\t-\t\tf:1::0",
		    "stack and locations differ in length" },
		/* The first error in field order is the one reported. */
		{ "t\tx\tx\tx\tx\t\\q\t", "bad sample count" },
		{ "t\t1\tx\tx\tx\t\\q\t", "bad weight" },
		{ "t\t1\t1\tx\tx\t\\q\t", "bad unit" },
		{ "t\t1\t1\tnone\tx\t\\q\t", "bad period" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ck_assert_msg(strcmp(why(t[i].line), t[i].why) == 0,
		    "case %zu: \"%s\", want \"%s\"", i, why(t[i].line),
		    t[i].why);
}
END_TEST

/* Only the given length is the line. */
START_TEST(test_parse_len)
{
	struct sst_rec r;
	const char *w;
	char line[] = "t\t1\t1\tseconds\t1\ta\tf:1::0\nnext";

	ck_assert_int_eq(rec_parse(line, strlen(line) - 5, &r, &w), 0);
	ck_assert_uint_eq(r.locslen, 6);
	ck_assert_int_eq(rec_parse(line, 16, &r, &w), -1);
	ck_assert_str_eq(w, "expected 7 TAB-separated fields");
}
END_TEST

/* The optional eighth field: a start time in seconds. */
START_TEST(test_parse_start)
{
	struct sst_rec r;
	const char *w;

	ck_assert_int_eq(parse("t\t1\t0.5\tseconds\t0.5\ta;b\tf:1::0;g:2::1"
	    "\t12.25", &r, &w), 0);
	ck_assert_int_eq(r.hasstart, 1);
	ck_assert(r.start == 12.25);
	ck_assert_uint_eq(r.locslen, 13);
	ck_assert_mem_eq(r.locs, "f:1::0;g:2::1", 13);
	ck_assert_uint_eq(r.stacklen, 3);
	/* Empty locations, then the start. */
	ck_assert_int_eq(parse("t\t1\t0.5\tseconds\t0.5\ta\t\t0", &r, &w),
	    0);
	ck_assert_int_eq(r.hasstart, 1);
	ck_assert(r.start == 0);
	ck_assert_uint_eq(r.locslen, 0);
	/* Seven fields: no start, even after a record that had one. */
	ck_assert_int_eq(parse("t\t1\t0.5\tseconds\t0.5\ta\tf:1::0", &r,
	    &w), 0);
	ck_assert_int_eq(r.hasstart, 0);
	ck_assert_uint_eq(r.locslen, 6);
	/* A file name with an escaped TAB stays in the locations. */
	ck_assert_int_eq(parse("t\t1\t0.5\tseconds\t0.5\ta\tf\\tx:1::0"
	    "\t1e-06", &r, &w), 0);
	ck_assert_uint_eq(r.locslen, 9);
	ck_assert(r.start == 1e-6);
}
END_TEST


START_TEST(test_write_roundtrip)
{
	static const char *lines[] = {
		"Thread 4713 \"StreamingExecutor\"\t37\t0.037\tseconds\t"
		    "0.001\t<module>;run\tmain.py:1::0;executor.py:88::3\n",
		"t\t3\t0.30000000000000004\tseconds\t-\ta;b\t\n",
		"\t0\t0\tseconds\t-\t\t\n",
		"main\t1\t5\tnone\t5\tf\tf.py:12:null:3\n",
		"m\t2\t4096\tbytes\t2048\ta;\\e\t:::0;x:::1\n",
		"t\\x3b\\t\t18446744073709551615\t1e-05\tseconds\t1e-05\t"
		    "\\\\;\xc3\xa9\tC:\\\\x\\x3by:1:2:3;b:::\n",
		"t\t10\t0.9999999999999999\tseconds\t0.1\tx\t\n",
		"t\t1\t5e-324\tseconds\t5e-324\tx\t\n",
		"t\t2\t1e+300\tnone\t-\tx\t\n",
		"t\t1\t-2.5\tnone\t-2.5\tx\t\n",
		"t\t1\t0.001\tseconds\t0.001\ta;b\tf:1::0;g:2::1\t12.5\n",
		"t\t1\t2\tnone\t2\ta\t\t0\n",
		"t\t1\t2\tnone\t2\ta\t\t1e-07\n",
	};
	size_t i;
	char *out, *in;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		in = xstrdup(lines[i]);
		in[strlen(in) - 1] = '\0';
		out = rewrite(in);
		ck_assert_str_eq(out, lines[i]);
		free(out);
		free(in);
	}
}
END_TEST

/* Numbers come out in their shortest form. */
START_TEST(test_write_canonical)
{
	char *out;

	out = rewrite("t\t2\t1.50\tseconds\t0.750\ta\t");
	ck_assert_str_eq(out, "t\t2\t1.5\tseconds\t0.75\ta\t\n");
	free(out);
	out = rewrite("t\t007\t1E3\tnone\t-\ta\t");
	ck_assert_str_eq(out, "t\t7\t1000\tnone\t-\ta\t\n");
	free(out);
}
END_TEST

START_TEST(test_nframes_last)
{
	static const struct {
		const char	*s;
		size_t		 n;
		const char	*last;
	} t[] = {
		{ "", 0, "" },
		{ "a", 1, "a" },
		{ "a;b;c", 3, "c" },
		{ ";", 2, "" },
		{ "a;", 2, "" },
		{ ";a", 2, "a" },
		{ "\\e;\\e", 2, "\\e" },
		{ "x\\x3by;z", 2, "z" },
		{ "main.py:1::0;executor.py:88::3", 2, "executor.py:88::3" },
	};
	const char *p;
	size_t i, len;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_uint_eq(rec_nframes(t[i].s, strlen(t[i].s)), t[i].n);
		p = rec_last(t[i].s, strlen(t[i].s), &len);
		ck_assert_uint_eq(len, strlen(t[i].last));
		ck_assert_mem_eq(p, t[i].last, len);
		ck_assert_ptr_eq(p + len, t[i].s + strlen(t[i].s));
	}
	/* The length bounds the field. */
	ck_assert_uint_eq(rec_nframes("a;b;c", 3), 2);
	p = rec_last("a;b;c", 3, &len);
	ck_assert_uint_eq(len, 1);
	ck_assert_int_eq(*p, 'b');
}
END_TEST

START_TEST(test_units)
{
	enum sst_unit u;

	ck_assert_str_eq(rec_unitname(U_SECONDS), "seconds");
	ck_assert_str_eq(rec_unitname(U_NONE), "none");
	ck_assert_str_eq(rec_unitname(U_BYTES), "bytes");
	ck_assert_int_eq(rec_parseunit("seconds", 7, &u), 0);
	ck_assert_int_eq(u, U_SECONDS);
	ck_assert_int_eq(rec_parseunit("none", 4, &u), 0);
	ck_assert_int_eq(u, U_NONE);
	ck_assert_int_eq(rec_parseunit("bytes", 5, &u), 0);
	ck_assert_int_eq(u, U_BYTES);
	ck_assert_int_eq(rec_parseunit("bytes\t", 5, &u), 0);
	ck_assert_int_eq(u, U_BYTES);
	u = U_NONE;
	ck_assert_int_eq(rec_parseunit("seconds", 3, &u), -1);
	ck_assert_int_eq(rec_parseunit("secondsx", 8, &u), -1);
	ck_assert_int_eq(rec_parseunit("", 0, &u), -1);
	ck_assert_int_eq(rec_parseunit("milliseconds", 12, &u), -1);
	ck_assert_int_eq(rec_parseunit("Bytes", 5, &u), -1);
	ck_assert_int_eq(u, U_NONE);
}
END_TEST

START_TEST(test_read)
{
	struct sst_reader *rd;
	struct sst_rec r;
	struct buf doc;
	size_t i, n = 100000;
	int fd;

	fd = tmpfd("a\t1\t0.5\tseconds\t0.5\tx;y\tf:1::0;g:2::1\n"
	    "\t0\t0\tseconds\t-\t\t\n"
	    "b\\x3b\t2\t3\tnone\t-\tz\t");
	rd = rec_open(fd, "in.sst");
	ck_assert_int_eq(rec_read(rd, &r), 1);
	ck_assert_mem_eq(r.thread, "a", 1);
	ck_assert_uint_eq(r.threadlen, 1);
	ck_assert_uint_eq(r.samples, 1);
	ck_assert_mem_eq(r.locs, "f:1::0;g:2::1", 13);
	ck_assert_uint_eq(r.locslen, 13);
	ck_assert_int_eq(rec_read(rd, &r), 1);
	ck_assert_uint_eq(r.threadlen, 0);
	ck_assert_uint_eq(r.samples, 0);
	ck_assert_int_eq(rec_read(rd, &r), 1);
	ck_assert_uint_eq(r.threadlen, 5);
	ck_assert_mem_eq(r.thread, "b\\x3b", 5);
	ck_assert_int_eq(r.unit, U_NONE);
	ck_assert_int_eq(r.hasperiod, 0);
	ck_assert_int_eq(rec_read(rd, &r), 0);
	ck_assert_int_eq(rec_read(rd, &r), 0);
	rec_close(rd);
	close(fd);
	rec_close(NULL);

	/* Many records, across many buffer refills. */
	buf_init(&doc);
	for (i = 0; i < n; i++)
		buf_printf(&doc, "thread %zu\t%zu\t%zu\tnone\t1\tf%zu\t\n",
		    i % 7, i, i, i);
	fd = tmpfd(doc.data);
	rd = rec_open(fd, NULL);
	for (i = 0; i < n; i++) {
		if (rec_read(rd, &r) != 1 || r.samples != i || r.weight != i)
			ck_abort_msg("record %zu", i);
	}
	ck_assert_int_eq(rec_read(rd, &r), 0);
	rec_close(rd);
	close(fd);
	buf_free(&doc);
}
END_TEST

/*
 * rec_read() returns -1 at a malformed line, rec_error() says where and
 * what, and the input ends there.
 */
START_TEST(test_read_malformed)
{
	struct sst_reader *rd;
	struct sst_rec r;

	rd = rec_open(tmpfd("a\t1\t1\tseconds\t1\tx\t\n"
	    "a\t1\tone\tseconds\t1\tx\t\nb\t1\t1\tseconds\t1\tx\t\n"),
	    "in.sst");
	ck_assert_ptr_null(rec_error(rd));
	ck_assert_int_eq(rec_read(rd, &r), 1);
	ck_assert_int_eq(rec_read(rd, &r), -1);
	ck_assert_str_eq(rec_error(rd), "in.sst:2: bad weight");
	ck_assert_int_eq(rec_read(rd, &r), 0);
	rec_close(rd);
}
END_TEST

START_TEST(test_read_malformed_last)
{
	struct sst_reader *rd;
	struct sst_rec r;

	rd = rec_open(tmpfd("a\t1\t1\tseconds\t1\tx\t\nno tabs"), NULL);
	ck_assert_int_eq(rec_read(rd, &r), 1);
	ck_assert_int_eq(rec_read(rd, &r), -1);
	ck_assert_str_eq(rec_error(rd), "<stdin>:2: expected 7 TAB-separated "
	    "fields");
	rec_close(rd);
}
END_TEST

/* The message names the input and the line. */
START_TEST(test_read_message)
{
	char want[256], *err;
	int st;

	err = readerr("a\t1\t1\tseconds\t1\tx\t\n\n", "in.sst", &st);
	snprintf(want, sizeof(want), "%s: in.sst:2: expected 7 TAB-separated "
	    "fields\n", getprogname());
	ck_assert_str_eq(err, want);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	free(err);
	err = readerr("a\t1\t1\tseconds\t1\tx\t\nb\t1\t1\tseconds\t1\tx\t\n"
	    "c\t1\t1\tseconds\t1\tx;y\tf:1::0\n", "-", &st);
	snprintf(want, sizeof(want), "%s: <stdin>:3: stack and locations "
	    "differ in length\n", getprogname());
	ck_assert_str_eq(err, want);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	free(err);
	err = readerr("a\t1\t1\tseconds\t1\tx\t\n", "ok.sst", &st);
	ck_assert_str_eq(err, "");
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	free(err);
	/* The first line only is taken for another format. */
	err = readerr("{\"profiles\": []}\n", "p.json", &st);
	snprintf(want, sizeof(want), "%s: p.json:1: this looks like "
	    "speedscope JSON, not an sst(5) stream: sst-flatten reads it\n",
	    getprogname());
	ck_assert_str_eq(err, want);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	free(err);
	err = readerr("{\"a\": 1}\n", "p.json", &st);
	snprintf(want, sizeof(want), "%s: p.json:1: this is JSON, not an "
	    "sst(5) stream: sst-flatten reads speedscope JSON, trace2sst "
	    "Chrome trace events\n", getprogname());
	ck_assert_str_eq(err, want);
	free(err);
	err = readerr("{\"traceEvents\": []}\n", "t.json", &st);
	snprintf(want, sizeof(want), "%s: t.json:1: this looks like a Chrome "
	    "trace (traceEvents), not an sst(5) stream: trace2sst reads it\n",
	    getprogname());
	ck_assert_str_eq(err, want);
	free(err);
	err = readerr("a\t1\t1\tseconds\t1\tx\t\n{}\n", "p.json", &st);
	snprintf(want, sizeof(want), "%s: p.json:2: expected 7 TAB-separated "
	    "fields\n", getprogname());
	ck_assert_str_eq(err, want);
	free(err);
	err = readerr("main;a;b 3\n", "-", &st);
	snprintf(want, sizeof(want), "%s: <stdin>:1: this looks like folded "
	    "stacks, not an sst(5) stream: collapsed2sst reads it\n",
	    getprogname());
	ck_assert_str_eq(err, want);
	free(err);
	err = readerr("python3 123 [001] 1.000001: 1 cpu-clock:\n"
	    "\t7f3a12345678 main (/bin/x)\n", "-", &st);
	snprintf(want, sizeof(want), "%s: <stdin>:1: this looks like perf "
	    "script text, not an sst(5) stream: perf2sst reads it\n",
	    getprogname());
	ck_assert_str_eq(err, want);
	free(err);
	/* Unknown text keeps the record's own message. */
	err = readerr("hello world\n", "-", &st);
	snprintf(want, sizeof(want), "%s: <stdin>:1: expected 7 "
	    "TAB-separated fields\n", getprogname());
	ck_assert_str_eq(err, want);
	free(err);
}
END_TEST

/* With rec_oneunit, a second unit stops the reader, naming both. */
START_TEST(test_read_oneunit)
{
	static const char doc[] = "a\t1\t1\tnone\t1\tx\t\n"
	    "b\t2\t2\tnone\t1\tx\t\nc\t1\t1\tbytes\t1\tx\t\n";
	char want[256], *err;
	int st;

	oneunit = 0;
	err = readerr(doc, "u.sst", &st);
	ck_assert_str_eq(err, "");
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	free(err);
	oneunit = 1;
	err = readerr(doc, "u.sst", &st);
	snprintf(want, sizeof(want), "%s: u.sst:3: unit bytes after unit "
	    "none: a reducer adds weights of one unit only\n", getprogname());
	ck_assert_str_eq(err, want);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	free(err);
	err = readerr("a\t1\t1\tseconds\t1\tx\t\n"
	    "a\t1\t1\tseconds\t1\tx\t\n", "u.sst", &st);
	ck_assert_str_eq(err, "");
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	free(err);
	oneunit = 0;
}
END_TEST

static Suite *
rec_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("rec");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_parse_full);
	tcase_add_test(tc, test_parse_variants);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_parse_len);
	tcase_add_test(tc, test_write_roundtrip);
	tcase_add_test(tc, test_write_canonical);
	tcase_add_test(tc, test_nframes_last);
	tcase_add_test(tc, test_units);
	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_read_malformed);
	tcase_add_test(tc, test_read_malformed_last);
	tcase_add_test(tc, test_read_message);
	tcase_add_test(tc, test_read_oneunit);
	tcase_add_test(tc, test_parse_start);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(rec_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
