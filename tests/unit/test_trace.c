/*
 * test_trace.c: Check suite for Chrome trace-event reading
 * (common/formats/trace.c): microsecond text to exact nanoseconds, category
 * filters, and whole small traces to sst records, with the expected
 * self times worked out by hand in the comments.
 */

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json.h"
#include "htab.h"
#include "trace.h"

static char	*run(const char *, const struct trace_opt *, const char *,
		    struct trace_stats *);
static const char *fails(const char *, const struct trace_opt *);
static char	*randtrace(unsigned, size_t);
static Suite	*trace_suite(void);

/* The records of the trace text s, as written to a memory stream. */
static char *
run(const char *s, const struct trace_opt *o, const char *prefix,
    struct trace_stats *st)
{
	struct json *j;
	char *out = NULL, err[512];
	size_t len = 0;
	FILE *fp;

	fp = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(fp);
	j = json_open_mem(s, strlen(s), "t");
	ck_assert_int_eq(trace_convert(j, o, prefix, fp, st, err,
	    sizeof(err)), 0);
	json_close(j);
	fclose(fp);
	return out;
}

/* The message of trace text s, which must fail with no output. */
static const char *
fails(const char *s, const struct trace_opt *o)
{
	static char err[512];
	struct trace_stats st;
	struct json *j;
	char *out = NULL;
	size_t len = 0;
	FILE *fp;

	memset(&st, 0, sizeof(st));
	fp = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(fp);
	j = json_open_mem(s, strlen(s), "t");
	ck_assert_int_eq(trace_convert(j, o, NULL, fp, &st, err,
	    sizeof(err)), -1);
	json_close(j);
	fclose(fp);
	ck_assert_uint_eq(len, 0);
	free(out);
	return err;
}

START_TEST(test_ns)
{
	static const struct {
		const char	*s;
		int		 rc;
		int64_t		 v;
	} c[] = {
		{ "0", 0, 0 },
		{ "-0", 0, 0 },
		{ "1", 0, 1000 },
		{ "12.5", 0, 12500 },
		{ "0.0005", 0, 0 },		/* 0.5 ns: to even 0 */
		{ "0.0015", 0, 2 },		/* 1.5 ns: to even 2 */
		{ "0.0025", 0, 2 },		/* 2.5 ns: to even 2 */
		{ "0.00250001", 0, 3 },		/* above the half */
		{ "0.0004999", 0, 0 },
		{ "0.00001", 0, 0 },
		{ "1e3", 0, 1000000 },
		{ "1.5E-3", 0, 2 },
		{ "2.5e-3", 0, 2 },
		{ "-7.25", 0, -7250 },
		{ "1682725898236569.25", 0, 1682725898236569250LL },
		{ "1.6827258982365710e15", 0, 1682725898236571000LL },
		{ "9223372036854775.807", 0, INT64_MAX },
		{ "9223372036854775.808", -1, 0 },
		{ "1e30", -1, 0 },
		{ "1e-400", 0, 0 },
		{ "", -1, 0 },
		{ "-", -1, 0 },
		{ "1.", -1, 0 },
		{ ".5", -1, 0 },
		{ "1e", -1, 0 },
		{ "1e+", -1, 0 },
		{ "soon", -1, 0 },
		{ " 1", -1, 0 },
		{ "0x10", -1, 0 },
	};
	size_t i;
	int64_t v;
	int rc;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		v = 0;
		rc = trace_ns(c[i].s, strlen(c[i].s), &v);
		ck_assert_msg(rc == c[i].rc, "%s: rc %d", c[i].s, rc);
		if (rc == 0)
			ck_assert_msg(v == c[i].v, "%s: %lld", c[i].s,
			    (long long)v);
	}
}
END_TEST

START_TEST(test_cats)
{
	struct trace_opt o;

	memset(&o, 0, sizeof(o));
	ck_assert_int_eq(trace_catok(&o, "x", 1), 1);
	o.keep = trace_cats("kernel,gpu_memcpy,,");
	ck_assert_int_eq(trace_catok(&o, "kernel", 6), 1);
	ck_assert_int_eq(trace_catok(&o, "kern", 4), 0);
	ck_assert_int_eq(trace_catok(&o, "a,gpu_memcpy", 12), 1);
	ck_assert_int_eq(trace_catok(&o, "", 0), 0);
	o.drop = trace_cats("a");
	ck_assert_int_eq(trace_catok(&o, "a,kernel", 8), 0);
	ck_assert_int_eq(trace_catok(&o, "kernel,b", 8), 1);
	ht_free(o.keep);
	o.keep = NULL;
	ck_assert_int_eq(trace_catok(&o, "b", 1), 1);
	ck_assert_int_eq(trace_catok(&o, "b,a", 3), 0);
	ht_free(o.drop);
}
END_TEST

START_TEST(test_nest)
{
	struct trace_opt o;
	struct trace_stats st;
	char *out;

	memset(&o, 0, sizeof(o));
	memset(&st, 0, sizeof(st));
	/*
	 * a [0,10] holds b [2,6] (holding c [3,4]) and b again [7,9].
	 * Self: a 10 - 4 - 2 = 4; a;b 3 + 2 = 5 over 2 spans; a;b;c 1.
	 */
	out = run("[{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":7,\"dur\":2,"
	    "\"name\":\"b\"},{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":0,"
	    "\"dur\":10,\"name\":\"a\"},{\"ph\":\"B\",\"pid\":1,\"tid\":2,"
	    "\"ts\":2,\"name\":\"b\"},{\"ph\":\"X\",\"pid\":1,\"tid\":2,"
	    "\"ts\":3,\"dur\":1,\"name\":\"c\"},{\"ph\":\"E\",\"pid\":1,"
	    "\"tid\":2,\"ts\":6}]", &o, "h", &st);
	ck_assert_str_eq(out,
	    "h: Process 1 Thread 2\t1\t4e-06\tseconds\t4e-06\ta\t\n"
	    "h: Process 1 Thread 2\t2\t5e-06\tseconds\t-\ta;b\t\n"
	    "h: Process 1 Thread 2\t1\t1e-06\tseconds\t1e-06\ta;b;c\t\n");
	ck_assert_uint_eq(st.spans, 4);
	ck_assert_uint_eq(st.records, 3);
	ck_assert_uint_eq(st.clipped, 0);
	free(out);
}
END_TEST

START_TEST(test_names_escaped)
{
	struct trace_opt o;
	struct trace_stats st;
	char *out;

	memset(&o, 0, sizeof(o));
	memset(&st, 0, sizeof(st));
	/* Names with ';', TAB and the empty name, escaped as sst(5). */
	out = run("{\"traceEvents\":[{\"ph\":\"X\",\"pid\":\"p;q\","
	    "\"tid\":1,\"ts\":0,\"dur\":2,\"name\":\"\"},"
	    "{\"ph\":\"X\",\"pid\":\"p;q\",\"tid\":1,\"ts\":0,\"dur\":1,"
	    "\"name\":\"a;b\\tc\"},{\"ph\":\"M\",\"pid\":\"p;q\",\"tid\":1,"
	    "\"name\":\"thread_name\",\"args\":{\"name\":\"w\\n\"}}]}",
	    &o, NULL, &st);
	ck_assert_str_eq(out,
	    "Process p\\x3bq Thread 1 \"w\\n\"\t1\t1e-06\tseconds\t1e-06\t"
	    "\\e\t\n"
	    "Process p\\x3bq Thread 1 \"w\\n\"\t1\t1e-06\tseconds\t1e-06\t"
	    "\\e;a\\x3bb\\tc\t\n");
	free(out);
}
END_TEST

START_TEST(test_persample_gpu)
{
	struct trace_opt o;
	struct trace_stats st;
	char *out;

	memset(&o, 0, sizeof(o));
	memset(&st, 0, sizeof(st));
	o.persample = 1;
	o.gpu = 1;
	/*
	 * launch [0,2] on (1,1) with correlation 9; kernel k [5,8] on
	 * (0,7) with the same: k (3 us) goes under launch on (1,1), at
	 * its own start 5, after the launch (0), and not on its stream
	 * (counted once); the eighth field is the start in seconds from
	 * the earliest span (the launch, at 0).
	 */
	out = run("[{\"ph\":\"X\",\"cat\":\"kernel\",\"pid\":0,\"tid\":7,"
	    "\"ts\":5,\"dur\":3,\"name\":\"k\",\"args\":{\"correlation\":9}},"
	    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"pid\":1,\"tid\":1,"
	    "\"ts\":0,\"dur\":2,\"name\":\"launch\","
	    "\"args\":{\"correlation\":9}}]", &o, NULL, &st);
	ck_assert_str_eq(out,
	    "Process 1 Thread 1\t1\t2e-06\tseconds\t2e-06\tlaunch\t\t0\n"
	    "Process 1 Thread 1\t1\t3e-06\tseconds\t3e-06\tlaunch;k\t\t"
	    "5e-06\n");
	free(out);
}
END_TEST

/*
 * A random trace text: threads 0-2 in time order (thread 2 sorted
 * only up to the last quarter, then one event from the past), thread 3
 * shuffled; X spans, B/E pairs, instant events, GPU spans and launches.
 */
static char *
randtrace(unsigned seed, size_t nev)
{
	struct buf b;
	size_t i;
	int64_t ts[4] = { 0, 0, 0, 0 };
	int64_t bts[4][64], e;
	int open[4] = { 0, 0, 0, 0 };
	unsigned r = seed, tid;

	buf_init(&b);
	buf_adds(&b, "[");
	for (i = 0; i < nev; i++) {
		r = r * 1103515245 + 12345;
		tid = (r >> 16) % 4;
		ts[tid] += (r >> 8) % 3;
		if (tid == 3)
			ts[tid] = (r >> 4) % 1000;
		if (tid == 2 && i == nev * 3 / 4)
			ts[tid] = 1;
		if (i > 0)
			buf_adds(&b, ",\n");
		switch ((r >> 20) % 6) {
		case 0:
			buf_printf(&b, "{\"ph\":\"B\",\"pid\":1,\"tid\":%u,"
			    "\"ts\":%lld,\"name\":\"b%u\"}", tid,
			    (long long)ts[tid], (r >> 10) % 3);
			if (open[tid] < 64)
				bts[tid][open[tid]++] = ts[tid];
			break;
		case 1:
			/* not before its B, or the E is an error */
			e = ts[tid];
			if (open[tid] > 0 && bts[tid][--open[tid]] > e)
				e = bts[tid][open[tid]];
			buf_printf(&b, "{\"ph\":\"E\",\"pid\":1,\"tid\":%u,"
			    "\"ts\":%lld}", tid, (long long)e);
			break;
		case 2:
			buf_printf(&b, "{\"ph\":\"i\",\"pid\":1,\"tid\":%u,"
			    "\"ts\":%lld}", tid, (long long)ts[tid]);
			break;
		case 3:
			buf_printf(&b, "{\"ph\":\"X\",\"cat\":\"kernel\","
			    "\"pid\":0,\"tid\":%u,\"ts\":%lld,\"dur\":%u,"
			    "\"name\":\"k\",\"args\":{\"correlation\":%u}}",
			    tid, (long long)ts[tid], (r >> 6) % 5,
			    (r >> 12) % 50);
			break;
		case 4:
			buf_printf(&b, "{\"ph\":\"X\",\"cat\":\"cuda_runtime\","
			    "\"pid\":1,\"tid\":%u,\"ts\":%lld,\"dur\":%u,"
			    "\"name\":\"launch\",\"args\":{\"correlation\":"
			    "%u}}", tid, (long long)ts[tid], (r >> 6) % 3,
			    (r >> 12) % 50);
			break;
		default:
			buf_printf(&b, "{\"ph\":\"X\",\"pid\":1,\"tid\":%u,"
			    "\"ts\":%lld,\"dur\":%u,\"name\":\"x%u\"}", tid,
			    (long long)ts[tid], (r >> 6) % 7, (r >> 10) % 4);
			break;
		}
	}
	buf_adds(&b, "]");
	return b.data;
}

/*
 * Nesting as the input goes (a batch of 1 span) and at the end only
 * (a batch larger than the input) give the same records, whether the
 * threads are sorted, shuffled, or sorted until late.
 */
START_TEST(test_batch)
{
	struct trace_opt o;
	struct trace_stats st1, st2;
	char *text, *a, *b;
	int mode;

	for (mode = 0; mode < 4; mode++) {
		memset(&o, 0, sizeof(o));
		o.persample = mode & 1;
		o.gpu = (mode >> 1) & 1;
		text = randtrace(7 + (unsigned)_i * 4 + (unsigned)mode, 3000);
		memset(&st1, 0, sizeof(st1));
		memset(&st2, 0, sizeof(st2));
		o.batch = 1;
		a = run(text, &o, NULL, &st1);
		o.batch = (size_t)-1;
		b = run(text, &o, NULL, &st2);
		ck_assert_msg(strcmp(a, b) == 0, "mode %d: records differ",
		    mode);
		ck_assert_uint_eq(st1.clipped, st2.clipped);
		ck_assert_uint_eq(st1.records, st2.records);
		ck_assert_uint_gt(st1.records, 10);
		free(a);
		free(b);
		free(text);
	}
}
END_TEST

/*
 * Errors come back as messages, at the token they were found at
 * (counted by hand: the key "profiles" starts at column 2), with no
 * output.
 */
START_TEST(test_not_a_trace)
{
	struct trace_opt o;

	memset(&o, 0, sizeof(o));
	ck_assert_str_eq(fails("{\"profiles\":[],\"shared\":{\"frames\":[]}}",
	    &o), "t:1:2: speedscope JSON, not a trace: use sst-flatten");
	/* Column 17: the '}' that ends the E event, the last token read. */
	ck_assert_str_eq(fails("[{\"ph\":\"B\",\"ts\":5},\n"
	    "{\"ph\":\"E\",\"ts\":4}]", &o), "t:2:17: E event before its B");
	/* Column 20: the end of the input, after the ']' at 19. */
	ck_assert_str_eq(fails("[{\"ph\":\"i\",\"ts\":5}]", &o),
	    "t:1:20: no spans (X events or B/E pairs) in the trace");
}
END_TEST

/*
 * Durations and sums past 2^63 - 1 ns are errors, never wrapped
 * weights: -9223372036854775.807 us is -(2^63 - 1) ns.  An E event at
 * +(2^63 - 1) ns after its B there: at column 36, the '}' of the E
 * event (16 characters before its 20-digit number).  A B never closed
 * whose thread's latest time (an instant event) is as far: event 1.  Two
 * X spans of one stack of 2^62 + 1 ns each (4611686018427387.905 us):
 * each fits, the sum does not (the first starts before 0: ts + dur
 * was checked as INT64_MAX - ts, which overflowed).  A ts + dur past
 * 2^63 - 1: at column 49, the event's '}'.
 */
START_TEST(test_overflow)
{
	struct trace_opt o;

	memset(&o, 0, sizeof(o));
	ck_assert_str_eq(fails("[{\"ph\":\"B\",\"ts\":-9223372036854775.807},"
	    "\n{\"ph\":\"E\",\"ts\":9223372036854775.807}]", &o),
	    "t:2:36: E event: its span lasts past 2^63 - 1 ns");
	ck_assert_str_eq(fails("[{\"ph\":\"B\",\"ts\":-9223372036854775.807},"
	    "{\"ph\":\"i\",\"ts\":9223372036854775.807}]", &o),
	    "t: event 1: a B event without E lasting past 2^63 - 1 ns");
	ck_assert_str_eq(fails("[{\"ph\":\"X\",\"name\":\"a\","
	    "\"ts\":-4611686018427387.905,\"dur\":4611686018427387.905},"
	    "{\"ph\":\"X\",\"name\":\"a\",\"ts\":0,"
	    "\"dur\":4611686018427387.905}]", &o),
	    "t: the self times of a stack sum past 2^63 - 1 ns");
	ck_assert_str_eq(fails("[{\"ph\":\"X\",\"ts\":9223372036854775.807,"
	    "\"dur\":0.001}]", &o), "t:1:49: ts + dur out of range");
}
END_TEST

static Suite *
trace_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("trace");
	tc = tcase_create("core");
	tcase_add_test(tc, test_ns);
	tcase_add_test(tc, test_cats);
	tcase_add_test(tc, test_nest);
	tcase_add_test(tc, test_names_escaped);
	tcase_add_test(tc, test_persample_gpu);
	tcase_add_loop_test(tc, test_batch, 0, 5);
	tcase_add_test(tc, test_not_a_trace);
	tcase_add_test(tc, test_overflow);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(trace_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
