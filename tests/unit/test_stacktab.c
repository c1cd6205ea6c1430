/*
 * test_stacktab.c: Check suite for the table of stacks of interned
 * frames (common/reduce/stacktab.c).  The hand-worked cases give each
 * stack's id and text and the frames' ids; a long stack (100,000
 * frames) and its neighbours; keys of ids and a stack.  The model
 * check interns many stacks made from a few frames (so that they share
 * prefixes, and one stack is often a prefix of the one before) and
 * holds the table to the plain model: two texts get the same id
 * exactly when they are the same bytes, and every id gives back its
 * text.
 */

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "rec.h"
#include "stacktab.h"
#include "tutil.h"

static Suite	*stacktab_suite(void);
static const char *text(struct stacktab *, uint32_t);

static struct buf tb;

/* Path id's text, valid until the next call. */
static const char *
text(struct stacktab *t, uint32_t id)
{
	buf_reset(&tb);
	stk_text(t, id, &tb);
	return tb.data;
}

START_TEST(test_paths)
{
	struct stacktab *t;
	uint32_t a, ab, abc, ax, e;
	size_t len;

	buf_init(&tb);
	t = stk_new();
	ck_assert_uint_eq(stk_intern(t, "", 0), STK_ROOT);
	ck_assert_uint_eq(stk_count(t), 1);
	abc = stk_intern(t, "a;b;c", 5);
	/* Stacks count up from 1 in first-seen order. */
	ck_assert_uint_eq(abc, 1);
	/* A prefix of the stack before, and the stack before again. */
	ab = stk_intern(t, "a;b", 3);
	ck_assert_uint_eq(ab, 2);
	ck_assert_uint_eq(stk_intern(t, "a;b;c", 5), abc);
	a = stk_intern(t, "a", 1);
	ck_assert_uint_eq(a, 3);
	ck_assert_uint_eq(stk_intern(t, "a;b", 3), ab);
	/* Frame ids in first-seen order: a 0, b 1, c 2. */
	ck_assert_str_eq(stk_name(t, 2, &len), "c");
	ck_assert_uint_eq(len, 1);
	/* "a;bx" parts from "a;b" inside a frame. */
	ax = stk_intern(t, "a;bx", 4);
	ck_assert_uint_eq(ax, 4);
	ck_assert_str_eq(text(t, ax), "a;bx");
	ck_assert_uint_eq(stk_intern(t, "a;b;c;a", 7), 5);
	ck_assert_uint_eq(stk_nframes(t), 4);	/* a b c bx */
	ck_assert_uint_eq(stk_count(t), 6);
	/* Empty frames are frames: ";" is two of them. */
	e = stk_intern(t, ";", 1);
	ck_assert_str_eq(text(t, e), ";");
	ck_assert_uint_ne(stk_intern(t, ";;", 2), e);
	ck_assert_str_eq(text(t, stk_intern(t, "a;", 2)), "a;");
	ck_assert_str_eq(text(t, STK_ROOT), "");
	ck_assert_str_eq(text(t, abc), "a;b;c");
	ck_assert_str_eq(text(t, ab), "a;b");
	ck_assert_str_eq(text(t, a), "a");
	stk_free(t);
	buf_free(&tb);
}
END_TEST

/*
 * Long stacks (100,000 frames, 200 distinct: ids past 127 take two
 * bytes), one repeated, and ones that differ in the last frame only.
 */
START_TEST(test_long)
{
	struct stacktab *t;
	struct buf b;
	uint32_t x, y, z;
	size_t i, n = 100000;

	buf_init(&tb);
	buf_init(&b);
	t = stk_new();
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_addc(&b, ';');
		buf_printf(&b, "f%zu", i % 200);
	}
	x = stk_intern(t, b.data, b.len);
	ck_assert_uint_eq(stk_nframes(t), 200);
	buf_adds(&b, ";g");
	y = stk_intern(t, b.data, b.len);
	b.len -= 2;
	buf_adds(&b, ";h");
	z = stk_intern(t, b.data, b.len);
	ck_assert_uint_eq(x, 1);
	ck_assert_uint_eq(y, 2);
	ck_assert_uint_eq(z, 3);
	ck_assert_uint_eq(stk_intern(t, b.data, b.len - 2), x);
	ck_assert_uint_eq(stk_intern(t, b.data, b.len), z);
	ck_assert_uint_eq(stk_count(t), 4);
	ck_assert_str_eq(text(t, z), b.data);
	b.len -= 2;
	b.data[b.len] = '\0';
	ck_assert_str_eq(text(t, x), b.data);
	stk_free(t);
	buf_free(&b);
	buf_free(&tb);
}
END_TEST

/*
 * Keys: a thread's and another id before the frames.  The same text
 * under other ids is another key, no text is a key of its own (after
 * a stack whose first frame is empty, which the last stack's frames
 * must not lend it), and the ids come back.
 */
START_TEST(test_prefix)
{
	struct stacktab *t;
	uint32_t p[2] = { 7, 0 }, q[2], a, b, c, d, e;

	buf_init(&tb);
	t = stk_new();
	a = stk_internp(t, p, 2, "main;f", 6);
	ck_assert_uint_eq(a, 1);
	p[1] = 1;
	b = stk_internp(t, p, 2, "main;f", 6);
	ck_assert_uint_eq(b, 2);
	p[0] = 300;
	c = stk_internp(t, p, 2, ";x", 2);
	ck_assert_uint_eq(c, 3);
	d = stk_internp(t, p, 2, "", 0);
	ck_assert_uint_eq(d, 4);
	e = stk_internp(t, p, 2, ";", 1);
	ck_assert_uint_eq(e, 5);
	ck_assert_uint_eq(stk_internp(t, p, 2, ";x", 2), c);
	ck_assert_uint_eq(stk_internp(t, p, 2, "", 0), d);
	p[0] = 7;
	p[1] = 0;
	ck_assert_uint_eq(stk_internp(t, p, 2, "main;f", 6), a);
	/* Without ids: "main;f" is another key again. */
	ck_assert_uint_eq(stk_intern(t, "main;f", 6), 6);
	ck_assert_uint_eq(stk_count(t), 7);
	buf_reset(&tb);
	stk_textp(t, b, 2, q, &tb);
	ck_assert_str_eq(tb.data, "main;f");
	ck_assert_uint_eq(q[0], 7);
	ck_assert_uint_eq(q[1], 1);
	buf_reset(&tb);
	stk_textp(t, d, 2, q, &tb);
	ck_assert_uint_eq(tb.len, 0);
	ck_assert_uint_eq(q[0], 300);
	buf_reset(&tb);
	stk_textp(t, c, 2, q, &tb);
	ck_assert_str_eq(tb.data, ";x");
	buf_reset(&tb);
	stk_textp(t, e, 2, q, &tb);
	ck_assert_str_eq(tb.data, ";");
	ck_assert_str_eq(text(t, 6), "main;f");
	stk_free(t);
	buf_free(&tb);
}
END_TEST

START_TEST(test_model)
{
	static const char *fr[] = { "main", "run", "f", "g;", "", "x:1" };
	struct stacktab *t;
	char **s;
	uint32_t *id;
	struct buf b;
	uint64_t x = 35;
	size_t i, j, k, d, n = 20000;

	buf_init(&tb);
	buf_init(&b);
	t = stk_new();
	s = xcalloc(n, sizeof(*s));
	id = xcalloc(n, sizeof(*id));
	for (i = 0; i < n; i++) {
		buf_reset(&b);
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		if (i > 0 && (x >> 60) < 6) {
			/* The one before, cut or made longer. */
			buf_adds(&b, s[i - 1]);
			b.len = (x >> 40) % (b.len + 1);
			if (x >> 63)
				buf_adds(&b, ";f");
		} else {
			d = (x >> 33) % 12;
			for (k = 0; k < d; k++) {
				if (k > 0)
					buf_addc(&b, ';');
				buf_adds(&b, fr[(x >> (k * 2 + 3)) % 6]);
			}
		}
		s[i] = xmemdup(b.data, b.len + 1);
		s[i][b.len] = '\0';
		id[i] = stk_intern(t, s[i], b.len);
	}
	for (i = 0; i < n; i++) {
		ck_assert_str_eq(text(t, id[i]), s[i]);
		for (j = i + 1; j < n && j < i + 50; j++)
			ck_assert_int_eq(id[i] == id[j],
			    strcmp(s[i], s[j]) == 0);
	}
	for (i = 0; i < n; i++)
		free(s[i]);
	free(s);
	free(id);
	stk_free(t);
	buf_free(&b);
	buf_free(&tb);
}
END_TEST

/* Pieces counted; frames zipped with their locations and back, by hand. */
START_TEST(test_zip)
{
	struct sst_rec r;
	struct buf z, l;

	ck_assert_uint_eq(stack_pieces("", 0), 1);
	ck_assert_uint_eq(stack_pieces("a;b;;c", 6), 4);
	memset(&r, 0, sizeof(r));
	r.stack = "main;f;g";
	r.stacklen = 8;
	r.locs = "m.c:1;;g.c:3";
	r.locslen = 12;
	buf_init(&z);
	buf_init(&l);
	stack_zip(&z, &r);
	ck_assert_str_eq(z.data, "main\tm.c:1;f\t;g\tg.c:3");
	stack_unzip(&z, &l);
	ck_assert_str_eq(z.data, "main;f;g");
	ck_assert_uint_eq(z.len, 8);
	ck_assert_str_eq(l.data, "m.c:1;;g.c:3");
	ck_assert_uint_eq(l.len, 12);
	buf_free(&z);
	buf_free(&l);
}
END_TEST

static Suite *
stacktab_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("stacktab");
	tc = tcase_create("core");
	tcase_add_test(tc, test_paths);
	tcase_add_test(tc, test_long);
	tcase_add_test(tc, test_prefix);
	tcase_add_test(tc, test_model);
	tcase_add_test(tc, test_zip);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run(stacktab_suite());
}
