/*
 * test_gpu.c: Check suite for the GPU analyses (common/formats/gpu.c,
 * gpustat.c, gpuq.c): kernel types, view names, the two clocks (exact
 * nanoseconds, and HTA's whole microseconds: starts rounded up, ends
 * rounded down), the step trimming, and a rank without events of the
 * view.  Every expected figure is worked by hand in the comments.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tutil.h"
#include "gpu.h"
#include "gpulive.h"
#include "gpustat.h"

static char	*table(const char *, int, int);
static Suite	*gpu_suite(void);

/* The table of view v of the trace doc, with hta or not. */
static char *
table(const char *doc, int v, int hta)
{
	struct gpu_opt o;
	struct grank r;
	struct gstat *g;
	struct json *j;
	char *out = NULL;
	size_t n = 0;
	FILE *fp;

	memset(&o, 0, sizeof(o));
	gpu_addview(&o, (enum gpu_view)v);
	o.hta = hta;
	o.scale = hta ? 1 : 1000;
	fp = open_memstream(&out, &n);
	ck_assert_ptr_nonnull(fp);
	g = gstat_new(&o, fp);
	j = json_open_mem(doc, strlen(doc), "doc");
	ck_assert_int_eq(gpu_read(&r, j, &o, "r"), 0);
	ck_assert_int_eq(gpu_trim(&r, &o), 0);
	gstat_rank(g, &r);
	gpu_free(&r);
	json_close(j);
	ck_assert_int_eq(gstat_end(g), 0);
	fclose(fp);
	return out;
}

START_TEST(test_ktype)
{
	ck_assert_int_eq(gpu_ktype("ncclKernel_AllReduce", 20, 0), KT_COMM);
	ck_assert_int_eq(gpu_ktype("void x<ncclKernel>", 18, 0), KT_COMM);
	ck_assert_int_eq(gpu_ktype("hcclAllGather", 13, 0), KT_COMM);
	ck_assert_int_eq(gpu_ktype("Memcpy HtoD", 11, 0), KT_MEM);
	ck_assert_int_eq(gpu_ktype("Memset (Device)", 15, 0), KT_MEM);
	ck_assert_int_eq(gpu_ktype("dma_copy", 8, 0), KT_MEM);
	ck_assert_int_eq(gpu_ktype("gemm", 4, 0), KT_COMP);
	ck_assert_int_eq(gpu_ktype("Stream Sync", 11, 1), KT_SYNC);
}
END_TEST

START_TEST(test_views)
{
	ck_assert_int_eq(gpu_view("temporal"), GV_TEMPORAL);
	ck_assert_int_eq(gpu_view("kernel-types"), GV_KTYPES);
	ck_assert_int_eq(gpu_view("cpu-annotations"), GV_CPUANN);
	ck_assert_int_eq(gpu_view("kernel_types"), -1);
	ck_assert_int_eq(gpu_view(""), -1);
}
END_TEST

/*
 * One kernel at ts 1.0004 us for 2.9993 us.  Exact: 1000 ns (1000.4
 * rounded) to 1000 + 2999 = 3999 ns, kernel_time 2.999 us.  HTA: start
 * ceil(1.0004) = 2, end floor(1.0004 + 2.9993 = 3.9997) = 3: 1 us.
 */
START_TEST(test_clocks)
{
	const char *doc = "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": "
	    "\"kernel\", \"name\": \"k\", \"ts\": 1.0004, \"dur\": 2.9993, "
	    "\"args\": {\"stream\": 7, \"correlation\": 1}}]}";
	char *s;

	s = table(doc, GV_TEMPORAL, 0);
	ck_assert_str_eq(strchr(s, '\n') + 1,
	    "r\t0\t2.999\t0\t2.999\t0.00\t100.00\t0.00\n");
	free(s);
	s = table(doc, GV_TEMPORAL, 1);
	ck_assert_str_eq(strchr(s, '\n') + 1,
	    "r\t0\t1\t0\t1\t0.00\t100.00\t0.00\n");
	free(s);
}
END_TEST

/*
 * Steps #1 [0,10) and #2 [10,20); launches at 1 and 11, kernels of 2 us
 * at 3 and 13.  HTA keeps CPU events before 10 and the kernel launched
 * by one of them: kernel_time 2.  Without hta both: 13+2-3 = 12, busy 4,
 * idle 8.
 */
START_TEST(test_trim)
{
	const char *doc = "{\"distributedInfo\": {\"rank\": 5}, "
	    "\"traceEvents\": ["
	    "{\"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", "
	    "\"ts\": 0, \"dur\": 10},"
	    "{\"cat\": \"user_annotation\", \"name\": \"ProfilerStep#2\", "
	    "\"ts\": 10, \"dur\": 10},"
	    "{\"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
	    "\"ts\": 1, \"dur\": 1, \"args\": {\"correlation\": 1}},"
	    "{\"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
	    "\"ts\": 11, \"dur\": 1, \"args\": {\"correlation\": 2}},"
	    "{\"cat\": \"kernel\", \"name\": \"k\", \"ts\": 3, \"dur\": 2, "
	    "\"args\": {\"stream\": 7, \"correlation\": 1}},"
	    "{\"cat\": \"kernel\", \"name\": \"k\", \"ts\": 13, \"dur\": 2, "
	    "\"args\": {\"stream\": 7, \"correlation\": 2}}]}";
	char *s;

	s = table(doc, GV_TEMPORAL, 1);
	ck_assert_str_eq(strchr(s, '\n') + 1,
	    "5\t0\t2\t0\t2\t0.00\t100.00\t0.00\n");
	free(s);
	s = table(doc, GV_TEMPORAL, 0);
	ck_assert_str_eq(strchr(s, '\n') + 1,
	    "5\t8\t4\t0\t12\t66.67\t33.33\t0.00\n");
	free(s);
	/* Launch delays: 3 - (1+1) = 1 and 13 - 12 = 1 (hta: the first). */
	s = table(doc, GV_LAUNCH, 1);
	ck_assert_str_eq(strchr(s, '\n') + 1, "5\t1\t1\t2\t1\n");
	free(s);
}
END_TEST

/* A CPU-only trace: a header and no row; no communication: empty. */
START_TEST(test_nogpu)
{
	const char *doc = "[{\"cat\": \"cpu_op\", \"name\": \"f\", "
	    "\"ts\": 0, \"dur\": 5}]";
	char *s;

	s = table(doc, GV_TEMPORAL, 0);
	ck_assert_str_eq(s, "rank\tidle_time(us)\tcompute_time(us)\t"
	    "non_compute_time(us)\tkernel_time(us)\tidle_time_pctg\t"
	    "compute_time_pctg\tnon_compute_time_pctg\n");
	free(s);
	s = table(doc, GV_OVERLAP, 0);
	ck_assert_str_eq(s, "rank\tcomp_comm_overlap_pctg\nr\t\n");
	free(s);
}
END_TEST

/* Errors come back: -1, the message, and whether it has a place. */
START_TEST(test_errors)
{
	const char *doc = "{\"traceEvents\": 5}";
	const char *msg;
	struct gpu_opt o;
	struct grank r;
	struct json *j;
	int loc;

	memset(&o, 0, sizeof(o));
	gpu_addview(&o, GV_TEMPORAL);
	o.rows = 1;
	j = json_open_mem(doc, strlen(doc), "doc");
	ck_assert_int_eq(gpu_read(&r, j, &o, "r"), -1);
	msg = gpu_errmsg(&r, &loc);
	ck_assert_str_eq(msg, "traceEvents: expected an array");
	ck_assert_int_eq(loc, 1);
	gpu_free(&r);
	json_close(j);
}
END_TEST

/* Microseconds from ticks: ns to at most three decimals, or whole. */
START_TEST(test_fmtus)
{
	char b[32];

	gpu_fmtus(b, 1500, 1000);
	ck_assert_str_eq(b, "1.5");
	gpu_fmtus(b, -1005, 1000);
	ck_assert_str_eq(b, "-1.005");
	gpu_fmtus(b, 2000, 1000);
	ck_assert_str_eq(b, "2");
	gpu_fmtus(b, INT64_MIN, 1);
	ck_assert_str_eq(b, "-9223372036854775808");
}
END_TEST

static Suite *
gpu_suite(void)
{
	Suite *s = suite_create("gpu");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ktype);
	tcase_add_test(tc, test_views);
	tcase_add_test(tc, test_clocks);
	tcase_add_test(tc, test_trim);
	tcase_add_test(tc, test_nogpu);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_fmtus);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(gpu_suite());
}
