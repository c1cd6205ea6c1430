/*
 * test_perfscan.c: Check suite for perf script text read line by line
 * (common/formats/perfscan.c): samples by perf.py's rules and by -F's, the
 * flags of each line (a frame line without a header or a symbol, an
 * unrecognized header or line, another event, binary data, a weight
 * that sums to inf), what is counted, and a sample cut off by the end.
 * The records expected were written by hand from the rules.
 */

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "perf.h"
#include "tutil.h"
#include "perfscan.h"

/* A reader and the text to feed it, for tu_capture(). */
struct feed {
	struct perfscan	*ps;
	const char	*text;
	const int	*want;		/* each line's flags */
};

static struct perfscan *scan(const char *, int);
static void	 feed(void *);
static void	 put(void *);
static void	 end(void *);
static char	*run(struct perfscan *, const char *, const int *);
static Suite	*perfscan_suite(void);

/* A reader by the -F keywords kw ("" for perf.py's rules). */
static struct perfscan *
scan(const char *kw, int each)
{
	struct perf_view v;
	const char *bad;
	char *k;

	memset(&v, 0, sizeof(v));
	if (*kw != '\0') {
		k = xstrdup(kw);
		ck_assert_int_eq(perf_view(&v, k, &bad), 0);
		free(k);
	}
	return perfscan_new(&v, each);
}

/* Feed the lines of f->text, checking each line's flags. */
static void
feed(void *arg)
{
	struct feed *f = arg;
	const char *p, *nl;
	char line[256];
	size_t i, n;

	for (p = f->text, i = 0; (nl = strchr(p, '\n')) != NULL;
	    p = nl + 1, i++) {
		n = (size_t)(nl - p);
		ck_assert_uint_lt(n, sizeof(line));
		memcpy(line, p, n);
		line[n] = '\0';
		ck_assert_msg(perfscan_line(f->ps, line, n) == f->want[i],
		    "line %zu: %s", i + 1, line);
	}
}

/* perfscan_put as a tu_capture() function. */
static void
put(void *arg)
{
	perfscan_put(arg);
}

/* perfscan_end, which must find nothing wrong, for tu_capture(). */
static void
end(void *arg)
{
	ck_assert_int_eq(perfscan_end(arg), 0);
}

/* Start an input, feed text; what was written meanwhile. */
static char *
run(struct perfscan *ps, const char *text, const int *want)
{
	struct feed f = { ps, text, want };

	perfscan_start(ps);
	return tu_capture(feed, &f);
}

/* perf.py's rules: the thread is the command, frames lose offsets. */
START_TEST(test_ray)
{
	static const int want[9] = { 0 };
	struct perfscan *ps;
	const struct perfscan_counts *n;
	char *out;

	ps = scan("", 0);
	out = run(ps,
	    "# perf script\n"
	    "python3 123 [001] 100.0: 1 cycles:\n"
	    "\t7f01 leaf+0x10 (/bin/a)\n"
	    "\t7f02 root (/bin/a)\n"
	    "\n"
	    "python3 123 [001] 100.1: 1 cycles:\n"
	    "  7f01 leaf+0x20 (/bin/a)\n"
	    "\t7f02 root (/bin/a)\n"
	    "\n", want);
	ck_assert_str_eq(out, "");
	free(out);
	n = perfscan_counts(ps);
	ck_assert_uint_eq(n->samples, 2);
	ck_assert_uint_eq(n->heads, 2);
	ck_assert_uint_ne(n->text, 0);
	ck_assert_int_eq(perfscan_end(ps), 0);
	ck_assert_uint_eq(n->samples, 2);
	out = tu_capture(put, ps);
	ck_assert_str_eq(out, "python3\t2\t2\tnone\t1\troot;leaf\t\n");
	free(out);
	perfscan_free(ps);
	perfscan_free(NULL);
}
END_TEST

/* What perf.py's rules find wrong, and the command read as empty. */
START_TEST(test_ray_flags)
{
	static const int want[] = { PERFSCAN_NOHEAD | PERFSCAN_NOSYMBOL,
	    PERFSCAN_NOSYMBOL, 0, 0, PERFSCAN_BADHEAD, 0, 0, 0,
	    PERFSCAN_BADHEAD, 0, 0, PERFSCAN_NOHEAD };
	struct perfscan *ps;
	char *out;

	/* Each sample is written as it ends. */
	ps = scan("", 1);
	out = run(ps,
	    "\tnosymbol\n"
	    "\tstillnone\n"
	    "\t1 f (/a)\n"
	    "\n"
	    "my prog 55 [000] 1.0: 1 cycles:\n"
	    "\t1 leaf (/a)\n"
	    "\t2 root (/a)\n"
	    "\n"
	    "garbage line\n"
	    "\t3 [unknown] (/usr/lib/libc.so.6)\n"
	    " \x1c \n"
	    "\t4 g (/a)\n", want);
	/*
	 * No sample has a thread: the root frame is the thread, the
	 * frames under it the stack.  "my prog" is no header (a digit
	 * must follow the command).  An unknown function is named after
	 * its module and address.  White space alone ends a sample.
	 */
	ck_assert_str_eq(out,
	    "f\t1\t1\tnone\t1\t\t\n"
	    "root\t1\t1\tnone\t1\tleaf\t\n"
	    "unk_libc.so.6@0x3\t1\t1\tnone\t1\t\t\n");
	free(out);
	ck_assert_uint_eq(perfscan_counts(ps)->samples, 3);
	ck_assert_uint_eq(perfscan_counts(ps)->heads, 0);
	/* The last is cut off by the end of the input, and counts. */
	out = tu_capture(end, ps);
	ck_assert_str_eq(out, "g\t1\t1\tnone\t1\t\t\n");
	free(out);
	ck_assert_uint_eq(perfscan_counts(ps)->samples, 4);
	perfscan_free(ps);
}
END_TEST

/* Only comments and white space: no text; a frame line is text. */
START_TEST(test_text)
{
	static const int want[] = { 0, 0, 0, 0 };
	struct perfscan *ps;
	char *out;

	ps = scan("", 0);
	out = run(ps, "# a\n \t\x1c\x1f\n\n#\n", want);
	free(out);
	ck_assert_uint_eq(perfscan_counts(ps)->text, 0);
	out = run(ps, "# a\n 1 x\n", (const int[]){ 0, PERFSCAN_NOHEAD });
	free(out);
	ck_assert_uint_ne(perfscan_counts(ps)->text, 0);
	ck_assert_uint_eq(perfscan_counts(ps)->samples, 0);
	perfscan_free(ps);
}
END_TEST

/*
 * stackcollapse-perf.pl's rules: "comm pid/tid", the first event's
 * samples only, a sample ends at a blank line only.
 */
START_TEST(test_fg)
{
	static const int want[] = { 0, 0, 0, 0, PERFSCAN_OTHEREV, 0, 0,
	    PERFSCAN_NOHEAD, PERFSCAN_BADLINE, 0, 0, 0 };
	struct perfscan *ps;
	char *out;

	ps = scan("tid,period", 0);
	ck_assert_ptr_null(perfscan_event(ps));
	out = run(ps,
	    "xz 10/11 1.0: 250000 cpu-clock:\n"
	    "\t7f01 leaf+0x10 (/bin/a)\n"
	    "\t7f02 root (/bin/a)\n"
	    "\n"
	    "xz 10/11 1.1: 3 cycles:\n"
	    "\t7f01 leaf (/bin/a)\n"
	    "\n"
	    "\t7f01 leaf (/bin/a)\n"
	    "garbage\n"
	    "\n"
	    "xz 10/12 1.2: 250000 cpu-clock:\n"
	    "\t7f02 root (/bin/a)\r\n", want);
	free(out);
	ck_assert_str_eq(perfscan_event(ps), "cpu-clock");
	ck_assert_uint_eq(perfscan_counts(ps)->heads, 2);
	ck_assert_uint_eq(perfscan_counts(ps)->samples, 1);
	/* No blank line after the last: it does not count. */
	ck_assert_int_eq(perfscan_end(ps), 0);
	ck_assert_uint_eq(perfscan_counts(ps)->samples, 1);
	/* 250000 ns of cpu-clock: 0.00025 s. */
	out = tu_capture(put, ps);
	ck_assert_str_eq(out,
	    "xz-10/11\t1\t0.00025\tseconds\t0.00025\troot;leaf\t\n");
	free(out);

	/* The event kept holds over the next input. */
	out = run(ps,
	    "xz 10/11 2.0: 1 cycles:\n"
	    "\t7f01 leaf (/bin/a)\n"
	    "\n", (const int[]){ PERFSCAN_OTHEREV, 0, 0 });
	free(out);
	ck_assert_uint_eq(perfscan_counts(ps)->heads, 0);
	ck_assert_uint_eq(perfscan_counts(ps)->samples, 0);
	perfscan_free(ps);
}
END_TEST

/* -F comm: the command alone names the thread; a sample weighs 1. */
START_TEST(test_fg_comm)
{
	static const int want[] = { 0, 0, 0, 0, 0, 0 };
	struct perfscan *ps;
	char *out;

	ps = scan("comm", 1);
	out = run(ps,
	    "xz 10/11 1.0: 250000 cpu-clock:\n"
	    "\t7f01 leaf (/bin/a)\n"
	    "\n"
	    "xz 10/12 1.0: 250000 cpu-clock:\n"
	    "\t7f01 leaf (/bin/a)\n"
	    "\n", want);
	ck_assert_str_eq(out,
	    "xz\t1\t1\tnone\t1\tleaf\t\n"
	    "xz\t1\t1\tnone\t1\tleaf\t\n");
	free(out);
	perfscan_free(ps);
}
END_TEST

/* Binary lines are not read; indented ones are frame lines. */
START_TEST(test_binary)
{
	struct perfscan *ps;

	ps = scan("", 0);
	perfscan_start(ps);
	ck_assert_int_eq(perfscan_line(ps, "x\0y", 3), PERFSCAN_BINARY);
	ck_assert_int_eq(perfscan_line(ps, "PERFILE2\0\0", 10),
	    PERFSCAN_BINARY | PERFSCAN_PERFDATA);
	ck_assert_int_eq(perfscan_line(ps, "\0", 1), PERFSCAN_BINARY);
	ck_assert_uint_eq(perfscan_counts(ps)->heads, 0);
	ck_assert_int_eq(perfscan_line(ps, " \0 x", 4), PERFSCAN_NOHEAD);
	ck_assert_int_eq(perfscan_line(ps, "", 0), 0);
	ck_assert_uint_eq(perfscan_counts(ps)->samples, 1);
	perfscan_free(ps);
}
END_TEST

/* A record whose weights sum past the largest double. */
START_TEST(test_inf)
{
	struct perfscan *ps;
	char h[400];
	size_t n;

	/* A period of 1 and 308 zeros: 1e308 a sample, inf for two. */
	memcpy(h, "a 1 1.0: 1", 10);
	memset(h + 10, '0', 308);
	memcpy(h + 318, " cycles:", 9);
	n = strlen(h);
	ps = scan("period", 0);
	perfscan_start(ps);
	ck_assert_int_eq(perfscan_line(ps, h, n), 0);
	ck_assert_int_eq(perfscan_line(ps, "\t1 f (/a)", 9), 0);
	ck_assert_int_eq(perfscan_line(ps, "", 0), 0);
	ck_assert_int_eq(perfscan_line(ps, h, n), 0);
	ck_assert_int_eq(perfscan_line(ps, "\t1 f (/a)", 9), 0);
	ck_assert_int_eq(perfscan_line(ps, "", 0), PERFSCAN_INF);
	ck_assert_uint_eq(perfscan_counts(ps)->samples, 2);
	perfscan_free(ps);
}
END_TEST

static Suite *
perfscan_suite(void)
{
	Suite *s = suite_create("perfscan");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ray);
	tcase_add_test(tc, test_ray_flags);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_fg);
	tcase_add_test(tc, test_fg_comm);
	tcase_add_test(tc, test_binary);
	tcase_add_test(tc, test_inf);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(perfscan_suite());
}
