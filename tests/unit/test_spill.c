/*
 * test_spill.c: Check suite for the spill buffer (common/base/spill.c): what
 * is written reads back byte for byte, in memory or through the
 * temporary file, and the file is made in $TMPDIR and leaves nothing
 * behind.
 */

#include <sys/wait.h>

#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "spill.h"

static void	 pattern(unsigned char *, size_t, unsigned);
static void	 roundtrip(size_t, size_t, size_t, size_t);
static char	*freshdir(void);
static int	 nentries(const char *);
static int	 opendeleted(const char *);
static Suite	*spill_suite(void);

/* Bytes that differ from one offset to the next, all 256 values. */
static void
pattern(unsigned char *p, size_t n, unsigned salt)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)((i * 131 + salt + (i >> 8)) & 255);
}

/*
 * Write total bytes with limit lim in pieces of wsz, read them back in
 * pieces of rsz and compare; then one more read is past the end.
 */
static void
roundtrip(size_t lim, size_t total, size_t wsz, size_t rsz)
{
	unsigned char *in, *out, c;
	struct spill *s;
	size_t off, k;

	in = xmalloc(total);
	out = xmalloc(total);
	pattern(in, total, (unsigned)(lim + wsz));
	memset(out, 0, total);
	s = spill_new(lim);
	for (off = 0; off < total; off += k) {
		k = total - off < wsz ? total - off : wsz;
		xspill_write(s, in + off, k);
	}
	xspill_rewind(s);
	for (off = 0; off < total; off += k) {
		k = total - off < rsz ? total - off : rsz;
		if (xspill_read(s, out + off, k) != 0)
			ck_abort_msg("lim %zu total %zu: read at %zu failed",
			    lim, total, off);
	}
	ck_assert_msg(memcmp(in, out, total) == 0, "lim %zu total %zu "
	    "wsz %zu rsz %zu: bytes differ", lim, total, wsz, rsz);
	ck_assert_int_eq(xspill_read(s, &c, 1), -1);
	ck_assert_int_eq(xspill_read(s, &c, 1), -1);
	ck_assert_int_eq(xspill_read(s, &c, 0), 0);
	spill_free(s);
	free(in);
	free(out);
}

/* A new empty directory under /tmp. */
static char *
freshdir(void)
{
	char *d;

	d = xstrdup("/tmp/test_spill.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d));
	return d;
}

/* Entries in dir besides . and .. */
static int
nentries(const char *dir)
{
	struct dirent *e;
	DIR *d;
	int n = 0;

	ck_assert_ptr_nonnull(d = opendir(dir));
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/*
 * How many of our open descriptors are unlinked files in dir, from
 * /proc/self/fd; -1 when there is no /proc.
 */
static int
opendeleted(const char *dir)
{
	char path[300], link[PATH_MAX + 1];
	struct dirent *e;
	DIR *d;
	ssize_t n;
	int k = 0;

	if ((d = opendir("/proc/self/fd")) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		if ((n = readlink(path, link, sizeof(link) - 1)) == -1)
			continue;
		link[n] = '\0';
		if (strncmp(link, dir, strlen(dir)) == 0 &&
		    link[strlen(dir)] == '/' &&
		    strstr(link, " (deleted)") != NULL)
			k++;
	}
	closedir(d);
	return k;
}

START_TEST(test_small)
{
	struct spill *s;
	char out[16];

	s = spill_new(64);
	xspill_write(s, "hello", 5);
	xspill_write(s, "", 0);
	xspill_write(s, ", world", 7);
	xspill_rewind(s);
	memset(out, 0, sizeof(out));
	ck_assert_int_eq(xspill_read(s, out, 5), 0);
	ck_assert_str_eq(out, "hello");
	ck_assert_int_eq(xspill_read(s, out, 7), 0);
	ck_assert_mem_eq(out, ", world", 7);
	ck_assert_int_eq(xspill_read(s, out, 1), -1);
	spill_free(s);
	spill_free(NULL);
}
END_TEST

/* A read for more than is left fails. */
START_TEST(test_short_read)
{
	struct spill *s;
	char out[16];

	s = spill_new(8);
	xspill_write(s, "abc", 3);
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, out, 4), -1);
	spill_free(s);

	s = spill_new(2);
	xspill_write(s, "abcdef", 6);
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, out, 3), 0);
	ck_assert_mem_eq(out, "abc", 3);
	ck_assert_int_eq(xspill_read(s, out, 4), -1);
	spill_free(s);
}
END_TEST

START_TEST(test_empty)
{
	struct spill *s;
	char c;

	s = spill_new(16);
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, &c, 1), -1);
	spill_free(s);
	s = spill_new(0);
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, &c, 1), -1);
	spill_free(s);
}
END_TEST

/* Exactly at the limit nothing spills; one more byte does. */
START_TEST(test_at_limit)
{
	roundtrip(100, 99, 7, 3);
	roundtrip(100, 100, 100, 100);
	roundtrip(100, 100, 1, 1);
	roundtrip(100, 101, 101, 101);
	roundtrip(100, 101, 1, 1);
	roundtrip(100, 101, 100, 1);
}
END_TEST

START_TEST(test_large)
{
	static const size_t sz[] = { 1, 3, 8, 12, 100, 4096, 65537 };
	size_t i, j;

	/* Reads and writes of different sizes across the boundary. */
	for (i = 0; i < sizeof(sz) / sizeof(sz[0]); i++)
		for (j = 0; j < sizeof(sz) / sizeof(sz[0]); j++)
			roundtrip(1000, 100000, sz[i], sz[j]);
	/* All in the file. */
	roundtrip(0, 100000, 12, 12);
	/* More than stdio buffers and the 1 MiB spd.c uses. */
	roundtrip(1 << 20, (3 << 20) + 5, 12, 12);
	roundtrip(1 << 20, (3 << 20) + 5, 1 << 20, 4096);
}
END_TEST

/* Records of (uint32, double) as spd.c writes them. */
START_TEST(test_records)
{
	struct spill *s;
	uint32_t id;
	double w;
	uint32_t i, n = 200000;

	s = spill_new(1 << 10);
	for (i = 0; i < n; i++) {
		w = i * 0.001;
		xspill_write(s, &i, sizeof(i));
		xspill_write(s, &w, sizeof(w));
	}
	xspill_rewind(s);
	for (i = 0; i < n; i++) {
		if (xspill_read(s, &id, sizeof(id)) != 0 ||
		    xspill_read(s, &w, sizeof(w)) != 0)
			ck_abort_msg("record %u: read failed", i);
		if (id != i || w != i * 0.001)
			ck_abort_msg("record %u differs", i);
	}
	ck_assert_int_eq(xspill_read(s, &id, sizeof(id)), -1);
	spill_free(s);
}
END_TEST

START_TEST(test_clear)
{
	struct spill *s;
	unsigned char in[5000], out[5000];
	char c;

	pattern(in, sizeof(in), 1);
	s = spill_new(100);
	/* Spilled, then cleared before reading. */
	xspill_write(s, "junk that goes", 14);
	xspill_write(s, in, sizeof(in));
	spill_clear(s);
	xspill_write(s, "new", 3);
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, out, 3), 0);
	ck_assert_mem_eq(out, "new", 3);
	ck_assert_int_eq(xspill_read(s, &c, 1), -1);
	/* Cleared after reading, and spilled again. */
	spill_clear(s);
	pattern(in, sizeof(in), 2);
	xspill_write(s, in, sizeof(in));
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, out, sizeof(out)), 0);
	ck_assert_mem_eq(out, in, sizeof(in));
	ck_assert_int_eq(xspill_read(s, &c, 1), -1);
	/* Half read, then cleared. */
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, out, 2500), 0);
	spill_clear(s);
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, &c, 1), -1);
	xspill_write(s, "x", 1);
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, &c, 1), 0);
	ck_assert_int_eq(c, 'x');
	spill_free(s);
}
END_TEST

/* Reading twice: rewind starts over. */
START_TEST(test_rewind_twice)
{
	struct spill *s;
	unsigned char in[3000], out[3000];

	pattern(in, sizeof(in), 3);
	s = spill_new(1000);
	xspill_write(s, in, sizeof(in));
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, out, 1500), 0);
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, out, sizeof(out)), 0);
	ck_assert_mem_eq(out, in, sizeof(in));
	spill_free(s);
}
END_TEST

START_TEST(test_tmpdir)
{
	struct spill *s;
	unsigned char in[10000], out[10000];
	char *dir;

	dir = freshdir();
	ck_assert_int_eq(setenv("TMPDIR", dir, 1), 0);
	pattern(in, sizeof(in), 4);
	s = spill_new(16);
	xspill_write(s, in, 10);
	/* Below the limit: no file yet. */
	if (opendeleted(dir) != -1)
		ck_assert_int_eq(opendeleted(dir), 0);
	xspill_write(s, in + 10, sizeof(in) - 10);
	/* The file is in TMPDIR, open, and already unlinked. */
	ck_assert_int_eq(nentries(dir), 0);
	if (opendeleted(dir) != -1)
		ck_assert_int_eq(opendeleted(dir), 1);
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, out, sizeof(out)), 0);
	ck_assert_mem_eq(out, in, sizeof(in));
	ck_assert_int_eq(nentries(dir), 0);
	spill_clear(s);
	if (opendeleted(dir) != -1)
		ck_assert_int_eq(opendeleted(dir), 0);
	spill_free(s);
	ck_assert_int_eq(nentries(dir), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* An empty TMPDIR means /tmp. */
START_TEST(test_tmpdir_empty)
{
	struct spill *s;
	char out[300], in[300];

	ck_assert_int_eq(setenv("TMPDIR", "", 1), 0);
	pattern((unsigned char *)in, sizeof(in), 5);
	s = spill_new(10);
	xspill_write(s, in, sizeof(in));
	if (opendeleted("/tmp") != -1)
		ck_assert_int_ge(opendeleted("/tmp"), 1);
	xspill_rewind(s);
	ck_assert_int_eq(xspill_read(s, out, sizeof(out)), 0);
	ck_assert_mem_eq(out, in, sizeof(in));
	spill_free(s);
}
END_TEST

/*
 * A TMPDIR that does not exist is an error when it spills: exit 1 with
 * the message of err(3) about the file mkstemp(3) tried, whose last ten
 * letters are random.
 */
START_TEST(test_tmpdir_missing)
{
	struct spill *s;
	char *dir, want[512], got[512];
	ssize_t n;
	size_t k;
	pid_t pid;
	int p[2], st;

	dir = freshdir();
	rmdir(dir);
	setenv("TMPDIR", dir, 1);
	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_ne(pid = fork(), -1);
	if (pid == 0) {
		dup2(p[1], 2);
		s = spill_new(4);
		xspill_write(s, "abcd", 4);
		xspill_write(s, "e", 1);
		_exit(0);
	}
	close(p[1]);
	for (k = 0; k < sizeof(got) - 1 &&
	    (n = read(p[0], got + k, sizeof(got) - 1 - k)) > 0; k += (size_t)n)
		continue;
	got[k] = '\0';
	close(p[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	snprintf(want, sizeof(want), "test_spill: %s/sst.", dir);
	ck_assert_msg(strncmp(got, want, strlen(want)) == 0, "%s", got);
	ck_assert_uint_eq(strlen(got), strlen(want) + 10 +
	    strlen(": No such file or directory\n"));
	ck_assert_str_eq(got + strlen(want) + 10,
	    ": No such file or directory\n");
	free(dir);
	unsetenv("TMPDIR");
}
END_TEST

static Suite *
spill_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("spill");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_small);
	tcase_add_test(tc, test_short_read);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_at_limit);
	tcase_add_test(tc, test_large);
	tcase_add_test(tc, test_records);
	tcase_add_test(tc, test_clear);
	tcase_add_test(tc, test_rewind_twice);
	tcase_add_test(tc, test_tmpdir);
	tcase_add_test(tc, test_tmpdir_empty);
	tcase_add_test(tc, test_tmpdir_missing);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(spill_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
