/*
 * tutil.c: helpers shared by the Check suites of tests/unit.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "tutil.h"

char *
tu_capture(void (*fn)(void *), void *arg)
{
	char path[] = "/tmp/sst-test.XXXXXX", tmp[4096];
	struct buf b;
	ssize_t n;
	int fd, saved;

	ck_assert_int_ne(fd = mkstemp(path), -1);
	unlink(path);
	fflush(stdout);
	ck_assert_int_ne(saved = dup(STDOUT_FILENO), -1);
	ck_assert_int_eq(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
	fn(arg);
	fflush(stdout);
	ck_assert_int_eq(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	buf_init(&b);
	buf_adds(&b, "");
	while ((n = read(fd, tmp, sizeof(tmp))) > 0)
		buf_add(&b, tmp, (size_t)n);
	ck_assert_int_eq(n, 0);
	close(fd);
	return b.data;
}

char *
tu_tmpfile(const char *s)
{
	char *path;
	int fd;

	path = xstrdup("/tmp/sst-test.XXXXXX");
	ck_assert_int_ne(fd = mkstemp(path), -1);
	ck_assert_int_eq(write(fd, s, strlen(s)), (ssize_t)strlen(s));
	close(fd);
	return path;
}

int
tu_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
