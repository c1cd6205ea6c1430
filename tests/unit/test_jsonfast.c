/*
 * test_jsonfast.c: Check suite for the JSON tokenizer's fast paths
 * (common/json/jsontok.c's plainb(), 16 bytes at a time with SSE2, and
 * jsonval.c's json_scaled()).
 *
 * Expected values are hand-worked: a string of n bytes is the n bytes
 * written into the document; the column of a byte is its 1-based place
 * on its line, counted in the document written out in the test (for
 * ["ab<0x01>"] the '[' is column 1, the '"' 2, the control byte 5); a
 * number times 10^scale is the number with its point moved (1215.5 at
 * scale 3 is 1215500).  json_scaled() is also checked against
 * trace_ns() (traceread.c), the general reader it stands in for, on
 * every number of a sweep of lengths and forms.  Every document is read
 * from memory and through a pipe fed a few bytes at a time, so that the
 * strings cross the buffer's end at every place.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tutil.h"
#include "util.h"
#include "buf.h"
#include "json.h"
#include "trace.h"

static struct json *open_pipe(const char *, size_t, size_t, pid_t *);
static void	 close_pipe(struct json *, pid_t);
static void	 check_string(const char *, size_t, size_t);
static void	 check_error(const char *, size_t, const char *,
		    unsigned long long, unsigned long long);
static Suite	*jsonfast_suite(void);

/*
 * A tokenizer reading the len bytes of s through a pipe, written by a
 * child piece bytes at a time.
 */
static struct json *
open_pipe(const char *s, size_t len, size_t piece, pid_t *pid)
{
	size_t off, n;
	int fds[2];

	ck_assert_int_eq(pipe(fds), 0);
	if ((*pid = fork()) == -1)
		ck_abort_msg("fork: %s", strerror(errno));
	if (*pid == 0) {
		close(fds[0]);
		for (off = 0; off < len; off += n) {
			n = len - off < piece ? len - off : piece;
			if (write(fds[1], s + off, n) != (ssize_t)n)
				_exit(1);
		}
		_exit(0);
	}
	close(fds[1]);
	return json_open(fds[0], "pipe");
}

/* Close a tokenizer of open_pipe() and reap its child. */
static void
close_pipe(struct json *j, pid_t pid)
{
	int st;

	json_close(j);
	waitpid(pid, &st, 0);
}

/*
 * The document ["<the n bytes of want>", 7] (raw, as written: no
 * escapes) from memory and through a pipe in pieces of 1 to 17 bytes:
 * one JT_STR of exactly those bytes, then the number.  pad bytes of
 * blanks before the string move it against the pieces.
 */
static void
check_string(const char *want, size_t n, size_t pad)
{
	struct buf doc;
	struct json *j;
	const char *t;
	size_t len, piece;
	pid_t pid = -1;

	buf_init(&doc);
	buf_addc(&doc, '[');
	while (pad-- > 0)
		buf_addc(&doc, ' ');
	buf_addc(&doc, '"');
	buf_add(&doc, want, n);
	buf_add(&doc, "\", 7]", 5);
	for (piece = 0; piece <= 17; piece += piece < 4 ? 1 : 13) {
		j = piece == 0 ? json_open_mem(doc.data, doc.len, "mem") :
		    open_pipe(doc.data, doc.len, piece, &pid);
		ck_assert_int_eq(json_next(j), JT_ARR);
		ck_assert_int_eq(json_next(j), JT_STR);
		t = json_text(j, &len);
		ck_assert_uint_eq(len, n);
		ck_assert_msg(memcmp(t, want, n) == 0 && t[n] == '\0',
		    "string of %zu bytes, pieces of %zu", n, piece);
		ck_assert_int_eq(json_next(j), JT_NUM);
		ck_assert_str_eq(json_text(j, NULL), "7");
		ck_assert_int_eq(json_next(j), JT_ARR_END);
		ck_assert_int_eq(json_next(j), JT_EOF);
		if (piece == 0)
			json_close(j);
		else
			close_pipe(j, pid);
	}
	buf_free(&doc);
}

/*
 * The len bytes of doc, from memory and through a pipe a byte and 5
 * bytes at a time: tokens up to a JT_ERROR with message msg at line and
 * col.
 */
static void
check_error(const char *doc, size_t len, const char *msg,
    unsigned long long line, unsigned long long col)
{
	struct json *j;
	enum json_tok t;
	size_t piece;
	pid_t pid = -1;

	for (piece = 0; piece <= 5; piece += piece == 0 ? 1 : 4) {
		j = piece == 0 ? json_open_mem(doc, len, "mem") :
		    open_pipe(doc, len, piece, &pid);
		while ((t = json_next(j)) != JT_ERROR)
			ck_assert_msg(t != JT_EOF, "no error in %s", doc);
		ck_assert_str_eq(json_errmsg(j), msg);
		ck_assert_msg(json_line(j) == line && json_col(j) == col,
		    "%s: %llu:%llu, not %llu:%llu", msg, json_line(j),
		    json_col(j), line, col);
		if (piece == 0)
			json_close(j);
		else
			close_pipe(j, pid);
	}
}

/*
 * Plain strings of every length from 0 to 49 bytes (the 16-byte scan
 * ends in every place of its last block), of letters, of bytes from
 * 0x7f up (passed through unchanged) and of blanks, each at 3 places.
 */
START_TEST(test_plain_lengths)
{
	char s[64];
	size_t n, pad, i;

	for (n = 0; n < 50; n++)
		for (pad = 0; pad < 3; pad++) {
			for (i = 0; i < n; i++)
				s[i] = (char)('a' + i % 26);
			check_string(s, n, pad);
			for (i = 0; i < n; i++)
				s[i] = (char)(0x7f + i % 0x81);
			check_string(s, n, pad);
			memset(s, ' ', n);
			check_string(s, n, pad);
		}
}
END_TEST

/*
 * An escape after 0 to 40 plain bytes ends the plain run there: the
 * string "aaa\n\"bb" is decoded, whatever the run's length; a '"'
 * inside the 16 bytes after the closing one is no part of the string;
 * brackets and a comma in a string are text.
 */
START_TEST(test_plain_escapes)
{
	struct buf doc, want;
	struct json *j;
	const char *t;
	size_t n, len;

	for (n = 0; n <= 40; n++) {
		buf_init(&doc);
		buf_init(&want);
		buf_addc(&doc, '[');
		buf_addc(&doc, '"');
		while (want.len < n) {
			buf_addc(&doc, 'a');
			buf_addc(&want, 'a');
		}
		buf_add(&doc, "\\n\\\"[{,}]\", \"x\"]", 16);
		buf_add(&want, "\n\"[{,}]", 7);
		j = json_open_mem(doc.data, doc.len, "mem");
		ck_assert_int_eq(json_next(j), JT_ARR);
		ck_assert_int_eq(json_next(j), JT_STR);
		t = json_text(j, &len);
		ck_assert_uint_eq(len, want.len);
		ck_assert(memcmp(t, want.data, len) == 0);
		ck_assert_int_eq(json_next(j), JT_STR);
		ck_assert_str_eq(json_text(j, NULL), "x");
		ck_assert_int_eq(json_next(j), JT_ARR_END);
		ck_assert_int_eq(json_next(j), JT_EOF);
		json_close(j);
		buf_free(&doc);
		buf_free(&want);
	}
}
END_TEST

/*
 * Keys of 0 to 40 bytes, and a string whose closing quote is the last
 * byte of the input (the sentinel after it): the same text.
 */
START_TEST(test_plain_keys)
{
	char doc[160], key[64];
	struct json *j;
	size_t n, len;

	for (n = 0; n <= 40; n++) {
		memset(key, 'k', n);
		key[n] = '\0';
		snprintf(doc, sizeof(doc), "{\"%s\": \"%s\"}", key, key);
		j = json_open_mem(doc, strlen(doc), "mem");
		ck_assert_int_eq(json_next(j), JT_OBJ);
		ck_assert_int_eq(json_next(j), JT_KEY);
		ck_assert_str_eq(json_text(j, &len), key);
		ck_assert_uint_eq(len, n);
		ck_assert_int_eq(json_next(j), JT_STR);
		ck_assert_str_eq(json_text(j, NULL), key);
		ck_assert_int_eq(json_next(j), JT_OBJ_END);
		ck_assert_int_eq(json_next(j), JT_EOF);
		json_close(j);
		snprintf(doc, sizeof(doc), "\"%s\"", key);
		j = json_open_mem(doc, strlen(doc), "mem");
		ck_assert_int_eq(json_next(j), JT_STR);
		ck_assert_str_eq(json_text(j, NULL), key);
		ck_assert_int_eq(json_next(j), JT_EOF);
		json_close(j);
	}
}
END_TEST

/*
 * Errors where the scan stops: a control byte after 0 to 40 plain
 * bytes, on line 1 and on line 3 (two newlines before it), in a value
 * and in a key; a string cut by the end of the input.  Columns as
 * worked out in the head comment: the string's first byte is column 3
 * of ["..., so the control byte after n bytes is column 3 + n.
 */
START_TEST(test_plain_errors)
{
	char doc[128], run[64];
	size_t n;
	int c;

	for (n = 0; n <= 40; n++) {
		memset(run, 'a', n);
		run[n] = '\0';
		for (c = 0x00; c < 0x20; c += 0x1f) {
			snprintf(doc, sizeof(doc), "[\"%s%c\"]", run, c + 1);
			doc[2 + n] = (char)c;
			check_error(doc, 5 + n, "control character in string",
			    1, 3 + n);
			snprintf(doc, sizeof(doc), "[\n1,\n\"%s%c\"]", run,
			    c + 1);
			doc[6 + n] = (char)c;
			check_error(doc, 9 + n, "control character in string",
			    3, 2 + n);
			snprintf(doc, sizeof(doc), "{\"%s%c\": 1}", run, c + 1);
			doc[2 + n] = (char)c;
			check_error(doc, 8 + n, "control character in string",
			    1, 3 + n);
		}
		/* Cut: the error is at the end, just past the last byte. */
		snprintf(doc, sizeof(doc), "[\"%s", run);
		check_error(doc, 2 + n, "unexpected end of input", 1, 3 + n);
	}
}
END_TEST

/* Numbers read as exact integers times 10^scale, worked by hand. */
START_TEST(test_scaled)
{
	static const struct {
		const char	*text;
		int		 scale;
		int		 ok;
		int64_t		 v;
	} t[] = {
		{ "0", 3, 0, 0 },
		{ "-0", 3, 0, 0 },
		{ "7", 0, 0, 7 },
		{ "1215", 3, 0, 1215000 },
		{ "1215.5", 3, 0, 1215500 },
		{ "1215.25", 3, 0, 1215250 },
		{ "1215.125", 3, 0, 1215125 },
		{ "-3.25", 3, 0, -3250 },
		{ "0.001", 3, 0, 1 },
		{ "4.2", 2, 0, 420 },
		{ "12345678", 3, 0, 12345678000 },
		{ "123456789", 3, 0, 123456789000 },
		{ "1700000000160.000", 3, 0, 1700000000160000 },
		{ "-1700000000160.5", 3, 0, -1700000000160500 },
		{ "999999999999999.999", 3, 0, 999999999999999999 },
		{ "999999999999999", 0, 0, 999999999999999 },
		{ "12345678.5", 3, 0, 12345678500 },
		{ "123456789.25", 3, 0, 123456789250 },
		{ "123456789012.5", 3, 0, 123456789012500 },
		{ "-12345678901234.5", 3, 0, -12345678901234500 },
		{ "1234567.125", 3, 0, 1234567125 },
		{ "1.5", 1, 0, 15 },
		{ "9999999999999999", 0, -1, 0 },
		{ "12345678e2", 3, -1, 0 },
		{ "1234567890123e2", 3, -1, 0 },
		{ "1234567890123.5e2", 3, -1, 0 },
		{ "123456789012345678", 0, -1, 0 },
		/* Other forms: for the caller's general reader. */
		{ "1234567890123456", 3, -1, 0 },
		{ "1.0001", 3, -1, 0 },
		{ "4.2", 0, -1, 0 },
		{ "1e3", 3, -1, 0 },
		{ "1.5E2", 3, -1, 0 },
		{ "1", 4, -1, 0 },
		{ "1", -1, -1, 0 },
	};
	/* Each number as an element after ',', after a key, at the top. */
	static const char *fmt[] = { "[1,%s]", "{\"k\":%s}", "%s" };
	struct json *j;
	enum json_tok tok;
	char doc[64];
	int64_t v;
	size_t i, f;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		for (f = 0; f < 3; f++) {
			snprintf(doc, sizeof(doc), fmt[f], t[i].text);
			j = json_open_mem(doc, strlen(doc), "mem");
			while ((tok = json_next(j)) != JT_NUM ||
			    strcmp(json_text(j, NULL), t[i].text) != 0)
				ck_assert_msg(tok > JT_EOF, "%s", doc);
			v = 12345;
			ck_assert_msg(json_scaled(j, t[i].scale, &v) ==
			    t[i].ok, "%s", doc);
			ck_assert_msg(v == (t[i].ok == 0 ? t[i].v : 12345),
			    "%s: %lld", doc, (long long)v);
			json_close(j);
		}
	/* Not after a string or a key. */
	j = json_open_mem("{\"1\":\"2\"}", 9, "mem");
	ck_assert_int_eq(json_next(j), JT_OBJ);
	ck_assert_int_eq(json_next(j), JT_KEY);
	ck_assert_int_eq(json_scaled(j, 3, &v), -1);
	ck_assert_int_eq(json_next(j), JT_STR);
	ck_assert_int_eq(json_scaled(j, 3, &v), -1);
	json_close(j);
}
END_TEST

/*
 * json_scaled(j, 3) against trace_ns() on numbers of 1 to 20 integer
 * digits, 0 to 4 decimals, both signs, in arrays (the element fast
 * path) and objects: wherever json_scaled() answers, the two agree.
 */
START_TEST(test_scaled_ns)
{
	struct buf doc;
	struct json *j;
	enum json_tok t;
	const char *s;
	char num[64];
	int64_t a, b;
	size_t n, ni, nf, k, nok = 0;
	unsigned long long x = 88172645463325252ULL;
	int neg, obj;

	buf_init(&doc);
	for (obj = 0; obj < 2; obj++) {
		buf_reset(&doc);
		buf_addc(&doc, obj ? '{' : '[');
		for (ni = 1; ni <= 20; ni++)
			for (nf = 0; nf <= 4; nf++)
				for (neg = 0; neg < 2; neg++) {
					x ^= x << 13, x ^= x >> 7, x ^= x << 17;
					n = 0;
					if (neg)
						num[n++] = '-';
					num[n++] = (char)('1' + x % 9);
					for (k = 1; k < ni; k++)
						num[n++] = (char)('0' +
						    (x >> (k % 60)) % 10);
					if (nf > 0)
						num[n++] = '.';
					for (k = 0; k < nf; k++)
						num[n++] = (char)('0' +
						    (x >> (k + 3)) % 10);
					num[n] = '\0';
					if (doc.len > 1)
						buf_addc(&doc, ',');
					if (obj)
						buf_add(&doc, "\"k\":", 4);
					buf_add(&doc, num, n);
				}
		buf_addc(&doc, obj ? '}' : ']');
		j = json_open_mem(doc.data, doc.len, "mem");
		while ((t = json_next(j)) != JT_EOF) {
			ck_assert_int_ne(t, JT_ERROR);
			if (t != JT_NUM || json_scaled(j, 3, &a) == -1)
				continue;
			s = json_text(j, &n);
			ck_assert_int_eq(trace_ns(s, n, &b), 0);
			ck_assert_msg(a == b, "%s: %lld, not %lld", s,
			    (long long)a, (long long)b);
			nok++;
		}
		json_close(j);
	}
	/* 1 to 15 integer digits, 0 to 3 decimals: 60 of each kind. */
	ck_assert_uint_eq(nok, 2 * 15 * 4 * 2);
	buf_free(&doc);
}
END_TEST

static Suite *
jsonfast_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("jsonfast");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_plain_lengths);
	tcase_add_test(tc, test_plain_escapes);
	tcase_add_test(tc, test_plain_keys);
	tcase_add_test(tc, test_plain_errors);
	tcase_add_test(tc, test_scaled);
	tcase_add_test(tc, test_scaled_ns);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	signal(SIGPIPE, SIG_IGN);
	return tu_run(jsonfast_suite());
}
