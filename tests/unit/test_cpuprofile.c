/*
 * test_cpuprofile.c: Check suite for .cpuprofile reading
 * (common/formats/cpuprofile.c): thread names from file names, the
 * records of small profiles worked out by hand with nodes before and
 * after the samples, children and parent links, the old head format,
 * and errors with their messages.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "rec.h"
#include "fmt.h"
#include "tutil.h"
#include "cpuprofile.h"

static void	 collect(const struct sst_rec *, void *);
static int	 run(const char *, struct buf *, char *, size_t);
static int	 persample;
static const char *thread(const char *);
static Suite	*cpuprofile_suite(void);

/* Append the record as a stream line to the buffer. */
static void
collect(const struct sst_rec *r, void *arg)
{
	struct buf *b = arg;
	char w[FMTBUF], p[FMTBUF];

	fmt_double(w, sizeof(w), r->weight);
	if (r->hasperiod)
		fmt_double(p, sizeof(p), r->period);
	else
		strcpy(p, "-");
	buf_add(b, r->thread, r->threadlen);
	buf_printf(b, "|%llu|%s|%s|", (unsigned long long)r->samples, w, p);
	buf_add(b, r->stack, r->stacklen);
	buf_addc(b, '|');
	buf_add(b, r->locs, r->locslen);
	buf_addc(b, '\n');
}

/* Read the document s as thread T; the records into out. */
static int
run(const char *s, struct buf *out, char *err, size_t errlen)
{
	struct json *j;
	int rv;

	buf_reset(out);
	j = json_open_mem(s, strlen(s), "t");
	rv = cpuprof_read(j, "T", 1, persample, collect, out, err, errlen);
	json_close(j);
	return rv;
}

/* cpuprof_thread into a static buffer. */
static const char *
thread(const char *path)
{
	static struct buf b;
	static int init;

	if (!init) {
		buf_init(&b);
		init = 1;
	}
	buf_reset(&b);
	cpuprof_thread(&b, path);
	return b.data;
}

START_TEST(test_thread)
{
	ck_assert_str_eq(thread("CPU.20261202.115905.15330.0.001.cpuprofile"),
	    "Process 15330 Thread 0");
	ck_assert_str_eq(thread("/a.b/CPU.1.2.77.3.9.cpuprofile"),
	    "Process 77 Thread 3");
	ck_assert_str_eq(thread("CPU.1.2.77.3.cpuprofile"), "Profile");
	ck_assert_str_eq(thread("CPU.1.2.77.x.9.cpuprofile"), "Profile");
	ck_assert_str_eq(thread("CPU.1.2.77.3.9.json"), "Profile");
	ck_assert_str_eq(thread("cpu.1.2.77.3.9.cpuprofile"), "Profile");
	ck_assert_str_eq(thread("CPU.1..77.3.9.cpuprofile"), "Profile");
	ck_assert_str_eq(thread("-"), "Profile");
	ck_assert_str_eq(thread("Profile-20180101.cpuprofile"), "Profile");
}
END_TEST

/* Nodes first or last, children or parent: the same records. */
START_TEST(test_orders)
{
	const char *docs[] = {
		"{\"nodes\":[{\"id\":1,\"children\":[2]},"
		"{\"id\":2,\"callFrame\":{\"functionName\":\"f\",\"url\":\"u\","
		"\"lineNumber\":4,\"columnNumber\":0},\"children\":[3]},"
		"{\"id\":3,\"callFrame\":{\"functionName\":\"\"}}],"
		"\"startTime\":10,\"endTime\":100,"
		"\"samples\":[2,3,3,2],\"timeDeltas\":[5,10,20,30]}",
		"{\"timeDeltas\":[5,10,20,30],\"endTime\":100,"
		"\"samples\":[2,3,3,2],\"startTime\":10,"
		"\"nodes\":[{\"id\":3,\"parent\":2,\"callFrame\":"
		"{\"functionName\":\"\"}},{\"id\":2,\"parent\":1,\"callFrame\":"
		"{\"lineNumber\":4,\"columnNumber\":0,\"url\":\"u\","
		"\"functionName\":\"f\"}},{\"id\":1}]}",
	};
	/*
	 * Times 15 25 45 75, end 100: weights 10 20 30 25.  Node 2 gets
	 * 10 and 25, node 3 gets 20 and 30.
	 */
	const char *want =
	    "T|2|3.5e-05|-|f|u:5:1:\n"
	    "T|2|5e-05|-|f;(anonymous)|u:5:1:;:::\n";
	struct buf out;
	char err[256];
	size_t i;

	buf_init(&out);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(run(docs[i], &out, err, sizeof(err)), 0);
		ck_assert_str_eq(out.data, want);
	}
	buf_free(&out);
}
END_TEST

/* Equal weights: a period, and the weight summed as Python sums. */
START_TEST(test_period)
{
	struct buf out;
	char err[256];

	buf_init(&out);
	ck_assert_int_eq(run("{\"nodes\":[{\"id\":1,\"children\":[2]},"
	    "{\"id\":2,\"callFrame\":{\"functionName\":\"f\"}}],"
	    "\"samples\":[2,2,2,2],\"timeDeltas\":[0,100,100,100],"
	    "\"startTime\":0,\"endTime\":400}", &out, err, sizeof(err)), 0);
	ck_assert_str_eq(out.data, "T|4|0.0004|0.0001|f|\n");
	ck_assert_int_eq(run("{\"nodes\":[{\"id\":1,\"children\":[2]},"
	    "{\"id\":2,\"callFrame\":{\"functionName\":\"f\"}}],"
	    "\"samples\":[2,2,2],\"timeDeltas\":[0,100,100],"
	    "\"startTime\":0,\"endTime\":300}", &out, err, sizeof(err)), 0);
	ck_assert_str_eq(out.data,
	    "T|3|0.00030000000000000003|0.0001|f|\n");
	buf_free(&out);
}
END_TEST

/* One record per sample, in input order. */
START_TEST(test_persample)
{
	struct buf out;
	char err[256];

	buf_init(&out);
	persample = 1;
	ck_assert_int_eq(run("{\"nodes\":[{\"id\":1,\"children\":[2]},"
	    "{\"id\":2,\"callFrame\":{\"functionName\":\"f\"},"
	    "\"children\":[3]},{\"id\":3,\"callFrame\":"
	    "{\"functionName\":\"g\"}}],\"samples\":[3,2,3,1],"
	    "\"timeDeltas\":[0,5,7,9],\"startTime\":0,\"endTime\":22}",
	    &out, err, sizeof(err)), 0);
	persample = 0;
	/* weights 5 7 9 and 22 - 21 = 1 */
	ck_assert_str_eq(out.data, "T|1|5e-06|5e-06|f;g|\n"
	    "T|1|7e-06|7e-06|f|\nT|1|9e-06|9e-06|f;g|\nT|1|1e-06|1e-06||\n");
	buf_free(&out);
}
END_TEST

START_TEST(test_old)
{
	struct buf out;
	char err[256];

	buf_init(&out);
	ck_assert_int_eq(run("{\"head\":{\"functionName\":\"(root)\","
	    "\"id\":1,\"children\":[{\"functionName\":\"a\",\"id\":2,"
	    "\"lineNumber\":0,\"children\":[]},{\"functionName\":\"b\","
	    "\"id\":3}]},\"samples\":[3,2,3],\"timestamps\":[0,7,10,12]}",
	    &out, err, sizeof(err)), 0);
	ck_assert_str_eq(out.data, "T|2|9e-06|-|b|\nT|1|3e-06|3e-06|a|:1::\n");
	buf_free(&out);
}
END_TEST

START_TEST(test_errors)
{
	static const struct {
		const char	*doc;
		const char	*err;
	} c[] = {
		{ "[]", "t:1:1: an array of trace events, not a .cpuprofile: "
		    "use trace2sst" },
		{ "{\"a\":1,\n\"traceEvents\":[]}", "t:2:1: a Chrome trace, "
		    "not a .cpuprofile: use trace2sst" },
		{ "{\"shared\":{}}", "t:1:2: a speedscope file, not a "
		    ".cpuprofile: use sst-flatten" },
		{ "{\"nodes\":[]}", "t: no \"samples\": not a .cpuprofile" },
		{ "{\"samples\":[]}", "t: no \"nodes\": not a .cpuprofile" },
		{ "{\"nodes\":[{}],\"samples\":[]}", "t:1:12: a node without "
		    "an id" },
		{ "{\"nodes\":[{\"id\":1,\"children\":[5]}],\"samples\":[],"
		    "\"timeDeltas\":[]}", "t: node 1: child 5 is no node" },
		{ "{\"nodes\":[{\"id\":1}],\"samples\":[1],\"timeDeltas\":[1],"
		    "\"samples\":[]}", "t:1:62: samples: given twice" },
		{ "{\"nodes\":[{\"id\":1}],\"samples\":[1],"
		    "\"timeDeltas\":[1]} x",
		    "t:1:53: trailing data after JSON value" },
		{ "{\"nodes\":[{\"id\":1}],\"samples\":[1,1],"
		    "\"timestamps\":[1,2,3,4]}",
		    "t: 4 timestamps for 2 samples" },
		{ "{\"nodes\":[{\"id\":1}],\"samples\":[1,1],"
		    "\"timestamps\":[5,4]}", "t: sample 1: negative time "
		    "(-1 us): the samples are out of order" },
		/* Issue 34: cycles of every shape, found at once. */
		{ "{\"nodes\":[{\"id\":1,\"parent\":2},{\"id\":2,"
		    "\"parent\":3},{\"id\":3,\"parent\":2}],\"samples\":[1],"
		    "\"timeDeltas\":[1]}", "t: node 2 is its own ancestor" },
		{ "{\"nodes\":[{\"id\":7,\"parent\":7}],\"samples\":[7],"
		    "\"timeDeltas\":[1]}", "t: node 7 is its own ancestor" },
		{ "{\"nodes\":[{\"id\":7,\"children\":[7]}],\"samples\":[7],"
		    "\"timeDeltas\":[1]}", "t: node 7 is its own ancestor" },
		{ "{\"nodes\":[{\"id\":1},{\"id\":2,\"parent\":1},{\"id\":3,"
		    "\"parent\":5},{\"id\":4,\"parent\":3},{\"id\":5,"
		    "\"parent\":4}],\"samples\":[2],\"timeDeltas\":[1]}",
		    "t: node 3 is its own ancestor" },
	};
	struct buf out;
	char err[256];
	size_t i;

	buf_init(&out);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ck_assert_int_eq(run(c[i].doc, &out, err, sizeof(err)), -1);
		ck_assert_str_eq(err, c[i].err);
		ck_assert_str_eq(out.data, "");
	}
	buf_free(&out);
}
END_TEST

static Suite *
cpuprofile_suite(void)
{
	Suite *s = suite_create("cpuprofile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_thread);
	tcase_add_test(tc, test_orders);
	tcase_add_test(tc, test_period);
	tcase_add_test(tc, test_persample);
	tcase_add_test(tc, test_old);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(cpuprofile_suite());
}
