/*
 * test_perf.c: Check suite for the text perf script prints
 * (common/formats/perf.c): the string helpers, the event and period of a
 * header and the weight they give, the -F keywords, both kinds of
 * sample header and the threads they name, the frames of frame lines
 * by perf.py's rules and by stackcollapse-perf.pl's (each view), the
 * frame table's cache, and the records summed from samples.
 */

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "fmt.h"
#include "perf.h"
#include "tutil.h"

/* A record table and the frames ids of its samples. */
struct sample {
	struct perf_recs *pr;
	uint32_t	 ids[2];
};

static const char *pair(const char *, char, char);
static const char *strip(const char *);
static int	 event(const char *, const char **, double *);
static char	*ray(const char *, int *);
static char	*fg(const char *, int, int *);
static char	*head(const char *, enum perf_id);
static void	 addeach(void *);
static void	 putrecs(void *);
static Suite	*perf_suite(void);

/* perf_lastpair over the string s: the rest of s from the pair on. */
static const char *
pair(const char *s, char a, char b)
{
	return perf_lastpair(s, s + strlen(s), a, b);
}

/* What perf_stripoff leaves of s, in a static buffer. */
static const char *
strip(const char *s)
{
	static char b[256];
	size_t n;

	n = (size_t)(perf_stripoff(s, s + strlen(s)) - s);
	memcpy(b, s, n);
	b[n] = '\0';
	return b;
}

/* perf_event of s; the event in a static buffer (or "-" if unset). */
static int
event(const char *s, const char **ev, double *per)
{
	static char b[256];
	const char *e = NULL;
	size_t n = 0;
	int r;

	*per = 0;
	r = perf_event(s, strlen(s), &e, &n, per);
	if (e == NULL)
		strlcpy(b, "-", sizeof(b));
	else {
		memcpy(b, e, n);
		b[n] = '\0';
	}
	*ev = b;
	return r;
}

/* The frames of frame line s by perf.py's rules; free() them. */
static char *
ray(const char *s, int *r)
{
	struct buf out, tmp;

	buf_init(&out);
	buf_init(&tmp);
	*r = perf_rayframe(&out, &tmp, s, s + strlen(s));
	buf_free(&tmp);
	return out.data;
}

/* The frames of frame line s by -F rules with flags; free() them. */
static char *
fg(const char *s, int flags, int *r)
{
	struct buf out, tmp;

	buf_init(&out);
	buf_init(&tmp);
	*r = perf_fgframe(&out, &tmp, s, s + strlen(s), flags);
	buf_free(&tmp);
	return out.data;
}

/* The thread -F names from header s ("NO" if not one); free() it. */
static char *
head(const char *s, enum perf_id id)
{
	struct perf_head h;
	struct buf b;

	if (!perf_fghead(s, strlen(s), &h))
		return xstrdup("NO");
	buf_init(&b);
	perf_fgthread(&b, s, &h, id);
	return b.data;
}

/* Some samples of -s, as a tu_capture() function. */
static void
addeach(void *arg)
{
	struct sample *sm = arg;

	perf_recs_add(sm->pr, "t", 1, sm->ids, 2, 0.5, U_SECONDS);
	perf_recs_add(sm->pr, "t", 1, sm->ids, 2, 0.5, U_SECONDS);
	perf_recs_add(sm->pr, "u", 1, sm->ids, 1, 2, U_NONE);
	perf_recs_add(sm->pr, "u", 1, sm->ids, 0, 1, U_NONE);
}

/* perf_recs_put as a tu_capture() function. */
static void
putrecs(void *pr)
{
	perf_recs_put(pr);
}

START_TEST(test_lastpair)
{
	ck_assert_str_eq(pair("f (a) (b)", ' ', '('), " (b)");
	ck_assert_str_eq(pair("f (a)x(b)", ' ', '('), " (a)x(b)");
	ck_assert_ptr_null(pair("f(a)", ' ', '('));
	/* The pair must lie wholly inside. */
	ck_assert_ptr_null(pair("(", ' ', '('));
	ck_assert_ptr_null(pair("", ' ', '('));
	ck_assert_str_eq(pair(" (", ' ', '('), " (");
	ck_assert_str_eq(pair("a).b).c", ')', '.'), ").c");
	/* Only the range given is searched. */
	ck_assert_ptr_null(perf_lastpair("ab", "ab" + 1, 'a', 'b'));
}
END_TEST

START_TEST(test_stripoff)
{
	ck_assert_str_eq(strip("do_work+0x1a"), "do_work");
	ck_assert_str_eq(strip("f+0x0"), "f");
	ck_assert_str_eq(strip("+0x1a"), "");
	/* Upper-case hex, no digits, no "+0x": kept. */
	ck_assert_str_eq(strip("f+0x1A"), "f+0x1A");
	ck_assert_str_eq(strip("f+0x"), "f+0x");
	ck_assert_str_eq(strip("f0x1a"), "f0x1a");
	ck_assert_str_eq(strip("f-0x1a"), "f-0x1a");
	ck_assert_str_eq(strip("abc"), "abc");
	ck_assert_str_eq(strip(""), "");
	/* Only the last offset goes. */
	ck_assert_str_eq(strip("a+0x1+0x2"), "a+0x1");
}
END_TEST

START_TEST(test_event)
{
	const char *ev;
	double per;

	ck_assert_int_eq(event("py 12 3.5: 1000 cpu-clock:", &ev, &per), 1);
	ck_assert_str_eq(ev, "cpu-clock");
	ck_assert(per == 1000);
	/* No period: the event still counts after a ':'. */
	ck_assert_int_eq(event("py 12 3.5: cycles:u: \t", &ev, &per), 1);
	ck_assert_str_eq(ev, "cycles:u");
	ck_assert(per == 0);
	ck_assert_int_eq(event("py 12 3.5:\t250  task-clock:", &ev, &per), 1);
	ck_assert_str_eq(ev, "task-clock");
	ck_assert(per == 250);
	/* A period not after a ':' is none; nor is a word before the event. */
	ck_assert_int_eq(event("py 12 1000 cycles:", &ev, &per), 0);
	ck_assert(per == 0);
	ck_assert_int_eq(event("py 12: 12x cycles:", &ev, &per), 0);
	ck_assert_str_eq(ev, "cycles");
	/* Malformed: no ':' at the end, a lone ':', nothing before. */
	ck_assert_int_eq(event("py 12 3.5: cycles", &ev, &per), 0);
	ck_assert_str_eq(ev, "-");
	ck_assert_int_eq(event("py 12 3.5: :", &ev, &per), 0);
	ck_assert_int_eq(event("cycles:", &ev, &per), 0);
	ck_assert_int_eq(event("", &ev, &per), 0);
	ck_assert_int_eq(event("   ", &ev, &per), 0);
}
END_TEST

START_TEST(test_weight)
{
	enum sst_unit u = U_BYTES;

	ck_assert(perf_weight(NULL, 0, 0, &u) == 1);
	ck_assert_int_eq(u, U_NONE);
	ck_assert(perf_weight("cycles", 6, 0, &u) == 1);
	ck_assert(perf_weight("cycles", 6, 4000, &u) == 4000);
	ck_assert_int_eq(u, U_NONE);
	ck_assert(perf_weight("cpu-clock", 9, 250000, &u) == 250000 * 1e-9);
	ck_assert_int_eq(u, U_SECONDS);
	ck_assert(perf_weight("task-clock:ppp", 14, 1e6, &u) == 1e6 * 1e-9);
	ck_assert_int_eq(u, U_SECONDS);
	/* Only the name up to the first ':' is compared, as a whole. */
	ck_assert(perf_weight("cpu-clocks", 10, 7, &u) == 7);
	ck_assert_int_eq(u, U_NONE);
	ck_assert(perf_weight("cpu-clock:u", 4, 7, &u) == 7);
	ck_assert_int_eq(u, U_NONE);
}
END_TEST

START_TEST(test_view)
{
	struct perf_view v;
	const char *bad = NULL;
	char arg[64];

	memset(&v, 0, sizeof(v));
	strlcpy(arg, "all", sizeof(arg));
	ck_assert_int_eq(perf_view(&v, arg, &bad), 0);
	ck_assert_int_eq(v.fg, 1);
	ck_assert_int_eq(v.flags, PERF_KERNEL | PERF_JIT);
	ck_assert_int_eq(v.id, PERF_COMM);
	ck_assert_int_eq(v.period + v.ray, 0);
	strlcpy(arg, "tid,pid,addrs", sizeof(arg));
	ck_assert_int_eq(perf_view(&v, arg, &bad), 0);
	ck_assert_int_eq(v.id, PERF_TID);
	ck_assert_int_eq(v.flags, PERF_KERNEL | PERF_JIT | PERF_ADDRS);
	/* period and ray alone keep perf.py's rules. */
	memset(&v, 0, sizeof(v));
	strlcpy(arg, "ray,period", sizeof(arg));
	ck_assert_int_eq(perf_view(&v, arg, &bad), 0);
	ck_assert_int_eq(v.fg, 0);
	ck_assert_int_eq(v.ray, 1);
	ck_assert_int_eq(v.period, 1);
	strlcpy(arg, "pid,comm", sizeof(arg));
	ck_assert_int_eq(perf_view(&v, arg, &bad), 0);
	ck_assert_int_eq(v.fg, 1);
	ck_assert_int_eq(v.id, PERF_PID);
	ck_assert_int_eq(v.flags, 0);
	strlcpy(arg, "kernel,jitx", sizeof(arg));
	ck_assert_int_eq(perf_view(&v, arg, &bad), -1);
	ck_assert_str_eq(bad, "jitx");
	ck_assert_int_eq(v.flags, PERF_KERNEL);
	strlcpy(arg, "", sizeof(arg));
	ck_assert_int_eq(perf_view(&v, arg, &bad), -1);
	ck_assert_str_eq(bad, "");
	strlcpy(arg, "jit,", sizeof(arg));
	ck_assert_int_eq(perf_view(&v, arg, &bad), -1);
	ck_assert_str_eq(bad, "");
}
END_TEST

START_TEST(test_rayhead)
{
	size_t a, b;

	ck_assert_int_eq(perf_rayhead("python3 1234 5.6: 1 cycles:", 27, &a,
	    &b), 1);
	ck_assert_uint_eq(a, 0);
	ck_assert_uint_eq(b, 7);
	ck_assert_int_eq(perf_rayhead("\x1cpy\t\t9", 6, &a, &b), 1);
	ck_assert_uint_eq(a, 1);
	ck_assert_uint_eq(b, 3);
	/* The word after the thread must start with a digit. */
	ck_assert_int_eq(perf_rayhead("py x12 1", 8, &a, &b), 0);
	ck_assert_int_eq(perf_rayhead("python", 6, &a, &b), 0);
	ck_assert_int_eq(perf_rayhead("py ", 3, &a, &b), 0);
	ck_assert_int_eq(perf_rayhead("", 0, &a, &b), 0);
}
END_TEST

START_TEST(test_fghead)
{
	char *s;

	s = head("java 12/34 5.6: 100 cycles:", PERF_TID);
	ck_assert_str_eq(s, "java-12/34");
	free(s);
	s = head("java 12/34 5.6: 100 cycles:", PERF_PID);
	ck_assert_str_eq(s, "java-12");
	free(s);
	s = head("java 12/34 5.6: 100 cycles:", PERF_COMM);
	ck_assert_str_eq(s, "java");
	free(s);
	/* A command with spaces; no tid, or tid 0: pid "?". */
	s = head("my prog 77 1.0: cycles:", PERF_TID);
	ck_assert_str_eq(s, "my_prog-?/77");
	free(s);
	s = head("my prog 77/0 1.0: cycles:", PERF_TID);
	ck_assert_str_eq(s, "my_prog-?/77");
	free(s);
	s = head("a b 5 x", PERF_PID);
	ck_assert_str_eq(s, "a_b-?");
	free(s);
	/* The command has two bytes at least, the pid ends in a blank. */
	s = head("a 5 x", PERF_COMM);
	ck_assert_str_eq(s, "NO");
	free(s);
	s = head("a 5 7 x", PERF_COMM);
	ck_assert_str_eq(s, "a_5");
	free(s);
	s = head("prog 12x 5 x", PERF_TID);
	ck_assert_str_eq(s, "prog_12x-?/5");
	free(s);
	s = head("prog 12", PERF_COMM);
	ck_assert_str_eq(s, "NO");
	free(s);
	s = head("prog x", PERF_COMM);
	ck_assert_str_eq(s, "NO");
	free(s);
	s = head("", PERF_COMM);
	ck_assert_str_eq(s, "NO");
	free(s);
}
END_TEST

START_TEST(test_rayframe)
{
	char *s;
	int r;

	s = ray("ffffffff81000000 do_syscall_64+0x1a ([kernel.kallsyms])", &r);
	ck_assert_int_eq(r, 0);
	ck_assert_str_eq(s, "do_syscall_64");
	free(s);
	s = ray("7f00 [unknown] (/usr/lib/libc.so.6)", &r);
	ck_assert_str_eq(s, "unk_libc.so.6@0x7f00");
	free(s);
	s = ray("7f00 [unknown] ( [unknown] )", &r);
	ck_assert_str_eq(s, "unk_0x7f00");
	free(s);
	s = ray("7f00 [unknown] (unknown)", &r);
	ck_assert_str_eq(s, "unk_0x7f00");
	free(s);
	s = ray("7f00 [unknown]", &r);
	ck_assert_str_eq(s, "unk_0x7f00");
	free(s);
	/* ';' becomes ':', the name is escaped, an empty one is "\e". */
	s = ray("1 a;b\\c (x)", &r);
	ck_assert_str_eq(s, "a:b\\\\c");
	free(s);
	s = ray("1  (x)", &r);
	ck_assert_str_eq(s, "\\e");
	free(s);
	/* A '(' without a blank before it is no module. */
	s = ray("1 (x)", &r);
	ck_assert_str_eq(s, "(x)");
	free(s);
	s = ray("1 f(int) const", &r);
	ck_assert_str_eq(s, "f(int) const");
	free(s);
	s = ray("nospace", &r);
	ck_assert_int_eq(r, -1);
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

START_TEST(test_fgframe)
{
	static const char kern[] =
	    "ffffffff81000000 do_syscall_64+0x1a ([kernel.kallsyms])";
	char *s;
	int r;

	s = fg(kern, 0, &r);
	ck_assert_int_eq(r, 0);
	ck_assert_str_eq(s, "do_syscall_64");
	free(s);
	s = fg(kern, PERF_KERNEL, &r);
	ck_assert_str_eq(s, "do_syscall_64_[k]");
	free(s);
	s = fg("7f00 [unknown] (/usr/lib/libc.so.6)", PERF_KERNEL, &r);
	ck_assert_str_eq(s, "[libc.so.6]");
	free(s);
	s = fg("7f00 [unknown] (/usr/lib/libc.so.6)", PERF_ADDRS, &r);
	ck_assert_str_eq(s, "[libc.so.6 <7f00>]");
	free(s);
	s = fg("7f00 [unknown] ([unknown])", 0, &r);
	ck_assert_str_eq(s, "[unknown]");
	free(s);
	/* Inlined frames, leaf last, each marked once. */
	s = fg("7f00 a->b_[i]->c+0x10 (/bin/x)", 0, &r);
	ck_assert_str_eq(s, "a;b_[i];c_[i]");
	free(s);
	/* Arguments go, but not Go's receivers nor anonymous namespaces. */
	s = fg("4000 foo(int, char) (/bin/x)", 0, &r);
	ck_assert_str_eq(s, "foo");
	free(s);
	s = fg("4000 main.(*T).M (/bin/x)", 0, &r);
	ck_assert_str_eq(s, "main.(*T).M");
	free(s);
	s = fg("4000 ns::(anonymous namespace)::f() (/bin/x)", 0, &r);
	ck_assert_str_eq(s, "ns::(anonymous namespace)::f");
	free(s);
	s = fg("4000 say\"hi'x (/bin/x)", 0, &r);
	ck_assert_str_eq(s, "sayhix");
	free(s);
	/* Java threads lose the L of class names; JIT code is marked. */
	s = fg("1 Lcom/Foo;::bar (/tmp/perf-123.map)", PERF_JAVA | PERF_JIT,
	    &r);
	ck_assert_str_eq(s, "com/Foo:::bar_[j]");
	free(s);
	s = fg("1 Lcom/Foo;::bar (/tmp/perf-.map)", PERF_JIT, &r);
	ck_assert_str_eq(s, "Lcom/Foo:::bar");
	free(s);
	/* A frame of its module only adds nothing. */
	s = fg("1 (/bin/x) (/bin/x)", 0, &r);
	ck_assert_int_eq(r, 0);
	ck_assert_str_eq(s, "");
	free(s);
	/* Malformed: no pc, no module, nothing. */
	s = fg("   (/bin/x)", 0, &r);
	ck_assert_int_eq(r, -1);
	free(s);
	s = fg("7f00 foo", 0, &r);
	ck_assert_int_eq(r, -1);
	free(s);
	s = fg("7f00(x)", 0, &r);
	ck_assert_int_eq(r, -1);
	free(s);
	s = fg("", 0, &r);
	ck_assert_int_eq(r, -1);
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

/* Lines are parsed once per table and kind of thread. */
START_TEST(test_frames)
{
	static const uint32_t none[1];
	struct perf_frames *pf;
	struct buf b;
	uint32_t ids[4];
	const char *l;

	pf = perf_frames_new(1, PERF_JIT);
	l = "1 a->b (/bin/x)";
	ids[0] = perf_frames_id(pf, l, l + strlen(l), 0);
	ck_assert_uint_eq(ids[0], 0);
	l = "2 Lc/D;::m (/tmp/perf-9.map)";
	ids[1] = perf_frames_id(pf, l, l + strlen(l), 1);
	ck_assert_uint_eq(ids[1], 1);
	ids[2] = perf_frames_id(pf, l, l + strlen(l), 0);
	ck_assert_uint_eq(ids[2], 2);
	l = "3 x (/bin/x)";
	ids[3] = perf_frames_id(pf, l, l + strlen(l), 0);
	ck_assert_uint_eq(ids[3], 3);
	l = "1 a->b (/bin/x)";
	ck_assert_uint_eq(perf_frames_id(pf, l, l + strlen(l), 0), 0);
	/* The same frames from another line share the id. */
	l = "9 a->b+0x4 (/bin/y)";
	ck_assert_uint_eq(perf_frames_id(pf, l, l + strlen(l), 0), 0);
	l = "1 (/bin/x) (/bin/x)";
	ck_assert_uint_eq(perf_frames_id(pf, l, l + strlen(l), 0),
	    PERF_NOFRAME);
	l = "junk";
	ck_assert_uint_eq(perf_frames_id(pf, l, l + strlen(l), 0),
	    PERF_BADLINE);
	ck_assert_uint_eq(perf_frames_id(pf, l, l + strlen(l), 0),
	    PERF_BADLINE);
	buf_init(&b);
	perf_frames_stack(pf, ids, 4, &b);
	ck_assert_str_eq(b.data,
	    "x;Lc/D:::m_[j];c/D:::m_[j];a;b_[i]");
	buf_reset(&b);
	perf_frames_stack(pf, none, 0, &b);
	ck_assert_str_eq(b.data, "");
	buf_free(&b);
	perf_frames_free(pf);
	/* perf.py's rules. */
	pf = perf_frames_new(0, 0);
	l = "1 a->b (/bin/x)";
	ck_assert_uint_eq(perf_frames_id(pf, l, l + strlen(l), 0), 0);
	l = "nospace";
	ck_assert_uint_eq(perf_frames_id(pf, l, l + strlen(l), 0),
	    PERF_BADLINE);
	buf_init(&b);
	perf_frames_stack(pf, ids, 1, &b);
	ck_assert_str_eq(b.data, "a->b");
	buf_free(&b);
	perf_frames_free(pf);
}
END_TEST

/* Samples summed by thread, frames and unit, in first-seen order. */
START_TEST(test_recs)
{
	struct perf_frames *pf;
	struct perf_recs *pr;
	uint32_t ids[2];
	const char *l;
	char *out;

	pf = perf_frames_new(0, 0);
	l = "1 leaf";
	ids[0] = perf_frames_id(pf, l, l + strlen(l), 0);
	l = "2 root";
	ids[1] = perf_frames_id(pf, l, l + strlen(l), 0);
	pr = perf_recs_new(pf, 0);
	out = tu_capture(putrecs, pr);
	ck_assert_str_eq(out, "");
	free(out);
	perf_recs_add(pr, "t", 1, ids, 2, 0.1, U_SECONDS);
	perf_recs_add(pr, "u", 1, ids, 2, 1, U_NONE);
	perf_recs_add(pr, "t", 1, ids, 2, 0.1, U_SECONDS);
	perf_recs_add(pr, "t", 1, ids, 2, 3, U_NONE);
	perf_recs_add(pr, "t", 1, ids + 1, 1, 0.1, U_SECONDS);
	perf_recs_add(pr, "t", 1, ids, 2, 0.2, U_SECONDS);
	perf_recs_add(pr, "x\\ty", 4, ids, 0, 1, U_NONE);
	out = tu_capture(putrecs, pr);
	ck_assert_str_eq(out,
	    "t\t3\t0.4\tseconds\t-\troot;leaf\t\n"
	    "u\t1\t1\tnone\t1\troot;leaf\t\n"
	    "t\t1\t3\tnone\t3\troot;leaf\t\n"
	    "t\t1\t0.1\tseconds\t0.1\troot\t\n"
	    "x\\ty\t1\t1\tnone\t1\t\t\n");
	free(out);
	perf_recs_free(pr);
	perf_frames_free(pf);
}
END_TEST

/* With -s each sample is a record at once, and none is kept. */
START_TEST(test_recs_each)
{
	struct perf_frames *pf;
	struct sample sm;
	const char *l;
	char *out;

	pf = perf_frames_new(0, 0);
	l = "1 leaf";
	sm.ids[0] = perf_frames_id(pf, l, l + strlen(l), 0);
	l = "2 root";
	sm.ids[1] = perf_frames_id(pf, l, l + strlen(l), 0);
	sm.pr = perf_recs_new(pf, 1);
	out = tu_capture(addeach, &sm);
	ck_assert_str_eq(out,
	    "t\t1\t0.5\tseconds\t0.5\troot;leaf\t\n"
	    "t\t1\t0.5\tseconds\t0.5\troot;leaf\t\n"
	    "u\t1\t2\tnone\t2\tleaf\t\n"
	    "u\t1\t1\tnone\t1\t\t\n");
	free(out);
	out = tu_capture(putrecs, sm.pr);
	ck_assert_str_eq(out, "");
	free(out);
	perf_recs_free(sm.pr);
	perf_frames_free(pf);
}
END_TEST

static Suite *
perf_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("perf");
	tc = tcase_create("core");
	tcase_add_test(tc, test_lastpair);
	tcase_add_test(tc, test_stripoff);
	tcase_add_test(tc, test_event);
	tcase_add_test(tc, test_weight);
	tcase_add_test(tc, test_view);
	tcase_add_test(tc, test_rayhead);
	tcase_add_test(tc, test_fghead);
	tcase_add_test(tc, test_rayframe);
	tcase_add_test(tc, test_fgframe);
	tcase_add_test(tc, test_frames);
	tcase_add_test(tc, test_recs);
	tcase_add_test(tc, test_recs_each);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(perf_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
