/*
 * test_spdw.c: Check suite for the speedscope writer (common/formats/spdw.c):
 * the frame keys and the shared.frames entries written from them, which
 * location entries pass, the records spilled with their stacks as frame
 * ids (spdw_addrec: ids as a plain model numbers them, a bad location's
 * message), the records of a spill read back (a short one exits), and
 * the profiles written from a spill, in the order given and in groups
 * of threads.
 */

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "spill.h"
#include "spdw.h"
#include "tutil.h"

/* What spdw_putprofiles is given. */
struct profs {
	struct spill		*sp;
	struct spdw_thread	*thr;
	size_t			*order;
	size_t			 nth;
	uint32_t		*outid;
};

static void	 putframe(void *);
static char	*frame(const char *, const char *);
static int	 valid(const char *);
static void	 putprofs(void *);
static void	 addrec(struct spill *, uint32_t, uint64_t, double,
		    const uint32_t *, uint32_t);
static void	 thread(struct spdw_thread *, const char *, enum sst_unit,
		    size_t);
static Suite	*spdw_suite(void);

/* spdw_putframes of the key in a buf, as a tu_capture() function. */
static void
putframe(void *arg)
{
	struct buf *key = arg;
	struct htab *h;
	size_t id;

	h = ht_new();
	id = ht_intern(h, key->data, key->len, NULL);
	spdw_putframes(h, &id, 1);
	ht_free(h);
}

/* The entry written for the frame name (escaped) at location loc. */
static char *
frame(const char *name, const char *loc)
{
	struct buf key;
	char *s;

	buf_init(&key);
	spdw_framekey(&key, name, strlen(name), loc, strlen(loc));
	s = tu_capture(putframe, &key);
	buf_free(&key);
	return s;
}

/* spdw_locvalid of a string. */
static int
valid(const char *l)
{
	return spdw_locvalid(l, strlen(l));
}

/* spdw_putprofiles of a struct profs, as a tu_capture() function. */
static void
putprofs(void *arg)
{
	struct profs *p = arg;
	struct spdw_ids ids = { NULL, 0 };

	spdw_putprofiles(p->sp, p->thr, p->order, p->nth, p->outid, &ids);
	free(ids.id);
}

/* Spill a record of thread tid: n samples of weight w, frames ids. */
static void
addrec(struct spill *sp, uint32_t tid, uint64_t n, double w,
    const uint32_t *ids, uint32_t nf)
{
	struct spdw_rec h = { tid, nf, n, w };

	xspill_write(sp, &h, sizeof(h));
	if (nf > 0)
		xspill_write(sp, ids, nf * sizeof(*ids));
}

/* A thread of the given name, unit and rank, with no samples yet. */
static void
thread(struct spdw_thread *t, const char *name, enum sst_unit unit,
    size_t rank)
{
	memset(t, 0, sizeof(*t));
	buf_init(&t->name);
	buf_adds(&t->name, name);
	t->unit = unit;
	t->rank = rank;
	t->scale = 1;
}

START_TEST(test_framekey)
{
	struct buf key;
	size_t nl;

	buf_init(&key);
	spdw_framekey(&key, "a\\tb", 4, "m.py:1:2:0", 10);
	ck_assert_uint_eq(key.len, sizeof(nl) + 3 + 10);
	memcpy(&nl, key.data, sizeof(nl));
	ck_assert_uint_eq(nl, 3);
	ck_assert_mem_eq(key.data + sizeof(nl), "a\tbm.py:1:2:0", 13);
	/* ":::" is no location; an empty name stays empty. */
	spdw_framekey(&key, "", 0, ":::", 3);
	ck_assert_uint_eq(key.len, sizeof(nl));
	memcpy(&nl, key.data, sizeof(nl));
	ck_assert_uint_eq(nl, 0);
	/* Other entries are kept as they are, escapes and all. */
	spdw_framekey(&key, "f", 1, ":::0", 4);
	ck_assert_uint_eq(key.len, sizeof(nl) + 1 + 4);
	ck_assert_mem_eq(key.data + sizeof(nl), "f:::0", 5);
	spdw_framekey(&key, "f", 1, "a\\tb::", 6);
	ck_assert_mem_eq(key.data + sizeof(nl), "fa\\tb::", 7);
	buf_free(&key);
}
END_TEST

/*
 * spdw_addrec over 300 records of 20 frames, among them names that come
 * back out of place and frames at the same place as in the record
 * before, across the flushes of 64 records: the ids written are those
 * of a plain model, each distinct name numbered as first met.
 */
START_TEST(test_addrec)
{
	static const char *fix[] = { "main", "run" };
	struct spdw_frames *f;
	struct spill *sp;
	struct spdw_rec h;
	struct spdw_ids ids = { NULL, 0 };
	struct sst_rec r;
	struct buf st, err;
	char names[64][16], nm[16];
	uint32_t want[300][3];
	size_t i, k, n = 0, seq;

	f = spdw_frames_new();
	sp = spill_new(256);
	buf_init(&st);
	buf_init(&err);
	memset(&r, 0, sizeof(r));
	for (i = 0; i < 300; i++) {
		buf_reset(&st);
		for (k = 0; k < 3; k++) {
			if (k < 2)
				snprintf(nm, sizeof(nm), "%s", fix[k]);
			else
				snprintf(nm, sizeof(nm), "w%zu", i * 7 % 23);
			if (k > 0)
				buf_addc(&st, ';');
			buf_adds(&st, nm);
			for (want[i][k] = 0; want[i][k] < n &&
			    strcmp(names[want[i][k]], nm) != 0; want[i][k]++)
				;
			if (want[i][k] == n)
				memcpy(names[n++], nm, sizeof(nm));
		}
		r.stack = st.data;
		r.stacklen = st.len;
		r.locs = "";
		h = (struct spdw_rec){ (uint32_t)i, 0, 1, 0.5 };
		ck_assert_int_eq(spdw_addrec(f, &r, &h, sp, &err), 0);
		ck_assert_uint_eq(h.nf, 3);
	}
	spdw_frames_flush(f, sp);
	ck_assert_uint_eq(ht_count(spdw_frames_table(f)), n);
	xspill_rewind(sp);
	for (seq = 0; spdw_xread(sp, &h, &ids); seq++) {
		ck_assert_uint_eq(h.tid, seq);
		ck_assert_uint_eq(h.nf, 3);
		for (k = 0; k < 3; k++)
			ck_assert_uint_eq(ids.id[k], want[seq][k]);
	}
	ck_assert_uint_eq(seq, 300);
	free(ids.id);
	spill_free(sp);
	spdw_frames_free(f);
	buf_free(&st);
	buf_free(&err);
}
END_TEST

/*
 * Frames by name and location (":::" is none, as is no location), a
 * stack without frames, and a bad location's message (hand-worked).
 */
START_TEST(test_addrec_locs)
{
	static const struct {
		const char	*stack, *locs;
		uint32_t	 nf, id[2];
	} t[] = {
		{ "a;b", "f.py:1:2:0;:::", 2, { 0, 1 } },
		{ "a;b", ":::;:::", 2, { 2, 1 } },
		{ "b;a", "", 2, { 1, 2 } },
		{ "", "", 0, { 0, 0 } },
		{ "a", "f.py:1:2:0", 1, { 0, 0 } },
	};
	struct spdw_frames *f;
	struct spill *sp;
	struct spdw_rec h;
	struct spdw_ids ids = { NULL, 0 };
	struct sst_rec r;
	struct buf err;
	size_t i, k;

	f = spdw_frames_new();
	sp = spill_new(1 << 16);
	buf_init(&err);
	memset(&r, 0, sizeof(r));
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		r.stack = t[i].stack;
		r.stacklen = strlen(t[i].stack);
		r.locs = t[i].locs;
		r.locslen = strlen(t[i].locs);
		h = (struct spdw_rec){ 0, 9, 1, 1 };
		ck_assert_int_eq(spdw_addrec(f, &r, &h, sp, &err), 0);
	}
	r.stack = "a;c";
	r.stacklen = 3;
	r.locs = ":::;g.py:x:1:2";
	r.locslen = strlen(r.locs);
	ck_assert_int_eq(spdw_addrec(f, &r, &h, sp, &err), -1);
	ck_assert_str_eq(err.data, "bad location: g.py:x:1:2");
	spdw_frames_flush(f, sp);
	xspill_rewind(sp);
	for (i = 0; spdw_xread(sp, &h, &ids); i++) {
		ck_assert_uint_eq(h.nf, t[i].nf);
		for (k = 0; k < h.nf; k++)
			ck_assert_uint_eq(ids.id[k], t[i].id[k]);
	}
	ck_assert_uint_eq(i, sizeof(t) / sizeof(t[0]));
	free(ids.id);
	spill_free(sp);
	spdw_frames_free(f);
	buf_free(&err);
}
END_TEST

START_TEST(test_locvalid)
{
	ck_assert(valid("m.py:1:2:0"));
	ck_assert(valid("m.py:1::0"));
	ck_assert(valid(":::"));
	ck_assert(valid("a:b:null:null:3"));
	ck_assert(valid("f:-1.5e3:0:x"));
	/* Fewer than three colons, or a line or col not a number. */
	ck_assert(!valid("m.py:1:2"));
	ck_assert(!valid("::"));
	ck_assert(!valid(""));
	ck_assert(!valid("f:x:1:0"));
	ck_assert(!valid("f:1:nul:0"));
	ck_assert(!valid("f:01:1:0"));
	ck_assert(!valid("f:1: 2:0"));
}
END_TEST

START_TEST(test_putframe)
{
	char *s;

	s = frame("main", "m.py:12:4:0");
	ck_assert_str_eq(s,
	    "{\"name\": \"main\", \"file\": \"m.py\", \"line\": 12, "
	    "\"col\": 4}");
	free(s);
	/* Empty parts are left out; line and col are written as they are. */
	s = frame("f", "m.py:1::0");
	ck_assert_str_eq(s, "{\"name\": \"f\", \"file\": \"m.py\", "
	    "\"line\": 1}");
	free(s);
	s = frame("f", "::null:0");
	ck_assert_str_eq(s, "{\"name\": \"f\", \"col\": null}");
	free(s);
	s = frame("f", ":::");
	ck_assert_str_eq(s, "{\"name\": \"f\"}");
	free(s);
	s = frame("f", "");
	ck_assert_str_eq(s, "{\"name\": \"f\"}");
	free(s);
	/* Names and files are decoded, then written as JSON strings. */
	s = frame("\\e", "");
	ck_assert_str_eq(s, "{\"name\": \"\"}");
	free(s);
	s = frame("a\\tb\"\xc3\xa9", "d:i\\tr/x.py:1e3:0:5");
	ck_assert_str_eq(s, "{\"name\": \"a\\tb\\\"\\u00e9\", "
	    "\"file\": \"d:i\\tr/x.py\", \"line\": 1e3, \"col\": 0}");
	free(s);
}
END_TEST

START_TEST(test_xread)
{
	static const uint32_t a[] = { 3, 1, 4 }, b[] = { 9 };
	struct spill *sp;
	struct spdw_rec h;
	struct spdw_ids ids = { NULL, 0 };

	sp = spill_new(64);
	xspill_rewind(sp);
	ck_assert_int_eq(spdw_xread(sp, &h, &ids), 0);
	spill_free(sp);
	sp = spill_new(64);
	addrec(sp, 2, 5, 0.25, a, 3);
	addrec(sp, 0, 1, 1, NULL, 0);
	addrec(sp, 1, 7, 0.5, b, 1);
	xspill_rewind(sp);
	ck_assert_int_eq(spdw_xread(sp, &h, &ids), 1);
	ck_assert_uint_eq(h.tid, 2);
	ck_assert_uint_eq(h.nf, 3);
	ck_assert_uint_eq(h.n, 5);
	ck_assert(h.w == 0.25);
	ck_assert_uint_eq(ids.cap, 3);
	ck_assert_mem_eq(ids.id, a, sizeof(a));
	ck_assert_int_eq(spdw_xread(sp, &h, &ids), 1);
	ck_assert_uint_eq(h.tid, 0);
	ck_assert_uint_eq(h.nf, 0);
	ck_assert_int_eq(spdw_xread(sp, &h, &ids), 1);
	ck_assert_uint_eq(h.nf, 1);
	ck_assert_uint_eq(ids.id[0], 9);
	/* The array only grows. */
	ck_assert_uint_eq(ids.cap, 3);
	ck_assert_int_eq(spdw_xread(sp, &h, &ids), 0);
	ck_assert_int_eq(spdw_xread(sp, &h, &ids), 0);
	spill_free(sp);
	free(ids.id);
}
END_TEST

/* A record cut off in its frame ids: status 1. */
START_TEST(test_xread_short)
{
	struct spill *sp;
	struct spdw_rec h = { 0, 2, 1, 1 };
	struct spdw_ids ids = { NULL, 0 };
	uint32_t id = 1;

	sp = spill_new(64);
	xspill_write(sp, &h, sizeof(h));
	xspill_write(sp, &id, sizeof(id));
	xspill_rewind(sp);
	spdw_xread(sp, &h, &ids);
}
END_TEST

START_TEST(test_putprofiles)
{
	static const uint32_t f[] = { 1, 0 };
	struct spdw_thread thr[2];
	size_t order[] = { 1, 0 };
	uint32_t outid[] = { 5, 7 };
	struct profs p = { NULL, thr, order, 2, outid };
	char *s;

	p.sp = spill_new(64);
	thread(&thr[0], "t0", U_SECONDS, 1);
	thread(&thr[1], "b\"", U_NONE, 0);
	addrec(p.sp, 0, 2, 0.1, f, 2);
	addrec(p.sp, 0, 1, 0.1, NULL, 0);
	thr[0].n = 3;
	thr[0].end = 0.1 + 0.1 + 0.1;
	s = tu_capture(putprofs, &p);
	ck_assert_str_eq(s,
	    "{\"type\": \"sampled\", \"name\": \"b\\\"\", \"unit\": \"none\", "
	    "\"startValue\": 0, \"endValue\": 0, \"samples\": [], "
	    "\"weights\": []}, "
	    "{\"type\": \"sampled\", \"name\": \"t0\", \"unit\": \"seconds\", "
	    "\"startValue\": 0, \"endValue\": 0.30000000000000004, "
	    "\"samples\": [[7, 5], [7, 5], []], "
	    "\"weights\": [0.1, 0.1, 0.1]}");
	free(s);
	/* No threads: nothing. */
	p.nth = 0;
	s = tu_capture(putprofs, &p);
	ck_assert_str_eq(s, "");
	free(s);
	spill_free(p.sp);
	buf_free(&thr[0].name);
	buf_free(&thr[1].name);
}
END_TEST

/* More threads than one pass over the spill writes, in reverse. */
START_TEST(test_putprofiles_many)
{
	struct spdw_thread thr[150];
	size_t order[150];
	uint32_t outid[] = { 0 }, f[] = { 0 };
	struct profs p = { NULL, thr, order, 150, outid };
	struct buf want;
	char name[16], *s;
	size_t i;

	p.sp = spill_new(64);
	buf_init(&want);
	for (i = 0; i < 150; i++) {
		snprintf(name, sizeof(name), "t%zu", i);
		thread(&thr[i], name, U_NONE, 149 - i);
		order[149 - i] = i;
		addrec(p.sp, (uint32_t)i, i % 2 + 1, (double)i, f, 1);
		thr[i].n = i % 2 + 1;
		thr[i].end = (double)(i * (i % 2 + 1));
	}
	for (i = 150; i-- > 0; ) {
		buf_printf(&want, "{\"type\": \"sampled\", \"name\": \"t%zu\", "
		    "\"unit\": \"none\", \"startValue\": 0, \"endValue\": "
		    "%zu.0, \"samples\": [[0]%s], \"weights\": [%zu.0",
		    i, i * (i % 2 + 1), i % 2 ? ", [0]" : "", i);
		if (i % 2)
			buf_printf(&want, ", %zu.0", i);
		buf_adds(&want, i > 0 ? "]}, " : "]}");
	}
	s = tu_capture(putprofs, &p);
	ck_assert_str_eq(s, want.data);
	free(s);
	for (i = 0; i < 150; i++)
		buf_free(&thr[i].name);
	buf_free(&want);
	spill_free(p.sp);
}
END_TEST

static Suite *
spdw_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("spdw");
	tc = tcase_create("core");
	tcase_add_test(tc, test_framekey);
	tcase_add_test(tc, test_locvalid);
	tcase_add_test(tc, test_addrec);
	tcase_add_test(tc, test_addrec_locs);
	tcase_add_test(tc, test_putframe);
	tcase_add_test(tc, test_xread);
	tcase_add_exit_test(tc, test_xread_short, 1);
	tcase_add_test(tc, test_putprofiles);
	tcase_add_test(tc, test_putprofiles_many);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(spdw_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
