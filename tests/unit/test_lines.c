/*
 * test_lines.c: Check suite for the line reader (common/stream/lines.c).  Input
 * comes from unlinked temporary files and from pipes fed in small pieces
 * by a child, with lines around and beyond the 1 MiB buffer.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "lines.h"
#include "json.h"

#define MIB	(1 << 20)

struct got {
	char	**line;
	size_t	 *len;
	size_t	  n;
};

static int	 tmpfd(const char *, size_t);
static int	 pipefd(const char *, size_t, pid_t *);
static void	 collect(int, struct got *);
static void	 freegot(struct got *);
static void	 expect(const char *, size_t, const char **, const size_t *,
		    size_t);
static void	 expects(const char *, const char **, size_t);
static char	*bigdoc(size_t *, const size_t *, size_t, int);
static void	 checkbig(const size_t *, size_t, int);
static char	*xfailure(const char *, size_t, int, int *);
static char	*failure(const char *, size_t, int);
static Suite	*lines_suite(void);

/* An unlinked temporary file holding p[0..n), at offset 0. */
static int
tmpfd(const char *p, size_t n)
{
	char path[] = "/tmp/test_lines.XXXXXX";
	int fd;

	ck_assert_int_ne(fd = mkstemp(path), -1);
	unlink(path);
	ck_assert_int_eq(write(fd, p, n), (ssize_t)n);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* The read end of a pipe a child writes p[0..n) to in odd pieces. */
static int
pipefd(const char *p, size_t n, pid_t *pid)
{
	size_t off, k, i = 0;
	ssize_t w;
	int fd[2];

	ck_assert_int_eq(pipe(fd), 0);
	ck_assert_int_ne(*pid = fork(), -1);
	if (*pid == 0) {
		close(fd[0]);
		for (off = 0; off < n; off += (size_t)w) {
			k = 1 + (i++ * 7919) % 70000;
			if (k > n - off)
				k = n - off;
			if ((w = write(fd[1], p + off, k)) <= 0)
				_exit(1);
		}
		_exit(0);
	}
	close(fd[1]);
	return fd[0];
}

/* Read every line of fd, keeping copies, and check the line numbers. */
static void
collect(int fd, struct got *g)
{
	struct lines *l;
	size_t len, cap = 0;
	char *s;

	memset(g, 0, sizeof(*g));
	l = lines_open(fd, "input");
	ck_assert_uint_eq(lines_lineno(l), 0);
	while ((s = lines_next(l, &len)) != NULL) {
		if (s[len] != '\0')
			ck_abort_msg("line %zu: not terminated", g->n + 1);
		if (g->n == cap) {
			cap = cap ? cap * 2 : 16;
			g->line = xreallocarray(g->line, cap, sizeof(char *));
			g->len = xreallocarray(g->len, cap, sizeof(size_t));
		}
		g->line[g->n] = xmemdup(s, len);
		g->len[g->n] = len;
		g->n++;
		if (lines_lineno(l) != g->n)
			ck_abort_msg("line %zu: lines_lineno says %llu", g->n,
			    lines_lineno(l));
	}
	/* EOF stays EOF. */
	ck_assert_ptr_null(lines_next(l, &len));
	ck_assert_uint_eq(lines_lineno(l), g->n);
	lines_close(l);
	close(fd);
}

static void
freegot(struct got *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->line[i]);
	free(g->line);
	free(g->len);
}

/* doc[0..n) reads as the lines want, from a file and from a pipe. */
static void
expect(const char *doc, size_t n, const char **want, const size_t *wlen,
    size_t nwant)
{
	struct got g;
	size_t i;
	pid_t pid;
	int st, k;

	for (k = 0; k < 2; k++) {
		if (k == 0)
			collect(tmpfd(doc, n), &g);
		else {
			collect(pipefd(doc, n, &pid), &g);
			ck_assert_int_eq(waitpid(pid, &st, 0), pid);
			ck_assert_int_eq(st, 0);
		}
		ck_assert_uint_eq(g.n, nwant);
		for (i = 0; i < nwant; i++) {
			ck_assert_uint_eq(g.len[i], wlen[i]);
			ck_assert_mem_eq(g.line[i], want[i], wlen[i]);
		}
		freegot(&g);
	}
}

/* expect() for a NUL-terminated document and lines. */
static void
expects(const char *doc, const char **want, size_t nwant)
{
	size_t wlen[16] = { 0 }, i;

	ck_assert_uint_le(nwant, 16);
	for (i = 0; i < nwant; i++)
		wlen[i] = strlen(want[i]);
	expect(doc, strlen(doc), want, wlen, nwant);
}

START_TEST(test_final_newline)
{
	const char *want[] = { "a", "bb", "ccc" };

	expects("a\nbb\nccc\n", want, 3);
}
END_TEST

START_TEST(test_no_final_newline)
{
	const char *want[] = { "a", "bb", "ccc" };

	expects("a\nbb\nccc", want, 3);
}
END_TEST

START_TEST(test_empty_input)
{
	expects("", NULL, 0);
}
END_TEST

START_TEST(test_empty_lines)
{
	const char *want1[] = { "" };
	const char *want2[] = { "", "", "" };
	const char *want3[] = { "", "", "", "a", "", "b" };
	const char *want4[] = { "x", "" };

	expects("\n", want1, 1);
	expects("\n\n\n", want2, 3);
	expects("\n\n\na\n\nb", want3, 6);
	expects("x\n\n", want4, 2);
}
END_TEST

START_TEST(test_cr_kept)
{
	const char *want[] = { "a\r", "b\rc", "\r", "d\r" };

	expects("a\r\nb\rc\n\r\nd\r", want, 4);
}
END_TEST

/*
 * Read every line of p[0..n) (from a pipe, or a file) in a child with
 * xlines_next(); its message on standard error, or "" when it read them
 * all (exit 0).
 */
static char *
xfailure(const char *p, size_t n, int frompipe, int *status)
{
	char path[] = "/tmp/test_lines.XXXXXX", *msg;
	struct lines *l;
	size_t len;
	pid_t pid, wpid = -1;
	int fd, efd;
	ssize_t r;

	ck_assert_int_ne(efd = mkstemp(path), -1);
	unlink(path);
	fd = frompipe ? pipefd(p, n, &wpid) : tmpfd(p, n);
	ck_assert_int_ne(pid = fork(), -1);
	if (pid == 0) {
		dup2(efd, 2);
		l = lines_open(fd, "t");
		while (xlines_next(l, &len) != NULL)
			continue;
		lines_close(l);
		_exit(0);
	}
	close(fd);
	ck_assert_int_eq(waitpid(pid, status, 0), pid);
	if (wpid != -1)
		waitpid(wpid, NULL, 0);
	msg = xcalloc(1, 256);
	ck_assert_int_ge(r = pread(efd, msg, 255, 0), 0);
	close(efd);
	return msg;
}

/*
 * Read every line of p[0..n) (from a pipe, or a file) with
 * lines_next(); lines_error()'s message (a copy), or "" when it read
 * them all.  lines_next() goes on returning NULL after an error.
 */
static char *
failure(const char *p, size_t n, int frompipe)
{
	struct lines *l;
	const char *e;
	char *msg;
	size_t len;
	pid_t wpid = -1;
	int fd;

	fd = frompipe ? pipefd(p, n, &wpid) : tmpfd(p, n);
	l = lines_open(fd, "t");
	while (lines_next(l, &len) != NULL)
		continue;
	e = lines_error(l);
	msg = xstrdup(e != NULL ? e : "");
	ck_assert_ptr_null(lines_next(l, &len));
	lines_close(l);
	if (wpid != -1)
		waitpid(wpid, NULL, 0);
	return msg;
}

/* Issue 34: a NUL byte is no text: an error naming its line. */
START_TEST(test_nul_bytes)
{
	char *m;
	int st;

	m = failure("a\nb\0c\nd\n", 8, 0);
	ck_assert_str_eq(m, "t:2: a NUL byte: binary data, not text");
	free(m);
	/* A NUL in the last line, without its newline. */
	m = failure("a\nb\nc\0", 6, 1);
	ck_assert_str_eq(m, "t:3: a NUL byte: binary data, not text");
	free(m);
	/* xlines_next() exits 1 with the message after "prog: ". */
	m = xfailure("a\nb\0c\nd\n", 8, 0, &st);
	ck_assert_str_eq(m, "test_lines: t:2: a NUL byte: binary data, "
	    "not text\n");
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	free(m);
	m = xfailure("a\nb\nc\n", 6, 1, &st);
	ck_assert_str_eq(m, "");
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	free(m);
}
END_TEST

/*
 * Issue 34: a line of SST_MAXLINE bytes is read, one byte more is an
 * error naming the line, with or without a newline after it, from a
 * pipe or a file.
 */
START_TEST(test_max_line)
{
	size_t n = SST_MAXLINE + 3;
	char *doc, *m;

	doc = xmalloc(n + 1);
	memcpy(doc, "a\n", 2);
	memset(doc + 2, 'x', n - 2);
	doc[n - 1] = '\n';
	m = failure(doc, n, 1);	/* SST_MAXLINE bytes, a newline */
	ck_assert_str_eq(m, "");
	free(m);
	doc[n - 1] = 'x';
	doc[n] = '\n';
	m = failure(doc, n + 1, 1);
	ck_assert_str_eq(m, "t:2: line longer than 64 MB");
	free(m);
	m = failure(doc, n, 0);	/* the last line, no newline */
	ck_assert_str_eq(m, "t:2: line longer than 64 MB");
	free(m);
	free(doc);
}
END_TEST

START_TEST(test_names)
{
	struct lines *l;

	l = lines_open(0, NULL);
	ck_assert_str_eq(lines_name(l), "<stdin>");
	lines_close(l);
	l = lines_open(0, "-");
	ck_assert_str_eq(lines_name(l), "<stdin>");
	lines_close(l);
	l = lines_open(0, "dir/file.sst");
	ck_assert_str_eq(lines_name(l), "dir/file.sst");
	lines_close(l);
	lines_close(NULL);
}
END_TEST

/*
 * A document of lines with the given lengths (byte i of line k is a
 * function of both), with or without the final newline.
 */
static char *
bigdoc(size_t *n, const size_t *len, size_t nl, int final)
{
	size_t i, j, off = 0, total = 0;
	char *d;

	for (i = 0; i < nl; i++)
		total += len[i] + 1;
	d = xmalloc(total + 1);
	for (i = 0; i < nl; i++) {
		for (j = 0; j < len[i]; j++)
			d[off++] = (char)('!' + (j * 31 + i) % 90);
		d[off++] = '\n';
	}
	*n = final ? off : off - 1;
	return d;
}

static void
checkbig(const size_t *len, size_t nl, int final)
{
	const char **want;
	size_t n, i, off;
	char *d;

	d = bigdoc(&n, len, nl, final);
	want = xreallocarray(NULL, nl, sizeof(*want));
	for (i = 0, off = 0; i < nl; i++) {
		want[i] = d + off;
		off += len[i] + 1;
	}
	expect(d, n, want, len, nl);
	free(want);
	free(d);
}

/* Lines as long as the buffer, longer, and across its end. */
START_TEST(test_long_lines)
{
	const size_t a[] = { MIB - 1, 5 };
	const size_t b[] = { MIB, 5 };
	const size_t c[] = { MIB + 1, 0, 5 };
	const size_t d[] = { 3 * MIB + 17, 10, 2 * MIB + 3 };
	const size_t e[] = { MIB - 3, 10, MIB - 20, 100, 0, 7 * MIB };
	const size_t f[] = { 5, 4 * MIB };

	checkbig(a, 2, 1);
	checkbig(a, 2, 0);
	checkbig(b, 2, 1);
	checkbig(b, 2, 0);
	checkbig(c, 3, 1);
	checkbig(d, 3, 1);
	checkbig(d, 3, 0);
	checkbig(e, 6, 1);
	checkbig(e, 6, 0);
	checkbig(f, 1, 0);
	checkbig(f, 2, 0);
}
END_TEST

/* Exactly one buffer of data, with and without a newline at its end. */
START_TEST(test_buffer_sized)
{
	const size_t a[] = { MIB - 1 };
	const size_t b[] = { MIB };
	const size_t c[] = { 1000, MIB - 1002 };

	checkbig(a, 1, 1);
	checkbig(b, 1, 0);
	checkbig(c, 2, 1);
	checkbig(c, 2, 0);
}
END_TEST

START_TEST(test_many_lines)
{
	struct buf doc;
	struct got g;
	char want[32];
	size_t i, n = 500000;
	pid_t pid;
	int st, k;

	buf_init(&doc);
	for (i = 0; i < n; i++)
		buf_printf(&doc, "line %zu%s\n", i, i % 3 ? "" : " x");
	for (k = 0; k < 2; k++) {
		if (k == 0)
			collect(tmpfd(doc.data, doc.len), &g);
		else {
			collect(pipefd(doc.data, doc.len, &pid), &g);
			ck_assert_int_eq(waitpid(pid, &st, 0), pid);
			ck_assert_int_eq(st, 0);
		}
		ck_assert_uint_eq(g.n, n);
		for (i = 0; i < n; i++) {
			snprintf(want, sizeof(want), "line %zu%s", i,
			    i % 3 ? "" : " x");
			if (g.len[i] != strlen(want) ||
			    strcmp(g.line[i], want) != 0)
				ck_abort_msg("line %zu: \"%s\"", i + 1,
				    g.line[i]);
		}
		freegot(&g);
	}
	buf_free(&doc);
}
END_TEST

/* A read error (here: a directory) ends the lines, naming the line. */
START_TEST(test_read_error)
{
	struct lines *l;
	size_t len;
	int fd;

	fd = open("/", O_RDONLY);
	ck_assert_int_ne(fd, -1);
	l = lines_open(fd, "/");
	ck_assert_ptr_null(lines_next(l, &len));
	ck_assert_str_eq(lines_error(l), "/:1: read error: Is a directory");
	lines_close(l);
}
END_TEST

static Suite *
lines_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("lines");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_final_newline);
	tcase_add_test(tc, test_no_final_newline);
	tcase_add_test(tc, test_empty_input);
	tcase_add_test(tc, test_empty_lines);
	tcase_add_test(tc, test_cr_kept);
	tcase_add_test(tc, test_nul_bytes);
	tcase_add_test(tc, test_max_line);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_long_lines);
	tcase_add_test(tc, test_buffer_sized);
	tcase_add_test(tc, test_many_lines);
	tcase_add_test(tc, test_read_error);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	signal(SIGPIPE, SIG_IGN);
	sr = srunner_create(lines_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
