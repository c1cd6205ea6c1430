/*
 * test_compact.c: Check suite for the compact form of the stream
 * (common/stream/compact.c).  Compact lines written by hand are read back as
 * the text lines worked out by hand from sst(5)'s rules; records given
 * to the writer come out as the compact lines worked out by hand; every
 * malformed line is refused with its reason.
 */

#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "rec.h"
#include "recread.h"
#include "fmt.h"
#include "tutil.h"
#include "compact.h"

static Suite	*compact_suite(void);

/* Each record of file text, as a text line, joined by newlines. */
static char *
readall(const char *text)
{
	struct sst_reader *rd;
	struct sst_rec r;
	struct buf b;
	const char *l;
	char *path;
	size_t n;
	int fd;

	path = tu_tmpfile(text);
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	rd = rec_open(fd, path);
	buf_init(&b);
	while (rec_read(rd, &r) == 1) {
		l = rec_line(rd, &n);
		buf_add(&b, l, n);
		buf_addc(&b, '\n');
	}
	rec_close(rd);
	close(fd);
	unlink(path);
	free(path);
	return b.data;
}

/* The reason cpr_line() gives for refusing the last of lines l. */
static const char *
refuse(const char **l, size_t n)
{
	struct cpr *c;
	struct sst_rec r;
	const char *why = NULL;
	static char s[256];
	size_t i;

	c = cpr_new();
	for (i = 0; i < n; i++) {
		strlcpy(s, l[i], sizeof(s));
		if (cpr_line(c, s, strlen(s), &r, &why) == CP_ERR) {
			ck_assert_uint_eq(i, n - 1);
			cpr_free(c);
			return why;
		}
	}
	cpr_free(c);
	return "(accepted)";
}

START_TEST(test_read)
{
	char *got;

	/*
	 * Frames 0 a, 1 b, 2 c with locations; the second record keeps
	 * "a" and adds "c"; the third keeps both and adds "b"; the fourth
	 * keeps nothing (an empty stack).
	 */
	got = readall("\\D\n"
	    "\\F\ta\tf.py:1:null:0\n"
	    "\\F\tb\tf.py:2:null:1\n"
	    "\\R\tT1\t2\t0.02\tseconds\t0.01\t0\t0,1\n"
	    "\\F\tc\tg.py:3::2\n"
	    "\\R\tT1\t1\t0.01\tseconds\t0.01\t1\t2\n"
	    "\\R\tT2\t3\t0.03\tseconds\t0.01\t2\t1\n"
	    "\\R\tT2\t0\t0\tseconds\t-\t0\t\n");
	ck_assert_str_eq(got,
	    "T1\t2\t0.02\tseconds\t0.01\ta;b\tf.py:1:null:0;f.py:2:null:1\n"
	    "T1\t1\t0.01\tseconds\t0.01\ta;c\tf.py:1:null:0;g.py:3::2\n"
	    "T2\t3\t0.03\tseconds\t0.01\ta;c;b\t"
	    "f.py:1:null:0;g.py:3::2;f.py:2:null:1\n"
	    "T2\t0\t0\tseconds\t-\t\t\n");
	free(got);
}
END_TEST

/*
 * Frame numbers of one to eight digits, with leading zeros, with at
 * least eight bytes of the field after them (read eight at a time) and
 * fewer (a byte at a time); bytes next to digits that are none (':' and
 * '/' beside '0' to '9', a byte of 0xff) end a number too soon.
 */
START_TEST(test_read_numbers)
{
	static const char *colon[] = { "\\D", "\\F\ta\t", "\\F\tb\t",
	    "\\R\tT\t1\t1\tnone\t1\t0\t1:00000000,0" };
	static const char *slash[] = { "\\D", "\\F\ta\t", "\\F\tb\t",
	    "\\R\tT\t1\t1\tnone\t1\t0\t1/00000000,0" };
	static const char *high[] = { "\\D", "\\F\ta\t", "\\F\tb\t",
	    "\\R\tT\t1\t1\tnone\t1\t0\t1\xff" "0000000,0" };
	static const char *over[] = { "\\D", "\\F\ta\t", "\\F\tb\t",
	    "\\R\tT\t1\t1\tnone\t1\t0\t1,1000000,0,0,0,0" };
	struct buf in;
	char *got;
	int i;

	buf_init(&in);
	buf_adds(&in, "\\D\n");
	for (i = 0; i < 12; i++)
		buf_printf(&in, "\\F\tf%d\t\n", i);
	buf_adds(&in, "\\R\tT\t1\t1\tnone\t1\t0\t"
	    "0,11,007,0000010,00000011,9,1,10,3\n");
	buf_adds(&in, "\\R\tT\t1\t1\tnone\t1\t0\t"
	    "0000002,4,0000000000005,6\n");
	got = readall(in.data);
	ck_assert_str_eq(got,
	    "T\t1\t1\tnone\t1\tf0;f11;f7;f10;f11;f9;f1;f10;f3\t\n"
	    "T\t1\t1\tnone\t1\tf2;f4;f5;f6\t\n");
	free(got);
	buf_free(&in);
	ck_assert_str_eq(refuse(colon, 4), "bad frame numbers");
	ck_assert_str_eq(refuse(slash, 4), "bad frame numbers");
	ck_assert_str_eq(refuse(high, 4), "bad frame numbers");
	ck_assert_str_eq(refuse(over, 4), "frame number of no \\F line");
}
END_TEST

START_TEST(test_read_nolocs)
{
	char *got;

	/* No frame with a location: empty locations; some: joined. */
	got = readall("\\D\n\\F\tx\t\n\\F\ty\t\n\\F\tz\tz.c:9::\n"
	    "\\R\tP\t1\t1\tnone\t1\t0\t0,1\n"
	    "\\R\tP\t1\t1\tnone\t1\t1\t2\n"
	    "\\R\tP\t5\t7\tbytes\t-\t0\t1\t2.5\n");
	ck_assert_str_eq(got,
	    "P\t1\t1\tnone\t1\tx;y\t\n"
	    "P\t1\t1\tnone\t1\tx;z\t;z.c:9::\n"
	    "P\t5\t7\tbytes\t-\ty\t\t2.5\n");
	free(got);
}
END_TEST

START_TEST(test_read_empty_name)
{
	char *got;

	/*
	 * A stack of one frame of an empty name is \e, as the text form
	 * writes it (found by fuzz_rec: it read as a stack of no frame with
	 * one location); among others the name stays empty, as a text
	 * stack "b;" is read (and the writer writes it).
	 */
	got = readall("\\D\n\\F\t\tf.c:1::0\n\\F\tb\t\n"
	    "\\R\tT\t1\t1\tnone\t1\t0\t0\n"
	    "\\R\tT\t1\t1\tnone\t1\t0\t1,0\n");
	ck_assert_str_eq(got,
	    "T\t1\t1\tnone\t1\t\\e\tf.c:1::0\n"
	    "T\t1\t1\tnone\t1\tb;\t;f.c:1::0\n");
	free(got);
}
END_TEST

START_TEST(test_read_mixed)
{
	char *got;

	/*
	 * A text record between compact ones changes nothing; a second \D
	 * forgets the frames (frame 0 is "q" now) and the stack before.
	 */
	got = readall("\\D\n\\F\ta\t\n\\F\tb\t\n"
	    "\\R\tT\t1\t1\tnone\t1\t0\t0,1\n"
	    "U\t1\t1\tnone\t1\tzz\t\n"
	    "\\R\tT\t1\t1\tnone\t1\t2\t0\n"
	    "\\D\n\\F\tq\t\n"
	    "\\R\tT\t1\t1\tnone\t1\t0\t0\n");
	ck_assert_str_eq(got,
	    "T\t1\t1\tnone\t1\ta;b\t\n"
	    "U\t1\t1\tnone\t1\tzz\t\n"
	    "T\t1\t1\tnone\t1\ta;b;a\t\n"
	    "T\t1\t1\tnone\t1\tq\t\n");
	free(got);
}
END_TEST

START_TEST(test_lazy)
{
	struct sst_reader *rd;
	struct sst_rec r;
	const char *leaf, *loc, *l;
	char *path;
	size_t n, ln, len;
	int fd;

	/*
	 * With rec_nostacks(): stacks left empty, the leaf and the text
	 * line still right, also after keeping frames of an unbuilt stack.
	 */
	path = tu_tmpfile("\\D\n\\F\ta\tf:1::0\n\\F\tb\tf:2::1\n"
	    "\\R\tT\t1\t1\tnone\t1\t0\t0,1\n"
	    "\\R\tT\t1\t1\tnone\t1\t1\t0\n"
	    "\\R\tT\t1\t1\tnone\t1\t0\t\n");
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	rd = rec_open(fd, path);
	rec_nostacks(rd);
	ck_assert_int_eq(rec_read(rd, &r), 1);
	ck_assert_uint_eq(r.stacklen, 0);
	leaf = rec_leaf(rd, &r, &n, &loc, &ln);
	ck_assert_ptr_nonnull(leaf);
	ck_assert(n == 1 && leaf[0] == 'b' && ln == 6);
	ck_assert_int_eq(memcmp(loc, "f:2::1", 6), 0);
	ck_assert_int_eq(rec_read(rd, &r), 1);
	leaf = rec_leaf(rd, &r, &n, &loc, &ln);
	ck_assert(n == 1 && leaf[0] == 'a' && ln == 6);
	l = rec_line(rd, &len);
	ck_assert_uint_eq(len, strlen("T\t1\t1\tnone\t1\ta;a\tf:1::0;f:1::0"));
	ck_assert_int_eq(memcmp(l, "T\t1\t1\tnone\t1\ta;a\tf:1::0;f:1::0",
	    len), 0);
	ck_assert_int_eq(rec_read(rd, &r), 1);
	ck_assert_ptr_null(rec_leaf(rd, &r, &n, &loc, &ln));
	ck_assert_int_eq(rec_read(rd, &r), 0);
	rec_close(rd);
	close(fd);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_refuse)
{
	static const char *nod[] = { "\\F\ta\t" };
	static const char *dfield[] = { "\\D\tx" };
	static const char *fnum[] = { "\\D", "\\F\ta" };
	static const char *fsemi[] = { "\\D", "\\F\ta;b\t" };
	static const char *fesc[] = { "\\D", "\\F\ta\\q\t" };
	static const char *rnum[] = { "\\D", "\\F\ta\t",
	    "\\R\tT\t1\t1\tnone\t1\t0" };
	static const char *rundef[] = { "\\D", "\\F\ta\t",
	    "\\R\tT\t1\t1\tnone\t1\t0\t1" };
	static const char *rkeep[] = { "\\D", "\\F\ta\t",
	    "\\R\tT\t1\t1\tnone\t1\t0\t0", "\\R\tT\t1\t1\tnone\t1\t2\t0" };
	static const char *rtrail[] = { "\\D", "\\F\ta\t",
	    "\\R\tT\t1\t1\tnone\t1\t0\t0," };
	static const char *rempty[] = { "\\D", "\\F\ta\t",
	    "\\R\tT\t1\t1\tnone\t1\t0\t0,,0" };
	static const char *rword[] = { "\\D", "\\F\ta\t",
	    "\\R\tT\t1\t1\tnone\t1\t0\tx" };
	static const char *rbig[] = { "\\D", "\\F\ta\t",
	    "\\R\tT\t1\t1\tnone\t1\t0\t99999999999999999999" };
	static const char *rweight[] = { "\\D", "\\F\ta\t",
	    "\\R\tT\t2\t1\tnone\t1\t0\t0" };
	static const char *rstart[] = { "\\D", "\\F\ta\t",
	    "\\R\tT\t1\t1\tnone\t1\t0\t0\tsoon" };
	static const char *rnofield[] = { "\\D", "\\R" };

	ck_assert_str_eq(refuse(nod, 1), "a compact line before the \\D "
	    "line that begins compact records");
	ck_assert_str_eq(refuse(dfield, 1), "\\D takes no fields");
	ck_assert_str_eq(refuse(fnum, 2),
	    "expected \\F and 2 TAB-separated fields");
	ck_assert_str_eq(refuse(fsemi, 2), "bad escape sequence in a frame");
	ck_assert_str_eq(refuse(fesc, 2), "bad escape sequence in a frame");
	ck_assert_str_eq(refuse(rnum, 3),
	    "expected \\R and 7 or 8 TAB-separated fields");
	ck_assert_str_eq(refuse(rundef, 3), "frame number of no \\F line");
	ck_assert_str_eq(refuse(rkeep, 4),
	    "keep is more than the frames of the record before");
	ck_assert_str_eq(refuse(rtrail, 3), "bad frame numbers");
	ck_assert_str_eq(refuse(rempty, 3), "bad frame numbers");
	ck_assert_str_eq(refuse(rword, 3), "bad frame numbers");
	ck_assert_str_eq(refuse(rbig, 3), "bad frame numbers");
	ck_assert_str_eq(refuse(rweight, 3),
	    "weight is not samples times period");
	ck_assert_str_eq(refuse(rstart, 3), "bad start time");
	ck_assert_str_eq(refuse(rnofield, 2),
	    "expected TAB-separated fields after \\F or \\R");
}
END_TEST

/* A record of thread t with stack s and locations l, 1 sample of 1. */
static struct sst_rec
mkrec(const char *t, const char *s, const char *l)
{
	struct sst_rec r;

	memset(&r, 0, sizeof(r));
	r.thread = t;
	r.threadlen = strlen(t);
	r.samples = 1;
	r.weight = 1;
	r.unit = U_NONE;
	r.hasperiod = 1;
	r.period = 1;
	r.stack = s;
	r.stacklen = strlen(s);
	r.locs = l;
	r.locslen = strlen(l);
	return r;
}

START_TEST(test_write)
{
	struct sst_rec r[5];
	struct cpw *w;
	char *out;
	size_t n, i;
	FILE *fp;

	r[0] = mkrec("T", "a;b", "f:1::0;f:2::1");
	r[1] = mkrec("T", "a;c", "f:1::0;g:3::2");
	/* Same name, other location: another frame. */
	r[2] = mkrec("U", "a;c;b;b", "f:1::0;g:3::2;f:2::1;h:4::3");
	/* Empty entries only have no compact spelling: as text. */
	r[3] = mkrec("U", "a;b", ";");
	r[4] = mkrec("U", "", "");
	r[4].samples = 2;
	r[4].weight = 0.30000000000000004;
	r[4].hasperiod = 0;
	r[4].unit = U_SECONDS;
	r[4].hasstart = 1;
	r[4].start = 0.5;
	fp = open_memstream(&out, &n);
	w = cpw_new(fp);
	for (i = 0; i < 5; i++)
		cpw_write(w, &r[i]);
	cpw_free(w);
	fclose(fp);
	ck_assert_str_eq(out, "\\D\n"
	    "\\F\ta\tf:1::0\n\\F\tb\tf:2::1\n"
	    "\\R\tT\t1\t1\tnone\t1\t0\t0,1\n"
	    "\\F\tc\tg:3::2\n"
	    "\\R\tT\t1\t1\tnone\t1\t1\t2\n"
	    "\\F\tb\th:4::3\n"
	    "\\R\tU\t1\t1\tnone\t1\t2\t1,3\n"
	    "U\t1\t1\tnone\t1\ta;b\t;\n"
	    "\\R\tU\t2\t0.30000000000000004\tseconds\t-\t0\t\t0.5\n");
	free(out);
}
END_TEST

/* Frame id of a producer: "f<id>" at "p:<id>". */
static void
ftext(const void *src, uint32_t id, const char **name, size_t *nlen,
    const char **loc, size_t *llen)
{
	static char nb[16][16], lb[16][16];

	(void)src;
	snprintf(nb[id % 16], sizeof(nb[0]), "f%u", (unsigned)id);
	snprintf(lb[id % 16], sizeof(lb[0]), "p:%u", (unsigned)id);
	*name = nb[id % 16];
	*nlen = strlen(*name);
	*loc = lb[id % 16];
	*llen = strlen(*loc);
}

START_TEST(test_write_ids)
{
	static const uint32_t a[] = { 7, 3 }, b[] = { 7, 3, 9 };
	struct sst_frames f = { a, 2, ftext, NULL, 0 };
	struct sst_rec r;
	struct cpw *w;
	char *out;
	size_t n;
	FILE *fp;

	r = mkrec("T", "", "");
	r.frames = &f;
	f.serial = cp_serial();
	fp = open_memstream(&out, &n);
	w = cpw_new(fp);
	cpw_write(w, &r);
	f.ids = b;
	f.n = 3;
	cpw_write(w, &r);
	/* Another numbering: its frame 7 is another frame. */
	f.serial = cp_serial();
	f.n = 1;
	cpw_write(w, &r);
	cpw_free(w);
	fclose(fp);
	ck_assert_str_eq(out, "\\D\n"
	    "\\F\tf7\tp:7\n\\F\tf3\tp:3\n"
	    "\\R\tT\t1\t1\tnone\t1\t0\t0,1\n"
	    "\\F\tf9\tp:9\n"
	    "\\R\tT\t1\t1\tnone\t1\t2\t2\n"
	    "\\F\tf7\tp:7\n"
	    "\\R\tT\t1\t1\tnone\t1\t0\t3\n");
	free(out);
}
END_TEST

START_TEST(test_isline)
{
	ck_assert(cp_isline("\\D", 2));
	ck_assert(cp_isline("\\F\tx\t", 5));
	ck_assert(cp_isline("\\R\t", 3));
	ck_assert(!cp_isline("\\Dx", 3));
	ck_assert(!cp_isline("\\e\t1", 4));
	ck_assert(!cp_isline("\\", 1));
	ck_assert(!cp_isline("D\t1", 3));
}
END_TEST

static Suite *
compact_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("compact");
	tc = tcase_create("core");
	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_read_numbers);
	tcase_add_test(tc, test_read_nolocs);
	tcase_add_test(tc, test_read_empty_name);
	tcase_add_test(tc, test_read_mixed);
	tcase_add_test(tc, test_lazy);
	tcase_add_test(tc, test_refuse);
	tcase_add_test(tc, test_write);
	tcase_add_test(tc, test_write_ids);
	tcase_add_test(tc, test_isline);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(compact_suite());
}
