/*
 * test_progress.c: Check suite for the progress line (common/progress.c).
 * Standard error goes to a temporary file, which is no terminal: the
 * line shows only when forced, and a run must take a second for it.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sst.h"

static FILE	*errfile(void);
static char	*errtext(FILE *);
static void	 wait_delay(void);
static Suite	*progress_suite(void);

/* Send standard error to a new temporary file, returned. */
static FILE *
errfile(void)
{
	FILE *fp;

	ck_assert_ptr_nonnull(fp = tmpfile());
	fflush(stderr);
	ck_assert_int_ne(dup2(fileno(fp), STDERR_FILENO), -1);
	return fp;
}

/* What was written to standard error since errfile(). */
static char *
errtext(FILE *fp)
{
	struct buf b;
	char tmp[256];
	size_t n;

	fflush(stderr);
	rewind(fp);
	buf_init(&b);
	while ((n = fread(tmp, 1, sizeof(tmp), fp)) > 0)
		buf_add(&b, tmp, n);
	return b.data;
}

/* Sleep past the delay before the first line. */
static void
wait_delay(void)
{
	struct timespec ts = { 1, 200000000 };

	while (nanosleep(&ts, &ts) == -1)
		continue;
}

/* Off, or on by default but standard error is no terminal: nothing. */
START_TEST(test_off)
{
	FILE *fp, *in;
	char *s;

	fp = errfile();
	ck_assert_ptr_nonnull(in = tmpfile());
	ck_assert_ptr_null(progress_open(fileno(in), "in", 0));
	ck_assert_ptr_null(progress_open(fileno(in), "in", -1));
	progress_update(NULL, 10);
	progress_close(NULL);
	progress_hide();
	s = errtext(fp);
	ck_assert_str_eq(s, "");
	free(s);
	fclose(in);
	fclose(fp);
}
END_TEST

/* A short run shows nothing, even when forced. */
START_TEST(test_short)
{
	struct progress *pr;
	FILE *fp;
	char *s;

	fp = errfile();
	ck_assert_ptr_nonnull(pr = progress_open(STDIN_FILENO, "-", 1));
	progress_update(pr, 1000);
	progress_update(pr, 2000);
	progress_close(pr);
	s = errtext(fp);
	ck_assert_str_eq(s, "");
	free(s);
	fclose(fp);
}
END_TEST

/*
 * Forced, after the delay: the amount, the percentage of a regular
 * file, the rate; redrawn over itself; ended with a newline here.
 */
START_TEST(test_line)
{
	struct progress *pr, *pp;
	FILE *fp, *in;
	char want[256], *s, *t;
	int fds[2];

	fp = errfile();
	ck_assert_ptr_nonnull(in = tmpfile());
	ck_assert_int_eq(ftruncate(fileno(in), 4 << 20), 0);
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_ptr_nonnull(pr = progress_open(fileno(in), "big.json", 1));
	ck_assert_ptr_nonnull(pp = progress_open(fds[0], "-", 1));
	progress_update(pr, 1 << 20);
	wait_delay();
	progress_update(pr, 1 << 20);
	/* Not again so soon. */
	progress_update(pr, 3 << 20);
	progress_close(pr);
	s = errtext(fp);
	snprintf(want, sizeof(want), "\r%s: big.json: 1.0 of 4.0 MiB (25%%), ",
	    getprogname());
	ck_assert_msg(strncmp(s, want, strlen(want)) == 0, "%s", s);
	ck_assert_ptr_nonnull(t = strstr(s + 1, " MiB/s\r"));
	snprintf(want, sizeof(want), "\r%s: big.json: 3.0 of 4.0 MiB (75%%), ",
	    getprogname());
	ck_assert_msg(strncmp(t + 6, want, strlen(want)) == 0, "%s", s);
	/* Padded over the longer line before, if it was. */
	ck_assert_ptr_nonnull(t = strstr(t + 1, " MiB/s"));
	t += strlen(" MiB/s");
	t += strspn(t, " ");
	ck_assert_str_eq(t, "\n");
	free(s);

	/* A pipe: no size.  A message takes the line off first. */
	fp = errfile();
	progress_update(pp, 5 << 19);
	progress_hide();
	fputs("message\n", stderr);
	progress_close(pp);
	s = errtext(fp);
	snprintf(want, sizeof(want), "\r%s: <stdin>: 2.5 MiB, ",
	    getprogname());
	ck_assert_msg(strncmp(s, want, strlen(want)) == 0, "%s", s);
	ck_assert_ptr_nonnull(t = strstr(s, " MiB/s\nmessage\n"));
	ck_assert_str_eq(t, " MiB/s\nmessage\n");
	free(s);
	close(fds[0]);
	close(fds[1]);
	fclose(in);
}
END_TEST

static Suite *
progress_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("progress");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_off);
	tcase_add_test(tc, test_short);
	tcase_add_test(tc, test_line);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(progress_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
