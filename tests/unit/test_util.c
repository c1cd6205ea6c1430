/*
 * test_util.c: Check suite for the helpers that exit on failure
 * (common/base/util.c): the one growth rule of arrays, the copies, the
 * input opened by name, the usage text and its status, the numbers and
 * words of options, and the writes that fail.  Each helper that exits
 * runs in a child whose status and standard error are checked; every
 * expected text is the rule of sst(1)'s messages ("prog: what",
 * strtonum(3)'s reasons "invalid", "too small", "too large") written
 * out by hand.
 */

#include <sys/wait.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "tutil.h"

struct run {
	int	 status;		/* exit status, or -1: a signal */
	char	 out[512];		/* standard output */
	char	 err[512];		/* standard error */
};

static void	 child(void (*)(const void *), const void *, struct run *);
static void	 slurp(int, char *, size_t);
static Suite	*util_suite(void);

/* Read fd to its end into b (size n, NUL-terminated, cut if longer). */
static void
slurp(int fd, char *b, size_t n)
{
	size_t len = 0;
	ssize_t k;

	while ((k = read(fd, b + len, n - 1 - len)) > 0)
		len += (size_t)k;
	b[len] = '\0';
}

/*
 * Run fn(arg) in a child, its standard output and error into r, then
 * its status (fn returning is status 0).
 */
static void
child(void (*fn)(const void *), const void *arg, struct run *r)
{
	int o[2], e[2], st;
	pid_t pid;

	ck_assert_int_eq(pipe(o), 0);
	ck_assert_int_eq(pipe(e), 0);
	ck_assert_int_ne(pid = fork(), -1);
	if (pid == 0) {
		dup2(o[1], STDOUT_FILENO);
		dup2(e[1], STDERR_FILENO);
		close(o[0]);
		close(e[0]);
		fn(arg);
		fflush(stdout);
		_exit(0);
	}
	close(o[1]);
	close(e[1]);
	/* Small texts: each fits in its pipe, so one read after the other. */
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	slurp(o[0], r->out, sizeof(r->out));
	slurp(e[0], r->err, sizeof(r->err));
	close(o[0]);
	close(e[0]);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * growcap: 0 starts from min (1 if min is 0), doubling until need
 * fits; need within cap keeps it; past SIZE_MAX / 2 there is no double,
 * so 0.
 */
START_TEST(test_growcap)
{
	ck_assert_uint_eq(growcap(0, 1, 64), 64);
	ck_assert_uint_eq(growcap(0, 65, 64), 128);
	ck_assert_uint_eq(growcap(0, 0, 0), 1);
	ck_assert_uint_eq(growcap(0, 5, 0), 8);
	ck_assert_uint_eq(growcap(100, 100, 64), 100);
	ck_assert_uint_eq(growcap(100, 101, 64), 200);
	ck_assert_uint_eq(growcap(3, 1000, 64), 1536);
	ck_assert_uint_eq(growcap(SIZE_MAX / 2 + 1, SIZE_MAX, 1), 0);
	ck_assert_uint_eq(growcap((size_t)1 << 62, ((size_t)1 << 63) + 1,
	    1), 0);
	ck_assert_uint_eq(growcap((size_t)1 << 62, (size_t)1 << 63, 1),
	    (size_t)1 << 63);
}
END_TEST

/* xgrow: grows only when need passes cap, keeping what was there. */
START_TEST(test_xgrow)
{
	size_t cap = 0, i;
	int *a = NULL, *b;

	a = xgrow(a, &cap, 3, 4, sizeof(*a));
	ck_assert_uint_eq(cap, 4);
	for (i = 0; i < 4; i++)
		a[i] = (int)i * 7;
	b = xgrow(a, &cap, 4, 4, sizeof(*a));
	ck_assert_ptr_eq(a, b);
	ck_assert_uint_eq(cap, 4);
	a = xgrow(a, &cap, 9, 4, sizeof(*a));
	ck_assert_uint_eq(cap, 16);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(a[i], (int)i * 7);
	free(a);
}
END_TEST

static void
growover(const void *arg)
{
	(void)arg;
	(void)xgrowcap(SIZE_MAX / 2 + 1, SIZE_MAX, 1);
}

/* xgrowcap past SIZE_MAX: exit 1 saying how many elements. */
START_TEST(test_xgrowcap_over)
{
	struct run r;
	char want[128];

	child(growover, NULL, &r);
	ck_assert_int_eq(r.status, 1);
	snprintf(want, sizeof(want), "%s: realloc: %zu elements\n",
	    getprogname(), SIZE_MAX);
	ck_assert_str_eq(r.err, want);
}
END_TEST

/* xmemdup: n bytes, NULs kept, one NUL after; xstrdup a copy. */
START_TEST(test_dup)
{
	char *p, *q;

	p = xmemdup("a\0bc", 4);
	ck_assert_int_eq(memcmp(p, "a\0bc\0", 5), 0);
	q = xstrdup("xyz");
	ck_assert_str_eq(q, "xyz");
	free(p);
	free(q);
}
END_TEST

static void
openmissing(const void *arg)
{
	(void)xopen(arg);
}

/* xopen: NULL and "-" are standard input; a file; a missing one exits 1. */
START_TEST(test_xopen)
{
	struct run r;
	char *path, b[8], want[256];
	int fd;

	ck_assert_int_eq(xopen(NULL), STDIN_FILENO);
	ck_assert_int_eq(xopen("-"), STDIN_FILENO);
	path = tu_tmpfile("hello");
	ck_assert_int_gt(fd = xopen(path), STDERR_FILENO);
	ck_assert_int_eq(read(fd, b, sizeof(b)), 5);
	close(fd);
	unlink(path);
	child(openmissing, path, &r);
	ck_assert_int_eq(r.status, 1);
	snprintf(want, sizeof(want), "%s: %s: %s\n", getprogname(), path,
	    strerror(ENOENT));
	ck_assert_str_eq(r.err, want);
	free(path);
}
END_TEST

static void
usagehelp(const void *arg)
{
	(void)arg;
	xusage(1, "usage: prog [-h] [file ...]\n");
}

static void
usagebad(const void *arg)
{
	(void)arg;
	xusage(0, "usage: prog [-h] [file ...]\n");
}

/* xusage: for help on standard output with 0, else on standard error, 2. */
START_TEST(test_xusage)
{
	struct run r;

	child(usagehelp, NULL, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "usage: prog [-h] [file ...]\n");
	ck_assert_str_eq(r.err, "");
	child(usagebad, NULL, &r);
	ck_assert_int_eq(r.status, 2);
	ck_assert_str_eq(r.out, "");
	ck_assert_str_eq(r.err, "usage: prog [-h] [file ...]\n");
}
END_TEST

static int	 longhelped;

static void
markhelp(int help)
{
	longhelped = help + 1;
}

/* sst_longhelp: "--help" before any "--" calls usage(1); after, not. */
START_TEST(test_longhelp)
{
	char *a1[] = { "p", "-x", "--help", NULL };
	char *a2[] = { "p", "--", "--help", NULL };
	char *a3[] = { "p", "--helpx", NULL };

	longhelped = 0;
	sst_longhelp(3, a1, markhelp);
	ck_assert_int_eq(longhelped, 2);
	longhelped = 0;
	sst_longhelp(3, a2, markhelp);
	ck_assert_int_eq(longhelped, 0);
	sst_longhelp(2, a3, markhelp);
	ck_assert_int_eq(longhelped, 0);
}
END_TEST

/* An option's argument given to xoptnum() in a child: "-n" 0..100. */
static void
optnum(const void *arg)
{
	printf("%lld\n", xoptnum("-n", arg, 0, 100));
}

/* xoptnum: the number, or exit 2 with strtonum(3)'s reason. */
START_TEST(test_xoptnum)
{
	static const struct {
		const char	*arg, *out, *err;
		int		 status;
	} c[] = {
		{ "0", "0\n", "", 0 },
		{ "100", "100\n", "", 0 },
		{ "101", "", "-n: too large: 101\n", 2 },
		{ "-1", "", "-n: too small: -1\n", 2 },
		{ "1x", "", "-n: invalid: 1x\n", 2 },
		{ "", "", "-n: invalid: \n", 2 },
		{ "99999999999999999999", "",
		    "-n: too large: 99999999999999999999\n", 2 },
	};
	struct run r;
	char want[256];
	size_t i;

	ck_assert_int_eq(xoptnum("-d", "-9223372036854775807", -LLONG_MAX,
	    LLONG_MAX), -LLONG_MAX);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		child(optnum, c[i].arg, &r);
		ck_assert_int_eq(r.status, c[i].status);
		ck_assert_str_eq(r.out, c[i].out);
		want[0] = '\0';
		if (*c[i].err != '\0')
			snprintf(want, sizeof(want), "%s: %s", getprogname(),
			    c[i].err);
		ck_assert_str_eq(r.err, want);
	}
}
END_TEST

static const char *const views[] = { "table", "ray", "names" };

static void
optword(const void *arg)
{
	printf("%d\n", xoptword("-F", "view", arg, views, 3));
}

/* xoptword: the index of the word, whole words only, or exit 2. */
START_TEST(test_xoptword)
{
	struct run r;
	char want[256];

	ck_assert_int_eq(xoptword("-F", "view", "table", views, 3), 0);
	ck_assert_int_eq(xoptword("-F", "view", "names", views, 3), 2);
	child(optword, "ra", &r);
	ck_assert_int_eq(r.status, 2);
	snprintf(want, sizeof(want), "%s: -F: unknown view: ra\n",
	    getprogname());
	ck_assert_str_eq(r.err, want);
	child(optword, "rays", &r);
	ck_assert_int_eq(r.status, 2);
	child(optword, "ray", &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.out, "1\n");
}
END_TEST

/* Write to a full device through stdio, then xfshut(). */
static void
writefull(const void *arg)
{
	FILE *fp;

	(void)arg;
	if ((fp = fopen("/dev/full", "w")) == NULL)
		_exit(3);
	fputs("x", fp);
	xfshut(fp, "out");
}

/* Write a big block to a full device with xfwrite(). */
static void
bigfull(const void *arg)
{
	static char big[BIGWRITE];
	FILE *fp;

	(void)arg;
	if ((fp = fopen("/dev/full", "w")) == NULL)
		_exit(3);
	xfwrite(big, sizeof(big), fp, "out");
}

/* Write to a pipe whose reader is gone, SIGPIPE ignored. */
static void
closedpipe(const void *arg)
{
	FILE *fp;
	int p[2];

	(void)arg;
	if (pipe(p) == -1)
		_exit(3);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	fp = fdopen(p[1], "w");
	fputs("x", fp);
	xfshut(fp, "out");
	_exit(4);
}

/*
 * A failed write exits 1 with "prog: out: No space left on device"
 * (ENOSPC), from the buffer or from a big block; a closed pipe exits 0
 * without a word.
 */
START_TEST(test_failed_write)
{
	struct run r;
	char want[256];

	if (access("/dev/full", W_OK) != 0)
		return;
	snprintf(want, sizeof(want), "%s: out: %s\n", getprogname(),
	    strerror(ENOSPC));
	child(writefull, NULL, &r);
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.err, want);
	child(bigfull, NULL, &r);
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.err, want);
	child(closedpipe, NULL, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_str_eq(r.err, "");
}
END_TEST

static Suite *
util_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("util");
	tc = tcase_create("core");
	tcase_add_test(tc, test_growcap);
	tcase_add_test(tc, test_xgrow);
	tcase_add_test(tc, test_xgrowcap_over);
	tcase_add_test(tc, test_dup);
	tcase_add_test(tc, test_xopen);
	tcase_add_test(tc, test_xusage);
	tcase_add_test(tc, test_longhelp);
	tcase_add_test(tc, test_xoptnum);
	tcase_add_test(tc, test_xoptword);
	tcase_add_test(tc, test_failed_write);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(util_suite());
}
