/*
 * test_chain.c: Check suite for chain rows (common/reduce/chain.c): splitting
 * a stack field into frames, finding a frame by its escaped name, spans
 * of frames, grouping by (thread, chain) with Python-exact sums and
 * the heaviest-first output, and parsing a chain row with every error
 * message.
 */

#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "rec.h"
#include "fmt.h"
#include "chain.h"
#include "kind.h"
#include "tutil.h"

static struct sst_rec rec(uint64_t, double, int, double);
static void	 add(struct chains *, const char *, const char *,
		    const struct sst_rec *);
static void	 putchains(void *);
static void	 split(struct frames *, const char *);
static void	 frame_eq(const struct frames *, const char *, size_t,
		    const char *);
static size_t	 find(const struct frames *, const char *, const char *,
		    int);
static const char *why(const char *);
static const char *shortname(const char *);
/* Python's rows[:num] on 5 rows, worked by hand; no -n keeps all. */
START_TEST(test_shown)
{
	ck_assert_uint_eq(chain_shown(0, 2, 5), 5);
	ck_assert_uint_eq(chain_shown(1, 2, 5), 2);
	ck_assert_uint_eq(chain_shown(1, 9, 5), 5);
	ck_assert_uint_eq(chain_shown(1, 0, 5), 0);
	ck_assert_uint_eq(chain_shown(1, -2, 5), 3);
	ck_assert_uint_eq(chain_shown(1, -5, 5), 0);
	ck_assert_uint_eq(chain_shown(1, -9, 5), 0);
}
END_TEST

/* The three marks, escapes decoded, and a one-frame deep test. */
START_TEST(test_putframes)
{
	struct chainrow r;
	struct buf b;
	char *out;
	size_t len;
	FILE *fp;

	memset(&r, 0, sizeof(r));
	r.chain = "a;b\\x3b" "c;a";
	r.chainlen = strlen(r.chain);
	r.thread = "T \"main\" x";
	r.threadlen = strlen(r.thread);
	buf_init(&b);
	ck_assert_int_eq(chainrow_deep(&r), 1);
	fp = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(fp);
	chainrow_putframes(fp, &r, 1, CM_LAST, "", &b);
	chainrow_putframes(fp, &r, 0, CM_NAME, "a", &b);
	chainrow_putframes(fp, &r, 0, CM_CALLEE, "", &b);
	chainrow_putthread(fp, &r, &b);
	fclose(fp);
	ck_assert_str_eq(out,
	    " a\n   b;c\n     ** a **\n"
	    "** a **\n  b;c\n    ** a **\n"
	    "** a **\n  b;c\n    -> a\n"
	    "main");
	free(out);
	r.chain = "a";
	r.chainlen = 1;
	ck_assert_int_eq(chainrow_deep(&r), 0);
	buf_free(&b);
}
END_TEST

static Suite	*chain_suite(void);

/* A record with only what chains_add reads. */
static struct sst_rec
rec(uint64_t samples, double weight, int hasperiod, double period)
{
	struct sst_rec r;

	memset(&r, 0, sizeof(r));
	r.samples = samples;
	r.weight = weight;
	r.unit = U_SECONDS;
	r.hasperiod = hasperiod;
	r.period = hasperiod ? period : 0;
	return r;
}

/* chains_add with NUL-terminated thread and chain. */
static void
add(struct chains *c, const char *thread, const char *chain,
    const struct sst_rec *r)
{
	chains_add(c, thread, strlen(thread), chain, strlen(chain), r);
}

/* chains_put, as a tu_capture() function. */
static void
putchains(void *c)
{
	chains_put(c, -1);
}

/* frames_split of a NUL-terminated field. */
static void
split(struct frames *f, const char *s)
{
	frames_split(f, s, strlen(s));
}

/* Frame i of s is exactly want. */
static void
frame_eq(const struct frames *f, const char *s, size_t i, const char *want)
{
	size_t len;

	ck_assert_uint_lt(i, f->n);
	len = f->off[i + 1] - 1 - f->off[i];
	ck_assert_msg(len == strlen(want) &&
	    memcmp(s + f->off[i], want, len) == 0,
	    "frame %zu of \"%s\": \"%.*s\", want \"%s\"", i, s, (int)len,
	    s + f->off[i], want);
}

/* frames_find of a NUL-terminated name. */
static size_t
find(const struct frames *f, const char *s, const char *name, int last)
{
	return frames_find(f, s, name, strlen(name), last);
}

/* The error message for row s, or "ok". */
static const char *
why(const char *s)
{
	struct chainrow r;
	const char *w = "unset";

	if (chainrow_parse(s, strlen(s), &r, &w) == 0)
		return w == NULL ? "ok" : "ok but message set";
	return w == NULL ? "error without message" : w;
}

/* chain_shortthread of s, as a string in a static buffer. */
static const char *
shortname(const char *s)
{
	static char out[256];
	const char *p;
	size_t len;

	p = chain_shortthread(s, strlen(s), &len);
	ck_assert(p >= s && p + len <= s + strlen(s));
	snprintf(out, sizeof(out), "%.*s", (int)len, p);
	return out;
}

START_TEST(test_split_empty)
{
	struct frames f;

	memset(&f, 0, sizeof(f));
	split(&f, "");
	ck_assert_uint_eq(f.n, 0);
	/* An empty field after a full one leaves no frames. */
	split(&f, "a;b");
	ck_assert_uint_eq(f.n, 2);
	split(&f, "");
	ck_assert_uint_eq(f.n, 0);
	frames_free(&f);
	ck_assert_ptr_null(f.off);
	ck_assert_uint_eq(f.n, 0);
	ck_assert_uint_eq(f.cap, 0);
}
END_TEST

START_TEST(test_split)
{
	static const struct {
		const char	*s;
		size_t		 n;
		const char	*frames[5];
	} t[] = {
		{ "a", 1, { "a" } },
		{ "<module>", 1, { "<module>" } },
		{ "a;b;c", 3, { "a", "b", "c" } },
		{ "main;run;select;poll;wait", 5,
		    { "main", "run", "select", "poll", "wait" } },
		{ ";", 2, { "", "" } },
		{ "a;", 2, { "a", "" } },
		{ ";a", 2, { "", "a" } },
		{ "a;;b", 3, { "a", "", "b" } },
		/* Escaped names stay single frames. */
		{ "x\\x3by", 1, { "x\\x3by" } },
		{ "a\\tb", 1, { "a\\tb" } },
		{ "\\\\", 1, { "\\\\" } },
		{ "\\e", 1, { "\\e" } },
		{ "\\x3b", 1, { "\\x3b" } },
		{ "a\\x3bb;c\\td;\\\\;\\e", 4,
		    { "a\\x3bb", "c\\td", "\\\\", "\\e" } },
		{ "\\e;\\e;\\\\x3b", 3, { "\\e", "\\e", "\\\\x3b" } },
	};
	struct frames f;
	size_t i, j;

	memset(&f, 0, sizeof(f));
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		split(&f, t[i].s);
		ck_assert_msg(f.n == t[i].n, "\"%s\": %zu frames, want %zu",
		    t[i].s, f.n, t[i].n);
		for (j = 0; j < t[i].n; j++)
			frame_eq(&f, t[i].s, j, t[i].frames[j]);
		/* The last frame ends at the end of the field. */
		ck_assert_uint_eq(f.off[f.n], strlen(t[i].s) + 1);
		ck_assert_uint_eq(f.off[0], 0);
	}
	frames_free(&f);
}
END_TEST

/* Only the given length is split; the offsets grow as needed. */
START_TEST(test_split_len)
{
	struct frames f;
	struct buf s;
	char name[32];
	size_t i, n = 1000;

	memset(&f, 0, sizeof(f));
	frames_split(&f, "a;b;c", 3);
	ck_assert_uint_eq(f.n, 2);
	frame_eq(&f, "a;b;c", 0, "a");
	frame_eq(&f, "a;b;c", 1, "b");
	ck_assert_uint_eq(f.off[2], 4);
	frames_split(&f, "a;b;c", 2);
	ck_assert_uint_eq(f.n, 2);
	frame_eq(&f, "a;b;c", 1, "");

	buf_init(&s);
	for (i = 0; i < n; i++)
		buf_printf(&s, "%sf%zu", i > 0 ? ";" : "", i);
	frames_split(&f, s.data, s.len);
	ck_assert_uint_eq(f.n, n);
	ck_assert_uint_ge(f.cap, n + 1);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		frame_eq(&f, s.data, i, name);
	}
	ck_assert_uint_eq(find(&f, s.data, "f999", 0), 999);
	ck_assert_uint_eq(find(&f, s.data, "f0", 1), 0);
	buf_free(&s);
	frames_free(&f);
}
END_TEST

START_TEST(test_find)
{
	const char *s = "a;b;a;c;ab;\\e;;x\\x3by;x;y;a\\\\";
	struct frames f;

	memset(&f, 0, sizeof(f));
	split(&f, s);
	ck_assert_uint_eq(f.n, 11);
	/* First and last occurrence. */
	ck_assert_uint_eq(find(&f, s, "a", 0), 0);
	ck_assert_uint_eq(find(&f, s, "a", 1), 2);
	ck_assert_uint_eq(find(&f, s, "b", 0), 1);
	ck_assert_uint_eq(find(&f, s, "b", 1), 1);
	ck_assert_uint_eq(find(&f, s, "c", 0), 3);
	ck_assert_uint_eq(find(&f, s, "c", 1), 3);
	/* Whole names only. */
	ck_assert_uint_eq(find(&f, s, "ab", 0), 4);
	ck_assert_uint_eq(find(&f, s, "ab", 1), 4);
	ck_assert_uint_eq(find(&f, s, "a;b", 0), (size_t)-1);
	ck_assert_uint_eq(find(&f, s, "A", 0), (size_t)-1);
	ck_assert_uint_eq(find(&f, s, "abc", 1), (size_t)-1);
	/* Absent. */
	ck_assert_uint_eq(find(&f, s, "d", 0), (size_t)-1);
	ck_assert_uint_eq(find(&f, s, "d", 1), (size_t)-1);
	/* Names compare escaped: \e is not the empty name. */
	ck_assert_uint_eq(find(&f, s, "\\e", 0), 5);
	ck_assert_uint_eq(find(&f, s, "", 0), 6);
	ck_assert_uint_eq(find(&f, s, "", 1), 6);
	ck_assert_uint_eq(find(&f, s, "x\\x3by", 0), 7);
	ck_assert_uint_eq(find(&f, s, "x\\x3by", 1), 7);
	ck_assert_uint_eq(find(&f, s, "x;y", 0), (size_t)-1);
	ck_assert_uint_eq(find(&f, s, "x", 0), 8);
	ck_assert_uint_eq(find(&f, s, "y", 1), 9);
	ck_assert_uint_eq(find(&f, s, "a\\\\", 0), 10);
	ck_assert_uint_eq(find(&f, s, "a\\", 0), (size_t)-1);
	/* The name's length counts, not its NUL. */
	ck_assert_uint_eq(frames_find(&f, s, "abc", 2, 0), 4);
	ck_assert_uint_eq(frames_find(&f, s, "abc", 1, 1), 2);

	/* No frames: nothing is found. */
	split(&f, "");
	ck_assert_uint_eq(find(&f, "", "", 0), (size_t)-1);
	ck_assert_uint_eq(find(&f, "", "", 1), (size_t)-1);
	ck_assert_uint_eq(find(&f, "", "a", 1), (size_t)-1);
	/* One empty-named frame... two of them. */
	split(&f, ";");
	ck_assert_uint_eq(find(&f, ";", "", 0), 0);
	ck_assert_uint_eq(find(&f, ";", "", 1), 1);
	frames_free(&f);
}
END_TEST

START_TEST(test_span)
{
	static const struct {
		size_t		 a;
		size_t		 b;
		const char	*want;
	} t[] = {
		{ 0, 5, "a;bb;x\\x3by;\\e;d\\\\" },
		{ 0, 1, "a" },
		{ 0, 2, "a;bb" },
		{ 1, 3, "bb;x\\x3by" },
		{ 2, 3, "x\\x3by" },
		{ 3, 4, "\\e" },
		{ 4, 5, "d\\\\" },
		{ 1, 5, "bb;x\\x3by;\\e;d\\\\" },
		{ 2, 5, "x\\x3by;\\e;d\\\\" },
	};
	const char *s = "a;bb;x\\x3by;\\e;d\\\\", *p;
	struct frames f;
	size_t i, len, a, b;

	memset(&f, 0, sizeof(f));
	split(&f, s);
	ck_assert_uint_eq(f.n, 5);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		len = 99;
		p = frames_span(&f, s, t[i].a, t[i].b, &len);
		ck_assert_msg(len == strlen(t[i].want) &&
		    memcmp(p, t[i].want, len) == 0,
		    "span %zu..%zu: \"%.*s\", want \"%s\"", t[i].a, t[i].b,
		    (int)len, p, t[i].want);
	}
	/* Empty when a >= b. */
	for (a = 0; a <= 5; a++)
		for (b = 0; b <= a; b++) {
			len = 99;
			p = frames_span(&f, s, a, b, &len);
			ck_assert_uint_eq(len, 0);
			ck_assert_ptr_eq(p, s);
		}
	/* Empty frames at the ends. */
	s = ";x;";
	split(&f, s);
	ck_assert_uint_eq(f.n, 3);
	p = frames_span(&f, s, 0, 1, &len);
	ck_assert_uint_eq(len, 0);
	ck_assert_ptr_eq(p, s);
	p = frames_span(&f, s, 0, 3, &len);
	ck_assert_uint_eq(len, 3);
	ck_assert_ptr_eq(p, s);
	p = frames_span(&f, s, 1, 3, &len);
	ck_assert_uint_eq(len, 2);
	ck_assert_ptr_eq(p, s + 1);
	p = frames_span(&f, s, 2, 3, &len);
	ck_assert_uint_eq(len, 0);
	ck_assert_ptr_eq(p, s + 3);
	frames_free(&f);
}
END_TEST

START_TEST(test_chains_empty)
{
	struct chains *c;
	char *out;

	c = chains_new();
	out = tu_capture(putchains, c);
	ck_assert_str_eq(out, "");
	free(out);
	chains_free(c);
	chains_free(NULL);
}
END_TEST

/*
 * Groups by (thread, chain), exact sums, first-seen order and the
 * stable heaviest-first sort.
 */
START_TEST(test_chains)
{
	struct chains *c;
	struct sst_rec r;
	char *out;

	c = chains_new();
	r = rec(1, 0.001, 1, 0.001);
	add(c, "main", "z", &r);
	r = rec(1, 0.1, 0, 0);
	add(c, "worker", "a", &r);
	/* The period is added sample by sample; the weight is not used. */
	r = rec(10, 1, 1, 0.1);
	add(c, "main", "a;b", &r);
	r = rec(3, 0.5, 0, 0);
	add(c, "main", "a", &r);
	r = rec(3, 0.30000000000000004, 1, 0.1);
	add(c, "t\\x3b", "\\e;x\\x3by", &r);
	r = rec(1, 0.2, 0, 0);
	add(c, "worker", "a", &r);
	r = rec(2, 0.5, 1, 0.25);
	add(c, "worker", "a;b", &r);
	r = rec(1, 0.2, 0, 0);
	add(c, "main", "a;b", &r);
	r = rec(0, 0, 0, 0);
	add(c, "main", "a", &r);
	r = rec(2, 1.5, 0, 0);
	add(c, "", "", &r);
	r = rec(1, 5, 0, 0);
	add(c, "main", "late", &r);
	/* 1000 times 0.001 is not 1. */
	r = rec(1000, 1, 1, 0.001);
	add(c, "main", "s", &r);
	out = tu_capture(putchains, c);
	ck_assert_str_eq(out,
	    "1\t5\tseconds\tmain\tlate\tspans\n"
	    "2\t1.5\tseconds\t\t\tspans\n"
	    "11\t1.2\tseconds\tmain\ta;b\tspans\n"
	    "1000\t1.0000000000000007\tseconds\tmain\ts\tspans\n"
	    "3\t0.5\tseconds\tmain\ta\tspans\n"
	    "2\t0.5\tseconds\tworker\ta;b\tspans\n"
	    "2\t0.30000000000000004\tseconds\tworker\ta\tspans\n"
	    "3\t0.30000000000000004\tseconds\tt\\x3b\t\\e;x\\x3by\tspans\n"
	    "1\t0.001\tseconds\tmain\tz\tspans\n");
	free(out);
	/* Writing does not change the groups. */
	out = tu_capture(putchains, c);
	ck_assert_str_eq(out,
	    "1\t5\tseconds\tmain\tlate\tspans\n"
	    "2\t1.5\tseconds\t\t\tspans\n"
	    "11\t1.2\tseconds\tmain\ta;b\tspans\n"
	    "1000\t1.0000000000000007\tseconds\tmain\ts\tspans\n"
	    "3\t0.5\tseconds\tmain\ta\tspans\n"
	    "2\t0.5\tseconds\tworker\ta;b\tspans\n"
	    "2\t0.30000000000000004\tseconds\tworker\ta\tspans\n"
	    "3\t0.30000000000000004\tseconds\tt\\x3b\t\\e;x\\x3by\tspans\n"
	    "1\t0.001\tseconds\tmain\tz\tspans\n");
	free(out);
	chains_free(c);
}
END_TEST

/* Sums go on across records of a group, in stream order. */
START_TEST(test_chains_sums)
{
	struct chains *c;
	struct sst_rec r;
	char *out;

	c = chains_new();
	/* 0.1 * 10 is 1, the sum 0.9999999999999999. */
	r = rec(10, 1, 1, 0.1);
	add(c, "t", "x", &r);
	out = tu_capture(putchains, c);
	ck_assert_str_eq(out, "10\t0.9999999999999999\tseconds\tt\tx\n");
	free(out);
	/* (0.1 + 0.1 + 0.1) + 0.7 + 0.7 */
	r = rec(3, 0.3, 1, 0.1);
	add(c, "t", "y", &r);
	r = rec(2, 1.4, 1, 0.7);
	add(c, "t", "y", &r);
	/* A record without a period adds its weight once. */
	r = rec(4, 0.5, 0, 0);
	add(c, "t", "z", &r);
	r = rec(7, 0.25, 0, 0);
	add(c, "t", "z", &r);
	/* Only the lengths given are the names. */
	chains_add(c, "tX", 1, "xyz", 1, &r);
	out = tu_capture(putchains, c);
	/* Records without a period: the rows count spans. */
	ck_assert_str_eq(out,
	    "5\t1.7\tseconds\tt\ty\tspans\n"
	    "17\t1.25\tseconds\tt\tx\tspans\n"
	    "11\t0.75\tseconds\tt\tz\tspans\n");
	free(out);
	chains_free(c);
}
END_TEST

/*
 * Many groups, each met twice: the second time adds to the first, and
 * the rows come heaviest first, ties in first-seen order; each row
 * reads back with chainrow_parse.
 */
START_TEST(test_chains_many)
{
	struct chains *c;
	struct chainrow row;
	struct sst_rec r;
	const char *w;
	char *out, *p, *nl, name[32];
	size_t i, k, n = 700;
	int wt;

	c = chains_new();
	for (k = 0; k < 2; k++)
		for (i = 0; i < n; i++) {
			r = rec(i, (double)(i % 7), 0, 0);
			snprintf(name, sizeof(name), "f;%zu", i);
			add(c, i % 2 ? "odd" : "even", name, &r);
		}
	out = tu_capture(putchains, c);
	p = out;
	for (wt = 6; wt >= 0; wt--)
		for (i = (size_t)wt; i < n; i += 7) {
			ck_assert_ptr_nonnull(nl = strchr(p, '\n'));
			ck_assert_int_eq(chainrow_parse(p, (size_t)(nl - p),
			    &row, &w), 0);
			ck_assert_uint_eq(row.samples, 2 * i);
			ck_assert(row.weight == 2 * wt);
			ck_assert_mem_eq(row.thread, i % 2 ? "odd" : "even",
			    row.threadlen);
			ck_assert_uint_eq(row.threadlen, i % 2 ? 3 : 4);
			snprintf(name, sizeof(name), "f;%zu", i);
			ck_assert_uint_eq(row.chainlen, strlen(name));
			ck_assert_mem_eq(row.chain, name, row.chainlen);
			p = nl + 1;
		}
	ck_assert_str_eq(p, "");
	free(out);
	chains_free(c);
}
END_TEST

START_TEST(test_parse)
{
	struct chainrow r;
	const char *w, *s;

	s = "37\t0.30000000000000004\tseconds\tThread 4713 \"Main\"\t"
	    "<module>;run;select";
	w = "unset";
	ck_assert_int_eq(chainrow_parse(s, strlen(s), &r, &w), 0);
	ck_assert_ptr_null(w);
	ck_assert_uint_eq(r.samples, 37);
	ck_assert(r.weight == 0.1 + 0.2);
	ck_assert_ptr_eq(r.thread, s + 31);
	ck_assert_int_eq(r.unit, U_SECONDS);
	ck_assert_uint_eq(r.threadlen, 18);
	ck_assert_mem_eq(r.thread, "Thread 4713 \"Main\"", 18);
	ck_assert_ptr_eq(r.chain, s + 50);
	ck_assert_uint_eq(r.chainlen, 19);
	ck_assert_mem_eq(r.chain, "<module>;run;select", 19);

	/* Empty thread and chain. */
	s = "0\t0\tnone\t\t";
	ck_assert_int_eq(chainrow_parse(s, strlen(s), &r, &w), 0);
	ck_assert_uint_eq(r.samples, 0);
	ck_assert(r.weight == 0);
	ck_assert_uint_eq(r.threadlen, 0);
	ck_assert_ptr_eq(r.thread, s + 9);
	ck_assert_int_eq(r.unit, U_NONE);
	ck_assert_uint_eq(r.chainlen, 0);
	ck_assert_ptr_eq(r.chain, s + 10);

	/* Escapes, the largest count, other number spellings. */
	s = "18446744073709551615\t1e-05\tbytes\tt\\x3b\\t\t"
	    "\\e;x\\x3by;a\\\\b;\\t";
	ck_assert_int_eq(chainrow_parse(s, strlen(s), &r, &w), 0);
	ck_assert_uint_eq(r.samples, UINT64_MAX);
	ck_assert(r.weight == 1e-5);
	ck_assert_uint_eq(r.threadlen, 7);
	ck_assert_mem_eq(r.thread, "t\\x3b\\t", 7);
	ck_assert_uint_eq(r.chainlen, 17);
	ck_assert_mem_eq(r.chain, "\\e;x\\x3by;a\\\\b;\\t", 17);
	s = "007\t1.50\tseconds\tt\tc";
	ck_assert_int_eq(chainrow_parse(s, strlen(s), &r, &w), 0);
	ck_assert_uint_eq(r.samples, 7);
	ck_assert(r.weight == 1.5);
	s = "1\t-2.5E3\tnone\t\xc3\xa9\t\xe2\x82\xac;;";
	ck_assert_int_eq(chainrow_parse(s, strlen(s), &r, &w), 0);
	ck_assert(r.weight == -2500);
	ck_assert_uint_eq(r.threadlen, 2);
	ck_assert_uint_eq(r.chainlen, 5);

	/* Only the given length is the row. */
	s = "2\t3\tnone\tt\ta;b\n4\t5\tnone\tu\tc";
	ck_assert_int_eq(chainrow_parse(s, 14, &r, &w), 0);
	ck_assert_uint_eq(r.samples, 2);
	ck_assert(r.weight == 3);
	ck_assert_uint_eq(r.chainlen, 3);
	ck_assert_mem_eq(r.chain, "a;b", 3);
	ck_assert_int_eq(chainrow_parse(s, 15, &r, &w), -1);
	ck_assert_str_eq(w, "bad escape sequence");
	ck_assert_int_eq(chainrow_parse(s, 10, &r, &w), -1);
	ck_assert_str_eq(w, "expected 5 TAB-separated fields");
	ck_assert_int_eq(chainrow_parse(s, 11, &r, &w), 0);
	ck_assert_uint_eq(r.chainlen, 0);
}
END_TEST

START_TEST(test_parse_errors)
{
	static const struct {
		const char	*line;
		const char	*why;
	} t[] = {
		{ "", "expected 5 TAB-separated fields" },
		{ "1", "expected 5 TAB-separated fields" },
		{ "1\t2", "expected 5 TAB-separated fields" },
		{ "1\t2\tnone", "expected 5 TAB-separated fields" },
		{ "1\t2\tnone\tt", "expected 5 TAB-separated fields" },
		{ "1\t2\tt\tc", "expected 5 TAB-separated fields" },
		{ "1\t2\tnone\tt\tc\t",
		    "expected 5 TAB-separated fields, or 6 with spans last" },
		{ "1\t2\tnone\tt\tc\textra",
		    "expected 5 TAB-separated fields, or 6 with spans last" },
		{ "1\t2\tnone\tt\tc\tspans\tspans",
		    "expected 5 TAB-separated fields, or 6 with spans last" },
		{ "1\t2\tnone\tt\tc\tspansx",
		    "expected 5 TAB-separated fields, or 6 with spans last" },
		{ "1 2 none t c", "expected 5 TAB-separated fields" },
		{ "x\tx\tx\tx", "expected 5 TAB-separated fields" },
		{ "\t1\tnone\tt\tc", "bad sample count" },
		{ "-1\t1\tnone\tt\tc", "bad sample count" },
		{ "+1\t1\tnone\tt\tc", "bad sample count" },
		{ "1.0\t1\tnone\tt\tc", "bad sample count" },
		{ " 1\t1\tnone\tt\tc", "bad sample count" },
		{ "1 \t1\tnone\tt\tc", "bad sample count" },
		{ "1e3\t1\tnone\tt\tc", "bad sample count" },
		{ "18446744073709551616\t1\tnone\tt\tc", "bad sample count" },
		{ "1\t\tnone\tt\tc", "bad weight" },
		{ "1\tabc\tnone\tt\tc", "bad weight" },
		{ "1\tinf\tnone\tt\tc", "bad weight" },
		{ "1\tnan\tnone\tt\tc", "bad weight" },
		{ "1\t1e999\tnone\tt\tc", "bad weight" },
		{ "1\t0x10\tnone\tt\tc", "bad weight" },
		{ "1\t1 \tnone\tt\tc", "bad weight" },
		{ "1\t-\tnone\tt\tc", "bad weight" },
		{ "1\t1\t\tt\tc", "bad unit" },
		{ "1\t1\tms\tt\tc", "bad unit" },
		{ "1\t1\tNone\tt\tc", "bad unit" },
		{ "1\t1\tnone\tt\\q\tc", "bad escape sequence" },
		{ "1\t1\tnone\tt\\\tc", "bad escape sequence" },
		{ "1\t1\tnone\tt\tc\\", "bad escape sequence" },
		{ "1\t1\tnone\tt\tc\\x4", "bad escape sequence" },
		{ "1\t1\tnone\tt\tc\\xg0", "bad escape sequence" },
		{ "1\t1\tnone\tt\ta;\\;b", "bad escape sequence" },
		{ "1\t1\tnone\tt\x01\tc", "bad escape sequence" },
		{ "1\t1\tnone\tt\tc\r", "bad escape sequence" },
		{ "1\t1\tnone\tt\tc\n", "bad escape sequence" },
		/* The first error in field order is the one reported. */
		{ "x\tx\tx\t\\q\t\\q", "bad sample count" },
		{ "1\tx\tx\t\\q\t\\q", "bad weight" },
		{ "1\t1\tx\t\\q\t\\q", "bad unit" },
		{ "1\t1\tnone\t\\q\t\\q", "bad escape sequence" },
		{ "1\t1\tnone\tt\tc", "ok" },
		{ "1\t1\tbytes\tt\tc", "ok" },
		{ "1\t1\tseconds\tt\tc\tspans", "ok" },
		{ "1\t1\tseconds\tt\t\tspans", "ok" },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ck_assert_msg(strcmp(why(t[i].line), t[i].why) == 0,
		    "case %zu: \"%s\", want \"%s\"", i, why(t[i].line),
		    t[i].why);
}
END_TEST

START_TEST(test_set)
{
	struct chainset cs;
	char *a, *b, msg[256];

	a = tu_tmpfile("3\t0.3\tseconds\tThread 1 \"Main\"\tf;g\n"
	    "1\t0.1\tseconds\tt\t\n");
	b = tu_tmpfile("2\t2e-1\tseconds\tu\tx\\x3by\tspans");
	memset(&cs, 0, sizeof(cs));
	ck_assert_int_eq(chainset_read(&cs, a, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(cs.n, 2);
	ck_assert_int_eq(chainset_read(&cs, b, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(cs.n, 3);
	ck_assert_uint_eq(cs.rows[0].samples, 3);
	ck_assert(cs.rows[0].weight == 0.3);
	ck_assert_mem_eq(cs.rows[0].thread, "Thread 1 \"Main\"", 15);
	ck_assert_uint_eq(cs.rows[0].chainlen, 3);
	ck_assert_mem_eq(cs.rows[0].chain, "f;g", 3);
	ck_assert_ptr_eq(cs.rows[0].thread, cs.lines[0] + 14);
	ck_assert_uint_eq(cs.rows[1].chainlen, 0);
	ck_assert_uint_eq(cs.rows[2].samples, 2);
	ck_assert(cs.rows[2].weight == 0.2);
	ck_assert_uint_eq(cs.rows[2].chainlen, 6);
	ck_assert_mem_eq(cs.rows[2].chain, "x\\x3by", 6);
	/* The sixth field says the rows count spans. */
	ck_assert(!cs.rows[0].timed && !cs.rows[1].timed);
	ck_assert(cs.rows[2].timed);
	chainset_free(&cs);
	ck_assert_uint_eq(cs.n, 0);
	ck_assert_ptr_null(cs.rows);
	unlink(a);
	unlink(b);
	free(a);
	free(b);
}
END_TEST

/*
 * The frame every chain ends with (callers' rows), else begins with
 * (callees' rows), decoded; none when neither is common; rows without
 * frames do not count.
 */
START_TEST(test_set_name)
{
	struct chainset cs;
	struct buf b;
	const char *n;
	char *a, msg[256];
	size_t len;

	buf_init(&b);
	a = tu_tmpfile("1\t1\tnone\tt\tm;x\\x3by\n"
	    "1\t1\tnone\tu\tr;x\\x3by\n1\t1\tnone\tt\t\n");
	memset(&cs, 0, sizeof(cs));
	ck_assert_int_eq(chainset_read(&cs, a, msg, sizeof(msg)), 0);
	n = chainset_common(&cs, 1, &len);
	ck_assert_ptr_nonnull(n);
	ck_assert_mem_eq(n, "x\\x3by", len);
	ck_assert_ptr_null(chainset_common(&cs, 0, &len));
	ck_assert_str_eq(chainset_name(&cs, 1, 1, &b), "x;y");
	ck_assert_ptr_null(chainset_name(&cs, 0, 1, &b));
	chainset_free(&cs);
	unlink(a);
	free(a);
	a = tu_tmpfile("1\t1\tnone\t\tf;a\n1\t1\tnone\t\tf\n"
	    "1\t1\tnone\t\tf;b;c\n");
	ck_assert_int_eq(chainset_read(&cs, a, msg, sizeof(msg)), 0);
	ck_assert_str_eq(chainset_name(&cs, 1, 1, &b), "f");
	ck_assert_ptr_null(chainset_name(&cs, 1, 0, &b));
	chainset_free(&cs);
	unlink(a);
	free(a);
	buf_free(&b);
}
END_TEST

/*
 * A file that cannot be opened or read: -1, its name and why (as
 * err(3) says it, and lines.c for a read error, with the line).
 */
START_TEST(test_set_missing)
{
	struct chainset cs;
	char msg[256];

	memset(&cs, 0, sizeof(cs));
	ck_assert_int_eq(chainset_read(&cs, "/nonexistent/test_chain", msg,
	    sizeof(msg)), -1);
	ck_assert_str_eq(msg, "/nonexistent/test_chain: No such file or "
	    "directory");
	ck_assert_uint_eq(cs.n, 0);
	ck_assert_int_eq(chainset_read(&cs, "/", msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "/:1: read error: Is a directory");
	chainset_free(&cs);
}
END_TEST

/*
 * A bad row (here on standard input) is an error with its place; the
 * text is sst-tree(1)'s message for this input before chainset_read()
 * returned it (then it exited itself), less the program name.
 */
START_TEST(test_set_badrow)
{
	struct chainset cs;
	char *a, msg[256];
	int fd;

	a = tu_tmpfile("1\t1\tnone\tt\tc\nx\t1\tnone\tt\tc\n");
	ck_assert_int_ne(fd = open(a, O_RDONLY), -1);
	unlink(a);
	free(a);
	ck_assert_int_eq(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	memset(&cs, 0, sizeof(cs));
	ck_assert_int_eq(chainset_read(&cs, NULL, msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "<stdin>:2: bad sample count");
	ck_assert_uint_eq(cs.n, 1);
	chainset_free(&cs);
}
END_TEST

/* Rows of two units are an error (the message as sst-tree(1)'s). */
START_TEST(test_set_units)
{
	struct chainset cs;
	struct buf want;
	char *a, msg[1024];

	a = tu_tmpfile("1\t1\tnone\tt\tc\n1\t1\tbytes\tt\tc\n");
	memset(&cs, 0, sizeof(cs));
	ck_assert_int_eq(chainset_read(&cs, a, msg, sizeof(msg)), -1);
	buf_init(&want);
	buf_printf(&want, "%s:2: unit bytes after unit none: rows of one "
	    "unit only", a);
	ck_assert_str_eq(msg, want.data);
	ck_assert_uint_eq(cs.n, 1);
	chainset_free(&cs);
	buf_free(&want);
	unlink(a);
	free(a);
}
END_TEST

/*
 * Records of one period (a sampled stream) make rows of five fields; a
 * record of samples that weigh 0 makes the stream timed, and every row
 * then ends in "spans", the rows added before it too.
 */
START_TEST(test_chains_kind)
{
	struct chains *c;
	struct sst_rec r;
	char *out;

	c = chains_new();
	r = rec(2, 0.02, 1, 0.01);
	add(c, "main", "a", &r);
	r = rec(1, 0.01, 1, 0.01);
	add(c, "main", "b", &r);
	out = tu_capture(putchains, c);
	ck_assert_str_eq(out, "2\t0.02\tseconds\tmain\ta\n"
	    "1\t0.01\tseconds\tmain\tb\n");
	free(out);
	r = rec(1, 0, 1, 0);
	chains_kind(c, &r);
	out = tu_capture(putchains, c);
	ck_assert_str_eq(out, "2\t0.02\tseconds\tmain\ta\tspans\n"
	    "1\t0.01\tseconds\tmain\tb\tspans\n");
	free(out);
	chains_free(c);
}
END_TEST

/* The first max rows; totals that would overflow are refused. */
static long long putmax;

static void
putsome(void *c)
{
	chains_put(c, putmax);
}

START_TEST(test_chains_max_over)
{
	struct chains *c;
	struct sst_rec r;
	char *out;

	c = chains_new();
	r = rec(1, 1, 0, 0);
	r.unit = U_BYTES;
	add(c, "t", "a", &r);
	r = rec(2, 2, 0, 0);
	r.unit = U_BYTES;
	add(c, "t", "b", &r);
	putmax = 1;
	out = tu_capture(putsome, c);
	ck_assert_str_eq(out, "2\t2\tbytes\tt\tb\n");
	free(out);
	putmax = 0;
	out = tu_capture(putsome, c);
	ck_assert_str_eq(out, "");
	free(out);
	ck_assert_ptr_null(chains_over(c));
	r = rec(UINT64_MAX, 1, 0, 0);
	ck_assert_int_eq(chains_add(c, "t", 1, "a", 1, &r), -1);
	ck_assert_str_eq(chains_over(c), "the sample count passes 2^64-1");
	chains_free(c);
	c = chains_new();
	r = rec(1, 1e308, 0, 0);
	ck_assert_int_eq(chains_add(c, "t", 1, "a", 1, &r), 0);
	ck_assert_int_eq(chains_add(c, "t", 1, "a", 1, &r), -1);
	ck_assert_str_eq(chains_over(c), "the weight overflows to infinity");
	chains_free(c);
}
END_TEST

START_TEST(test_shortthread)
{
	ck_assert_str_eq(shortname("Thread 4713 \"MainThread\""),
	    "MainThread");
	ck_assert_str_eq(shortname("a \"b\" c \"d\" e"), "d");
	ck_assert_str_eq(shortname("a \"b\" c \"d\""), "d");
	ck_assert_str_eq(shortname("\"x"), "");
	ck_assert_str_eq(shortname("x\""), "x");
	ck_assert_str_eq(shortname("\"\""), "");
	ck_assert_str_eq(shortname("no quotes"), "no quotes");
	ck_assert_str_eq(shortname(""), "");
}
END_TEST

static Suite *
chain_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("chain");
	tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_split_empty);
	tcase_add_test(tc, test_split);
	tcase_add_test(tc, test_split_len);
	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_span);
	tcase_add_test(tc, test_chains_empty);
	tcase_add_test(tc, test_chains);
	tcase_add_test(tc, test_chains_kind);
	tcase_add_test(tc, test_chains_sums);
	tcase_add_test(tc, test_chains_many);
	tcase_add_test(tc, test_chains_max_over);
	tcase_add_test(tc, test_set_units);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_set);
	tcase_add_test(tc, test_set_name);
	tcase_add_test(tc, test_set_missing);
	tcase_add_test(tc, test_set_badrow);
	tcase_add_test(tc, test_shortthread);
	tcase_add_test(tc, test_shown);
	tcase_add_test(tc, test_putframes);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(chain_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
