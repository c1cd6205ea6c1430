/*
 * test_catmap.c: Check suite for the categories of functions read from
 * JSON (common/formats/catmap.c): categories in first-given order, the last
 * list of a category and the last category of a function winning, names
 * decoded from JSON and escaped, files read, and malformed text of
 * every kind refused with its message (the messages are catmap.c's
 * four: the text is no JSON, no object, a category's value is no list,
 * or a list holds something else than strings).
 */

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "htab.h"
#include "catmap.h"
#include "tutil.h"

static void	 load(struct catmap *, const char *);
static size_t	 cat(const struct catmap *, const char *);
static const char *name(const struct catmap *, size_t);
static Suite	*catmap_suite(void);

/* Malformed text and its message (named "test"). */
static const struct {
	const char	*js;
	const char	*msg;
} bad[] = {
	{ "", "test: not valid JSON" },
	{ "   ", "test: not valid JSON" },
	{ "[1]", "test: not a JSON object" },
	{ "\"a\"", "test: not a JSON object" },
	{ "{", "test: not valid JSON" },
	{ "{\"a\": [\"f\"],}", "test: not valid JSON" },
	{ "{\"a\": [\"f\",]}", "test: not valid JSON" },
	{ "{\"a\" [\"f\"]}", "test: not valid JSON" },
	{ "{\"a\": [\"f\" \"g\"]}", "test: not valid JSON" },
	{ "{\"a\": [\"f\"] \"b\": []}", "test: not valid JSON" },
	{ "{\"a\": [\"f\"]} x", "test: not valid JSON" },
	{ "{\"a\": [\"f\"]}{}", "test: not valid JSON" },
	{ "x{\"a\": [\"f\"]}", "test: not valid JSON" },
	{ "{\"a\": \"f\"}", "test: category a: not a list" },
	{ "{\"a\": {}}", "test: category a: not a list" },
	{ "{\"a\": [1]}", "test: category a: not a list of strings" },
	{ "{\"a\": [[\"f\"]]}", "test: category a: not a list of strings" },
	{ "{\"a\": [null]}", "test: category a: not a list of strings" },
	{ "{\"a\": [\"x\ty\"]}", "test: not valid JSON" },
	{ "{\"a\tb\": []}", "test: not valid JSON" },
	{ "{\"a\": [\"\\x\"]}", "test: not valid JSON" },
	{ "{\"a\": [\"\\u12\"]}", "test: not valid JSON" },
	{ "{1: []}", "test: not valid JSON" },
};

/* catmap_load of a string into a new map, which must succeed. */
static void
load(struct catmap *c, const char *js)
{
	char msg[256];

	catmap_init(c);
	if (catmap_load(c, js, strlen(js), "test", msg, sizeof(msg)) == -1)
		ck_abort_msg("%s", msg);
}

/* The category of function f (escaped), or (size_t)-1. */
static size_t
cat(const struct catmap *c, const char *f)
{
	size_t fi;

	if ((fi = ht_find(c->func, f, strlen(f))) == (size_t)-1)
		return fi;
	return c->fcat[fi];
}

/* The (escaped) name of category ci. */
static const char *
name(const struct catmap *c, size_t ci)
{
	return ht_key(c->names, ci, NULL);
}

START_TEST(test_load)
{
	struct catmap c;

	load(&c, "{\"A\": [\"f\", \"g\"], \"B\": [\"h\"], \"C\": []}");
	ck_assert_uint_eq(ht_count(c.names), 3);
	ck_assert_str_eq(name(&c, 0), "A");
	ck_assert_str_eq(name(&c, 1), "B");
	ck_assert_str_eq(name(&c, 2), "C");
	ck_assert_uint_eq(ht_count(c.func), 3);
	ck_assert_uint_eq(cat(&c, "f"), 0);
	ck_assert_uint_eq(cat(&c, "g"), 0);
	ck_assert_uint_eq(cat(&c, "h"), 1);
	ck_assert_uint_eq(cat(&c, "x"), (size_t)-1);
	catmap_free(&c);
	/* Blanks around every token; an empty object. */
	load(&c, " \r\n\t{ \"A\" :\n[ \"f\" ,\"g\" ] , \"B\":[ ] }\n ");
	ck_assert_uint_eq(ht_count(c.names), 2);
	ck_assert_uint_eq(cat(&c, "g"), 0);
	catmap_free(&c);
	load(&c, "{}");
	ck_assert_uint_eq(ht_count(c.names), 0);
	ck_assert_uint_eq(ht_count(c.func), 0);
	catmap_free(&c);
}
END_TEST

/* The last list of a category wins; the last category of a function. */
START_TEST(test_last)
{
	struct catmap c;
	const char *js;

	load(&c, "{\"A\": [\"f\"], \"B\": [\"g\", \"f\"], \"A\": [\"h\"]}");
	ck_assert_uint_eq(ht_count(c.names), 2);
	ck_assert_str_eq(name(&c, 0), "A");
	ck_assert_str_eq(name(&c, 1), "B");
	ck_assert_uint_eq(cat(&c, "h"), 0);
	ck_assert_uint_eq(cat(&c, "g"), 1);
	ck_assert_uint_eq(cat(&c, "f"), 1);
	/* Functions are numbered in category order. */
	ck_assert_str_eq(ht_key(c.func, 0, NULL), "h");
	ck_assert_str_eq(ht_key(c.func, 1, NULL), "g");
	catmap_free(&c);
	load(&c, "{\"A\": [\"f\", \"f\"], \"B\": [\"f\"], \"C\": [\"f\"]}");
	ck_assert_uint_eq(ht_count(c.func), 1);
	ck_assert_uint_eq(cat(&c, "f"), 2);
	catmap_free(&c);
	/* Loads add up. */
	load(&c, "{\"A\": [\"f\"]}");
	js = "{\"B\": [\"f\"], \"A\": [\"g\"]}";
	ck_assert_int_eq(catmap_load(&c, js, strlen(js), "test", NULL, 0), 0);
	ck_assert_uint_eq(ht_count(c.names), 2);
	ck_assert_uint_eq(cat(&c, "f"), 1);
	ck_assert_uint_eq(cat(&c, "g"), 0);
	catmap_free(&c);
}
END_TEST

/* JSON escapes decoded, then escaped for the stream. */
START_TEST(test_names)
{
	struct catmap c;

	load(&c, "{\"a\\tb\\\\\": [\"x\\u00e9\", \"\\ud83d\\ude00\", "
	    "\"\\ud800\", \"\", \"\\\"\\/\\b\\f\\n\\r\"], \"\": [\"s;t\"]}");
	ck_assert_str_eq(name(&c, 0), "a\\tb\\\\");
	/* An empty category name stays empty, an empty function is \e. */
	ck_assert_str_eq(name(&c, 1), "");
	ck_assert_uint_eq(cat(&c, "x\xc3\xa9"), 0);
	ck_assert_uint_eq(cat(&c, "\xf0\x9f\x98\x80"), 0);
	ck_assert_uint_eq(cat(&c, "\xed\xa0\x80"), 0);
	ck_assert_uint_eq(cat(&c, "\\e"), 0);
	ck_assert_uint_eq(cat(&c, "\"/\\x08\\x0c\\n\\r"), 0);
	ck_assert_uint_eq(cat(&c, "s\\x3bt"), 1);
	ck_assert_uint_eq(ht_count(c.func), 6);
	catmap_free(&c);
}
END_TEST

START_TEST(test_file)
{
	struct catmap c;
	char *path;

	path = tu_tmpfile("{\"A\": [\"f\"]}\n");
	catmap_init(&c);
	ck_assert_int_eq(catmap_loadfile(&c, path, NULL, 0), 0);
	unlink(path);
	free(path);
	ck_assert_uint_eq(ht_count(c.names), 1);
	ck_assert_uint_eq(cat(&c, "f"), 0);
	catmap_free(&c);
}
END_TEST

/* A file that cannot be read: its name and why. */
START_TEST(test_file_missing)
{
	struct catmap c;
	char msg[256];

	catmap_init(&c);
	ck_assert_int_eq(catmap_loadfile(&c, "/nonexistent/test_catmap.json",
	    msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "/nonexistent/test_catmap.json: No such file "
	    "or directory");
	catmap_free(&c);
	catmap_init(&c);
	ck_assert_int_eq(catmap_loadfile(&c, "/", msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "/: Is a directory");
	catmap_free(&c);
}
END_TEST

/* Malformed text: -1 and its message. */
START_TEST(test_bad)
{
	struct catmap c;
	char msg[256];

	catmap_init(&c);
	ck_assert_int_eq(catmap_load(&c, bad[_i].js, strlen(bad[_i].js),
	    "test", msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, bad[_i].msg);
	catmap_free(&c);
}
END_TEST

static Suite *
catmap_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("catmap");
	tc = tcase_create("core");
	tcase_add_test(tc, test_load);
	tcase_add_test(tc, test_last);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_file);
	tcase_add_test(tc, test_file_missing);
	tcase_add_loop_test(tc, test_bad, 0,
	    (int)(sizeof(bad) / sizeof(bad[0])));
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(catmap_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfail == 0 ? 0 : 1;
}
