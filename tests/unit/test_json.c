/*
 * test_json.c: Check suite for the JSON tokenizer (common/json/json.c).
 *
 * Most tests turn a document into a one-line dump of its tokens (see
 * dump()) and compare that.  Input goes through json_open_mem(), through
 * a pipe fed in small pieces by a child (so tokens span many refills) and
 * through files that put a token across the first buffer boundary.  With
 * CORPUS set, every JSONTestSuite parsing case is checked too.
 */

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "json.h"

/* The read buffer size in json.c; the boundary tests aim at it. */
#define BUFSZ	(256 * 1024)

static char	*dump(struct json *, size_t);
static char	*dump_mem(const char *, size_t);
static char	*dump_str(const char *);
static char	*dump_pipe(const char *, size_t);
static char	*dump_file(const char *, size_t);
static FILE	*tmpdoc(const char *, size_t);
static void	 numbers_doc(struct buf *, size_t);
static char	*dump_skips(const char *, size_t, size_t);
static char	*expand_skips(const char *);
static char	*boundary_doc(const char *, size_t, size_t *);
static struct json *open_str(const char *);
static char	*slurp(const char *, size_t *);
static int	 accepts(const char *, size_t);
static const char *corpus_dir(void);
static int	 idecision(const char *);
static char	*fail_output(const char *, int, int *);
static char	*trace(struct json *, int, struct buf *);
static char	*trace_doc(const char *, size_t, int, int, struct buf *);
static Suite	*json_suite(void);

/*
 * Append the token dump of the rest of j's input to a new string.  With
 * skip > 0, a number after which json_skipsame(skip) skipped K elements
 * is written "n:X*K".
 */
static char *
dump(struct json *j, size_t skip)
{
	struct buf b;
	enum json_tok t;
	const char *s;
	size_t len, i, k;
	char *r;

	buf_init(&b);
	for (;;) {
		if (b.len > 0)
			buf_addc(&b, ' ');
		t = json_next(j);
		switch (t) {
		case JT_OBJ:
			buf_adds(&b, "{");
			continue;
		case JT_OBJ_END:
			buf_adds(&b, "}");
			continue;
		case JT_ARR:
			buf_adds(&b, "[");
			continue;
		case JT_ARR_END:
			buf_adds(&b, "]");
			continue;
		case JT_TRUE:
			buf_adds(&b, "true");
			continue;
		case JT_FALSE:
			buf_adds(&b, "false");
			continue;
		case JT_NULL:
			buf_adds(&b, "null");
			continue;
		case JT_EOF:
			buf_adds(&b, "$");
			break;
		case JT_ERROR:
			buf_printf(&b, "!%llu:%llu: %s", json_line(j),
			    json_col(j), json_errmsg(j));
			break;
		case JT_KEY:
		case JT_STR:
		case JT_NUM:
			buf_adds(&b, t == JT_KEY ? "k:" : t == JT_STR ? "s:" :
			    "n:");
			s = json_text(j, &len);
			ck_assert_int_eq(s[len], '\0');
			for (i = 0; i < len; i++) {
				if (s[i] > ' ' && s[i] < 0x7f && s[i] != '\\')
					buf_addc(&b, s[i]);
				else
					buf_printf(&b, "\\x%02x",
					    (unsigned char)s[i]);
			}
			if (t == JT_NUM && skip > 0 &&
			    (k = json_skipsame(j, skip)) > 0) {
				buf_printf(&b, "*%zu", k);
				/* The text read stays the number's. */
				ck_assert_ptr_eq(json_text(j, &i), s);
				ck_assert_uint_eq(i, len);
			}
			continue;
		}
		break;
	}
	r = xstrdup(b.data);
	buf_free(&b);
	return r;
}

/* Dump a memory block. */
static char *
dump_mem(const char *s, size_t len)
{
	struct json *j;
	char *r;

	j = json_open_mem(s, len, "mem");
	r = dump(j, 0);
	json_close(j);
	return r;
}

/* Dump a string through memory, then check a pipe gives the same. */
static char *
dump_str(const char *s)
{
	char *r, *p;

	r = dump_mem(s, strlen(s));
	p = dump_pipe(s, strlen(s));
	ck_assert_str_eq(p, r);
	free(p);
	return r;
}

/* Dump a memory block fed through a pipe a few bytes at a time. */
static char *
dump_pipe(const char *s, size_t len)
{
	struct json *j;
	size_t off, n;
	pid_t pid;
	int fds[2], st;
	char *r;

	ck_assert_int_eq(pipe(fds), 0);
	if ((pid = fork()) == -1)
		ck_abort_msg("fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		for (off = 0, n = 1; off < len; off += n, n = n % 13 + 1) {
			if (n > len - off)
				n = len - off;
			if (write(fds[1], s + off, n) != (ssize_t)n)
				_exit(1);
		}
		_exit(0);
	}
	close(fds[1]);
	j = json_open(fds[0], "pipe");
	r = dump(j, 0);
	json_close(j);
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return r;
}

/* Dump a memory block written to a temporary file. */
static char *
dump_file(const char *s, size_t len)
{
	struct json *j;
	FILE *fp;
	char *r;

	fp = tmpdoc(s, len);
	j = json_open(fileno(fp), "file");
	r = dump(j, 0);
	json_close(j);
	fclose(fp);
	return r;
}

/* A temporary file holding s[0..len), read from its start. */
static FILE *
tmpdoc(const char *s, size_t len)
{
	FILE *fp;

	ck_assert_ptr_nonnull(fp = tmpfile());
	ck_assert_uint_eq(fwrite(s, 1, len, fp), len);
	ck_assert_int_eq(fflush(fp), 0);
	ck_assert_int_eq(lseek(fileno(fp), 0, SEEK_SET), 0);
	return fp;
}

/*
 * Into b, {"a":[...],"b":"x"} with n numbers in the array, a hundred
 * a line: a big document of many tokens.
 */
static void
numbers_doc(struct buf *b, size_t n)
{
	size_t i;

	buf_adds(b, "{\"a\":[");
	for (i = 0; i < n; i++)
		buf_printf(b, "%s%zu", i ? (i % 100 ? "," : ",\n") : "",
		    i * 7);
	buf_adds(b, "],\"b\":\"x\"}");
}

/*
 * A document "[ ... 0,T,1]" with the first buffer boundary k bytes into
 * "0,T,1]" (so a ',' right before T makes the fast path meet it).
 */
static char *
boundary_doc(const char *t, size_t k, size_t *lenp)
{
	size_t tl, pad, len;
	char *s;

	tl = strlen(t);
	pad = BUFSZ - 1 - k;
	len = 1 + pad + 2 + tl + 3;
	s = xmalloc(len + 1);
	s[0] = '[';
	memset(s + 1, k % 2 ? ' ' : '\n', pad);
	memcpy(s + 1 + pad, "0,", 2);
	memcpy(s + 3 + pad, t, tl);
	memcpy(s + 3 + pad + tl, ",1]", 4);
	*lenp = len;
	return s;
}

/*
 * The tokens of j down to depth 1 with their kinds and positions, the
 * elements of the arrays at depth 2 left out.  With raw, those arrays
 * whose raw bytes are digits, ',' and spaces (as a caller knows valid
 * ones) are skipped with json_rawskip(), their bytes added to texts (if
 * not NULL), each followed by a '|'; with raw 2, runs of them are first
 * skipped with json_rawtake(), at most 3 at once.
 */
static char *
trace(struct json *j, int raw, struct buf *texts)
{
	struct buf b;
	struct json_raw ra[3];
	enum json_tok t;
	unsigned long long off, line, col;
	const char *s;
	size_t len, i, n;
	char *r;

	buf_init(&b);
	for (;;) {
		n = raw == 2 && json_depth(j) == 1 ?
		    json_rawarrays(j, ra, 3) : 0;
		for (i = 0; i < n && strspn(ra[i].p, "0123456789, ") >=
		    ra[i].len; i++) {
			off = json_rawplace(j, &ra[i], &line, &col);
			buf_printf(&b, "[@%llu:%llu:%llu ", line, col, off);
			buf_printf(&b, "%d@%llu:%llu:%llu ", JT_ARR_END, line,
			    col + 1 + ra[i].len, off + 1 + ra[i].len);
			if (texts != NULL) {
				buf_add(texts, ra[i].p, ra[i].len);
				buf_addc(texts, '|');
			}
		}
		if (i > 0) {
			ck_assert_int_eq(json_rawtake(j, ra, i), 0);
			ck_assert_uint_eq(json_offset(j), off + 1 +
			    ra[i - 1].len);
			ck_assert_uint_eq(json_line(j), line);
			ck_assert_uint_eq(json_col(j), col + 1 +
			    ra[i - 1].len);
			if (i == n)
				continue;
		}
		t = json_next(j);
		if (t == JT_ERROR) {
			buf_printf(&b, "!%llu:%llu: %s", json_line(j),
			    json_col(j), json_errmsg(j));
			break;
		}
		if (t == JT_EOF) {
			buf_printf(&b, "$@%llu", json_offset(j));
			break;
		}
		if (t == JT_ARR && json_depth(j) == 2) {
			buf_printf(&b, "[@%llu:%llu:%llu ", json_line(j),
			    json_col(j), json_offset(j));
			if (!raw || json_rawarray(j, &s, &len) == -1 ||
			    strspn(s, "0123456789, ") < len)
				continue;
			if (texts != NULL) {
				buf_add(texts, s, len);
				buf_addc(texts, '|');
			}
			ck_assert_int_eq(json_rawskip(j, len), 0);
			t = JT_ARR_END;
		}
		if (json_depth(j) <= 1)
			buf_printf(&b, "%d@%llu:%llu:%llu ", t, json_line(j),
			    json_col(j), json_offset(j));
	}
	r = xstrdup(b.data);
	buf_free(&b);
	return r;
}

/*
 * trace() of a memory block read from memory (how 0), from a pipe fed a
 * few bytes at a time (1) or from a file (2).
 */
static char *
trace_doc(const char *s, size_t len, int how, int raw, struct buf *texts)
{
	struct json *j;
	size_t off, n;
	pid_t pid = -1;
	int fds[2] = { -1, -1 }, st;
	FILE *fp = NULL;
	char *r;

	if (how == 0)
		j = json_open_mem(s, len, "mem");
	else if (how == 1) {
		ck_assert_int_eq(pipe(fds), 0);
		if ((pid = fork()) == -1)
			ck_abort_msg("fork: %s", strerror(errno));
		if (pid == 0) {
			close(fds[0]);
			for (off = 0, n = 1; off < len; off += n,
			    n = n % 61 + 1) {
				if (n > len - off)
					n = len - off;
				if (write(fds[1], s + off, n) != (ssize_t)n)
					_exit(1);
			}
			_exit(0);
		}
		close(fds[1]);
		j = json_open(fds[0], "pipe");
	} else {
		fp = tmpdoc(s, len);
		j = json_open(fileno(fp), "file");
	}
	r = trace(j, raw, texts);
	json_close(j);
	if (how == 1) {
		close(fds[0]);
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	} else if (how == 2)
		fclose(fp);
	return r;
}

/* Open a tokenizer on a string. */
static struct json *
open_str(const char *s)
{
	return json_open_mem(s, strlen(s), "mem");
}

/* Read a whole file. */
static char *
slurp(const char *path, size_t *lenp)
{
	struct stat sb;
	ssize_t n;
	char *s;
	int fd;

	ck_assert_msg((fd = open(path, O_RDONLY)) != -1, "%s: %s", path,
	    strerror(errno));
	ck_assert_int_eq(fstat(fd, &sb), 0);
	s = xmalloc(sb.st_size + 1);
	n = read(fd, s, sb.st_size);
	ck_assert_int_eq(n, sb.st_size);
	close(fd);
	*lenp = n;
	return s;
}

/* Whether a document tokenizes to JT_EOF; also through a pipe. */
static int
accepts(const char *s, size_t len)
{
	char *a, *b;
	int ok;

	a = dump_mem(s, len);
	b = dump_pipe(s, len);
	ck_assert_str_eq(b, a);
	ok = a[strlen(a) - 1] == '$';
	free(a);
	free(b);
	return ok;
}

/* The JSONTestSuite parsing cases, or NULL without the corpus. */
static const char *
corpus_dir(void)
{
	static char path[PATH_MAX];
	struct stat sb;
	const char *c;

	if ((c = getenv("CORPUS")) == NULL)
		return NULL;
	snprintf(path, sizeof(path), "%s/JSONTestSuite/test_parsing", c);
	if (stat(path, &sb) == -1 || !S_ISDIR(sb.st_mode))
		return NULL;
	return path;
}

/*
 * The implementation-defined cases: 1 accept, 0 reject.  Numbers are
 * accepted whatever their size (json_int/json_double say whether they
 * fit); lone surrogates become WTF-8; invalid UTF-8 is passed through;
 * UTF-16 is not JSON text for us; 500 levels are within JSON_MAXDEPTH;
 * a UTF-8 BOM is skipped.
 */
static const struct {
	const char	*name;
	int		 accept;
} idecisions[] = {
	{ "i_number_double_huge_neg_exp.json", 1 },
	{ "i_number_huge_exp.json", 1 },
	{ "i_number_neg_int_huge_exp.json", 1 },
	{ "i_number_pos_double_huge_exp.json", 1 },
	{ "i_number_real_neg_overflow.json", 1 },
	{ "i_number_real_pos_overflow.json", 1 },
	{ "i_number_real_underflow.json", 1 },
	{ "i_number_too_big_neg_int.json", 1 },
	{ "i_number_too_big_pos_int.json", 1 },
	{ "i_number_very_big_negative_int.json", 1 },
	{ "i_object_key_lone_2nd_surrogate.json", 1 },
	{ "i_string_1st_surrogate_but_2nd_missing.json", 1 },
	{ "i_string_1st_valid_surrogate_2nd_invalid.json", 1 },
	{ "i_string_UTF-16LE_with_BOM.json", 0 },
	{ "i_string_UTF-8_invalid_sequence.json", 1 },
	{ "i_string_UTF8_surrogate_U+D800.json", 1 },
	{ "i_string_incomplete_surrogate_and_escape_valid.json", 1 },
	{ "i_string_incomplete_surrogate_pair.json", 1 },
	{ "i_string_incomplete_surrogates_escape_valid.json", 1 },
	{ "i_string_invalid_lonely_surrogate.json", 1 },
	{ "i_string_invalid_surrogate.json", 1 },
	{ "i_string_invalid_utf-8.json", 1 },
	{ "i_string_inverted_surrogates_U+1D11E.json", 1 },
	{ "i_string_iso_latin_1.json", 1 },
	{ "i_string_lone_second_surrogate.json", 1 },
	{ "i_string_lone_utf8_continuation_byte.json", 1 },
	{ "i_string_not_in_unicode_range.json", 1 },
	{ "i_string_overlong_sequence_2_bytes.json", 1 },
	{ "i_string_overlong_sequence_6_bytes.json", 1 },
	{ "i_string_overlong_sequence_6_bytes_null.json", 1 },
	{ "i_string_truncated-utf-8.json", 1 },
	{ "i_string_utf16BE_no_BOM.json", 0 },
	{ "i_string_utf16LE_no_BOM.json", 0 },
	{ "i_structure_500_nested_arrays.json", 1 },
	{ "i_structure_UTF-8_BOM_empty_object.json", 1 },
};

/* The decision for an i_ case, or -1 if there is none. */
static int
idecision(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(idecisions) / sizeof(idecisions[0]); i++)
		if (strcmp(idecisions[i].name, name) == 0)
			return idecisions[i].accept;
	return -1;
}

/*
 * Run xjson_fail() in a child on the document s after n tokens and return
 * its stderr; *stp gets its exit status.  With n < 0, read until the
 * error and report json_errmsg().
 */
static char *
fail_output(const char *s, int n, int *stp)
{
	struct json *j;
	struct buf b;
	char chunk[256];
	ssize_t r;
	pid_t pid;
	int fds[2], st;
	char *out;

	ck_assert_int_eq(pipe(fds), 0);
	fflush(stdout);
	if ((pid = fork()) == -1)
		ck_abort_msg("fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		j = json_open_mem(s, strlen(s), "doc.json");
		if (n < 0) {
			while (json_next(j) != JT_ERROR)
				continue;
			xjson_fail(j, "%s", json_errmsg(j));
		}
		while (n-- > 0)
			json_next(j);
		xjson_fail(j, "bad %s #%d", "thing", 7);
	}
	close(fds[1]);
	buf_init(&b);
	while ((r = read(fds[0], chunk, sizeof(chunk))) > 0)
		buf_add(&b, chunk, r);
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	*stp = WEXITSTATUS(st);
	out = xstrdup(b.data);
	buf_free(&b);
	return out;
}

START_TEST(test_tokens)
{
	char *r;

	r = dump_str("{\"a\":[1,-2.5e3,\"x\",true,false,null,{},[]],"
	    "\"b\":{\"c\":0}}");
	ck_assert_str_eq(r, "{ k:a [ n:1 n:-2.5e3 s:x true false null { } "
	    "[ ] ] k:b { k:c n:0 } } $");
	free(r);
	r = dump_str("\"top\"");
	ck_assert_str_eq(r, "s:top $");
	free(r);
	r = dump_str(" 42 ");
	ck_assert_str_eq(r, "n:42 $");
	free(r);
	r = dump_str("null");
	ck_assert_str_eq(r, "null $");
	free(r);
	r = dump_str("[\"\",{\"\":\"\"}]");
	ck_assert_str_eq(r, "[ s: { k: s: } ] $");
	free(r);
}
END_TEST

START_TEST(test_token_text)
{
	struct json *j;
	const char *s;
	size_t len;

	j = open_str("[12,\"ab\",{\"k\":3}]");
	ck_assert_int_eq(json_next(j), JT_ARR);
	s = json_text(j, &len);
	ck_assert_str_eq(s, "");
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(json_next(j), JT_NUM);
	s = json_text(j, &len);
	ck_assert_uint_eq(len, 2);
	ck_assert_str_eq(s, "12");
	ck_assert_int_eq(json_next(j), JT_STR);
	ck_assert_str_eq(json_text(j, NULL), "ab");
	ck_assert_int_eq(json_next(j), JT_OBJ);
	ck_assert_int_eq(json_next(j), JT_KEY);
	ck_assert_str_eq(json_text(j, &len), "k");
	ck_assert_uint_eq(len, 1);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_str_eq(json_text(j, &len), "3");
	ck_assert_int_eq(json_next(j), JT_OBJ_END);
	ck_assert_int_eq(json_next(j), JT_ARR_END);
	ck_assert_int_eq(json_next(j), JT_EOF);
	ck_assert_int_eq(json_next(j), JT_EOF);
	ck_assert_uint_eq(json_consumed(j), 17);
	json_close(j);
}
END_TEST

START_TEST(test_escapes)
{
	struct json *j;
	const char *s;
	size_t len;

	j = open_str("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20AC\"");
	ck_assert_int_eq(json_next(j), JT_STR);
	s = json_text(j, &len);
	ck_assert_uint_eq(len, 14);
	ck_assert_mem_eq(s, "\"\\/\b\f\n\r\tA\xc3\xa9\xe2\x82\xac", 15);
	ck_assert_int_eq(json_next(j), JT_EOF);
	json_close(j);
}
END_TEST

START_TEST(test_surrogates)
{
	char *r;

	/* A pair is one code point: U+1F600. */
	r = dump_str("[\"\\ud83d\\ude00\",\"\\uD834\\uDD1E\"]");
	ck_assert_str_eq(r, "[ s:\\xf0\\x9f\\x98\\x80 "
	    "s:\\xf0\\x9d\\x84\\x9e ] $");
	free(r);
	/* Lone surrogates are WTF-8. */
	r = dump_str("[\"\\ud800\",\"\\udfaa\",\"a\\ud800b\"]");
	ck_assert_str_eq(r, "[ s:\\xed\\xa0\\x80 s:\\xed\\xbe\\xaa "
	    "s:a\\xed\\xa0\\x80b ] $");
	free(r);
	/* A high one followed by a non-low escape, or by another high. */
	r = dump_str("[\"\\ud800\\u0041\",\"\\ud800\\ud800\\udc00\","
	    "\"\\udc00\\ud800\",\"\\ud800\\n\"]");
	ck_assert_str_eq(r, "[ s:\\xed\\xa0\\x80A s:\\xed\\xa0\\x80\\xf0\\x90"
	    "\\x80\\x80 s:\\xed\\xb0\\x80\\xed\\xa0\\x80 "
	    "s:\\xed\\xa0\\x80\\x0a ]"
	    " $");
	free(r);
	/* A bad escape after a high surrogate is still an error. */
	r = dump_str("[\"\\ud800\\u12x4\"]");
	ck_assert_str_eq(r, "[ !1:13: invalid \\u escape");
	free(r);
}
END_TEST

START_TEST(test_nul_escape)
{
	struct json *j;
	const char *s;
	size_t len;

	j = open_str("{\"a\\u0000b\":\"\\u0000\"}");
	ck_assert_int_eq(json_next(j), JT_OBJ);
	ck_assert_int_eq(json_next(j), JT_KEY);
	s = json_text(j, &len);
	ck_assert_uint_eq(len, 3);
	ck_assert_mem_eq(s, "a\0b", 4);
	ck_assert_int_eq(json_next(j), JT_STR);
	s = json_text(j, &len);
	ck_assert_uint_eq(len, 1);
	ck_assert_mem_eq(s, "\0", 2);
	json_close(j);
}
END_TEST

START_TEST(test_raw_bytes)
{
	char *r;

	/* Valid and invalid UTF-8 alike pass through byte for byte. */
	r = dump_str("[\"\xc3\xa9\",\"\xff\xfe\x80\",\"\xed\xa0\x80\"]");
	ck_assert_str_eq(r, "[ s:\\xc3\\xa9 s:\\xff\\xfe\\x80 "
	    "s:\\xed\\xa0\\x80 ] $");
	free(r);
	r = dump_str("[\"\x7f\"]");
	ck_assert_str_eq(r, "[ s:\\x7f ] $");
	free(r);
}
END_TEST

START_TEST(test_numbers)
{
	char *r;

	r = dump_str("[0,-0,1,-1,10,0.5,-0.5,1e5,1E5,1e+5,1e-5,-1.25E-10,"
	    "0e0,123456789012345678901234567890]");
	ck_assert_str_eq(r, "[ n:0 n:-0 n:1 n:-1 n:10 n:0.5 n:-0.5 n:1e5 "
	    "n:1E5 n:1e+5 n:1e-5 n:-1.25E-10 n:0e0 "
	    "n:123456789012345678901234567890 ] $");
	free(r);
	/* The fast path and the general one agree. */
	r = dump_str("[ 1 , 2.5 ,3e1,\n4]");
	ck_assert_str_eq(r, "[ n:1 n:2.5 n:3e1 n:4 ] $");
	free(r);
	r = dump_str("[0,1234567,12345678,0.1234567,0.12345678,1.5e3,-1,"
	    "10.0,7 ,8\n,9]");
	ck_assert_str_eq(r, "[ n:0 n:1234567 n:12345678 n:0.1234567 "
	    "n:0.12345678 n:1.5e3 n:-1 n:10.0 n:7 n:8 n:9 ] $");
	free(r);
	r = dump_str("[[1,2],[3,4]]");
	ck_assert_str_eq(r, "[ [ n:1 n:2 ] [ n:3 n:4 ] ] $");
	free(r);
	r = dump_str("{\"a\":1,\"b\":2.5}");
	ck_assert_str_eq(r, "{ k:a n:1 k:b n:2.5 } $");
	free(r);
}
END_TEST

START_TEST(test_json_int)
{
	static const struct {
		const char	*text;
		int		 ok;
		long long	 v;
	} t[] = {
		{ "0", 0, 0 },
		{ "-0", 0, 0 },
		{ "7", 0, 7 },
		{ "-7", 0, -7 },
		{ "12345678", 0, 12345678 },
		{ "-87654321", 0, -87654321 },
		{ "123456789", 0, 123456789 },
		{ "100000000", 0, 100000000 },
		{ "9223372036854775807", 0, LLONG_MAX },
		{ "-9223372036854775808", 0, LLONG_MIN },
		{ "9223372036854775808", -1, 0 },
		{ "-9223372036854775809", -1, 0 },
		{ "99999999999999999999", -1, 0 },
		{ "1.0", -1, 0 },
		{ "1e2", -1, 0 },
		{ "-0.0", -1, 0 },
	};
	struct json *j;
	char doc[64];
	long long v;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(doc, sizeof(doc), "[1,%s]", t[i].text);
		j = open_str(doc);
		ck_assert_int_eq(json_next(j), JT_ARR);
		ck_assert_int_eq(json_next(j), JT_NUM);
		ck_assert_int_eq(json_next(j), JT_NUM);
		v = 12345;
		ck_assert_msg(json_int(j, &v) == t[i].ok, "%s", t[i].text);
		if (t[i].ok == 0)
			ck_assert_msg(v == t[i].v, "%s: %lld", t[i].text, v);
		json_close(j);
	}
	/* Not after a non-number. */
	j = open_str("[\"1\"]");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_int(j, &v), -1);
	ck_assert_int_eq(json_next(j), JT_STR);
	ck_assert_int_eq(json_int(j, &v), -1);
	json_close(j);
}
END_TEST

START_TEST(test_json_int_many)
{
	struct buf b;
	struct json *j;
	long long want[2000], v;
	unsigned long long x;
	int i, n, digits;

	/* Every length from 1 to 19 digits, both signs, fast and slow. */
	buf_init(&b);
	buf_adds(&b, "[");
	x = 88172645463325252ULL;
	for (n = 0; n < 2000; n++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		digits = n % 19 + 1;
		want[n] = (long long)(x % 9000000000000000000ULL);
		for (i = digits; i < 19; i++)
			want[n] /= 10;
		if (n % 3 == 1)
			want[n] = -want[n];
		buf_printf(&b, n % 5 == 4 ? " %lld ," : "%lld,", want[n]);
	}
	b.data[b.len - 1] = ']';
	j = json_open_mem(b.data, b.len, "mem");
	ck_assert_int_eq(json_next(j), JT_ARR);
	for (n = 0; n < 2000; n++) {
		ck_assert_int_eq(json_next(j), JT_NUM);
		ck_assert_int_eq(json_int(j, &v), 0);
		ck_assert_msg(v == want[n], "%d: %lld != %lld", n, v, want[n]);
	}
	ck_assert_int_eq(json_next(j), JT_ARR_END);
	ck_assert_int_eq(json_next(j), JT_EOF);
	json_close(j);
	buf_free(&b);
}
END_TEST

START_TEST(test_json_double)
{
	static const char *t[] = {
		"0", "-0", "0.1", "0.01", "0.001", "1.5", "-2.5e3", "1e-400",
		"123456789012345", "1234567890123456", "0.1234567890123456",
		"9007199254740993", "2.2250738585072014e-308", "1e22", "1e23",
		"123.456", "-0.000001", "999999999999999.9", "17.000000000001"
	};
	struct json *j;
	struct buf b;
	double d, want;
	char doc[64];
	unsigned long long x;
	size_t i;
	int n;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(doc, sizeof(doc), "[1,%s]", t[i]);
		j = open_str(doc);
		json_next(j);
		json_next(j);
		ck_assert_int_eq(json_next(j), JT_NUM);
		ck_assert_int_eq(json_double(j, &d), 0);
		want = strtod(t[i], NULL);
		ck_assert_msg(memcmp(&d, &want, sizeof(d)) == 0, "%s: %.17g",
		    t[i], d);
		json_close(j);
	}
	/* Overflow to infinity fails; so does a non-number. */
	j = open_str("[1e400,-1e400,true]");
	json_next(j);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_int_eq(json_double(j, &d), -1);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_int_eq(json_double(j, &d), -1);
	ck_assert_int_eq(json_next(j), JT_TRUE);
	ck_assert_int_eq(json_double(j, &d), -1);
	json_close(j);
	/* Random short decimals agree with strtod() bit for bit. */
	buf_init(&b);
	x = 2463534242ULL;
	for (n = 0; n < 3000; n++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf_reset(&b);
		buf_printf(&b, "[%s%llu.%0*llu]", n % 2 ? "-" : "",
		    x % 100000, (int)(x >> 40) % 11 + 1,
		    (x >> 8) % 10000000000ULL);
		j = json_open_mem(b.data, b.len, "mem");
		json_next(j);
		ck_assert_int_eq(json_next(j), JT_NUM);
		ck_assert_int_eq(json_double(j, &d), 0);
		want = strtod(b.data + 1, NULL);
		ck_assert_msg(memcmp(&d, &want, sizeof(d)) == 0, "%s", b.data);
		json_close(j);
	}
	buf_free(&b);
}
END_TEST

START_TEST(test_depth)
{
	static const int want[] = { 1, 1, 2, 2, 3, 3, 3, 2, 1, 0, 0 };
	struct json *j;
	int i;

	j = open_str("{\"a\":[1,{\"b\":2}]}");
	for (i = 0; i < 11; i++) {
		json_next(j);
		ck_assert_msg(json_depth(j) == want[i], "token %d: depth %d",
		    i, json_depth(j));
	}
	json_close(j);
}
END_TEST

START_TEST(test_max_depth)
{
	char s[2 * (JSON_MAXDEPTH + 1) + 1];
	struct json *j;
	int i;

	memset(s, '[', JSON_MAXDEPTH);
	memset(s + JSON_MAXDEPTH, ']', JSON_MAXDEPTH);
	s[2 * JSON_MAXDEPTH] = '\0';
	ck_assert(accepts(s, strlen(s)));
	j = open_str(s);
	for (i = 0; i < JSON_MAXDEPTH; i++)
		ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_depth(j), JSON_MAXDEPTH);
	json_close(j);

	memset(s, '[', JSON_MAXDEPTH + 1);
	memset(s + JSON_MAXDEPTH + 1, ']', JSON_MAXDEPTH + 1);
	s[2 * (JSON_MAXDEPTH + 1)] = '\0';
	j = open_str(s);
	for (i = 0; i < JSON_MAXDEPTH; i++)
		ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_next(j), JT_ERROR);
	ck_assert_str_eq(json_errmsg(j), "nesting too deep");
	ck_assert_uint_eq(json_offset(j), JSON_MAXDEPTH);
	ck_assert_uint_eq(json_col(j), JSON_MAXDEPTH + 1);
	json_close(j);
}
END_TEST

START_TEST(test_errors)
{
	static const struct {
		const char	*in;
		const char	*out;
	} t[] = {
		{ "", "!1:1: empty input" },
		{ " \n\t\r ", "!2:4: empty input" },
		{ "[1,]", "[ n:1 !1:4: trailing comma" },
		{ "[1 ,]", "[ n:1 !1:5: trailing comma" },
		{ "{\"a\":1,}", "{ k:a n:1 !1:8: trailing comma" },
		{ "{\"a\" 1}", "{ !1:6: expected ':'" },
		{ "{\"a\"}", "{ !1:5: expected ':'" },
		{ "{\"a\":}", "{ k:a !1:6: unexpected character '}'" },
		{ "{1:2}", "{ !1:2: expected string key" },
		{ "{\"a\":1 \"b\":2}", "{ k:a n:1 !1:8: expected ',' or '}'" },
		{ "[1 2]", "[ n:1 !1:4: expected ',' or ']'" },
		{ "[1}", "[ n:1 !1:3: expected ',' or ']'" },
		{ "{\"a\":1]", "{ k:a n:1 !1:7: expected ',' or '}'" },
		{ "[1,,2]", "[ n:1 !1:4: unexpected character ','" },
		{ "[x]", "[ !1:2: unexpected character 'x'" },
		{ "[\x01]", "[ !1:2: unexpected byte 0x01" },
		{ "[\xc3\xa9]", "[ !1:2: unexpected byte 0xc3" },
		{ "\"a\\x\"", "!1:4: invalid escape" },
		{ "\"\\u12G4\"", "!1:6: invalid \\u escape" },
		{ "\"a\tb\"", "!1:3: control character in string" },
		{ "\"a\nb\"", "!1:3: control character in string" },
		{ "[01]", "[ !1:3: invalid number" },
		{ "[-01]", "[ !1:4: invalid number" },
		{ "[1.]", "[ !1:4: invalid number" },
		{ "[.5]", "[ !1:2: unexpected character '.'" },
		{ "[1e]", "[ !1:4: invalid number" },
		{ "[1e+]", "[ !1:5: invalid number" },
		{ "[1.5.2]", "[ !1:5: invalid number" },
		{ "[1,2-3]", "[ n:1 !1:5: invalid number" },
		{ "[1,0x1f]", "[ n:1 n:0 !1:5: expected ',' or ']'" },
		{ "[-]", "[ !1:3: invalid number" },
		{ "[+1]", "[ !1:2: unexpected character '+'" },
		{ "[tru]", "[ !1:5: invalid literal" },
		{ "[nul", "[ !1:5: unexpected end of input" },
		{ "[True]", "[ !1:2: unexpected character 'T'" },
		{ "[truex]", "[ true !1:6: expected ',' or ']'" },
		{ "1 2", "n:1 !1:3: trailing data after JSON value" },
		{ "{}}", "{ } !1:3: trailing data after JSON value" },
		{ "[]\n\n  x", "[ ] !3:3: trailing data after JSON value" },
		{ "1\0", "n:1 $" },
		{ "]", "!1:1: unexpected character ']'" },
		{ "[1,\n2,\n33, ?]",
		    "[ n:1 n:2 n:33 !3:5: unexpected character '?'" },
		{ "[\"abc", "[ !1:6: unexpected end of input" },
		{ "[\"abc\\", "[ !1:7: unexpected end of input" },
		{ "[\"\\u12", "[ !1:7: unexpected end of input" },
		{ "{\"a\"", "{ !1:5: unexpected end of input" },
		{ "{\"a\":", "{ k:a !1:6: unexpected end of input" },
		{ "[1", "[ n:1 !1:3: unexpected end of input" },
		{ "[1,", "[ n:1 !1:4: unexpected end of input" },
		{ "{", "{ !1:2: unexpected end of input" },
		{ "[1\f]", "[ n:1 !1:3: expected ',' or ']'" },
	};
	char *r;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		r = dump_str(t[i].in);
		ck_assert_msg(strcmp(r, t[i].out) == 0, "%s: got \"%s\"",
		    t[i].in, r);
		free(r);
	}
	/* A NUL byte in the data is not the end of it. */
	r = dump_mem("1\0", 2);
	ck_assert_str_eq(r, "n:1 !1:2: trailing data after JSON value");
	free(r);
	r = dump_mem("[1,\0]", 5);
	ck_assert_str_eq(r, "[ n:1 !1:4: unexpected byte 0x00");
	free(r);
	r = dump_mem("\"a\0\"", 4);
	ck_assert_str_eq(r, "!1:3: control character in string");
	free(r);
}
END_TEST

START_TEST(test_error_position)
{
	struct json *j;

	j = open_str("{\n  \"a\": [1,\n    2, x]\n}");
	while (json_next(j) != JT_ERROR)
		continue;
	ck_assert_str_eq(json_errmsg(j), "unexpected character 'x'");
	ck_assert_uint_eq(json_line(j), 3);
	ck_assert_uint_eq(json_col(j), 8);
	ck_assert_uint_eq(json_offset(j), 20);
	/* Errors stick. */
	ck_assert_int_eq(json_next(j), JT_ERROR);
	ck_assert_int_eq(json_next(j), JT_ERROR);
	ck_assert_uint_eq(json_line(j), 3);
	json_close(j);
}
END_TEST

START_TEST(test_truncated)
{
	static const char doc[] = "{\"a\": [1, -2.5e3, \"x\\u00e9y\", true, "
	    "false, null, {\"b\": []}], \"c\": \"\\ud83d\\ude00\"}";
	size_t n, len;
	char *r, *p;

	/* Every proper prefix is an error at its end. */
	len = strlen(doc);
	for (n = 0; n < len; n++) {
		r = dump_mem(doc, n);
		p = strrchr(r, '!');
		ck_assert_msg(p != NULL, "prefix %zu: %s", n, r);
		if (n == 0)
			ck_assert_str_eq(p, "!1:1: empty input");
		else
			ck_assert_msg(strstr(p, ": unexpected end of input") !=
			    NULL, "prefix %zu: %s", n, r);
		free(r);
	}
	ck_assert(accepts(doc, len));
}
END_TEST

START_TEST(test_bom)
{
	struct json *j;
	char *r;

	r = dump_str("\xef\xbb\xbf{}");
	ck_assert_str_eq(r, "{ } $");
	free(r);
	r = dump_str("\xef\xbb\xbf");
	ck_assert_str_eq(r, "!1:1: empty input");
	free(r);
	r = dump_str("\xef\xbb\xbf x");
	ck_assert_str_eq(r, "!1:2: unexpected character 'x'");
	free(r);
	r = dump_str("\xef\xbb{}");
	ck_assert_str_eq(r, "!1:1: unexpected byte 0xef");
	free(r);
	r = dump_str(" \xef\xbb\xbf{}");
	ck_assert_str_eq(r, "!1:2: unexpected byte 0xef");
	free(r);
	r = dump_str("[\xef\xbb\xbf]");
	ck_assert_str_eq(r, "[ !1:2: unexpected byte 0xef");
	free(r);
	/* Offsets count the BOM, columns do not. */
	j = open_str("\xef\xbb\xbf[1]");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_uint_eq(json_offset(j), 3);
	ck_assert_uint_eq(json_col(j), 1);
	json_close(j);
}
END_TEST

START_TEST(test_pretty)
{
	struct json *j;
	char *r;

	r = dump_str("{\r\n\t\"samples\": [\r\n\t\t[1, 2],\r\n\t\t[3]\r\n\t],"
	    "\r\n\t\"weights\" : [ 0.5 , 0.25 ]\r\n}\r\n");
	ck_assert_str_eq(r, "{ k:samples [ [ n:1 n:2 ] [ n:3 ] ] k:weights "
	    "[ n:0.5 n:0.25 ] } $");
	free(r);
	j = open_str("{\n  \"a\": 1,\n  \"bb\"\n   : [\n    true ] }\n");
	ck_assert_int_eq(json_next(j), JT_OBJ);
	ck_assert_uint_eq(json_line(j), 1);
	ck_assert_uint_eq(json_col(j), 1);
	ck_assert_int_eq(json_next(j), JT_KEY);
	ck_assert_uint_eq(json_line(j), 2);
	ck_assert_uint_eq(json_col(j), 3);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_uint_eq(json_line(j), 2);
	ck_assert_uint_eq(json_col(j), 8);
	/* A key keeps its own position when its ':' is on a later line. */
	ck_assert_int_eq(json_next(j), JT_KEY);
	ck_assert_uint_eq(json_line(j), 3);
	ck_assert_uint_eq(json_col(j), 3);
	ck_assert_uint_eq(json_offset(j), 14);
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_uint_eq(json_line(j), 4);
	ck_assert_uint_eq(json_col(j), 6);
	ck_assert_int_eq(json_next(j), JT_TRUE);
	ck_assert_uint_eq(json_line(j), 5);
	ck_assert_uint_eq(json_col(j), 5);
	ck_assert_int_eq(json_next(j), JT_ARR_END);
	ck_assert_int_eq(json_next(j), JT_OBJ_END);
	ck_assert_uint_eq(json_col(j), 12);
	ck_assert_int_eq(json_next(j), JT_EOF);
	ck_assert_uint_eq(json_line(j), 6);
	ck_assert_uint_eq(json_col(j), 1);
	json_close(j);
}
END_TEST

START_TEST(test_boundary)
{
	static const struct {
		const char	*in;
		const char	*out;
	} t[] = {
		{ "12345", "n:12345" },
		{ "1234567890123", "n:1234567890123" },
		{ "-0.5e-7", "n:-0.5e-7" },
		{ "0.001", "n:0.001" },
		{ "true", "true" },
		{ "false", "false" },
		{ "null", "null" },
		{ "\"plain\"", "s:plain" },
		{ "\"e\\n\\u00e9\\ud83d\\ude00\\\\\"",
		    "s:e\\x0a\\xc3\\xa9\\xf0\\x9f\\x98\\x80\\x5c" },
		{ "\"lone\\udbff\\u0041\"", "s:lone\\xed\\xaf\\xbfA" },
		{ "\"\\udbff\\udfff\"", "s:\\xf4\\x8f\\xbf\\xbf" },
		{ "\"\\u0000\"", "s:\\x00" },
		{ "{\"key\"  :  \"v\"}", "{ k:key s:v }" },
		{ "[]", "[ ]" },
		{ "{}", "{ }" },
		{ "[7,8]", "[ n:7 n:8 ]" },
	};
	char want[256], *doc, *r;
	size_t i, k, len;

	/* A token across the first refill, at every split, from memory. */
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(want, sizeof(want), "[ n:0 %s n:1 ] $", t[i].out);
		for (k = 0; k <= strlen(t[i].in) + 6; k++) {
			doc = boundary_doc(t[i].in, k, &len);
			r = dump_mem(doc, len);
			ck_assert_msg(strcmp(r, want) == 0, "%s at %zu: %s",
			    t[i].in, k, r);
			free(r);
			free(doc);
		}
	}
	/* And from files, for a few. */
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i += 4) {
		snprintf(want, sizeof(want), "[ n:0 %s n:1 ] $", t[i].out);
		for (k = 0; k <= strlen(t[i].in) + 6; k++) {
			doc = boundary_doc(t[i].in, k, &len);
			r = dump_file(doc, len);
			ck_assert_msg(strcmp(r, want) == 0, "%s at %zu: %s",
			    t[i].in, k, r);
			free(r);
			free(doc);
		}
	}
}
END_TEST

START_TEST(test_boundary_errors)
{
	struct json *j;
	char *doc;
	size_t len;

	/* Errors after a refill report the right position. */
	doc = boundary_doc("01", 3, &len);
	j = json_open_mem(doc, len, "mem");
	while (json_next(j) != JT_ERROR)
		continue;
	ck_assert_str_eq(json_errmsg(j), "invalid number");
	ck_assert_uint_eq(json_offset(j), BUFSZ);
	json_close(j);
	free(doc);
	doc = boundary_doc("\"ab\x01\"", 3, &len);
	j = json_open_mem(doc, len, "mem");
	while (json_next(j) != JT_ERROR)
		continue;
	ck_assert_str_eq(json_errmsg(j), "control character in string");
	ck_assert_uint_eq(json_offset(j), BUFSZ + 2);
	/* Padding of odd k is spaces: all on line 1. */
	ck_assert_uint_eq(json_line(j), 1);
	ck_assert_uint_eq(json_col(j), BUFSZ + 3);
	json_close(j);
	free(doc);
}
END_TEST

START_TEST(test_pipe)
{
	struct buf b;
	char *m, *p;
	int i;

	/* Many refills at odd places; the result must not change. */
	buf_init(&b);
	buf_adds(&b, "{\"profiles\": [\n");
	for (i = 0; i < 300; i++)
		buf_printf(&b, "  {\"name\": \"t\\u00e9%d\\ud83d\\ude00\", "
		    "\"samples\": [[%d,%d,3],[4]], \"weights\": [0.01,%d.5e-3],"
		    " \"x\": [true,false,null,{}]},\n", i, i, i * 7, i);
	buf_adds(&b, "  {}\n]}\n");
	m = dump_mem(b.data, b.len);
	ck_assert_int_eq(m[strlen(m) - 1], '$');
	p = dump_pipe(b.data, b.len);
	ck_assert_str_eq(p, m);
	free(p);
	p = dump_file(b.data, b.len);
	ck_assert_str_eq(p, m);
	free(p);
	free(m);
	buf_free(&b);
}
END_TEST

START_TEST(test_big_tokens)
{
	struct json *j;
	struct buf b;
	const char *s;
	char *a, *r;
	size_t len, i;

	/* Tokens bigger than the buffer: it grows, then shrinks back. */
	buf_init(&b);
	buf_adds(&b, "[\"");
	for (i = 0; i < 300000; i++)
		buf_adds(&b, i % 1000 == 0 ? "\\u00e9" : "abc");
	buf_adds(&b, "\",");
	for (i = 0; i < 1000000; i++)
		buf_addc(&b, '1' + i % 9);
	buf_adds(&b, ",\"");
	for (i = 0; i < 3 * BUFSZ; i++)
		buf_addc(&b, 'x');
	buf_adds(&b, "\",1,2]");
	j = json_open_mem(b.data, b.len, "mem");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_next(j), JT_STR);
	s = json_text(j, &len);
	ck_assert_uint_eq(len, 300 * 2 + 299700 * 3);
	ck_assert_mem_eq(s, "\xc3\xa9" "abcabc", 8);
	ck_assert_int_eq(s[len], '\0');
	ck_assert_int_eq(json_next(j), JT_NUM);
	s = json_text(j, &len);
	ck_assert_uint_eq(len, 1000000);
	ck_assert_mem_eq(s, "123456789123", 12);
	ck_assert_int_eq(json_next(j), JT_STR);
	json_text(j, &len);
	ck_assert_uint_eq(len, 3 * BUFSZ);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_int_eq(json_next(j), JT_ARR_END);
	ck_assert_int_eq(json_next(j), JT_EOF);
	json_close(j);
	/* The same from a file, read ahead by a thread. */
	a = dump_mem(b.data, b.len);
	r = dump_file(b.data, b.len);
	ck_assert(strcmp(a, r) == 0);
	free(a);
	free(r);
	buf_free(&b);
}
END_TEST

/*
 * A big file is read ahead by a thread: the same tokens as from memory,
 * and closing before the end stops the thread.
 */
START_TEST(test_readahead)
{
	struct json *j;
	struct buf b;
	FILE *fp;
	char *a, *r;

	buf_init(&b);
	numbers_doc(&b, 500000);
	a = dump_mem(b.data, b.len);
	r = dump_file(b.data, b.len);
	ck_assert(strcmp(a, r) == 0);
	free(a);
	free(r);
	fp = tmpdoc(b.data, b.len);
	j = json_open(fileno(fp), "file");
	ck_assert_int_eq(json_next(j), JT_OBJ);
	ck_assert_int_eq(json_next(j), JT_KEY);
	ck_assert_int_eq(json_next(j), JT_ARR);
	json_close(j);
	fclose(fp);
	buf_free(&b);
}
END_TEST

/* A thread that starts j's refills until told to stop. */
struct kicker {
	struct json	*j;
	atomic_int	 stop;
	size_t		 kicks;
};

static void *
kick(void *arg)
{
	struct kicker *k = arg;

	while (!k->stop) {
		json_kick(k->j);
		k->kicks++;
	}
	return NULL;
}

/*
 * Refills that wait for json_kick() (json_lazyahead()): started by
 * another thread, or by the reading one when it needs their data; the
 * same tokens either way, and closing before the end stops the reader.
 */
START_TEST(test_lazyahead)
{
	struct json *j;
	struct kicker k;
	pthread_t th;
	struct buf b;
	FILE *fp;
	char *a, *r;
	int n;

	buf_init(&b);
	numbers_doc(&b, 160000);
	ck_assert_uint_gt(b.len, 1 << 20);
	a = dump_mem(b.data, b.len);
	fp = tmpdoc(b.data, b.len);
	for (n = 0; n < 3; n++) {
		ck_assert_int_eq(lseek(fileno(fp), 0, SEEK_SET), 0);
		j = json_open(fileno(fp), "file");
		json_lazyahead(j, 1);
		k.j = j;
		k.stop = 0;
		k.kicks = 0;
		if (n == 1)
			ck_assert_int_eq(pthread_create(&th, NULL, kick, &k),
			    0);
		if (n == 2) {
			/* Closed before the end, a refill waiting. */
			ck_assert_int_eq(json_next(j), JT_OBJ);
			ck_assert_int_eq(json_next(j), JT_KEY);
			ck_assert_int_eq(json_next(j), JT_ARR);
			json_close(j);
			continue;
		}
		r = dump(j, 0);
		if (n == 1) {
			k.stop = 1;
			ck_assert_int_eq(pthread_join(th, NULL), 0);
			ck_assert_uint_gt(k.kicks, 0);
		}
		json_close(j);
		ck_assert(strcmp(a, r) == 0);
		free(r);
	}
	fclose(fp);
	free(a);
	buf_free(&b);
}
END_TEST

START_TEST(test_token_too_long)
{
	struct json *j;
	char *s;
	size_t len;

	/* Exactly JSON_MAXTOKEN bytes with the quotes is fine... */
	s = xmalloc(JSON_MAXTOKEN + 2);
	s[0] = '"';
	memset(s + 1, 'a', JSON_MAXTOKEN);
	s[JSON_MAXTOKEN - 1] = '"';
	j = json_open_mem(s, JSON_MAXTOKEN, "mem");
	ck_assert_int_eq(json_next(j), JT_STR);
	json_text(j, &len);
	ck_assert_uint_eq(len, JSON_MAXTOKEN - 2);
	ck_assert_int_eq(json_next(j), JT_EOF);
	json_close(j);
	/* ...one more is not. */
	s[JSON_MAXTOKEN - 1] = 'a';
	s[JSON_MAXTOKEN] = '"';
	j = json_open_mem(s, JSON_MAXTOKEN + 1, "mem");
	ck_assert_int_eq(json_next(j), JT_ERROR);
	ck_assert_str_eq(json_errmsg(j), "token too long");
	ck_assert_uint_eq(json_offset(j), 0);
	json_close(j);
	free(s);
}
END_TEST

/* The CPU seconds of this process so far. */
static double
cputime(void)
{
	struct timespec ts;

	ck_assert_int_eq(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts), 0);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Tokenize all of fd, a document of one string of n bytes. */
static void
readlong(int fd, size_t n)
{
	struct json *j;
	size_t len;

	j = json_open(fd, "long");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_next(j), JT_STR);
	json_text(j, &len);
	ck_assert_uint_eq(len, n);
	ck_assert_int_eq(json_next(j), JT_ARR_END);
	ck_assert_int_eq(json_next(j), JT_EOF);
	json_close(j);
}

/*
 * Issue 34: a 32 MB string costs about as much from a pipe (64 KiB a
 * read) as from a file.  The tokenizer scanned the token again after
 * every read: about 512 scans of 16 MB on average from the pipe, some
 * seconds, against a few scans from the file.  CPU time, so that a busy
 * machine does not matter; the bound is loose.
 */
START_TEST(test_long_token_pipe)
{
	size_t n = 32UL << 20, off, k;
	char *doc;
	double t0, tfile, tpipe;
	FILE *fp;
	pid_t pid;
	int fds[2], st;
	ssize_t w;

	doc = xmalloc(n + 5);
	memcpy(doc, "[\"", 2);
	memset(doc + 2, 'a', n);
	memcpy(doc + 2 + n, "\"]", 2);
	fp = tmpdoc(doc, n + 4);
	t0 = cputime();
	readlong(fileno(fp), n);
	tfile = cputime() - t0;
	fclose(fp);
	ck_assert_int_eq(pipe(fds), 0);
	if ((pid = fork()) == 0) {
		close(fds[0]);
		for (off = 0; off < n + 4; off += (size_t)w) {
			k = n + 4 - off < 65536 ? n + 4 - off : 65536;
			if ((w = write(fds[1], doc + off, k)) <= 0)
				_exit(1);
		}
		_exit(0);
	}
	ck_assert_int_ne(pid, -1);
	close(fds[1]);
	t0 = cputime();
	readlong(fds[0], n);
	tpipe = cputime() - t0;
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(st, 0);
	free(doc);
	ck_assert_msg(tpipe <= 2 * tfile + 0.5, "pipe %.2f s, file %.2f s",
	    tpipe, tfile);
}
END_TEST

START_TEST(test_skip)
{
	struct json *j;

	j = open_str("{\"a\":{\"x\":[1,{\"y\":[]}],\"z\":2},\"b\":[[],[[]]],"
	    "\"c\":3,\"d\":[4],\"e\":5}");
	ck_assert_int_eq(json_next(j), JT_OBJ);
	ck_assert_int_eq(json_next(j), JT_KEY);
	ck_assert_int_eq(json_skip(j, json_next(j)), 0);
	ck_assert_int_eq(json_depth(j), 1);
	ck_assert_int_eq(json_next(j), JT_KEY);
	ck_assert_str_eq(json_text(j, NULL), "b");
	ck_assert_int_eq(json_skip(j, json_next(j)), 0);
	ck_assert_int_eq(json_next(j), JT_KEY);
	ck_assert_str_eq(json_text(j, NULL), "c");
	/* A scalar: nothing to skip. */
	ck_assert_int_eq(json_skip(j, json_next(j)), 0);
	ck_assert_int_eq(json_next(j), JT_KEY);
	ck_assert_str_eq(json_text(j, NULL), "d");
	/* After a key, the member's value is skipped. */
	ck_assert_int_eq(json_skip(j, JT_KEY), 0);
	ck_assert_int_eq(json_next(j), JT_KEY);
	ck_assert_str_eq(json_text(j, NULL), "e");
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_int_eq(json_next(j), JT_OBJ_END);
	ck_assert_int_eq(json_next(j), JT_EOF);
	json_close(j);

	/* Errors inside the skipped value. */
	j = open_str("[[1,2,{\"a\":x}],3]");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_skip(j, json_next(j)), -1);
	ck_assert_str_eq(json_errmsg(j), "unexpected character 'x'");
	ck_assert_uint_eq(json_col(j), 12);
	ck_assert_int_eq(json_skip(j, JT_ERROR), -1);
	json_close(j);
	j = open_str("[[1,2");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_skip(j, json_next(j)), -1);
	ck_assert_str_eq(json_errmsg(j), "unexpected end of input");
	json_close(j);
}
END_TEST

START_TEST(test_fail)
{
	char want[256], *out;
	int st;

	/* At a token: its position. */
	out = fail_output("[1,\n2,\n33, 4]", 5, &st);
	snprintf(want, sizeof(want), "%s: doc.json:3:5: bad thing #7\n",
	    getprogname());
	ck_assert_str_eq(out, want);
	ck_assert_int_eq(st, 1);
	free(out);
	/* At an error: the offending byte. */
	out = fail_output("{\"a\":\n\n  [1,\n    tru]}", -1, &st);
	snprintf(want, sizeof(want), "%s: doc.json:4:8: invalid literal\n",
	    getprogname());
	ck_assert_str_eq(out, want);
	ck_assert_int_eq(st, 1);
	free(out);
}
END_TEST

START_TEST(test_name)
{
	struct json *j;

	j = json_open_mem("1", 1, NULL);
	ck_assert_str_eq(json_name(j), "<stdin>");
	json_close(j);
	j = json_open(STDIN_FILENO, "-");
	ck_assert_str_eq(json_name(j), "<stdin>");
	json_close(j);
	j = json_open_mem("1", 1, "x.json");
	ck_assert_str_eq(json_name(j), "x.json");
	json_close(j);
}
END_TEST

START_TEST(test_read_error)
{
	struct json *j;
	char want[128];
	int fd;

	ck_assert_int_ne(fd = open("/", O_RDONLY), -1);
	j = json_open(fd, "/");
	ck_assert_int_eq(json_next(j), JT_ERROR);
	snprintf(want, sizeof(want), "read error: %s", strerror(EISDIR));
	ck_assert_str_eq(json_errmsg(j), want);
	ck_assert_uint_eq(json_line(j), 1);
	ck_assert_uint_eq(json_col(j), 1);
	ck_assert_int_eq(json_next(j), JT_ERROR);
	json_close(j);
	close(fd);
}
END_TEST

START_TEST(test_corpus)
{
	const char *dir;
	struct dirent *de;
	DIR *dp;
	char path[2 * PATH_MAX], *s;
	size_t len;
	int ny, nn, ni, want, got;

	if ((dir = corpus_dir()) == NULL) {
		printf("skipped: no corpus\n");
		fflush(stdout);
		return;
	}
	ck_assert_ptr_nonnull(dp = opendir(dir));
	ny = nn = ni = 0;
	while ((de = readdir(dp)) != NULL) {
		if (strlen(de->d_name) < 2 || de->d_name[1] != '_')
			continue;
		switch (de->d_name[0]) {
		case 'y':
			want = 1;
			ny++;
			break;
		case 'n':
			want = 0;
			nn++;
			break;
		case 'i':
			want = idecision(de->d_name);
			ck_assert_msg(want != -1, "%s: no decision",
			    de->d_name);
			ni++;
			break;
		default:
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		s = slurp(path, &len);
		got = accepts(s, len);
		ck_assert_msg(got == want, "%s: %s", de->d_name,
		    got ? "accepted" : "rejected");
		free(s);
	}
	closedir(dp);
	ck_assert_int_eq(ni, sizeof(idecisions) / sizeof(idecisions[0]));
	ck_assert_int_gt(ny, 0);
	ck_assert_int_gt(nn, 0);
}
END_TEST

/* The suite. */
/* The raw text of flat arrays, and what is not one. */
/* The dump of memory s, the numbers skipped with json_skipsame(max). */
static char *
dump_skips(const char *s, size_t len, size_t max)
{
	struct json *j;
	char *r;

	j = json_open_mem(s, len, "mem");
	r = dump(j, max);
	json_close(j);
	return r;
}

/* dump_skips()'s "n:X*K" written out as K + 1 tokens "n:X". */
static char *
expand_skips(const char *d)
{
	struct buf b;
	const char *tok, *star, *sp;
	unsigned long k;
	char *r;

	buf_init(&b);
	for (tok = d; *tok != '\0'; tok = *sp ? sp + 1 : sp) {
		if ((sp = strchr(tok, ' ')) == NULL)
			sp = tok + strlen(tok);
		star = memchr(tok, '*', (size_t)(sp - tok));
		if (strncmp(tok, "n:", 2) != 0 || star == NULL) {
			buf_printf(&b, "%s%.*s", b.len ? " " : "",
			    (int)(sp - tok), tok);
			continue;
		}
		for (k = strtoul(star + 1, NULL, 10) + 1; k > 0; k--)
			buf_printf(&b, "%s%.*s", b.len ? " " : "",
			    (int)(star - tok), tok);
	}
	r = xstrdup(b.len ? b.data : "");
	buf_free(&b);
	return r;
}

/*
 * json_skipsame() skips the elements spelled as the number just read
 * and followed by a ',', texts of 1 to 8 bytes with their ',' compared
 * at once and longer ones by bytes, no further than max, nothing
 * outside an array; what it skips reads as the tokens themselves
 * would, errors and their places included, across buffer refills.
 */
START_TEST(test_skipsame)
{
	static const struct {
		const char	*in;
		size_t		 max;
		const char	*want;
	} t[] = {
		{ "[1,1,1,1]", 99, "[ n:1*2 n:1 ] $" },
		{ "[0.01,0.01,0.01,0.02,0.01]", 99,
		    "[ n:0.01*2 n:0.02 n:0.01 ] $" },
		{ "[1,10,1,1]", 99, "[ n:1 n:10 n:1 n:1 ] $" },
		{ "[10,1,1]", 99, "[ n:10 n:1 n:1 ] $" },
		{ "[1,1 ,1]", 99, "[ n:1 n:1 n:1 ] $" },
		{ "[1, 1,1,1]", 99, "[ n:1 n:1*1 n:1 ] $" },
		{ "[1234567,1234567,1234567]", 99,
		    "[ n:1234567*1 n:1234567 ] $" },
		{ "[12345678,12345678,12345678,12345678]", 99,
		    "[ n:12345678*2 n:12345678 ] $" },
		{ "[12345678,12345679,12345678]", 99,
		    "[ n:12345678 n:12345679 n:12345678 ] $" },
		{ "[12345678,123456789,12345678,12345678]", 99,
		    "[ n:12345678 n:123456789 n:12345678 n:12345678 ] $" },
		{ "[0.000001,0.000001,0.0000011,0.000001]", 99,
		    "[ n:0.000001*1 n:0.0000011 n:0.000001 ] $" },
		{ "[2,2,2,2,2,2]", 2, "[ n:2*2 n:2*1 n:2 ] $" },
		{ "[2,2,2]", 0, "[ n:2 n:2 n:2 ] $" },
		{ "[[5,5,5],[5,5]]", 99, "[ [ n:5*1 n:5 ] [ n:5 n:5 ] ] $" },
		{ "{\"a\":1,\"b\":1,\"c\":1}", 99,
		    "{ k:a n:1 k:b n:1 k:c n:1 } $" },
		{ "7", 99, "n:7 $" },
		{ "[3,3,3,x]", 99, NULL },
		{ "[3,3,3,3", 99, NULL },
		{ "[3,3,\n3,3,3,-]", 99, NULL },
	};
	struct json *j;
	struct buf big;
	char *got, *all, *want;
	size_t i, k;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		got = dump_skips(t[i].in, strlen(t[i].in), t[i].max);
		if (t[i].want != NULL)
			ck_assert_msg(strcmp(got, t[i].want) == 0,
			    "%s: got %s", t[i].in, got);
		/* Written out, the tokens and errors of json_next(). */
		all = expand_skips(got);
		want = dump_str(t[i].in);
		ck_assert_msg(strcmp(all, want) == 0, "%s: got %s, want %s",
		    t[i].in, all, want);
		free(got);
		free(all);
		free(want);
	}
	/* The place of the last token read is the last one skipped. */
	j = open_str("[4,\n44,44,44,5]");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_uint_eq(json_col(j), 1);
	ck_assert_uint_eq(json_skipsame(j, 99), 2);
	ck_assert_uint_eq(json_line(j), 2);
	ck_assert_uint_eq(json_col(j), 7);
	ck_assert_uint_eq(json_offset(j), 10);
	json_close(j);
	/* Runs across the refills of a 256 KB buffer. */
	buf_init(&big);
	buf_adds(&big, "[");
	for (i = 0; i < 200000; i++)
		buf_adds(&big, i % 7919 == 0 ? "0.02," : i % 5 == 0 ?
		    "0.01,\n" : "0.01,");
	buf_adds(&big, "0.01]");
	got = dump_skips(big.data, big.len, SIZE_MAX);
	all = expand_skips(got);
	want = dump_mem(big.data, big.len);
	ck_assert_str_eq(all, want);
	/* Few tokens: the runs were skipped. */
	for (i = k = 0; got[i] != '\0'; i++)
		k += got[i] == ' ';
	ck_assert_uint_lt(k, 200000 / 5 * 2 + 100);
	free(got);
	free(all);
	free(want);
	buf_free(&big);
}
END_TEST

START_TEST(test_rawarray)
{
	static const struct {
		const char	*in;
		const char	*text;	/* NULL: -1 */
	} t[] = {
		{ "[1,2,3]", "1,2,3" },
		{ "[]", "" },
		{ "[ ]", " " },
		{ "[ 1 , 2\t,\r3 ]", " 1 , 2\t,\r3 " },
		{ "[-0,1.5e+3,2E-1,0.25]", "-0,1.5e+3,2E-1,0.25" },
		{ "[1234567890123456789012345678901234567890]",
		    "1234567890123456789012345678901234567890" },
		/* Not checked: json_next() finds what is wrong. */
		{ "[1,,2]", "1,,2" },
		{ "[01,-,e]", "01,-,e" },
		{ "[1,\n2]", "1,\n2" },
		{ "[1,[2]]", "1,[2" },
		{ "[1,{}]", "1,{}" },
		{ "[1,\"2]\"]", "1,\"2" },
		{ "[1,true]", "1,true" },
		/* No ']'. */
		{ "[1,2", NULL },
		{ "[1,2,", NULL },
		{ "[1,2}", NULL },
	};
	struct json *j;
	const char *s;
	size_t i, len;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		j = open_str(t[i].in);
		ck_assert_int_eq(json_rawarray(j, &s, &len), -1);
		ck_assert_int_eq(json_next(j), JT_ARR);
		if (t[i].text == NULL) {
			ck_assert_msg(json_rawarray(j, &s, &len) == -1, "%s",
			    t[i].in);
			json_close(j);
			continue;
		}
		ck_assert_msg(json_rawarray(j, &s, &len) == 0, "%s", t[i].in);
		ck_assert_uint_eq(len, strlen(t[i].text));
		ck_assert(memcmp(s, t[i].text, len) == 0);
		/* Asked again: the same; nothing moved. */
		ck_assert_int_eq(json_rawarray(j, &s, &len), 0);
		ck_assert_uint_eq(len, strlen(t[i].text));
		ck_assert_int_eq(json_depth(j), 1);
		json_close(j);
	}

	/* json_next() goes on as if nothing had been asked. */
	j = open_str("[1,,2]");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_rawarray(j, &s, &len), 0);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_int_eq(json_next(j), JT_ERROR);
	ck_assert_str_eq(json_errmsg(j), "unexpected character ','");
	ck_assert_uint_eq(json_col(j), 4);
	json_close(j);

	/* Only right after a '['; skips only to that array's ']'. */
	j = open_str("{\"a\":[5,6],\"b\":7}");
	ck_assert_int_eq(json_next(j), JT_OBJ);
	ck_assert_int_eq(json_rawarray(j, &s, &len), -1);
	ck_assert_int_eq(json_next(j), JT_KEY);
	ck_assert_int_eq(json_rawarray(j, &s, &len), -1);
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_rawskip(j, 2), -1);
	ck_assert_int_eq(json_rawskip(j, 99), -1);
	ck_assert_int_eq(json_rawarray(j, &s, &len), 0);
	ck_assert_int_eq(json_rawskip(j, len), 0);
	ck_assert_int_eq(json_rawskip(j, len), -1);
	ck_assert_int_eq(json_rawarray(j, &s, &len), -1);
	ck_assert_int_eq(json_depth(j), 1);
	ck_assert_uint_eq(json_offset(j), 9);
	ck_assert_int_eq(json_next(j), JT_KEY);
	ck_assert_str_eq(json_text(j, NULL), "b");
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_int_eq(json_next(j), JT_OBJ_END);
	ck_assert_int_eq(json_next(j), JT_EOF);
	json_close(j);

	/* After the skip, errors are found where they would be. */
	j = open_str("[[1],]");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_rawarray(j, &s, &len), 0);
	ck_assert_int_eq(json_rawskip(j, len), 0);
	ck_assert_int_eq(json_next(j), JT_ERROR);
	ck_assert_str_eq(json_errmsg(j), "trailing comma");
	ck_assert_uint_eq(json_col(j), 6);
	json_close(j);
	j = open_str("[[1] 2]");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_rawarray(j, &s, &len), 0);
	ck_assert_int_eq(json_rawskip(j, len), 0);
	ck_assert_int_eq(json_next(j), JT_ERROR);
	ck_assert_str_eq(json_errmsg(j), "expected ',' or ']'");
	ck_assert_uint_eq(json_col(j), 6);
	json_close(j);
	j = open_str("[1]x");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_rawarray(j, &s, &len), 0);
	ck_assert_int_eq(json_rawskip(j, len), 0);
	ck_assert_int_eq(json_next(j), JT_ERROR);
	ck_assert_str_eq(json_errmsg(j), "trailing data after JSON value");
	json_close(j);
}
END_TEST

/*
 * json_rawarrays() gives the raw bytes of the arrays from the
 * tokenizer's place on while ",[" joins them, and moves nothing;
 * json_rawtake() moves past some, and the tokens go on from there.
 */
START_TEST(test_rawarrays)
{
	static const char *none[] = {
		"[ [1]]", "{\"a\":[1]}", "[1]", "[\"[1]\"]", "[{},[1]]",
	};
	struct json_raw r[8];
	struct json *j;
	unsigned long long line, col;
	const char *s;
	size_t i, len;

	j = open_str("[[1,2],[3, 4],[],[5,[6]],[7]]");
	ck_assert_uint_eq(json_rawarrays(j, r, 8), 0);
	ck_assert_int_eq(json_next(j), JT_ARR);
	/* Up to the first ']', then ",[" or the last. */
	ck_assert_uint_eq(json_rawarrays(j, r, 8), 4);
	ck_assert(r[0].len == 3 && memcmp(r[0].p, "1,2", 3) == 0);
	ck_assert(r[1].len == 4 && memcmp(r[1].p, "3, 4", 4) == 0);
	ck_assert_uint_eq(r[2].len, 0);
	ck_assert(r[3].len == 4 && memcmp(r[3].p, "5,[6", 4) == 0);
	ck_assert_uint_eq(json_rawplace(j, &r[1], &line, &col), 7);
	ck_assert_uint_eq(line, 1);
	ck_assert_uint_eq(col, 8);
	ck_assert_uint_eq(json_rawarrays(j, r, 2), 2);
	ck_assert_uint_eq(json_depth(j), 1);
	/* Nothing moved. */
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_uint_eq(json_rawarrays(j, r, 8), 0);
	ck_assert_int_eq(json_rawtake(j, r, 1), -1);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_str_eq(json_text(j, NULL), "1");
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_int_eq(json_next(j), JT_ARR_END);
	/* A ']' read as a token leaves the ',' after it. */
	ck_assert_uint_eq(json_rawarrays(j, r, 8), 0);
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_rawarray(j, &s, &len), 0);
	ck_assert_int_eq(json_rawskip(j, len), 0);
	ck_assert_uint_eq(json_rawarrays(j, r, 8), 2);
	ck_assert_uint_eq(r[0].len, 0);
	ck_assert_int_eq(json_rawtake(j, r + 1, 1), -1);
	ck_assert_int_eq(json_rawtake(j, r, 0), 0);
	ck_assert_int_eq(json_rawtake(j, r, 1), 0);
	/* As after the JT_ARR_END of [], at offset 15. */
	ck_assert_uint_eq(json_offset(j), 15);
	ck_assert_uint_eq(json_col(j), 16);
	ck_assert_uint_eq(json_depth(j), 1);
	ck_assert_int_eq(json_rawtake(j, r, 1), -1);
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_uint_eq(json_offset(j), 17);
	ck_assert_int_eq(json_skip(j, JT_ARR), 0);
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_uint_eq(json_offset(j), 25);
	ck_assert_int_eq(json_skip(j, JT_ARR), 0);
	ck_assert_int_eq(json_next(j), JT_ARR_END);
	ck_assert_int_eq(json_next(j), JT_EOF);
	json_close(j);

	/* After a number; a blank or newline ends a run. */
	j = open_str("[1,[2],[3] ,[4],\n[5],[66],[7]\n]");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_uint_eq(json_rawarrays(j, r, 8), 0);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_uint_eq(json_rawarrays(j, r, 8), 2);
	ck_assert_int_eq(json_rawtake(j, r, 2), 0);
	ck_assert_uint_eq(json_rawarrays(j, r, 8), 0);
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_skip(j, JT_ARR), 0);
	/* A ']' read as a token leaves the ',' after it. */
	ck_assert_uint_eq(json_rawarrays(j, r, 8), 0);
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_uint_eq(json_line(j), 2);
	ck_assert_int_eq(json_skip(j, JT_ARR), 0);
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_rawarray(j, &s, &len), 0);
	ck_assert_int_eq(json_rawskip(j, len), 0);
	ck_assert_uint_eq(json_rawarrays(j, r, 8), 1);
	ck_assert_uint_eq(json_rawplace(j, &r[0], &line, &col), 26);
	ck_assert_uint_eq(line, 2);
	ck_assert_uint_eq(col, 10);
	ck_assert_int_eq(json_rawtake(j, r, 1), 0);
	ck_assert_uint_eq(json_offset(j), 28);
	ck_assert_uint_eq(json_line(j), 2);
	ck_assert_uint_eq(json_col(j), 12);
	ck_assert_int_eq(json_next(j), JT_ARR_END);
	ck_assert_uint_eq(json_line(j), 3);
	ck_assert_int_eq(json_next(j), JT_EOF);
	json_close(j);

	/* Each one an array. */
	j = open_str("[[1],2,[3]]");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_uint_eq(json_rawarrays(j, r, 8), 1);
	json_close(j);

	/* Not where a '[' of an array's element is next. */
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		j = open_str(none[i]);
		do
			ck_assert_msg(json_rawarrays(j, r, 8) == 0, "%s",
			    none[i]);
		while (json_next(j) != JT_EOF);
		json_close(j);
	}
}
END_TEST

/*
 * Skipping raw arrays leaves the tokenizer just where reading their
 * tokens does: the same tokens and positions after them, from memory,
 * pipes and files, with arrays across every refill.
 */
START_TEST(test_rawskip)
{
	struct buf doc, texts, want;
	char *a, *b;
	size_t i, n;
	int how, raw;

	buf_init(&doc);
	buf_init(&want);
	buf_addc(&doc, '[');
	for (i = 0; i < 40000; i++) {
		n = i * 7919 % 23;
		if (i > 0)
			buf_addc(&doc, ',');
		if (i % 997 == 0)
			buf_adds(&doc, "\n");
		buf_addc(&doc, '[');
		switch (i % 11) {
		case 0:
			buf_printf(&doc, "%zu, %zu", n, i);
			buf_printf(&want, "%zu, %zu|", n, i);
			break;
		case 1:
			buf_adds(&doc, "0,[1]");
			break;
		case 2:
			buf_printf(&doc, "%zu,\n%zu", n, i);
			break;
		case 3:
			buf_adds(&want, "|");
			break;
		default:
			while (n-- > 0) {
				buf_printf(&doc, "%zu%s", i + n, n ? "," : "");
				buf_printf(&want, "%zu%s", i + n, n ? "," :
				    "");
			}
			buf_adds(&want, "|");
			break;
		}
		buf_addc(&doc, ']');
	}
	buf_adds(&doc, ",{\"x\":[1,2]},3]");
	for (how = 0; how < 3; how++) {
		a = trace_doc(doc.data, doc.len, how, 0, NULL);
		for (raw = 1; raw <= 2; raw++) {
			buf_init(&texts);
			b = trace_doc(doc.data, doc.len, how, raw, &texts);
			for (i = 0; a[i] != '\0' && a[i] == b[i]; i++)
				continue;
			ck_assert_msg(a[i] == b[i], "how %d raw %d: at %zu: "
			    "%.60s | %.60s", how, raw, i, a + i, b + i);
			for (i = 0; texts.data[i] != '\0' &&
			    texts.data[i] == want.data[i]; i++)
				continue;
			ck_assert_msg(texts.data[i] == want.data[i], "how %d "
			    "raw %d: text at %zu: %.60s | %.60s", how, raw, i,
			    texts.data + i, want.data + i);
			free(b);
			buf_free(&texts);
		}
		free(a);
	}
	buf_free(&doc);
	buf_free(&want);
}
END_TEST

/*
 * json_key() and json_member(): keys that fit (size - 1 bytes at most,
 * no NUL) are copied, others read as ""; the object's end and an error
 * give k "".  Worked by hand from the documents.
 */
START_TEST(test_member)
{
	static const char doc[] = "{\"a\": 1, \"abc\": [2], \"abcd\": "
	    "\"x\", \"n\\u0000\": null, \"e\": {}}";
	struct json *j;
	char k[4];

	j = json_open_mem(doc, sizeof(doc) - 1, "mem");
	ck_assert_int_eq(json_next(j), JT_OBJ);
	ck_assert_int_eq(json_member(j, k, sizeof(k)), JT_NUM);
	ck_assert_str_eq(k, "a");
	ck_assert_int_eq(json_member(j, k, sizeof(k)), JT_ARR);
	ck_assert_str_eq(k, "abc");
	ck_assert_int_eq(json_skip(j, JT_ARR), 0);
	/* Four bytes do not fit in k[4]. */
	ck_assert_int_eq(json_member(j, k, sizeof(k)), JT_STR);
	ck_assert_str_eq(k, "");
	ck_assert_int_eq(json_key(j, k, sizeof(k)), JT_KEY);
	ck_assert_str_eq(k, "");
	ck_assert_int_eq(json_next(j), JT_NULL);
	ck_assert_int_eq(json_key(j, k, sizeof(k)), JT_KEY);
	ck_assert_str_eq(k, "e");
	ck_assert_int_eq(json_next(j), JT_OBJ);
	ck_assert_int_eq(json_member(j, k, sizeof(k)), JT_OBJ_END);
	ck_assert_str_eq(k, "");
	ck_assert_int_eq(json_key(j, k, sizeof(k)), JT_OBJ_END);
	ck_assert_str_eq(k, "");
	json_close(j);
	/* A key without a value, and one without a colon. */
	j = json_open_mem("{\"a\": }", 8, "mem");
	ck_assert_int_eq(json_next(j), JT_OBJ);
	strcpy(k, "zz");
	ck_assert_int_eq(json_member(j, k, sizeof(k)), JT_ERROR);
	ck_assert_str_eq(json_errmsg(j), "unexpected character '}'");
	json_close(j);
	j = json_open_mem("{\"a\" 1}", 8, "mem");
	ck_assert_int_eq(json_next(j), JT_OBJ);
	strcpy(k, "zz");
	ck_assert_int_eq(json_key(j, k, sizeof(k)), JT_ERROR);
	ck_assert_str_eq(k, "");
	json_close(j);
}
END_TEST

static Suite *
json_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("json");
	tc = tcase_create("tokens");
	tcase_add_test(tc, test_tokens);
	tcase_add_test(tc, test_token_text);
	tcase_add_test(tc, test_escapes);
	tcase_add_test(tc, test_surrogates);
	tcase_add_test(tc, test_nul_escape);
	tcase_add_test(tc, test_raw_bytes);
	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_json_int);
	tcase_add_test(tc, test_json_int_many);
	tcase_add_test(tc, test_json_double);
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_max_depth);
	tcase_add_test(tc, test_skip);
	tcase_add_test(tc, test_rawarray);
	tcase_add_test(tc, test_skipsame);
	tcase_add_test(tc, test_rawarrays);
	tcase_add_test(tc, test_name);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_error_position);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_bom);
	tcase_add_test(tc, test_pretty);
	tcase_add_test(tc, test_fail);
	tcase_add_test(tc, test_read_error);
	suite_add_tcase(s, tc);
	tc = tcase_create("refill");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_boundary);
	tcase_add_test(tc, test_boundary_errors);
	tcase_add_test(tc, test_pipe);
	tcase_add_test(tc, test_big_tokens);
	tcase_add_test(tc, test_token_too_long);
	tcase_add_test(tc, test_long_token_pipe);
	tcase_add_test(tc, test_rawskip);
	tcase_add_test(tc, test_readahead);
	tcase_add_test(tc, test_lazyahead);
	tcase_add_test(tc, test_member);
	suite_add_tcase(s, tc);
	tc = tcase_create("corpus");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_corpus);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	signal(SIGPIPE, SIG_IGN);
	sr = srunner_create(json_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
