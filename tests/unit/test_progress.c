/*
 * test_progress.c: Check suite for the progress line (common/base/progress.c).
 * Standard error goes to a temporary file, which is no terminal: the
 * line shows only when forced, and a run must take a second for it.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "progress.h"

static FILE	*errfile(void);
static char	*errtext(FILE *);
static void	 wait_delay(void);
static char	*fdtext(int);
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

/*
 * Polled: nothing before 256 calls; then, of a regular file, its
 * descriptor's offset (not the count given), of a pipe the count.
 */
START_TEST(test_poll)
{
	struct progress *pr, *pp;
	FILE *fp, *in;
	char want[256], *s;
	int fds[2], i;

	fp = errfile();
	ck_assert_ptr_nonnull(in = tmpfile());
	ck_assert_int_eq(ftruncate(fileno(in), 4 << 20), 0);
	ck_assert_int_eq(lseek(fileno(in), 3 << 19, SEEK_SET), 3 << 19);
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_ptr_nonnull(pr = progress_open(fileno(in), "big.gz", 1));
	ck_assert_ptr_nonnull(pp = progress_open(fds[0], "-", 1));
	wait_delay();
	for (i = 0; i < 255; i++)
		progress_poll(pr, 12345);
	s = errtext(fp);
	ck_assert_str_eq(s, "");
	free(s);
	progress_poll(pr, 12345);
	progress_close(pr);
	s = errtext(fp);
	snprintf(want, sizeof(want), "\r%s: big.gz: 1.5 of 4.0 MiB (38%%), ",
	    getprogname());
	ck_assert_msg(strncmp(s, want, strlen(want)) == 0, "%s", s);
	free(s);

	fp = errfile();
	for (i = 0; i < 256; i++)
		progress_poll(pp, 5 << 19);
	progress_close(pp);
	s = errtext(fp);
	snprintf(want, sizeof(want), "\r%s: <stdin>: 2.5 MiB, ",
	    getprogname());
	ck_assert_msg(strncmp(s, want, strlen(want)) == 0, "%s", s);
	free(s);
	close(fds[0]);
	close(fds[1]);
	fclose(in);
}
END_TEST

/* A count of rows with a total, of file 2 of 5: no MiB, no file size. */
START_TEST(test_total)
{
	struct progress *pr;
	FILE *fp, *in;
	char want[256], *s, *t;

	fp = errfile();
	ck_assert_ptr_nonnull(in = tmpfile());
	ck_assert_int_eq(ftruncate(fileno(in), 4 << 20), 0);
	ck_assert_ptr_nonnull(pr = progress_open(fileno(in), "a.sqlite", 1));
	progress_total(pr, 400, "rows");
	progress_file(pr, 2, 5);
	wait_delay();
	progress_update(pr, 100);
	progress_close(pr);
	s = errtext(fp);
	snprintf(want, sizeof(want), "\r%s: a.sqlite (2 of 5): 100 of 400 "
	    "rows (25%%), ", getprogname());
	ck_assert_msg(strncmp(s, want, strlen(want)) == 0, "%s", s);
	/* A whole number of rows a second: 100 in 1.2 s or so. */
	t = s + strlen(want);
	ck_assert_msg(t[strspn(t, "0123456789")] == ' ', "%s", s);
	ck_assert_ptr_nonnull(strstr(t, " rows/s"));
	free(s);

	/* No total: the count alone. */
	fp = errfile();
	ck_assert_ptr_nonnull(pr = progress_open(fileno(in), "b", 1));
	progress_total(pr, 0, "events");
	progress_update(pr, 7);
	progress_close(pr);
	s = errtext(fp);
	snprintf(want, sizeof(want), "\r%s: b: 7 events, ", getprogname());
	ck_assert_msg(strncmp(s, want, strlen(want)) == 0, "%s", s);
	free(s);
	fclose(in);
}
END_TEST

/*
 * The delay runs from the first input of the run: the second of many
 * short files shows the line at once, a second after the first began.
 */
START_TEST(test_run)
{
	struct progress *pr;
	FILE *fp, *in;
	char want[256], *s;

	fp = errfile();
	ck_assert_ptr_nonnull(in = tmpfile());
	ck_assert_int_eq(ftruncate(fileno(in), 2 << 20), 0);
	ck_assert_ptr_nonnull(pr = progress_open(fileno(in), "one", 1));
	wait_delay();
	progress_close(pr);
	ck_assert_ptr_nonnull(pr = progress_open(fileno(in), "two", 1));
	progress_update(pr, 1 << 20);
	progress_close(pr);
	s = errtext(fp);
	snprintf(want, sizeof(want), "\r%s: two: 1.0 of 2.0 MiB (50%%), ",
	    getprogname());
	ck_assert_msg(strncmp(s, want, strlen(want)) == 0, "%s", s);
	free(s);
	fclose(in);
}
END_TEST

/* What descriptor fd holds from its start. */
static char *
fdtext(int fd)
{
	struct buf b;
	char tmp[256];
	ssize_t n;
	off_t off = 0;

	buf_init(&b);
	buf_adds(&b, "");
	while ((n = pread(fd, tmp, sizeof(tmp), off)) > 0) {
		buf_add(&b, tmp, (size_t)n);
		off += n;
	}
	return b.data;
}

/*
 * SST_PROGRESS_FD names an open descriptor: the line goes there, and
 * standard error stays empty.
 */
START_TEST(test_fd)
{
	struct progress *pr;
	FILE *fp, *alt, *in;
	char num[32], want[256], *s;

	fp = errfile();
	ck_assert_ptr_nonnull(alt = tmpfile());
	ck_assert_ptr_nonnull(in = tmpfile());
	ck_assert_int_eq(ftruncate(fileno(in), 2 << 20), 0);
	snprintf(num, sizeof(num), "%d", fileno(alt));
	ck_assert_int_eq(setenv("SST_PROGRESS_FD", num, 1), 0);
	ck_assert_ptr_nonnull(pr = progress_open(fileno(in), "x", 1));
	wait_delay();
	progress_update(pr, 1 << 20);
	progress_close(pr);
	s = errtext(fp);
	ck_assert_str_eq(s, "");
	free(s);
	s = fdtext(fileno(alt));
	snprintf(want, sizeof(want), "\r%s: x: 1.0 of 2.0 MiB (50%%), ",
	    getprogname());
	ck_assert_msg(strncmp(s, want, strlen(want)) == 0, "%s", s);
	ck_assert_int_eq(s[strlen(s) - 1], '\n');
	free(s);
	fclose(in);
	fclose(alt);
}
END_TEST

/* A descriptor that is not open, or 0 to 2, or no number: stderr. */
START_TEST(test_fdbad)
{
	const char *bad[] = { "999", "1", "x" };
	struct progress *pr;
	FILE *fp, *in;
	char want[256], *s;

	fp = errfile();
	ck_assert_ptr_nonnull(in = tmpfile());
	ck_assert_int_eq(setenv("SST_PROGRESS_FD", bad[_i], 1), 0);
	ck_assert_ptr_nonnull(pr = progress_open(fileno(in), "y", 1));
	wait_delay();
	progress_update(pr, 0);
	progress_close(pr);
	s = errtext(fp);
	snprintf(want, sizeof(want), "\r%s: y: 0.0 MiB, ", getprogname());
	ck_assert_msg(strncmp(s, want, strlen(want)) == 0, "%s", s);
	free(s);
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
	tcase_add_test(tc, test_poll);
	tcase_add_test(tc, test_total);
	tcase_add_test(tc, test_run);
	tcase_add_test(tc, test_fd);
	tcase_add_loop_test(tc, test_fdbad, 0, 3);
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
