/*
 * test_spd.c: Check suite for the speedscope reader (common/formats/spd.c).
 * Each test runs spd_flatten() over a document in memory, writes the
 * lines it hands out (or, stacks as frame ids, the records, with
 * rec_write()) and compares the text; same() runs it over the document
 * in a file too, where the stacks' samples are read again (rekey()).
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <check.h>
#include <err.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "json.h"
#include "rec.h"
#include "fmt.h"
#include "spd.h"

/* Three frames: main (a.py:1), f (a.py:5:2), g (no location). */
#define FRAMES	"\"shared\":{\"frames\":[" \
	"{\"name\":\"main\",\"file\":\"a.py\",\"line\":1}," \
	"{\"name\":\"f\",\"file\":\"a.py\",\"line\":5,\"col\":2}," \
	"{\"name\":\"g\"}]}"
#define LMAIN	"a.py:1::0"
#define LF	"a.py:5:2:1"
#define LG	":::2"

static void	 text(const char *, size_t, size_t, void *);
static void	 emitids(const struct sst_rec *, void *);
static char	*collect(struct json *, int, spd_text);
static char	*flatten(const char *, int);
static char	*fromfile(const char *, int, spd_text);
static char	*flatten_file(const char *, int);
static void	 text_change(const char *, size_t, size_t, void *);
static char	*flatten_changing(const char *, int);
static void	 matches(const char *, const char *);
static void	 same(const char *, int, const char *);
static void	 textlengths(const size_t *, size_t);
static void	 samples20(struct buf *, size_t, size_t);
static void	 weights(struct buf *, size_t, const char *);
static void	 rec20(struct buf *, const char *, size_t, size_t, size_t);
static void	 flatten_quiet(const char *, int);
static char	*errof(char *(*)(const char *, int), const char *, int,
		    int *);
static char	*flatten_err(const char *, int, int *);
static size_t	 heapuse(void);
static void	 text_heap(const char *, size_t, size_t, void *);
static char	*manyprofiles(size_t, int);
static size_t	 pendingcost(size_t, int, int);
static Suite	*spd_suite(void);

/* The callback: append the lines, n of them, whole. */
static void
text(const char *t, size_t len, size_t n, void *arg)
{
	size_t i, lines = 0;

	for (i = 0; i < len; i++)
		lines += t[i] == '\n';
	ck_assert_uint_eq(lines, n);
	ck_assert(len > 0 && t[len - 1] == '\n');
	ck_assert_uint_eq(fwrite(t, 1, len, arg), len);
}

/*
 * The callback for stacks as frame ids: the record written as stream
 * text, its stack and locations joined from the frames' text.
 */
static void
emitids(const struct sst_rec *r, void *arg)
{
	struct sst_rec t = *r;
	struct buf st, lo;
	const char *name, *loc;
	size_t i, nlen, llen;

	ck_assert_ptr_nonnull(r->frames);
	buf_init(&st);
	buf_init(&lo);
	for (i = 0; i < r->frames->n; i++) {
		r->frames->text(r->frames->src, r->frames->ids[i], &name,
		    &nlen, &loc, &llen);
		if (i > 0) {
			buf_addc(&st, ';');
			buf_addc(&lo, ';');
		}
		buf_add(&st, name, nlen);
		buf_add(&lo, loc, llen);
	}
	t.frames = NULL;
	t.stack = st.data;
	t.stacklen = st.len;
	t.locs = lo.data;
	t.locslen = lo.len;
	rec_write(arg, &t);
	buf_free(&st);
	buf_free(&lo);
}

/* All records read from j, which is closed, as stream text handed to tx. */
static char *
collect(struct json *j, int persample, spd_text tx)
{
	char *out = NULL, msg[256];
	size_t n = 0;
	FILE *fp;

	ck_assert_ptr_nonnull(fp = open_memstream(&out, &n));
	/* What sst-flatten does with an error returned. */
	if (spd_flatten(j, persample, emitids, tx, fp, msg, sizeof(msg)) ==
	    SPD_ERROR)
		errx(1, "%s", msg);
	json_close(j);
	fclose(fp);
	return out;
}

/* All records of doc, as stream text. */
static char *
flatten(const char *doc, int persample)
{
	return collect(json_open_mem(doc, strlen(doc), "doc.json"),
	    persample, text);
}

/* A line before the document in the file of fromfile(). */
#define LINE	"not of the document\n"

/* The file of fromfile(), and the byte of its document to change. */
static int	 docfd = -1;
static off_t	 changeat;

/*
 * All records of doc read from a file, as stream text, handed to tx: a
 * temporary file that holds LINE and then doc, read from a descriptor
 * past the line (as a shell's read(1) leaves its standard input).
 */
static char *
fromfile(const char *doc, int persample, spd_text tx)
{
	char path[] = "/tmp/sst-test.XXXXXX", *out;
	int fd;

	ck_assert_int_ne(fd = mkstemp(path), -1);
	unlink(path);
	ck_assert_int_eq(write(fd, LINE, sizeof(LINE) - 1),
	    (ssize_t)sizeof(LINE) - 1);
	ck_assert_int_eq(write(fd, doc, strlen(doc)), (ssize_t)strlen(doc));
	ck_assert_int_eq(lseek(fd, sizeof(LINE) - 1, SEEK_SET),
	    (off_t)sizeof(LINE) - 1);
	docfd = fd;
	out = collect(json_open(fd, "doc.json"), persample, tx);
	close(fd);
	docfd = -1;
	return out;
}

/* All records of doc read from a file, as stream text. */
static char *
flatten_file(const char *doc, int persample)
{
	return fromfile(doc, persample, text);
}

/*
 * The text callback that, once, after the first lines, makes byte
 * changeat of the document in the file of fromfile() a '2'.
 */
static void
text_change(const char *t, size_t len, size_t n, void *arg)
{
	text(t, len, n, arg);
	if (docfd != -1) {
		ck_assert_int_eq(pwrite(docfd, "2", 1, (off_t)sizeof(LINE) -
		    1 + changeat), 1);
		docfd = -1;
	}
}

/* As flatten_file(), the file changed after the first lines. */
static char *
flatten_changing(const char *doc, int persample)
{
	return fromfile(doc, persample, text_change);
}

/*
 * Output out is want.  A long output that differs is reported from the
 * line where it does (Check cannot carry a long message).
 */
static void
matches(const char *out, const char *want)
{
	size_t i, line = 1, bol = 0;

	for (i = 0; out[i] == want[i] && out[i] != '\0'; i++)
		if (out[i] == '\n') {
			line++;
			bol = i + 1;
		}
	ck_assert_msg(out[i] == want[i], "line %zu differs: got \"%.200s\", "
	    "want \"%.200s\"", line, out + bol, want + bol);
}

/* doc flattens to want, from memory and from a file. */
static void
same(const char *doc, int persample, const char *want)
{
	char *out;

	out = flatten(doc, persample);
	matches(out, want);
	free(out);
	out = flatten_file(doc, persample);
	matches(out, want);
	free(out);
}

/* For the exit tests: flatten with standard error silenced. */
static void
flatten_quiet(const char *doc, int persample)
{
	freopen("/dev/null", "w", stderr);
	free(flatten(doc, persample));
}

/* Flatten doc with flags in a child; see errof(). */
static char *
flatten_err(const char *doc, int flags, int *st)
{
	return errof(flatten, doc, flags, st);
}

/*
 * Flatten doc with flags by fn in a child; its exit status in *st, its
 * stderr returned.
 */
static char *
errof(char *(*fn)(const char *, int), const char *doc, int flags, int *st)
{
	struct buf b;
	char tmp[512];
	ssize_t n;
	pid_t pid;
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_ne(pid = fork(), -1);
	if (pid == 0) {
		dup2(p[1], 2);
		close(p[0]);
		free(fn(doc, flags));
		_exit(0);
	}
	close(p[1]);
	buf_init(&b);
	while ((n = read(p[0], tmp, sizeof(tmp))) > 0)
		buf_add(&b, tmp, (size_t)n);
	close(p[0]);
	ck_assert_int_eq(waitpid(pid, st, 0), pid);
	return b.data;
}

/* Bytes of the heap in use: glibc's, all in one arena, else 0. */
static size_t
heapuse(void)
{
#ifdef __GLIBC__
	struct mallinfo2 m = mallinfo2();

	return m.uordblks + m.hblkhd;
#else
	return 0;
#endif
}

/* The heap in use when the first lines were handed out, or 0. */
static size_t	 heapfirst;

/* The text callback that notes heapfirst. */
static void
text_heap(const char *t, size_t len, size_t n, void *arg)
{
	if (heapfirst == 0)
		heapfirst = heapuse();
	text(t, len, n, arg);
}

/*
 * A document of n small profiles before the frames (bench/genprofs.sh's
 * shape): profile i samples [i % 2, 2] once, weight 1 + i % 5, its
 * sample as compact JSON, or, with spaced, spelled with a blank, which
 * is read token by token, so that its key is kept even from a file.
 */
static char *
manyprofiles(size_t n, int spaced)
{
	struct buf doc;
	size_t i;

	buf_init(&doc);
	buf_adds(&doc, "{\"profiles\":[");
	for (i = 0; i < n; i++)
		buf_printf(&doc, "%s{\"type\":\"sampled\",\"name\":\"t%zu\","
		    "\"unit\":\"none\",\"samples\":[[%zu,%s2]],"
		    "\"weights\":[%zu]}", i > 0 ? "," : "", i, i % 2,
		    spaced ? " " : "", 1 + i % 5);
	buf_adds(&doc, "]," FRAMES "}");
	return doc.data;
}

/*
 * The heap that n profiles of manyprofiles(n, spaced) hold while they
 * wait for the frames, read from memory or from a file (fromfile());
 * their records are checked on the way.
 */
static size_t
pendingcost(size_t n, int spaced, int file)
{
	char *doc, *out, *o, want[64];
	size_t base, i;

	doc = manyprofiles(n, spaced);
	heapfirst = 0;
	base = heapuse();
	out = file ? fromfile(doc, 0, text_heap) :
	    collect(json_open_mem(doc, strlen(doc), "doc.json"), 0,
	    text_heap);
	for (i = 0, o = out; i < n; i++, o += strlen(want)) {
		snprintf(want, sizeof(want), "t%zu\t1\t%zu\tnone\t%zu\t%s;g\t",
		    i, 1 + i % 5, 1 + i % 5, i % 2 ? "f" : "main");
		ck_assert_msg(strncmp(o, want, strlen(want)) == 0,
		    "profile %zu: got \"%.60s\"", i, o);
		o = strchr(o, '\n');
		ck_assert_ptr_nonnull(o);
		o++;
		want[0] = '\0';
	}
	ck_assert_str_eq(o, "");
	free(out);
	free(doc);
	return heapfirst > base ? heapfirst - base : 0;
}

/*
 * Many small profiles before the frames (issue 34): each costs what
 * it needs while it waits, about 450 bytes of heap with one stack,
 * whether its key is read again from a file, kept from a pipe, or kept
 * even from a file (its sample read token by token): no list of keys
 * of its own (some 4 KB and a compressing thread each), no slack: 512
 * bytes at most.  The cost of 20,000 more, so that what is made once
 * cancels out.
 */
START_TEST(test_pending_cost)
{
	static const int how[][2] = { { 0, 1 }, { 0, 0 }, { 1, 1 } };
	size_t a, b, i;
	char *m;

#ifdef M_ARENA_MAX
	/* The threads' allocations counted too. */
	mallopt(M_ARENA_MAX, 1);
#endif
	/* Not glibc's heap (as under ASan): nothing to measure. */
	a = heapuse();
	m = xmalloc(1 << 20);
	b = heapuse();
	free(m);
	if (b < a + (1 << 20))
		return;
	for (i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		a = pendingcost(20000, how[i][0], how[i][1]);
		b = pendingcost(40000, how[i][0], how[i][1]);
		ck_assert_uint_gt(b, a);
		ck_assert_msg((b - a) / 20000 <= 512, "%s%s: %zu bytes a "
		    "pending profile", how[i][1] ? "file" : "memory",
		    how[i][0] ? ", spaced" : "", (b - a) / 20000);
	}
}
END_TEST

/* Every weight differs from the one before: a record per sample. */
static const char sampled_want[] =
	"T1\t1\t0.1\tseconds\t0.1\tmain;f\t" LMAIN ";" LF "\n"
	"T1\t1\t0.2\tseconds\t0.2\tmain;f;g\t" LMAIN ";" LF ";" LG "\n"
	"T1\t1\t0.1\tseconds\t0.1\tmain;f\t" LMAIN ";" LF "\n"
	"T1\t1\t0.3\tseconds\t0.3\tmain\t" LMAIN "\n";

START_TEST(test_shared_first)
{
	same("{\"$schema\":\"https://www.speedscope.app/file-format-schema"
	    ".json\"," FRAMES ",\"profiles\":[{\"type\":\"sampled\","
	    "\"name\":\"T1\",\"unit\":\"seconds\",\"startValue\":0,"
	    "\"endValue\":0.7,\"samples\":[[0,1],[0,1,2],[0,1],[0]],"
	    "\"weights\":[0.1,0.2,0.1,0.3]}],\"name\":\"x\","
	    "\"activeProfileIndex\":0,\"exporter\":\"py-spy@0.3.14\"}", 0,
	    sampled_want);
}
END_TEST

START_TEST(test_profiles_first)
{
	same("{\"profiles\":[{\"type\":\"sampled\",\"name\":\"T1\","
	    "\"unit\":\"seconds\",\"startValue\":0,\"endValue\":0.7,"
	    "\"samples\":[[0,1],[0,1,2],[0,1],[0]],"
	    "\"weights\":[0.1,0.2,0.1,0.3]}]," FRAMES "}", 0, sampled_want);
}
END_TEST

START_TEST(test_weights_first)
{
	same("{" FRAMES ",\"profiles\":[{\"weights\":[0.1,0.2,0.1,0.3],"
	    "\"type\":\"sampled\",\"name\":\"T1\",\"unit\":\"seconds\","
	    "\"samples\":[[0,1],[0,1,2],[0,1],[0]]}]}", 0, sampled_want);
	same("{\"profiles\":[{\"weights\":[0.1,0.2,0.1,0.3],"
	    "\"samples\":[[0,1],[0,1,2],[0,1],[0]],\"name\":\"T1\"}],"
	    FRAMES "}", 0, sampled_want);
}
END_TEST

/* Several profiles keep their order, whether frames come before or after. */
START_TEST(test_profile_order)
{
	static const char want[] =
	    "A\t1\t1\tnone\t1\tmain\t" LMAIN "\n"
	    "B\t0\t0\tseconds\t-\t\t\n"
	    "C\t1\t2\tnone\t2\tf\t" LF "\n";
	static const char profs[] = "\"profiles\":["
	    "{\"name\":\"A\",\"unit\":\"none\",\"samples\":[[0]],"
	    "\"weights\":[1]},"
	    "{\"name\":\"B\",\"unit\":\"seconds\",\"samples\":[],"
	    "\"weights\":[]},"
	    "{\"name\":\"C\",\"unit\":\"none\",\"samples\":[[1]],"
	    "\"weights\":[2]}]";
	char doc[2048];

	snprintf(doc, sizeof(doc), "{%s,%s}", FRAMES, profs);
	same(doc, 0, want);
	snprintf(doc, sizeof(doc), "{%s,%s}", profs, FRAMES);
	same(doc, 0, want);
	same("{" FRAMES "}", 0, "");
	same("{\"profiles\":[]}", 0, "");
	same("{}", 0, "");
}
END_TEST

/* A new record starts wherever the weight changes. */
START_TEST(test_mixed_period)
{
	same("{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"samples\":[[0],[0],"
	    "[0],[1],[0]],\"weights\":[0.1,0.2,0.2,0.2,0.1]}]}", 0,
	    "T\t1\t0.1\tseconds\t0.1\tmain\t" LMAIN "\n"
	    "T\t2\t0.4\tseconds\t0.2\tmain\t" LMAIN "\n"
	    "T\t1\t0.2\tseconds\t0.2\tf\t" LF "\n"
	    "T\t1\t0.1\tseconds\t0.1\tmain\t" LMAIN "\n");
	same("{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"samples\":[[0],[0],"
	    "[0]],\"weights\":[0.1,0.1,0.1]}]}", 0,
	    "T\t3\t0.30000000000000004\tseconds\t0.1\tmain\t" LMAIN "\n");
	/* Summed in sample order, as Python does. */
	same("{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"samples\":[[0],[0],"
	    "[0],[0],[0],[0],[0],[0],[0],[0]],\"weights\":[0.1,0.1,0.1,0.1,"
	    "0.1,0.1,0.1,0.1,0.1,0.1]}]}", 0,
	    "T\t10\t0.9999999999999999\tseconds\t0.1\tmain\t" LMAIN "\n");
}
END_TEST

START_TEST(test_evented)
{
	static const char doc[] = "{" FRAMES ",\"profiles\":[{\"type\":"
	    "\"evented\",\"name\":\"E\",\"unit\":\"milliseconds\","
	    "\"startValue\":0,\"endValue\":10,\"events\":["
	    "{\"type\":\"O\",\"frame\":0,\"at\":0},"
	    "{\"type\":\"O\",\"frame\":1,\"at\":2},"
	    "{\"type\":\"O\",\"frame\":2,\"at\":2},"
	    "{\"type\":\"C\",\"frame\":2,\"at\":5},"
	    "{\"type\":\"C\",\"frame\":1,\"at\":5},"
	    "{\"type\":\"C\",\"frame\":0,\"at\":10},"
	    "{\"type\":\"O\",\"frame\":1,\"at\":12},"
	    "{\"type\":\"C\",\"frame\":1,\"at\":13}]}]}";

	/* main 0-2 and 5-10, main;f;g 2-5, f 12-13; nothing for 10-12. */
	same(doc, 0,
	    "E\t1\t0.002\tseconds\t0.002\tmain\t" LMAIN "\n"
	    "E\t1\t0.003\tseconds\t0.003\tmain;f;g\t" LMAIN ";" LF ";" LG "\n"
	    "E\t1\t0.005\tseconds\t0.005\tmain\t" LMAIN "\n"
	    "E\t1\t0.001\tseconds\t0.001\tf\t" LF "\n");
	/* With -s, each starts at its first event's time. */
	same(doc, 1,
	    "E\t1\t0.002\tseconds\t0.002\tmain\t" LMAIN "\t0\n"
	    "E\t1\t0.003\tseconds\t0.003\tmain;f;g\t" LMAIN ";" LF ";" LG
	    "\t0.002\n"
	    "E\t1\t0.005\tseconds\t0.005\tmain\t" LMAIN "\t0.005\n"
	    "E\t1\t0.001\tseconds\t0.001\tf\t" LF "\t0.012\n");
	/* No events, or only zero-length ones: an empty thread. */
	same("{" FRAMES ",\"profiles\":[{\"type\":\"evented\",\"name\":\"E\","
	    "\"unit\":\"none\",\"events\":[]}]}", 0,
	    "E\t0\t0\tnone\t-\t\t\n");
	same("{" FRAMES ",\"profiles\":[{\"type\":\"evented\",\"name\":\"E\","
	    "\"unit\":\"none\",\"events\":[{\"type\":\"O\",\"frame\":0,"
	    "\"at\":3},{\"type\":\"C\",\"frame\":0,\"at\":3}]}]}", 0,
	    "E\t0\t0\tnone\t-\t\t\n");
}
END_TEST

START_TEST(test_units)
{
	static const struct {
		const char	*unit;
		const char	*want;
	} t[] = {
		{ "seconds", "T\t2\t2\tseconds\t1\tmain\t" LMAIN "\n" },
		{ "milliseconds",
		    "T\t2\t0.002\tseconds\t0.001\tmain\t" LMAIN "\n" },
		{ "microseconds",
		    "T\t2\t2e-06\tseconds\t1e-06\tmain\t" LMAIN "\n" },
		{ "nanoseconds",
		    "T\t2\t2e-09\tseconds\t1e-09\tmain\t" LMAIN "\n" },
		{ "none", "T\t2\t2\tnone\t1\tmain\t" LMAIN "\n" },
		{ "bytes", "T\t2\t2\tbytes\t1\tmain\t" LMAIN "\n" },
	};
	char doc[1024];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(doc, sizeof(doc), "{" FRAMES ",\"profiles\":[{"
		    "\"name\":\"T\",\"unit\":\"%s\",\"samples\":[[0],[0]],"
		    "\"weights\":[1,1]}]}", t[i].unit);
		same(doc, 0, t[i].want);
	}
	/* No unit: seconds. */
	same("{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"samples\":[[0]],"
	    "\"weights\":[0.5]}]}", 0,
	    "T\t1\t0.5\tseconds\t0.5\tmain\t" LMAIN "\n");
}
END_TEST

START_TEST(test_empty_profile)
{
	same("{" FRAMES ",\"profiles\":[{\"type\":\"sampled\",\"name\":"
	    "\"Idle\",\"unit\":\"seconds\",\"startValue\":0,\"endValue\":0,"
	    "\"samples\":[],\"weights\":[]}]}", 0,
	    "Idle\t0\t0\tseconds\t-\t\t\n");
	same("{" FRAMES ",\"profiles\":[{\"name\":\"Idle\",\"unit\":\"none\""
	    "}]}", 0, "Idle\t0\t0\tnone\t-\t\t\n");
	same("{" FRAMES ",\"profiles\":[{\"name\":\"Idle\",\"samples\":[],"
	    "\"weights\":[]}]}", 1, "Idle\t0\t0\tseconds\t-\t\t\n");
	/* A sample with no frames is not an empty profile. */
	same("{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
	    "\"samples\":[[]],\"weights\":[4]}]}", 0,
	    "T\t1\t4\tnone\t4\t\t\n");
}
END_TEST

/* Two frames that look the same stay two frames. */
START_TEST(test_duplicate_frames)
{
	same("{\"shared\":{\"frames\":["
	    "{\"name\":\"f\",\"file\":\"a.py\",\"line\":1},"
	    "{\"name\":\"f\",\"file\":\"a.py\",\"line\":1}]},"
	    "\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
	    "\"samples\":[[0],[1],[0],[0,1]],\"weights\":[1,1,1,1]}]}", 0,
	    "T\t2\t2\tnone\t1\tf\ta.py:1::0\n"
	    "T\t1\t1\tnone\t1\tf\ta.py:1::1\n"
	    "T\t1\t1\tnone\t1\tf;f\ta.py:1::0;a.py:1::1\n");
}
END_TEST

START_TEST(test_locations)
{
	same("{\"shared\":{\"frames\":["
	    "{\"name\":\"a\",\"file\":\"a.py\",\"line\":null},"
	    "{\"name\":\"b\",\"file\":\"b.py\"},"
	    "{\"name\":\"c\",\"file\":\"c.py\",\"line\":3,\"col\":null},"
	    "{\"name\":\"d\",\"line\":7,\"col\":9},"
	    "{\"name\":\"e\",\"file\":null,\"line\":null,\"col\":null},"
	    "{\"col\":4,\"name\":\"f\",\"line\":12,\"file\":\"C:\\\\x;y:z\","
	    "\"key\":[1,{\"a\":2}]},"
	    "{\"name\":\"g\",\"file\":\"g.py\",\"line\":1.0e1}]},"
	    "\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
	    "\"samples\":[[0,1,2,3,4,5,6]],\"weights\":[1]}]}", 0,
	    "T\t1\t1\tnone\t1\ta;b;c;d;e;f;g\t"
	    "a.py:null::0;b.py:::1;c.py:3:null:2;:7:9:3;:null:null:4;"
	    "C:\\\\x\\x3by:z:12:4:5;g.py:1.0e1::6\n");
}
END_TEST

/* Names hold any byte; the stream escapes them. */
START_TEST(test_names)
{
	same("{\"shared\":{\"frames\":["
	    "{\"name\":\"a;b\\tc\\\\d\\n\\u0001\\u00e9\"},"
	    "{\"name\":\"\"}]},"
	    "\"profiles\":[{\"name\":\"Thread \\\"x\\\";\\t1\","
	    "\"unit\":\"none\",\"samples\":[[0,1]],\"weights\":[1]},"
	    "{\"unit\":\"none\",\"samples\":[[1]],\"weights\":[1]},"
	    "{\"name\":null,\"unit\":\"none\",\"samples\":[[1]],"
	    "\"weights\":[2]}]}", 0,
	    "Thread \"x\"\\x3b\\t1\t1\t1\tnone\t1\t"
	    "a\\x3bb\\tc\\\\d\\n\\x01\xc3\xa9;\\e\t:::0;:::1\n"
	    "\t1\t1\tnone\t1\t\\e\t:::1\n"
	    "\\e\t1\t2\tnone\t2\t\\e\t:::1\n");
}
END_TEST

START_TEST(test_persample)
{
	static const char doc[] = "{" FRAMES ",\"profiles\":[{\"name\":\"T\","
	    "\"unit\":\"milliseconds\",\"samples\":[[0,1],[0],[0,1],[2]],"
	    "\"weights\":[1,2,3,1]},{\"name\":\"U\",\"unit\":\"none\","
	    "\"samples\":[[1]],\"weights\":[7]}]}";

	/* With -s, each starts where the weights before it end. */
	same(doc, 1,
	    "T\t1\t0.001\tseconds\t0.001\tmain;f\t" LMAIN ";" LF "\t0\n"
	    "T\t1\t0.002\tseconds\t0.002\tmain\t" LMAIN "\t0.001\n"
	    "T\t1\t0.003\tseconds\t0.003\tmain;f\t" LMAIN ";" LF
	    "\t0.003\n"
	    "T\t1\t0.001\tseconds\t0.001\tg\t" LG "\t0.006\n"
	    "U\t1\t7\tnone\t7\tf\t" LF "\t0\n");
	same(doc, 0,
	    "T\t1\t0.001\tseconds\t0.001\tmain;f\t" LMAIN ";" LF "\n"
	    "T\t1\t0.002\tseconds\t0.002\tmain\t" LMAIN "\n"
	    "T\t1\t0.003\tseconds\t0.003\tmain;f\t" LMAIN ";" LF "\n"
	    "T\t1\t0.001\tseconds\t0.001\tg\t" LG "\n"
	    "U\t1\t7\tnone\t7\tf\t" LF "\n");
	/* Weights first, frames last. */
	same("{\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
	    "\"weights\":[5,6],\"samples\":[[2],[1]]}]," FRAMES "}", 1,
	    "T\t1\t5\tnone\t5\tg\t" LG "\t0\n"
	    "T\t1\t6\tnone\t6\tf\t" LF "\t5\n");
}
END_TEST

/*
 * More samples than the 1 MiB spill buffer holds in memory, weights
 * first and samples first: sums are exact left-to-right sums.
 */
START_TEST(test_big)
{
	struct buf doc, want;
	char *out;
	size_t i, n = 399999, h = 199999, lines, cnt;
	double wa;
	int k, k2, part;

	for (k = 0; k < 2; k++) {
		buf_init(&doc);
		buf_adds(&doc, "{" FRAMES ",\"profiles\":[{\"name\":\"T\",");
		for (part = 0; part < 2; part++) {
			if ((part == 0) == (k == 0)) {
				buf_adds(&doc, "\"weights\":[");
				for (i = 0; i < n; i++)
					buf_adds(&doc, i < h ?
					    "0.001," : "0.002,");
			} else {
				buf_adds(&doc, "\"samples\":[");
				for (i = 0; i < n; i++)
					buf_adds(&doc, i % 3 == 2 ?
					    "[0,1,2]," : "[0,1],");
			}
			doc.data[--doc.len] = '\0';
			buf_adds(&doc, part == 0 ? "]," : "]");
		}
		buf_adds(&doc, "}]}");
		/*
		 * Two batches: 0.001 up to h, 0.002 after; per stack in
		 * each.
		 */
		buf_init(&want);
		out = xmalloc(FMTBUF);
		for (part = 0; part < 2; part++) {
			for (k2 = 0; k2 < 2; k2++) {
				cnt = 0;
				wa = 0;
				for (i = part ? h : 0; i < (part ? n : h); i++)
					if ((i % 3 == 2) == k2) {
						cnt++;
						wa += part ? 0.002 : 0.001;
					}
				buf_printf(&want, "T\t%zu\t", cnt);
				buf_adds(&want, fmt_double(out, FMTBUF, wa));
				buf_printf(&want, "\tseconds\t%s\t%s\n",
				    part ? "0.002" : "0.001", k2 ?
				    "main;f;g\t" LMAIN ";" LF ";" LG :
				    "main;f\t" LMAIN ";" LF);
			}
		}
		free(out);
		same(doc.data, 0, want.data);
		/* One line per sample with -s. */
		out = flatten(doc.data, 1);
		for (i = 0, lines = 0; out[i] != '\0'; i++)
			lines += out[i] == '\n';
		ck_assert_uint_eq(lines, n);
		/* The last record, but for its start time. */
		for (i = strlen(out) - 1; i > 0 && out[i - 1] != '\n'; i--)
			continue;
		ck_assert(strncmp(out + i, "T\t1\t0.002\tseconds\t0.002\t"
		    "main;f;g\t" LMAIN ";" LF ";" LG "\t", strlen("T\t1\t0.002"
		    "\tseconds\t0.002\tmain;f;g\t" LMAIN ";" LF ";" LG "\t"))
		    == 0);
		free(out);
		buf_free(&want);
		buf_free(&doc);
	}
}
END_TEST

/* More frames than the first frame table allocation holds. */
START_TEST(test_many_frames)
{
	struct buf doc;
	size_t i, n = 3000;

	buf_init(&doc);
	buf_adds(&doc, "{\"shared\":{\"frames\":[");
	for (i = 0; i < n; i++)
		buf_printf(&doc, "%s{\"name\":\"f%zu\",\"file\":\"m.py\","
		    "\"line\":%zu}", i ? "," : "", i, i + 1);
	buf_adds(&doc, "]},\"profiles\":[{\"name\":\"T\",\"unit\":"
	    "\"none\",\"samples\":[[0,2999],[1023],[1024],[2999,0]],"
	    "\"weights\":[1,2,3,4]}]}");
	same(doc.data, 0,
	    "T\t1\t1\tnone\t1\tf0;f2999\tm.py:1::0;m.py:3000::2999\n"
	    "T\t1\t2\tnone\t2\tf1023\tm.py:1024::1023\n"
	    "T\t1\t3\tnone\t3\tf1024\tm.py:1025::1024\n"
	    "T\t1\t4\tnone\t4\tf2999;f0\tm.py:3000::2999;m.py:1::0\n");
	buf_free(&doc);
}
END_TEST

/*
 * A sample longer than a block of samples handed over has room for
 * (spd.c's QROOM, 80 KB): 45,000 frames, taken twice, around others.
 */
START_TEST(test_deep_sample)
{
	struct buf doc, big, st, lo, want;
	size_t i, n = 45000;

	buf_init(&doc);
	buf_init(&big);
	buf_init(&st);
	buf_init(&lo);
	buf_init(&want);
	for (i = 0; i < n; i++) {
		buf_adds(&big, i ? ",0" : "[0");
		buf_adds(&st, i ? ";main" : "main");
		buf_adds(&lo, i ? ";" LMAIN : LMAIN);
	}
	buf_addc(&big, ']');
	buf_printf(&doc, "{\"profiles\":[{\"name\":\"T\",\"samples\":"
	    "[%s,[0,1],%s,[0]],\"weights\":[1,1,1,1]}]," FRAMES "}",
	    big.data, big.data);
	buf_printf(&want, "T\t2\t2\tseconds\t1\t%s\t%s\n", st.data,
	    lo.data);
	buf_adds(&want, "T\t1\t1\tseconds\t1\tmain;f\t" LMAIN ";" LF "\n"
	    "T\t1\t1\tseconds\t1\tmain\t" LMAIN "\n");
	same(doc.data, 0, want.data);
	buf_free(&doc);
	buf_free(&big);
	buf_free(&st);
	buf_free(&lo);
	buf_free(&want);
}
END_TEST

/*
 * Names and files of lengths len[0 .. n - 1] (n <= 14), about the sizes
 * joinframes() copies at once (multiples of 32 bytes), in stacks of one
 * frame and of all of them (many records, so that the records are made
 * by a thread of their own), root first and leaf first: each joined as
 * written.
 */
static void
textlengths(const size_t *len, size_t n)
{
	struct buf doc, want, name[14], file[14], st, lo, rst, rlo;
	size_t i, k, d, x, nrec = 6000;

	ck_assert_uint_le(n, 14);

	buf_init(&doc);
	buf_init(&want);
	buf_init(&st);
	buf_init(&lo);
	buf_init(&rst);
	buf_init(&rlo);
	for (i = 0; i < n; i++) {
		buf_init(&name[i]);
		buf_init(&file[i]);
		for (k = 0; k < len[i]; k++) {
			buf_addc(&name[i], (char)('a' + (i + k) % 26));
			buf_addc(&file[i], (char)('A' + (i * 3 + k) % 26));
		}
	}
	buf_adds(&doc, "{\"shared\":{\"frames\":[");
	for (i = 0; i < n; i++)
		buf_printf(&doc, "%s{\"name\":\"%s\",\"file\":\"%s\","
		    "\"line\":%zu}", i ? "," : "", name[i].data, file[i].data,
		    i);
	buf_adds(&doc, "]},\"profiles\":[{\"name\":\"T\",\"unit\":"
	    "\"none\",\"samples\":[");
	/* Stacks of one frame, then all frames, then all leaf first. */
	for (i = 0; i < n; i++)
		buf_printf(&doc, "%s[%zu]", i ? "," : "", i);
	for (k = 0; k < 2; k++) {
		buf_adds(&doc, ",[");
		for (i = 0; i < n; i++)
			buf_printf(&doc, "%s%zu", i ? "," : "",
			    k ? n - 1 - i : i);
		buf_adds(&doc, "]");
	}
	/* Stacks of four frames, i's digits in base n: thousands. */
	for (i = 0; i < nrec; i++)
		for (d = 0, x = i; d < 4; d++, x /= n)
			buf_printf(&doc, "%s%zu%s", d ? "," : ",[", x % n,
			    d == 3 ? "]" : "");
	buf_adds(&doc, "],\"weights\":[");
	for (i = 0; i < n + 2 + nrec; i++)
		buf_printf(&doc, "%s1", i ? "," : "");
	buf_adds(&doc, "]}]}");
	for (i = 0; i < n; i++)
		buf_printf(&want, "T\t1\t1\tnone\t1\t%s\t%s:%zu::%zu\n",
		    name[i].data, file[i].data, i, i);
	for (i = 0; i < n; i++) {
		buf_printf(&st, "%s%s", i ? ";" : "", name[i].data);
		buf_printf(&lo, "%s%s:%zu::%zu", i ? ";" : "", file[i].data,
		    i, i);
		k = n - 1 - i;
		buf_printf(&rst, "%s%s", i ? ";" : "", name[k].data);
		buf_printf(&rlo, "%s%s:%zu::%zu", i ? ";" : "", file[k].data,
		    k, k);
	}
	buf_printf(&want, "T\t1\t1\tnone\t1\t%s\t%s\n", st.data, lo.data);
	buf_printf(&want, "T\t1\t1\tnone\t1\t%s\t%s\n", rst.data, rlo.data);
	for (i = 0; i < nrec; i++) {
		buf_reset(&st);
		buf_reset(&lo);
		for (d = 0, x = i; d < 4; d++, x /= n) {
			buf_printf(&st, "%s%s", d ? ";" : "", name[x % n].data);
			buf_printf(&lo, "%s%s:%zu::%zu", d ? ";" : "",
			    file[x % n].data, x % n, x % n);
		}
		buf_printf(&want, "T\t1\t1\tnone\t1\t%s\t%s\n", st.data,
		    lo.data);
	}
	same(doc.data, 0, want.data);
	for (i = 0; i < n; i++) {
		buf_free(&name[i]);
		buf_free(&file[i]);
	}
	buf_free(&doc);
	buf_free(&want);
	buf_free(&st);
	buf_free(&lo);
	buf_free(&rst);
	buf_free(&rlo);
}

START_TEST(test_text_lengths)
{
	static const size_t all[] = { 1, 2, 31, 32, 33, 63, 64, 65, 95, 96,
	    97, 128, 129, 300 }, most[] = { 1, 2, 31, 32, 33, 63, 64, 65,
	    70 };

	/* Places moved whole up to 128 bytes, and past them. */
	textlengths(all, sizeof(all) / sizeof(all[0]));
	/* The longest place 80 bytes: moved whole up to 96. */
	textlengths(most, sizeof(most) / sizeof(most[0]));
}
END_TEST

/*
 * More distinct stacks than the raw text cache has slots (32,768), each
 * seen in three rounds of different orders, one stack between every
 * two: each record has its own stack's count whether its sample was
 * found in the cache or not.  Then a second samples array: the stacks of
 * the first one are forgotten, cache and all.
 */
START_TEST(test_raw_cache)
{
	struct buf doc, want;
	size_t i, r, n = 80000, k;

	buf_init(&doc);
	buf_adds(&doc, "{\"shared\":{\"frames\":[");
	for (i = 0; i <= n; i++)
		buf_printf(&doc, "%s{\"name\":\"f%zu\"}", i ? "," : "", i);
	buf_adds(&doc, "]},\"profiles\":[{\"name\":\"T\",\"unit\":"
	    "\"none\",\"samples\":[");
	for (r = 0; r < 3; r++)
		for (i = 0; i < n; i++) {
			/* 0, 1, ...; then backwards; then 7 apart. */
			k = r == 0 ? i : r == 1 ? n - 1 - i : i * 7 % n;
			buf_printf(&doc, "%s[%zu,%zu],[%zu]", r + i ? "," : "",
			    k, k + 1, n);
		}
	buf_adds(&doc, "],");
	weights(&doc, 6 * n, "1");
	buf_adds(&doc, "}]}");
	buf_init(&want);
	buf_printf(&want, "T\t3\t3\tnone\t1\tf0;f1\t:::0;:::1\n"
	    "T\t%zu\t%zu\tnone\t1\tf%zu\t:::%zu\n", 3 * n, 3 * n, n, n);
	for (i = 1; i < n; i++)
		buf_printf(&want, "T\t3\t3\tnone\t1\tf%zu;f%zu\t"
		    ":::%zu;:::%zu\n", i, i + 1, i, i + 1);
	same(doc.data, 0, want.data);
	buf_free(&want);
	buf_free(&doc);

	same("{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
	    "\"samples\":[[0,1],[2],[0,1],[2]],\"samples\":[[2],[0,1],[2]],"
	    "\"weights\":[1,1,1]}]}", 0,
	    "T\t2\t2\tnone\t1\tg\t" LG "\n"
	    "T\t1\t1\tnone\t1\tmain;f\t" LMAIN ";" LF "\n");
}
END_TEST

/*
 * 600 profiles, so that the raw text cache's generations (one per
 * samples array, 255 of them) wrap round twice.  Profile i samples two
 * stacks of its own pair of frames, 2k and 2k + 1 for k = i mod 255, so
 * that profiles 255 apart (of one generation) share their texts and the
 * ones between do not; the first seen of the two alternates from one
 * round to the next, so that a text found in the cache of a profile 255
 * before would give the other stack's id.
 */
START_TEST(test_raw_cache_wrap)
{
	struct buf doc, want;
	size_t i, k, n = 600;

	buf_init(&doc);
	buf_init(&want);
	buf_adds(&doc, "{\"shared\":{\"frames\":[");
	for (i = 0; i < 510; i++)
		buf_printf(&doc, "%s{\"name\":\"f%zu\"}", i ? "," : "", i);
	buf_adds(&doc, "]},\"profiles\":[");
	for (i = 0; i < n; i++) {
		k = i % 255;
		buf_printf(&doc, "%s{\"name\":\"T%zu\",\"unit\":\"none\","
		    "\"weights\":[1,1,1],\"samples\":", i ? "," : "", i);
		if (i / 255 % 2) {
			buf_printf(&doc, "[[%zu,%zu],[%zu],[%zu,%zu]]}",
			    2 * k, 2 * k + 1, 2 * k + 1, 2 * k, 2 * k + 1);
			buf_printf(&want, "T%zu\t2\t2\tnone\t1\tf%zu;f%zu\t"
			    ":::%zu;:::%zu\nT%zu\t1\t1\tnone\t1\tf%zu\t"
			    ":::%zu\n",
			    i, 2 * k, 2 * k + 1, 2 * k, 2 * k + 1, i, 2 * k + 1,
			    2 * k + 1);
		} else {
			buf_printf(&doc, "[[%zu],[%zu,%zu],[%zu,%zu]]}",
			    2 * k + 1, 2 * k, 2 * k + 1, 2 * k, 2 * k + 1);
			buf_printf(&want, "T%zu\t1\t1\tnone\t1\tf%zu\t:::%zu\n"
			    "T%zu\t2\t2\tnone\t1\tf%zu;f%zu\t:::%zu;:::%zu\n",
			    i, 2 * k + 1, 2 * k + 1, i, 2 * k, 2 * k + 1, 2 * k,
			    2 * k + 1);
		}
	}
	buf_adds(&doc, "]}");
	same(doc.data, 0, want.data);
	buf_free(&want);
	buf_free(&doc);
}
END_TEST

/*
 * Records are made into text in batches, by a thread of their own in a
 * profile of thousands of records: batches of many records and of few
 * long ones, records of one stack in a row (which share their text)
 * across batches, start times, and an error in a late batch.
 */
START_TEST(test_batches)
{
	static const char *stk[] = { "[0,1]", "[0,1]", "[2]", "[0,1,2]",
	    "[0,1,2]", "[0,1,2]", "[]" };
	static const char *txt[] = { "main;f\t" LMAIN ";" LF,
	    "main;f\t" LMAIN ";" LF, "g\t" LG, "main;f;g\t" LMAIN ";" LF
	    ";" LG, "main;f;g\t" LMAIN ";" LF ";" LG, "main;f;g\t" LMAIN
	    ";" LF ";" LG, "\t" };
	struct buf doc, want;
	size_t i, k, n = 9000, m = 300;
	char *err;
	int st;

	/* One record per sample, with its start. */
	buf_init(&doc);
	buf_adds(&doc, "{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":"
	    "\"none\",\"samples\":[");
	for (i = 0; i < n; i++)
		buf_printf(&doc, "%s%s", i ? "," : "", stk[i % 7]);
	buf_adds(&doc, "],");
	weights(&doc, n, "1");
	buf_adds(&doc, "}]}");
	buf_init(&want);
	for (i = 0; i < n; i++)
		buf_printf(&want, "T\t1\t1\tnone\t1\t%s\t%zu\n", txt[i % 7], i);
	same(doc.data, 1, want.data);
	same(doc.data, 1 | SPD_FRAMEIDS, want.data);

	/* Records of m frames (1.5 KB of text), a batch's text full. */
	buf_reset(&doc);
	buf_adds(&doc, "{\"shared\":{\"frames\":[");
	for (i = 0; i < 2 * m; i++)
		buf_printf(&doc, "%s{\"name\":\"f%03zu\"}", i ? "," : "", i);
	buf_adds(&doc, "]},\"profiles\":[{\"name\":\"T\",\"unit\":"
	    "\"none\",\"samples\":[");
	for (i = 0; i < n; i++) {
		buf_adds(&doc, i ? ",[" : "[");
		for (k = 0; k < m; k++)
			buf_printf(&doc, "%s%zu", k ? "," : "", i % m + k);
		buf_adds(&doc, "]");
	}
	buf_adds(&doc, "],\"weights\":[");
	for (i = 0; i < n; i++)
		buf_adds(&doc, i % 2 ? ",2" : i ? ",1" : "1");
	buf_adds(&doc, "]}]}");
	buf_reset(&want);
	for (i = 0; i < n; i++) {
		buf_printf(&want, "T\t1\t%zu\tnone\t%zu\t", 1 + i % 2,
		    1 + i % 2);
		for (k = 0; k < m; k++)
			buf_printf(&want, "%sf%03zu", k ? ";" : "", i % m + k);
		for (k = 0; k < m; k++)
			buf_printf(&want, "%s:::%zu", k ? ";" : "\t",
			    i % m + k);
		buf_adds(&want, "\n");
	}
	same(doc.data, 0, want.data);
	same(doc.data, SPD_FRAMEIDS, want.data);

	/* Weights that change at every sample, the last two too big. */
	buf_reset(&doc);
	buf_adds(&doc, "{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":"
	    "\"none\",\"samples\":[");
	for (i = 0; i < n; i++)
		buf_adds(&doc, i ? ",[0]" : "[0]");
	buf_adds(&doc, "],\"weights\":[");
	for (i = 0; i < n - 2; i++)
		buf_adds(&doc, i % 2 ? "2," : "1,");
	buf_adds(&doc, "1.7e308,1.7e308]}]}");
	buf_reset(&want);
	buf_printf(&want, "%s: doc.json: profile \"T\": the weight of 2 "
	    "samples of 1.7e+308 on stack \"main\" overflows to inf\n",
	    getprogname());
	for (i = 0; i < 2; i++) {
		err = flatten_err(doc.data, i ? SPD_FRAMEIDS : 0, &st);
		ck_assert_str_eq(err, want.data);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
		free(err);
	}
	buf_free(&want);
	buf_free(&doc);
}
END_TEST

/* Append a weights array of n weights w. */
static void
weights(struct buf *b, size_t n, const char *w)
{
	size_t i;

	buf_adds(b, "\"weights\":[");
	for (i = 0; i < n; i++)
		buf_printf(b, "%s%s", i ? "," : "", w);
	buf_adds(b, "]");
}

/* Append the samples array of n samples of stack ((i / 2) * m) % 3000. */
static void
samples20(struct buf *b, size_t n, size_t m)
{
	size_t i, j, k;

	buf_adds(b, "\"samples\":[");
	for (i = 0; i < n; i++) {
		k = (i / 2) * m % 3000;
		buf_adds(b, i ? ",[" : "[");
		for (j = 0; j < 20; j++)
			buf_printf(b, "%s%zu", j == 0 ? "" : j == 1 && i % 5 ==
			    0 ? ", " : ",", k + j);
		buf_adds(b, "]");
	}
	buf_adds(b, "]");
}

/* Append the record of n samples of weight w of stack k of samples20(). */
static void
rec20(struct buf *b, const char *th, size_t n, size_t w, size_t k)
{
	size_t j;

	buf_printf(b, "%s\t%zu\t%zu\tnone\t%zu\t", th, n, n * w, w);
	for (j = 0; j < 20; j++)
		buf_printf(b, "%sf%zu", j ? ";" : "", k + j);
	for (j = 0; j < 20; j++)
		buf_printf(b, "%s:::%zu", j ? ";" : "\t", k + j);
	buf_adds(b, "\n");
}

/*
 * Samples are read by one thread and taken in by another, in blocks
 * (more than one here): profiles after profiles, weights first, a
 * samples array read again, samples found again, read token by token,
 * like the one before.
 */
START_TEST(test_intake)
{
	struct buf doc, want;
	size_t i, n = 12000;

	buf_init(&doc);
	buf_adds(&doc, "{\"profiles\":[{\"name\":\"A\",\"unit\":\"none\",");
	samples20(&doc, n, 7);
	buf_adds(&doc, ",");
	weights(&doc, n, "1");
	buf_adds(&doc, "},{\"name\":\"B\",\"unit\":\"none\",");
	weights(&doc, n, "2");
	buf_adds(&doc, ",");
	samples20(&doc, n, 3);
	buf_adds(&doc, "},{\"name\":\"C\",\"unit\":\"none\",");
	samples20(&doc, n, 1);
	buf_adds(&doc, ",");
	samples20(&doc, n, 7);
	buf_adds(&doc, ",");
	weights(&doc, n, "1");
	buf_adds(&doc, "}],\"shared\":{\"frames\":[");
	for (i = 0; i < 3020; i++)
		buf_printf(&doc, "%s{\"name\":\"f%zu\"}", i ? "," : "", i);
	buf_adds(&doc, "]}}");
	buf_init(&want);
	for (i = 0; i < 3000; i++)
		rec20(&want, "A", 4, 1, i * 7 % 3000);
	for (i = 0; i < 1000; i++)
		rec20(&want, "B", 12, 2, i * 3);
	for (i = 0; i < 3000; i++)
		rec20(&want, "C", 4, 1, i * 7 % 3000);
	same(doc.data, 0, want.data);
	buf_free(&want);
	buf_free(&doc);
}
END_TEST

/*
 * A stack is one stack however its sample is spelt: samples read whole
 * by their raw text and samples read token by token meet in one record.
 */
START_TEST(test_spellings)
{
	static const char doc[] = "{" FRAMES ",\"profiles\":[{\"name\":"
	    "\"T\",\"unit\":\"none\",\"samples\":[[0,1],[0, 1],[ 0,1 ],"
	    "[-0,1],[0,\n1],[0,1],[0,1],[\t0,\r1],[],[ ],[0,1],[1,0]],"
	    "\"weights\":[1,1,1,1,1,1,1,1,1,1,1.0,1e0]}]}";

	same(doc, 0,
	    "T\t9\t9\tnone\t1\tmain;f\t" LMAIN ";" LF "\n"
	    "T\t2\t2\tnone\t1\t\t\n"
	    "T\t1\t1\tnone\t1\tf;main\t" LF ";" LMAIN "\n");
	/* Long samples, their numbers read 8 bytes at a time. */
	same("{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
	    "\"samples\":[[0,1,0,1,0,1,0,2],[0, 1,0,1,0,1,0,2],"
	    "[0,1,0,1,0,1,0,2],[0,1,0,1,0,1,0,1]],\"weights\":[1,1,1,1]}]}",
	    0,
	    "T\t3\t3\tnone\t1\tmain;f;main;f;main;f;main;g\t" LMAIN ";"
	    LF ";" LMAIN ";" LF ";" LMAIN ";" LF ";" LMAIN ";" LG "\n"
	    "T\t1\t1\tnone\t1\tmain;f;main;f;main;f;main;f\t" LMAIN ";"
	    LF ";" LMAIN ";" LF ";" LMAIN ";" LF ";" LMAIN ";" LF "\n");
	/* Weights spelt differently, of equal value, are equal. */
	same("{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"samples\":[[0],"
	    "[0],[0],[0]],\"weights\":[0.5,0.50,5e-1,0.5]}]}", 0,
	    "T\t4\t2\tseconds\t0.5\tmain\t" LMAIN "\n");
	/* Each profile has its own stacks. */
	same("{\"profiles\":[{\"name\":\"A\",\"unit\":\"none\","
	    "\"samples\":[[2],[0,1]],\"weights\":[1,1]},{\"name\":\"B\","
	    "\"unit\":\"none\",\"samples\":[[0,1],[2],[0,1]],"
	    "\"weights\":[1,1,1]}]," FRAMES "}", 0,
	    "A\t1\t1\tnone\t1\tg\t" LG "\n"
	    "A\t1\t1\tnone\t1\tmain;f\t" LMAIN ";" LF "\n"
	    "B\t2\t2\tnone\t1\tmain;f\t" LMAIN ";" LF "\n"
	    "B\t1\t1\tnone\t1\tg\t" LG "\n");
}
END_TEST

/*
 * A sample after others of the same stack is checked as strictly: the
 * messages and places are those of the token by token reading.
 */
START_TEST(test_raw_errors)
{
	static const struct {
		const char	*samples;
		const char	*at;	/* where the error is, or just */
		int		 delta;	/* before it */
		const char	*msg;
	} t[] = {
		{ "[0,1],[0,1],[0,1.0]", "1.0]", 0,
		    "sample: expected a frame index" },
		{ "[0,1],[0,1],[0,1e0]", "1e0]", 0,
		    "sample: expected a frame index" },
		{ "[0,1],[0,1],[0,-1]", "-1]", 0,
		    "sample: expected a frame index" },
		{ "[0,1],[0,1],[0,4294967295]", "4294967295]", 0,
		    "sample: expected a frame index" },
		{ "[0,1],[0,1],[0,01]", "01]", 1, "invalid number" },
		{ "[0,1],[0,1],[0,00]", "00]", 1, "invalid number" },
		{ "[0,1],[0,1],[0,12345678901]", "12345678901]", 0,
		    "sample: expected a frame index" },
		{ "[0,1],[0,1],[,1]", "[,1]", 1, "unexpected character ','" },
		{ "[0,1],[0,1],[0,1,]", ",],[2]", 1, "trailing comma" },
		{ "[0,1],[0,1],[0,,1]", ",,1]", 1,
		    "unexpected character ','" },
		{ "[0,1],[0,1],[0 1]", "0 1]", 2, "expected ',' or ']'" },
		{ "[0,1],[0,1],[0,1]]", "]],[2]", 3, "expected string key" },
		{ "[0,1],[0,1],[0,\"1\"]", "\"1\"]", 0,
		    "sample: expected a frame index" },
		{ "[0,1],[0,1],[0,[1]]", "[1]]", 0,
		    "sample: expected a frame index" },
		{ "[0,1],[0,1],[0,1] [2]", " [2]", 1,
		    "expected ',' or ']'" },
	};
	char doc[512], want[512], *err;
	size_t i;
	int st;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(doc, sizeof(doc), "{" FRAMES ",\"profiles\":[{"
		    "\"name\":\"T\",\"samples\":[%s,[2]],\"weights\":"
		    "[1,1,1,1,1]}]}", t[i].samples);
		ck_assert_ptr_nonnull(strstr(doc, t[i].at));
		snprintf(want, sizeof(want), "%s: doc.json:1:%zu: %s\n",
		    getprogname(), (size_t)(strstr(doc, t[i].at) - doc) + 1 +
		    t[i].delta, t[i].msg);
		err = flatten_err(doc, 0, &st);
		ck_assert_msg(strcmp(err, want) == 0, "%s: %s", t[i].samples,
		    err);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
		free(err);
	}
}
END_TEST

/*
 * The same for samples whose fault lies across the 16 and 64-byte steps
 * of checking raw text.
 */
START_TEST(test_raw_long_errors)
{
	static const struct {
		const char	*bad;
		int		 delta;	/* where in it the error is */
		const char	*msg;
	} t[] = {
		{ "01", 1, "invalid number" },
		{ "0,,1", 2, "unexpected character ','" },
		{ "1,", 2, "trailing comma" },
		{ "12345678901", 0, "sample: expected a frame index" },
		{ "4294967295", 0, "sample: expected a frame index" },
		{ "1 2", 2, "expected ',' or ']'" },
		/* Followed by 7 bytes or more before the ']'. */
		{ "01,1,1,1", 1, "invalid number" },
		{ "0,,1,1,1,1", 2, "unexpected character ','" },
		{ "1 2,1,1,1", 2, "expected ',' or ']'" },
		{ "12345678901,1,1", 0, "sample: expected a frame index" },
	};
	static const size_t at[] = { 14, 15, 16, 17, 62, 63, 64, 65, 127,
	    128 };
	struct buf doc;
	char want[512], *err;
	size_t i, k, n, start;
	int st;

	buf_init(&doc);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		for (k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
			buf_reset(&doc);
			buf_adds(&doc, "{" FRAMES ",\"profiles\":[{\"name\":"
			    "\"T\",\"samples\":[[0,1],[0,1],[");
			start = doc.len;
			if (at[k] % 2)
				buf_adds(&doc, "11,");
			for (n = at[k] % 2 ? 3 : 0; n < at[k]; n += 2)
				buf_adds(&doc, "1,");
			buf_adds(&doc, t[i].bad);
			buf_adds(&doc, "],[2]],\"weights\":[1,1,1,1]}]}");
			snprintf(want, sizeof(want), "%s: doc.json:1:%zu: %s\n",
			    getprogname(), start + at[k] + t[i].delta + 1,
			    t[i].msg);
			err = flatten_err(doc.data, 0, &st);
			ck_assert_msg(strcmp(err, want) == 0, "%s at %zu: %s",
			    t[i].bad, at[k], err);
			ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
			free(err);
		}
	buf_free(&doc);
}
END_TEST

/*
 * A frame index out of range is reported where the largest first
 * appears, whether its sample was read whole or token by token.
 */
START_TEST(test_index_place)
{
	static const struct {
		const char	*samples;
		const char	*at;	/* the first of the largest */
		int		 idx;
	} t[] = {
		{ "[0,5],[0,5],[1],[0,5]", "5]", 5 },
		{ "[0,5],[0,5],[7],[0,5],[7]", "7]", 7 },
		{ "[0,5],[0, 5],[0,6],[0,6]", "6]", 6 },
		{ "[0, 5],[0,5],[5,0]", "5]", 5 },
		{ "[0,4],[0,4],[0,4]", "4]", 4 },
		{ "[1,5,2,7,0,7]", "7,0", 7 },
		{ "[2],[12,1,12]", "12,1", 12 },
		/* Read 8 bytes at a time, and a byte at a time near ']'. */
		{ "[0,1,2,1,0,1,2,1234567,1,0,2,1234567,0,2]",
		    "1234567,1,0", 1234567 },
		{ "[0,1,2,1,0,1,2,12345678,1,0,12345679,1,0,2]",
		    "12345679", 12345679 },
		{ "[0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,1,0,7]", "7]", 7 },
		{ "[0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,1,0,2,77]", "77]",
		    77 },
	};
	char doc[512], w[64], want[512], *err;
	const char *p;
	size_t i, n;
	int st;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		for (p = t[i].samples, n = 0; *p != '\0'; p++)
			if (*p == '[')
				n += snprintf(w + n, sizeof(w) - n, "%s1",
				    n ? "," : "");
		snprintf(doc, sizeof(doc), "{\"profiles\":[{\"name\":\"T\","
		    "\"unit\":\"none\",\"samples\":[%s],\"weights\":[%s]}],"
		    FRAMES "}", t[i].samples, w);
		snprintf(want, sizeof(want), "%s: doc.json:1:%zu: frame index "
		    "%d out of range (3 frames)\n", getprogname(),
		    (size_t)(strstr(doc, t[i].at) - doc) + 1, t[i].idx);
		err = flatten_err(doc, 0, &st);
		ck_assert_msg(strcmp(err, want) == 0, "%s: %s", t[i].samples,
		    err);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
		free(err);
	}
}
END_TEST

/* The exit tests: each document makes spd_flatten exit 1. */
static const char *bad_docs[] = {
	/* Frame index out of range, frames first and last. */
	"{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"samples\":[[0,3]],"
	    "\"weights\":[1]}]}",
	"{\"profiles\":[{\"name\":\"T\",\"samples\":[[0],[5,1]],"
	    "\"weights\":[1,1]}]," FRAMES "}",
	"{" FRAMES ",\"profiles\":[{\"type\":\"evented\",\"name\":\"E\","
	    "\"events\":[{\"type\":\"O\",\"frame\":3,\"at\":0},"
	    "{\"type\":\"C\",\"frame\":3,\"at\":1}]}]}",
	"{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"samples\":[[-1]],"
	    "\"weights\":[1]}]}",
	/* Samples and weights that differ in length, either first. */
	"{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"samples\":[[0],[0]],"
	    "\"weights\":[1]}]}",
	"{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"samples\":[[0]],"
	    "\"weights\":[1,2]}]}",
	"{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"weights\":[1],"
	    "\"samples\":[[0],[0]]}]}",
	"{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"weights\":[1,2],"
	    "\"samples\":[[0]]}]}",
	"{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"samples\":[[0]]}]}",
	"{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"weights\":[1]}]}",
	/* Events out of order or unbalanced. */
	"{" FRAMES ",\"profiles\":[{\"type\":\"evented\",\"events\":["
	    "{\"type\":\"O\",\"frame\":0,\"at\":5},"
	    "{\"type\":\"C\",\"frame\":0,\"at\":4}]}]}",
	"{" FRAMES ",\"profiles\":[{\"type\":\"evented\",\"events\":["
	    "{\"type\":\"O\",\"frame\":0,\"at\":0},"
	    "{\"type\":\"O\",\"frame\":1,\"at\":1},"
	    "{\"type\":\"C\",\"frame\":0,\"at\":2}]}]}",
	"{" FRAMES ",\"profiles\":[{\"type\":\"evented\",\"events\":["
	    "{\"type\":\"O\",\"frame\":0,\"at\":0}]}]}",
	/* Bad values. */
	"{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"furlongs\","
	    "\"samples\":[],\"weights\":[]}]}",
	"{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"samples\":[[0]],"
	    "\"weights\":[\"1\"]}]}",
	"{\"profiles\":[{\"name\":\"T\",\"samples\":[[0]],"
	    "\"weights\":[1]}]}",
	"{\"shared\":{\"frames\":[{\"file\":\"a.py\"}]}}",
	"{" FRAMES "} x",
	"{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"samples\":[[0]],"
	    "\"weights\":[1]}]",
};

START_TEST(test_bad)
{
	flatten_quiet(bad_docs[_i], 0);
}
END_TEST

/*
 * A key given twice: the last one wins, as with Python's json.load(),
 * whatever came between and in whatever order samples and weights come.
 * The expected records are those of the document without the first key.
 */
START_TEST(test_duplicate_keys)
{
	static const char s2w[] =
	    "T\t2\t2\tnone\t1\tf\t" LF "\n"
	    "T\t1\t1\tnone\t1\tg\t" LG "\n";
	static const struct {
		const char	*doc;
		const char	*want;
	} t[] = {
		/* samples twice, before or after the weights. */
		{ "{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
		    "\"samples\":[[0],[0],[0]],\"samples\":[[1],[2],[1]],"
		    "\"weights\":[1,1,1]}]}", s2w },
		{ "{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
		    "\"samples\":[[0],[0],[0]],\"weights\":[1,1,1],"
		    "\"samples\":[[1],[2],[1]]}]}", s2w },
		{ "{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
		    "\"weights\":[1,1,1],\"samples\":[[0],[0],[0]],"
		    "\"samples\":[[1],[2],[1]]}]}", s2w },
		/* weights twice, before or after the samples. */
		{ "{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
		    "\"weights\":[5,5,5],\"weights\":[1,1,1],"
		    "\"samples\":[[1],[2],[1]]}]}", s2w },
		{ "{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
		    "\"samples\":[[1],[2],[1]],\"weights\":[5,5,5],"
		    "\"weights\":[1,1,1]}]}", s2w },
		{ "{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
		    "\"weights\":[5,5,5],\"samples\":[[1],[2],[1]],"
		    "\"weights\":[1,1,1]}]}", s2w },
		/* The weights taken back from runs of records. */
		{ "{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
		    "\"samples\":[[0],[0],[0]],\"weights\":[2,2,3],"
		    "\"samples\":[[1],[1],[2]]}]}",
		    "T\t2\t4\tnone\t2\tf\t" LF "\n"
		    "T\t1\t3\tnone\t3\tg\t" LG "\n" },
		/* Samples dropped with their out-of-range index. */
		{ "{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
		    "\"samples\":[[9],[1],[2]],\"samples\":[[1],[2],[1]],"
		    "\"weights\":[1,1,1]}]}", s2w },
		/* A shorter array replacing a longer one. */
		{ "{" FRAMES ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
		    "\"samples\":[[0],[0],[0],[0]],\"weights\":[1,1,1,1],"
		    "\"samples\":[[1],[2],[1]],\"weights\":[1,1,1]}]}", s2w },
		/* events twice. */
		{ "{" FRAMES ",\"profiles\":[{\"name\":\"E\",\"unit\":\"none\","
		    "\"type\":\"evented\",\"events\":[{\"type\":\"O\","
		    "\"frame\":0,\"at\":0},{\"type\":\"C\",\"frame\":0,"
		    "\"at\":5}],"
		    "\"events\":[{\"type\":\"O\",\"frame\":1,\"at\":0},"
		    "{\"type\":\"C\",\"frame\":1,\"at\":2}]}]}",
		    "E\t1\t2\tnone\t2\tf\t" LF "\n" },
		/* profiles twice, with the frames before, between, after. */
		{ "{" FRAMES ",\"profiles\":[{\"name\":\"A\",\"unit\":\"none\","
		    "\"samples\":[[0]],\"weights\":[1]}],\"profiles\":"
		    "[{\"name\":\"T\",\"unit\":\"none\","
		    "\"samples\":[[1],[2],[1]],\"weights\":[1,1,1]}]}", s2w },
		{ "{\"profiles\":[{\"name\":\"A\",\"unit\":\"none\","
		    "\"samples\":[[0]],\"weights\":[1]}]," FRAMES
		    ",\"profiles\":[{\"name\":\"T\",\"unit\":\"none\","
		    "\"samples\":[[1],[2],[1]],\"weights\":[1,1,1]}]}", s2w },
		/* shared twice: the last one's frames. */
		{ "{\"shared\":{\"frames\":[{\"name\":\"x\"},{\"name\":\"y\"},"
		    "{\"name\":\"z\"}]},\"profiles\":[{\"name\":\"T\",\"unit\":"
		    "\"none\",\"samples\":[[1],[2],[1]],\"weights\":[1,1,1]}],"
		    FRAMES "}", s2w },
	};
	size_t i;
	char *out;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		out = flatten(t[i].doc, 0);
		ck_assert_msg(strcmp(out, t[i].want) == 0, "%zu: %s", i, out);
		free(out);
	}
}
END_TEST

/* Events and samples or weights in one profile are an error. */
START_TEST(test_mixed_kinds)
{
	static const char *docs[] = {
		"{" FRAMES ",\"profiles\":[{\"samples\":[[0]],\"weights\":[1],"
		    "\"events\":[]}]}",
		"{" FRAMES ",\"profiles\":[{\"samples\":[[0]],\"events\":[]}]}",
		"{" FRAMES ",\"profiles\":[{\"events\":[],\"weights\":[1]}]}",
	};
	static const char *msgs[] = {
		"doc.json:1:172: events in a profile with samples or weights",
		"doc.json:1:158: events in a profile with samples or weights",
		"doc.json:1:155: weights in a profile with events",
	};
	char want[256], *err;
	size_t i;
	int st;

	for (i = 0; i < 3; i++) {
		err = flatten_err(docs[i], 0, &st);
		snprintf(want, sizeof(want), "%s: %s\n", getprogname(),
		    msgs[i]);
		ck_assert_str_eq(err, want);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
		free(err);
	}
}
END_TEST

/*
 * What spd_flatten() returns: what it found at the top level, or an
 * error with its message (hand-written: the profiles of a document
 * without shared.frames name no frame).
 */
START_TEST(test_seen)
{
	static const struct {
		const char	*doc;
		unsigned	 seen;
		const char	*err;
	} t[] = {
		{ "[]", SPD_NOTOBJ, NULL },
		{ "3", SPD_NOTOBJ, NULL },
		{ "x", SPD_NOTJSON, NULL },
		{ "", SPD_NOTJSON, NULL },
		{ "{}", 0, NULL },
		{ "{\"traceEvents\":[{\"ph\":\"X\"}]}", SPD_TRACE, NULL },
		{ "{\"nodes\":[],\"samples\":[1],\"x\":{\"profiles\":1}}",
		    SPD_NODES, NULL },
		{ "{\"meta\":{},\"threads\":[]}", SPD_META | SPD_THREADS,
		    NULL },
		{ "{\"version\":1,\"recording\":{}}", SPD_RECORDING, NULL },
		{ "{\"ticks\":[],\"profile\":{\"meta\":{}}}",
		    SPD_TICKS | SPD_PROFILE, NULL },
		{ "{" FRAMES ",\"profiles\":[]}", SPD_PROFILES, NULL },
		{ "{\"profiles\":[{\"name\":\"T\",\"samples\":[[0]],"
		    "\"weights\":[1]}]}", SPD_ERROR,
		    "doc.json: no shared.frames" },
		{ "{\"profiles\":[{\"name\":\"T\",\"samples\":[],"
		    "\"weights\":[]}]}", SPD_ERROR,
		    "doc.json: no shared.frames" },
	};
	struct json *j;
	char msg[256];
	size_t i;
	FILE *fp;

	ck_assert_ptr_nonnull(fp = fopen("/dev/null", "w"));
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		j = json_open_mem(t[i].doc, strlen(t[i].doc), "doc.json");
		strlcpy(msg, "(none)", sizeof(msg));
		ck_assert_msg(spd_flatten(j, 0, NULL, text, fp, msg,
		    sizeof(msg)) == t[i].seen, "%s", t[i].doc);
		ck_assert_str_eq(msg, t[i].err != NULL ? t[i].err : "(none)");
		json_close(j);
	}
	fclose(fp);
}
END_TEST

/*
 * A file whose stacks are read again at the end (they wait for the
 * frames) and changed by then is an error that says where.  The records
 * of 2,000 stacks make batches (1,024 records at most); the first sample
 * of the last stack lies 96 KB past the others, past what is read again
 * at once, and is changed once the first batch is written.
 */
START_TEST(test_changed)
{
	struct buf doc;
	char want[256], *err;
	const char *q;
	size_t i, j, k, n = 8000, at = 0;
	int status, spaced;

	/* The sample read by its raw text, then token by token. */
	for (spaced = 0; spaced < 2; spaced++) {
		buf_init(&doc);
		buf_adds(&doc, "{\"profiles\":[{\"name\":\"T\","
		    "\"samples\":[");
		for (i = 0; i < n; i++) {
			/* Stack k: k's 7 digits in base 3. */
			k = i < 1999 ? i : i < n - 1 ? 0 : 1999;
			if (i > 0)
				buf_addc(&doc, ',');
			at = doc.len;
			for (j = 729; j > 0; j /= 3)
				buf_printf(&doc, "%s%zu", j == 729 ? "[" :
				    spaced && k == 1999 ? ", " : ",",
				    k / j % 3);
			buf_addc(&doc, ']');
		}
		buf_adds(&doc, "],\"weights\":[1");
		for (i = 1; i < n; i++)
			buf_adds(&doc, ",1");
		buf_adds(&doc, "]}]," FRAMES "}");
		/*
		 * Stack 1999 is 2,2,0,1,2,0,1: made 2,2,0,1,2,2,1, stack
		 * 2005.
		 */
		q = strchr(doc.data + at, ']') - 2;
		while (*q < '0' || *q > '9')
			q--;
		changeat = (off_t)(q - doc.data);
		ck_assert_int_eq(doc.data[changeat], '0');
		err = errof(flatten_changing, doc.data, 0, &status);
		snprintf(want, sizeof(want), "%s: doc.json: the sample at "
		    "byte %zu changed while the file was read\n",
		    getprogname(), at);
		ck_assert_str_eq(err, want);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1);
		free(err);
		buf_free(&doc);
	}
}
END_TEST

/* The messages say where. */
START_TEST(test_messages)
{
	static const char doc1[] = "{" FRAMES ",\"profiles\":[{\"name\":"
	    "\"T\",\"samples\":[[0,1],\n  [2, 0, 7]],\"weights\":[1,1]}]}";
	static const char doc2[] = "{" FRAMES ",\"profiles\":[{\"name\":"
	    "\"T\",\"samples\":[[0],[0]],\n\"weights\":[1]}]}";
	char want[256], *err;
	int st;

	err = flatten_err(doc1, 0, &st);
	snprintf(want, sizeof(want), "%s: doc.json:2:10: frame index 7 out "
	    "of range (3 frames)\n", getprogname());
	ck_assert_str_eq(err, want);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	free(err);
	err = flatten_err(doc2, 0, &st);
	snprintf(want, sizeof(want), "%s: doc.json:2:14: profile 0: "
	    "2 samples but 1 weights\n", getprogname());
	ck_assert_str_eq(err, want);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	free(err);
}
END_TEST

static Suite *
spd_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("spd");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_shared_first);
	tcase_add_test(tc, test_profiles_first);
	tcase_add_test(tc, test_weights_first);
	tcase_add_test(tc, test_profile_order);
	tcase_add_test(tc, test_mixed_period);
	tcase_add_test(tc, test_evented);
	tcase_add_test(tc, test_units);
	tcase_add_test(tc, test_empty_profile);
	tcase_add_test(tc, test_duplicate_frames);
	tcase_add_test(tc, test_locations);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_persample);
	tcase_add_test(tc, test_big);
	tcase_add_test(tc, test_pending_cost);
	tcase_add_test(tc, test_many_frames);
	tcase_add_test(tc, test_deep_sample);
	tcase_add_test(tc, test_spellings);
	tcase_add_test(tc, test_text_lengths);
	tcase_add_test(tc, test_raw_cache);
	tcase_add_test(tc, test_raw_cache_wrap);
	tcase_add_test(tc, test_batches);
	tcase_add_test(tc, test_intake);
	tcase_add_loop_exit_test(tc, test_bad, 1, 0,
	    (int)(sizeof(bad_docs) / sizeof(bad_docs[0])));
	tcase_add_test(tc, test_messages);
	tcase_add_test(tc, test_changed);
	tcase_add_test(tc, test_seen);
	tcase_add_test(tc, test_duplicate_keys);
	tcase_add_test(tc, test_mixed_kinds);
	tcase_add_test(tc, test_raw_errors);
	tcase_add_test(tc, test_raw_long_errors);
	tcase_add_test(tc, test_index_place);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(spd_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
