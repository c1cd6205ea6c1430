/*
 * test_input.c: Check suite for common/stream/input.c: plain, gzip and zstd
 * input (compressed here with zlib and libzstd, independently of the
 * reader), joined members and frames, truncated, corrupt and trailing
 * data, the same through json_open() and lines_open(), and sniff().
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "util.h"
#include "buf.h"
#include "lines.h"
#include "json.h"
#include "input.h"

static int	 tmpfd(const void *, size_t);
static size_t	 gz(unsigned char *, size_t, const char *, size_t);
static size_t	 zs(unsigned char *, size_t, const char *, size_t);
static char	*readall(int, size_t, size_t *, const char **);
static Suite	*input_suite(void);

static const char text[] = "main;f 3\nmain;g 4\n";

/* An unlinked temporary file holding p[0..n), at offset 0. */
static int
tmpfd(const void *p, size_t n)
{
	char path[] = "/tmp/test_input.XXXXXX";
	int fd;

	ck_assert_int_ne(fd = mkstemp(path), -1);
	unlink(path);
	ck_assert_int_eq(write(fd, p, n), (ssize_t)n);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* s[0..n) as one gzip member into out (cap bytes); returns its size. */
static size_t
gz(unsigned char *out, size_t cap, const char *s, size_t n)
{
	z_stream z;

	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (unsigned char *)s;
	z.avail_in = (unsigned)n;
	z.next_out = out;
	z.avail_out = (unsigned)cap;
	ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	n = cap - z.avail_out;
	deflateEnd(&z);
	return n;
}

/* s[0..n) as one zstd frame into out; returns its size. */
static size_t
zs(unsigned char *out, size_t cap, const char *s, size_t n)
{
	size_t r;

	r = ZSTD_compress(out, cap, s, n, 3);
	ck_assert(!ZSTD_isError(r));
	return r;
}

/*
 * Everything input_read() gives for the file p[0..n), chunk bytes a
 * call; *err is NULL, or the message of the error that ended it.
 */
static char *
readall(int fd, size_t chunk, size_t *len, const char **err)
{
	static char msg[256];
	struct input *in;
	struct buf b;
	char tmp[65536];
	ssize_t r;

	in = input_open(fd);
	buf_init(&b);
	buf_adds(&b, "");
	while ((r = input_read(in, tmp, chunk)) > 0)
		buf_add(&b, tmp, (size_t)r);
	*err = NULL;
	if (r == -1) {
		snprintf(msg, sizeof(msg), "%s", input_errmsg(in));
		*err = msg;
		ck_assert_int_eq(input_read(in, tmp, chunk), -1);
	}
	input_close(in);
	close(fd);
	*len = b.len;
	return b.data;
}

START_TEST(test_plain)
{
	struct input *in;
	const char *e, *h;
	char *s, tmp[8];
	size_t n;

	s = readall(tmpfd(text, strlen(text)), 1, &n, &e);
	ck_assert_ptr_null(e);
	ck_assert_str_eq(s, text);
	free(s);
	/* One byte of a gzip magic is plain text. */
	s = readall(tmpfd("\x1f", 1), 3, &n, &e);
	ck_assert_ptr_null(e);
	ck_assert_uint_eq(n, 1);
	free(s);
	in = input_open(tmpfd("", 0));
	ck_assert_int_eq(input_kind(in), IN_PLAIN);
	ck_assert_int_eq(input_read(in, tmp, sizeof(tmp)), 0);
	h = input_head(in, &n);
	ck_assert_uint_eq(n, 0);
	(void)h;
	input_close(in);
}
END_TEST

START_TEST(test_gzip)
{
	unsigned char z[256];
	struct input *in;
	const char *e, *h;
	char *s, tmp[64];
	size_t n, zn;
	int fd;

	zn = gz(z, sizeof(z), text, strlen(text));
	s = readall(tmpfd(z, zn), 1, &n, &e);
	ck_assert_ptr_null(e);
	ck_assert_str_eq(s, text);
	free(s);
	fd = tmpfd(z, zn);
	in = input_open(fd);
	ck_assert_int_eq(input_kind(in), IN_GZIP);
	ck_assert_str_eq(input_kindname(input_kind(in)), "gzip");
	ck_assert_int_eq(input_read(in, tmp, sizeof(tmp)), strlen(text));
	ck_assert_int_eq(input_read(in, tmp, sizeof(tmp)), 0);
	ck_assert_uint_eq(input_rawpos(in), zn);
	h = input_head(in, &n);
	ck_assert_uint_eq(n, strlen(text));
	ck_assert(memcmp(h, text, n) == 0);
	input_close(in);
	close(fd);
}
END_TEST

/* Members one after the other read as one text, as gzip -d does. */
START_TEST(test_gzip_members)
{
	unsigned char z[512];
	const char *e;
	char *s;
	size_t n, zn;

	zn = gz(z, sizeof(z), "ab\n", 3);
	zn += gz(z + zn, sizeof(z) - zn, "", 0);
	zn += gz(z + zn, sizeof(z) - zn, "cd\n", 3);
	s = readall(tmpfd(z, zn), 2, &n, &e);
	ck_assert_ptr_null(e);
	ck_assert_str_eq(s, "ab\ncd\n");
	free(s);
}
END_TEST

START_TEST(test_gzip_errors)
{
	unsigned char z[512];
	const char *e;
	char *s, want[128];
	size_t n, zn;

	zn = gz(z, sizeof(z), text, strlen(text));
	/* Cut off: the text so far, then the error. */
	s = readall(tmpfd(z, zn - 4), 64, &n, &e);
	ck_assert_ptr_nonnull(e);
	snprintf(want, sizeof(want), "gzip: truncated data: the input ends "
	    "inside a member, after %zu compressed bytes", zn - 4);
	ck_assert_str_eq(e, want);
	free(s);
	/* Anything but a member after one. */
	memcpy(z + zn, "xyz", 3);
	s = readall(tmpfd(z, zn + 3), 64, &n, &e);
	ck_assert_str_eq(s, text);
	snprintf(want, sizeof(want), "gzip: trailing garbage at compressed "
	    "byte %zu", zn);
	ck_assert_str_eq(e, want);
	free(s);
	/* A lone byte after a member. */
	s = readall(tmpfd(z, zn + 1), 64, &n, &e);
	ck_assert_str_eq(e, want);
	free(s);
	/* A wrong CRC. */
	z[zn - 8] ^= 0xff;
	s = readall(tmpfd(z, zn), 64, &n, &e);
	snprintf(want, sizeof(want), "gzip: corrupt data at compressed byte "
	    "%zu: incorrect data check", zn - 4);
	ck_assert_str_eq(e, want);
	free(s);
	/* A bad block type right after the header (byte 10). */
	zn = gz(z, sizeof(z), text, strlen(text));
	z[10] = 0x07;
	s = readall(tmpfd(z, zn), 64, &n, &e);
	ck_assert_ptr_nonnull(e);
	ck_assert(strncmp(e, "gzip: corrupt data at compressed byte ", 38) ==
	    0);
	ck_assert_uint_eq(n, 0);
	free(s);
}
END_TEST

START_TEST(test_zstd)
{
	unsigned char z[512];
	const char *e;
	char *s, want[128];
	size_t n, zn;

	zn = zs(z, sizeof(z), "ab\n", 3);
	zn += zs(z + zn, sizeof(z) - zn, "cd\n", 3);
	s = readall(tmpfd(z, zn), 1, &n, &e);
	ck_assert_ptr_null(e);
	ck_assert_str_eq(s, "ab\ncd\n");
	free(s);
	s = readall(tmpfd(z, zn - 1), 64, &n, &e);
	snprintf(want, sizeof(want), "zstd: truncated data: the input ends "
	    "inside a frame, after %zu compressed bytes", zn - 1);
	ck_assert_str_eq(e, want);
	ck_assert(strncmp(s, "ab\n", 3) == 0);
	free(s);
	memcpy(z + zn, "junk", 4);
	s = readall(tmpfd(z, zn + 4), 64, &n, &e);
	ck_assert_ptr_nonnull(e);
	snprintf(want, sizeof(want), "zstd: corrupt data in compressed bytes "
	    "%zu to %zu: Unknown frame descriptor", zn, zn + 4);
	ck_assert_str_eq(e, want);
	ck_assert_str_eq(s, "ab\ncd\n");
	free(s);
}
END_TEST

/*
 * Issue 34: zstd skippable frames (magic 0x184D2A50 to 0x184D2A5F, a
 * 32-bit little-endian length, that many bytes), first as pzstd writes
 * one, between frames and last, give no output; the kind is told by
 * the first one.
 */
START_TEST(test_zstd_skippable)
{
	unsigned char z[512];
	const char *e;
	char *s;
	size_t n, zn, i;
	struct input *in;

	memcpy(z, "\x50\x2a\x4d\x18\x04\0\0\0abcd", 12);
	zn = 12;
	zn += zs(z + zn, sizeof(z) - zn, "ab\n", 3);
	memcpy(z + zn, "\x5f\x2a\x4d\x18\0\0\0\0", 8);
	zn += 8;
	zn += zs(z + zn, sizeof(z) - zn, "cd\n", 3);
	memcpy(z + zn, "\x57\x2a\x4d\x18\x03\0\0\0xyz", 11);
	zn += 11;
	for (i = 1; i <= 64; i *= 4) {
		s = readall(tmpfd(z, zn), i, &n, &e);
		ck_assert_ptr_null(e);
		ck_assert_str_eq(s, "ab\ncd\n");
		free(s);
	}
	in = input_open(tmpfd(z, zn));
	ck_assert_int_eq(input_kind(in), IN_ZSTD);
	input_close(in);
	/* Nothing but a skippable frame: no bytes, no error. */
	s = readall(tmpfd(z, 12), 64, &n, &e);
	ck_assert_ptr_null(e);
	ck_assert_uint_eq(n, 0);
	free(s);
	/* One cut off is truncated. */
	s = readall(tmpfd(z, 10), 64, &n, &e);
	ck_assert_str_eq(e, "zstd: truncated data: the input ends inside "
	    "a frame, after 10 compressed bytes");
	free(s);
	/* 0x184D2A60 is no skippable frame: plain bytes. */
	in = input_open(tmpfd("\x60\x2a\x4d\x18", 4));
	ck_assert_int_eq(input_kind(in), IN_PLAIN);
	input_close(in);
}
END_TEST

/* A compressed text bigger than every buffer, through both readers. */
START_TEST(test_big)
{
	struct buf t;
	unsigned char *z;
	struct lines *l;
	struct json *j;
	const char *e;
	size_t i, n, zn, cap;
	char *s;
	long long v;
	int fd;

	buf_init(&t);
	buf_adds(&t, "[");
	for (i = 0; i < 500000; i++)
		buf_printf(&t, "%s%zu\n", i ? "," : "", i);
	buf_adds(&t, "]");
	cap = ZSTD_compressBound(t.len);
	z = xmalloc(cap);
	zn = gz(z, cap, t.data, t.len);
	s = readall(tmpfd(z, zn), 60000, &n, &e);
	ck_assert_ptr_null(e);
	ck_assert_uint_eq(n, t.len);
	ck_assert(memcmp(s, t.data, n) == 0);
	free(s);
	/* JSON from gzip: every number in order. */
	fd = tmpfd(z, zn);
	j = json_open(fd, "big");
	ck_assert_int_eq(json_next(j), JT_ARR);
	for (i = 0; i < 500000; i++) {
		ck_assert_int_eq(json_next(j), JT_NUM);
		ck_assert_int_eq(json_int(j, &v), 0);
		ck_assert_int_eq(v, (long long)i);
	}
	ck_assert_int_eq(json_next(j), JT_ARR_END);
	ck_assert_int_eq(json_next(j), JT_EOF);
	json_close(j);
	close(fd);
	/* Lines from zstd. */
	zn = zs(z, cap, t.data, t.len);
	fd = tmpfd(z, zn);
	l = lines_open(fd, "big");
	/* "[0", ",1", ..., ",499999", "]" */
	for (i = 0; (s = lines_next(l, &n)) != NULL; i++)
		if (i > 0 && i < 500000)
			ck_assert_uint_eq(strtoull(s + 1, NULL, 10), i);
	ck_assert_uint_eq(i, 500001);
	lines_close(l);
	close(fd);
	free(z);
	buf_free(&t);
}
END_TEST

/* A JSON error in a gzip'ed document: the position in the text. */
START_TEST(test_json_errors)
{
	unsigned char z[256];
	struct json *j;
	enum json_tok t;
	char want[128];
	size_t zn;
	int fd;

	zn = gz(z, sizeof(z), "[1,\n 2,,]", 9);
	fd = tmpfd(z, zn);
	j = json_open(fd, "x");
	ck_assert_int_eq(json_next(j), JT_ARR);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_int_eq(json_next(j), JT_NUM);
	ck_assert_int_eq(json_next(j), JT_ERROR);
	ck_assert_str_eq(json_errmsg(j), "unexpected character ','");
	ck_assert_uint_eq(json_line(j), 2);
	ck_assert_uint_eq(json_col(j), 4);
	json_close(j);
	close(fd);
	/* Truncated: the reader's message at the end of the text. */
	zn = gz(z, sizeof(z), "[1,\n 2]", 7);
	fd = tmpfd(z, zn - 2);
	j = json_open(fd, "x");
	while ((t = json_next(j)) != JT_ERROR)
		ck_assert_int_ne(t, JT_EOF);
	snprintf(want, sizeof(want), "gzip: truncated data: the input ends "
	    "inside a member, after %zu compressed bytes", zn - 2);
	ck_assert_str_eq(json_errmsg(j), want);
	json_close(j);
	close(fd);
}
END_TEST

#define SNIFF(s, k)	ck_assert_int_eq(sniff(s, sizeof(s) - 1), k)

START_TEST(test_sniff)
{
	SNIFF("", SN_EMPTY);
	SNIFF(" \n\t\r\n", SN_EMPTY);
	SNIFF("t\t1\t0.5\tseconds\t0.5\ta;b\t\n", SN_SST);
	SNIFF("t\t1\t0.5\tminutes\t0.5\ta;b\t\n", SN_TEXT);
	SNIFF("xz 4005 100.0: 1 cycles:\n\t  7f12 main+0x1 (/bin/xz)\n",
	    SN_PERF);
	SNIFF("# cmdline: perf\nWeb Content 1 1.0: \n    ab f (x)\n", SN_PERF);
	SNIFF("java 19983 cycles:\nffffffff8103d0ca native_write_msr_safe "
	    "([kernel.kallsyms])\n", SN_PERF);
	SNIFF("PERFILE2\0\0\0", SN_PERFDATA);
	SNIFF("\x7f" "ELF\0\0", SN_BINARY);
	/* sst2pprof's first bytes: two sample types, a sample cut off. */
	SNIFF("\x0a\x04\x08\x05\x10\x06\x0a\x04\x08\x07\x10\x08\x12\x1e\x0a",
	    SN_PPROF);
	/* Strings first; the empty one, then "samples", then field 20. */
	SNIFF("\x32\x00\x32\x07samples\xa2\x01\x00", SN_PPROF);
	/* Three whole fields, then a wire type field 1 cannot have. */
	SNIFF("\x32\x00\x32\x00\x60\x05\x08\x01", SN_PPROF);
	/* Two, then the same: binary, not a profile. */
	SNIFF("\x32\x00\x60\x05\x08\x01", SN_BINARY);
	SNIFF("\x08\x03\x32\x00", SN_BINARY);
	/* Text that parses ("\nh": field 1, 104 bytes) is still text. */
	SNIFF("\nhello world\n", SN_TEXT);
	SNIFF("\0\1\2", SN_BINARY);
	SNIFF("main;f;g 12\nmain;h 3\n", SN_FOLDED);
	SNIFF("main;f;g 1.5\r\n", SN_FOLDED);
	SNIFF("hello world\n", SN_TEXT);
	SNIFF("{\"$schema\": \"https://www.speedscope.app/file-format-schema"
	    ".json\"", SN_SPEEDSCOPE);
	SNIFF("\xef\xbb\xbf{\"profiles\": [", SN_SPEEDSCOPE);
	SNIFF("{\"schemaVersion\": 1, \"traceEvents\": [", SN_TRACE);
	SNIFF("[\n  {\"ph\": \"X\"", SN_TRACEARRAY);
	SNIFF("[1, 2]", SN_JSON);
	SNIFF("[{\"shared\": {}}]", SN_JSON);
	SNIFF("{\"nodes\":[{\"id\":1,\"callFrame\":{", SN_CPUPROFILE);
	SNIFF("{\"meta\":{\"version\":24},\"threads\":[", SN_FIREFOX);
	SNIFF("{\"label\":\"a\",\"ticks\":[],\"profile\":{", SN_FIREFOX);
	SNIFF("{\"version\":1,\"recording\":{", SN_SAFARI);
	SNIFF("{}", SN_JSON);
	ck_assert_str_eq(sniff_what(SN_PERF), "perf script text");
	ck_assert_str_eq(sniff_reader(SN_FOLDED), "collapsed2sst reads it");
	ck_assert_str_eq(sniff_reader(SN_CPUPROFILE),
	    "cpuprofile2sst reads it");
	ck_assert_str_eq(sniff_reader(SN_FIREFOX), "not supported by sst");
	ck_assert_ptr_null(sniff_reader(SN_TEXT));
	ck_assert_str_eq(sniff_reader(SN_PPROF), "pprof2sst reads it");
}
END_TEST

static Suite *
input_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("input");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_plain);
	tcase_add_test(tc, test_gzip);
	tcase_add_test(tc, test_gzip_members);
	tcase_add_test(tc, test_gzip_errors);
	tcase_add_test(tc, test_zstd);
	tcase_add_test(tc, test_zstd_skippable);
	tcase_add_test(tc, test_big);
	tcase_add_test(tc, test_json_errors);
	tcase_add_test(tc, test_sniff);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(input_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
