/*
 * test_callgraph.c: Check suite for the stream reader of the pictures
 * (common/reduce/callgraph.c): function ids by name and file (lines apart,
 * files apart), stacks handed on root first with their thread, thread
 * totals, records without samples, mixed units, the two-count folded
 * form, and the names and labels of functions.
 */

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callgraph.h"
#include "tutil.h"
#include "buf.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "tally.h"
#include "dotgraph.h"

static Suite	*callgraph_suite(void);

/* What the reader handed on, as text: "thread:id,id,...;weight". */
static struct buf got;

static void
emit(void *arg, uint32_t t, const uint32_t *ids, size_t n,
    const struct sst_rec *r)
{
	struct cg *g = arg;
	size_t i;

	buf_printf(&got, "%u:", t);
	for (i = 0; i < n; i++)
		buf_printf(&got, "%s%u", i ? "," : "", ids[i]);
	buf_printf(&got, "=%g", r->weight);
	if (g->diff == 1)
		buf_printf(&got, "/%g", g->cura);
	buf_addc(&got, ' ');
}

/* cg_read()'s status and message in the last readstr() ("F": the file). */
static int	 rc;
static char	 msg[1024];

/* Read stream s into g, returning what was handed on. */
static const char *
readstr(struct cg *g, const char *s)
{
	char *path;
	size_t n;

	buf_free(&got);
	buf_init(&got);
	cg_init(g);
	path = tu_tmpfile(s);
	rc = cg_read(g, path, emit, g, msg, sizeof(msg));
	n = strlen(path);
	if (rc == -1 && strncmp(msg, path, n) == 0) {
		msg[0] = 'F';
		memmove(msg + 1, msg + n, strlen(msg + n) + 1);
	}
	unlink(path);
	free(path);
	return got.data;
}

START_TEST(test_funcs)
{
	struct cg g;
	const char *s;
	size_t n;

	ck_assert_str_eq(readstr(&g,
	    "A\t2\t0.5\tseconds\t0.25\tmain;f;g\t"
	    "a.py:1::0;a.py:2::1;b.py:3::2\n"
	    "B\t1\t0.25\tseconds\t0.25\tmain;f\ta.py:1::0;a.py:9:4:5\n"
	    "A\t1\t1\tseconds\t1\tmain;f\ta.py:1::0;c.py:2::6\n"
	    "C\t0\t0\tseconds\t-\t\t\n"
	    "B\t1\t2\tseconds\t2\tmain;g\t\n"),
	    "0:0,1,2=0.5 1:0,1=0.25 0:0,3=1 1:4,5=2 ");
	ck_assert_uint_eq(ht_count(g.funcs), 6);
	ck_assert_double_eq(g.total, 3.75);
	ck_assert_uint_eq(g.samples, 5);
	ck_assert_int_eq(g.unit, U_SECONDS);
	ck_assert_int_eq(g.diff, 0);
	/* Threads, the empty one included. */
	ck_assert_uint_eq(tally_count(&g.threads), 3);
	ck_assert_double_eq(g.threads.weight[0], 1.5);
	ck_assert_double_eq(g.threads.weight[1], 2.25);
	ck_assert_uint_eq(g.threads.samples[2], 0);
	s = cg_name(&g, 3, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(memcmp(s, "f", 1), 0);
	s = cg_file(&g, 3, &n);
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(memcmp(s, "c.py", 4), 0);
	s = cg_file(&g, 5, &n);
	ck_assert_uint_eq(n, 0);
	cg_free(&g);
}
END_TEST

START_TEST(test_colons)
{
	struct cg g;
	struct buf b;
	const char *s;
	size_t n;

	/* A file with colons: split at the last three. */
	readstr(&g, "T\t1\t1\tnone\t1\tf\\x3bg\tC:/x:y/m.py:7:3:12\n");
	s = cg_file(&g, 0, &n);
	ck_assert_uint_eq(n, 11);
	ck_assert_int_eq(memcmp(s, "C:/x:y/m.py", 11), 0);
	s = cg_base(s, n, &n);
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(memcmp(s, "m.py", 4), 0);
	buf_init(&b);
	dg_funclabel(&b, &g, 0, SVG_DOT);
	ck_assert_str_eq(b.data, "f;g\\nm.py");
	buf_reset(&b);
	dg_funclabel(&b, &g, 0, SVG_XML);
	ck_assert_str_eq(b.data, "f;g (m.py)");
	buf_free(&b);
	cg_free(&g);
}
END_TEST

START_TEST(test_diff)
{
	struct cg g;

	ck_assert_str_eq(readstr(&g, "main;f 10 5\nmain;g  0 2.5 \n"
	    "main;f;h 3 0\n"), "0:0,1=5/10 0:0,2=2.5/0 0:0,1,3=0/3 ");
	ck_assert_int_eq(g.diff, 1);
	ck_assert_int_eq(g.unit, U_NONE);
	ck_assert_double_eq(g.total, 7.5);
	cg_free(&g);
}
END_TEST

/*
 * The errors of cg_read(): each message as sst-flame(1) wrote it for
 * the same input before cg_read() returned it (it exited itself then).
 */
START_TEST(test_mixed)
{
	struct cg g;

	readstr(&g, "T\t1\t1\tnone\t1\tf\t\nT\t1\t1\tbytes\t1\tf\t\n");
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(msg, "F:2: unit bytes after unit none");
	cg_free(&g);
}
END_TEST

START_TEST(test_notdiff)
{
	struct cg g;

	/* One count: folded stacks, named as input.c's sniff() names them. */
	readstr(&g, "main;f 10\n");
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(msg, "F:1: this looks like folded stacks, not an "
	    "sst(5) stream: collapsed2sst reads it");
	cg_free(&g);
	/* A first line of no known format: what was expected. */
	readstr(&g, "hello\n");
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(msg, "F:1: expected an sst(5) stream (7 TAB-separated "
	    "fields) or two-count folded lines \"stack countA countB\"");
	cg_free(&g);
}
END_TEST

START_TEST(test_badrec)
{
	struct cg g;

	readstr(&g, "T\t1\t1\tnone\t1\tf\t\nT\t1\n");
	ck_assert_int_eq(rc, -1);
	ck_assert_str_eq(msg, "F:2: expected 7 TAB-separated fields");
	cg_free(&g);
}
END_TEST

static Suite *
callgraph_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("callgraph");
	tc = tcase_create("core");
	tcase_add_test(tc, test_funcs);
	tcase_add_test(tc, test_colons);
	tcase_add_test(tc, test_diff);
	tcase_add_test(tc, test_mixed);
	tcase_add_test(tc, test_notdiff);
	tcase_add_test(tc, test_badrec);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(callgraph_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
