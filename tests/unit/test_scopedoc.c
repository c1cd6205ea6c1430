/*
 * test_scopedoc.c: Check suite for the speedscope document of records
 * (common/formats/scopedoc.c): a document written whole from records
 * of two threads, in the order met and sorted by name, its frames
 * numbered by first use in the profiles as written; weights scaled by
 * the scale picked at the end, each thread's total summed at it; the
 * errors of a record (a unit not its thread's, samples past 2^64 - 1, a
 * bad location); the options -D, -e and -S and the default name.  Every
 * expected document is written by hand from the records, as Python's
 * json.dump() writes speedscope's schema (see sst2speedscope(1)).
 */

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "rec.h"
#include "scopedoc.h"
#include "tutil.h"

#define HEAD	"{\"$schema\": \"https://www.speedscope.app/" \
		"file-format-schema.json\", \"shared\": {\"frames\": ["

/* What put() writes: a document, its options and its inputs. */
struct doc {
	struct scopedoc		*g;
	struct scopedoc_opts	 o;
	int			 argc;
	char			*const *argv;
};

static struct sst_rec rec(const char *, uint64_t, double, const char *);
static void	 add(struct scopedoc *, const char *, uint64_t, double,
		    const char *);
static void	 put(void *);
static Suite	*scopedoc_suite(void);

/* A record of thread t: n samples weighing w seconds, stack s. */
static struct sst_rec
rec(const char *t, uint64_t n, double w, const char *s)
{
	return (struct sst_rec){ .thread = t, .threadlen = strlen(t),
	    .samples = n, .weight = w, .unit = U_SECONDS, .stack = s,
	    .stacklen = strlen(s), .locs = "" };
}

/* Add that record, which must be accepted. */
static void
add(struct scopedoc *g, const char *t, uint64_t n, double w, const char *s)
{
	struct sst_rec r = rec(t, n, w, s);
	struct buf err;

	buf_init(&err);
	ck_assert_int_eq(scopedoc_add(g, &r, &err), 0);
	buf_free(&err);
}

/* scopedoc_write() of a doc, as a tu_capture() function. */
static void
put(void *arg)
{
	struct doc *d = arg;

	scopedoc_write(d->g, &d->o, d->argc, d->argv);
}

/*
 * Thread z: [a, b] twice (2 samples of 0.5 s), then thread m: [a, c];
 * in the order met z comes first and the frames are a, b, c; sorted,
 * m's profile comes first, so a, c, b: c is 1 and b 2.
 */
START_TEST(test_threads)
{
	static char *const argv[] = { "prof.sst", NULL };
	struct doc d = { NULL, { NULL, "x", 0 }, 1, argv };
	char *s;
	int sort;

	for (sort = 0; sort < 2; sort++) {
		d.g = scopedoc_new(0);
		d.o.sort = sort;
		add(d.g, "z", 2, 1, "a;b");
		add(d.g, "m", 1, 0.25, "a;c");
		s = tu_capture(put, &d);
		if (sort)
			ck_assert_str_eq(s, HEAD "{\"name\": \"a\"}, "
			    "{\"name\": \"c\"}, {\"name\": \"b\"}]}, "
			    "\"profiles\": [{\"type\": \"sampled\", \"name\": "
			    "\"m\", \"unit\": \"seconds\", \"startValue\": 0, "
			    "\"endValue\": 0.25, \"samples\": [[0, 1]], "
			    "\"weights\": [0.25]}, {\"type\": \"sampled\", "
			    "\"name\": \"z\", \"unit\": \"seconds\", "
			    "\"startValue\": 0, \"endValue\": 1.0, "
			    "\"samples\": [[0, 2], [0, 2]], \"weights\": "
			    "[0.5, 0.5]}], \"name\": \"prof.sst\", "
			    "\"exporter\": \"x\"}");
		else
			ck_assert_str_eq(s, HEAD "{\"name\": \"a\"}, "
			    "{\"name\": \"b\"}, {\"name\": \"c\"}]}, "
			    "\"profiles\": [{\"type\": \"sampled\", \"name\": "
			    "\"z\", \"unit\": \"seconds\", \"startValue\": 0, "
			    "\"endValue\": 1.0, \"samples\": [[0, 1], [0, 1]], "
			    "\"weights\": [0.5, 0.5]}, {\"type\": \"sampled\", "
			    "\"name\": \"m\", \"unit\": \"seconds\", "
			    "\"startValue\": 0, \"endValue\": 0.25, "
			    "\"samples\": [[0, 2]], \"weights\": [0.25]}], "
			    "\"name\": \"prof.sst\", \"exporter\": \"x\"}");
		free(s);
		scopedoc_free(d.g);
	}
}
END_TEST

/*
 * Scales 1e-9 and 0.5: weights 2 and 4 as given are written 1.0 and
 * 2.0 at the second (total 3.0), 2e-09 and 4e-09 at the first, whose
 * total is 6.000000000000001e-09 (Python: repr(sum([2 * 1e-9,
 * 4 * 1e-9])), each weight scaled before the sum).
 */
START_TEST(test_scales)
{
	static const double sc[] = { 1e-9, 0.5 };
	struct doc d = { NULL, { "n", "e", 0 }, 0, NULL };
	char *s;
	int sel;

	for (sel = 0; sel < 2; sel++) {
		d.g = scopedoc_new(0);
		scopedoc_scales(d.g, sc, 2);
		add(d.g, "t", 1, 2, "f");
		add(d.g, "t", 1, 4, "f");
		scopedoc_pick(d.g, sel);
		s = tu_capture(put, &d);
		ck_assert_str_eq(s, sel == 1 ?
		    HEAD "{\"name\": \"f\"}]}, \"profiles\": [{\"type\": "
		    "\"sampled\", \"name\": \"t\", \"unit\": \"seconds\", "
		    "\"startValue\": 0, \"endValue\": 3.0, \"samples\": "
		    "[[0], [0]], \"weights\": [1.0, 2.0]}], \"name\": \"n\", "
		    "\"exporter\": \"e\"}" :
		    HEAD "{\"name\": \"f\"}]}, \"profiles\": [{\"type\": "
		    "\"sampled\", \"name\": \"t\", \"unit\": \"seconds\", "
		    "\"startValue\": 0, \"endValue\": 6.000000000000001e-09, "
		    "\"samples\": "
		    "[[0], [0]], \"weights\": [2e-09, 4e-09]}], \"name\": "
		    "\"n\", \"exporter\": \"e\"}");
		free(s);
		scopedoc_free(d.g);
	}
}
END_TEST

/* A record refused: the message, and the document goes on. */
START_TEST(test_errors)
{
	struct scopedoc *g = scopedoc_new(0);
	struct sst_rec r;
	struct buf err;

	buf_init(&err);
	add(g, "t", UINT64_MAX, 1, "f");
	r = rec("t", 1, 1, "f");
	ck_assert_int_eq(scopedoc_add(g, &r, &err), -1);
	ck_assert_str_eq(err.data,
	    "the sample count of thread t passes 2^64-1");
	r.unit = U_NONE;
	ck_assert_int_eq(scopedoc_add(g, &r, &err), -1);
	ck_assert_str_eq(err.data, "unit none, but the thread's is seconds");
	r = rec("u", 1, 1, "f");
	r.locs = "m.py:x:1:0";
	r.locslen = strlen(r.locs);
	ck_assert_int_eq(scopedoc_add(g, &r, &err), -1);
	ck_assert_str_eq(err.data, "bad location: m.py:x:1:0");
	/* No samples: the thread is made, nothing else. */
	add(g, "v", 0, 0, "g");
	scopedoc_free(g);
	buf_free(&err);
}
END_TEST

/* -D, -e and -S taken, any other letter not; no inputs: <stdin>. */
START_TEST(test_opts)
{
	static char *const dash[] = { "-", NULL };
	struct doc d = { NULL, { NULL, "x", 0 }, 0, NULL };
	char *s;

	ck_assert_int_eq(scopedoc_opt(&d.o, 'D', "name"), 1);
	ck_assert_str_eq(d.o.name, "name");
	ck_assert_int_eq(scopedoc_opt(&d.o, 'e', "exp"), 1);
	ck_assert_str_eq(d.o.exporter, "exp");
	ck_assert_int_eq(scopedoc_opt(&d.o, 'S', NULL), 1);
	ck_assert_int_eq(d.o.sort, 1);
	ck_assert_int_eq(scopedoc_opt(&d.o, 'V', NULL), 0);
	d.o.name = NULL;
	d.g = scopedoc_new(0);
	s = tu_capture(put, &d);
	ck_assert_str_eq(s, HEAD "]}, \"profiles\": [], \"name\": "
	    "\"<stdin>\", \"exporter\": \"exp\"}");
	free(s);
	scopedoc_free(d.g);
	d.g = scopedoc_new(0);
	d.argc = 1;
	d.argv = dash;
	s = tu_capture(put, &d);
	ck_assert_str_eq(s, HEAD "]}, \"profiles\": [], \"name\": "
	    "\"<stdin>\", \"exporter\": \"exp\"}");
	free(s);
	scopedoc_free(d.g);
}
END_TEST

static Suite *
scopedoc_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("scopedoc");
	tc = tcase_create("core");
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_scales);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_opts);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(scopedoc_suite());
}
