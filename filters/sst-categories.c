/*
 * sst-categories: self time of an sst(5) stream grouped into categories
 * of functions.  The categories come from a JSON file mapping each
 * category name to a list of function names, or are the reference's
 * built-in ones.  Each leaf (name and location entry, as sst-leaf(1)
 * tells them apart) adds its exactly summed self time to the category
 * of its name, or to "Other".  Prints a TAB-separated row per category,
 * heaviest first, for sst-table(1).
 */
#include <err.h>
#include <jsmn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"

struct leaves {
	struct tally	 tally;		/* by escaped "name TAB location" */
	double		 total;		/* every sample, in stream order */
};

struct cat {
	int		 used;
	size_t		 n;		/* functions in list */
	size_t		 len6;		/* length of list with 6 of them */
	struct buf	 list;		/* escaped functions joined by ", " */
};

struct cats {
	struct htab	*names;		/* escaped category names */
	struct htab	*func;		/* escaped function names */
	size_t		*fcat;		/* by function: its category */
	int		*fseen;		/* by function: listed already */
	struct cat	*c;		/* by category; the last is "Other" */
	double		*w;		/* by category: its weight */
	size_t		*rows;		/* categories, first used first */
	size_t		 nrows;
};

static const char defcats[] = "{"
    "\"Actor state\": [\"__hash__\", \"_actor_id\", \"_get_local_state\", "
    "\"refresh_actor_state\", \"_update_running_actor_state\", "
    "\"running_actors\", \"get_actor_id\", "
    "\"max_tasks_in_flight_per_actor\"], "
    "\"HTTP/detect\": [\"readinto\", \"_make_http_get_request\", "
    "\"ray_address_to_api_server_url\", \"internal_kv_get_with_retry\", "
    "\"_initialize_internal_kv\", \"check_connected\"], "
    "\"List/set comprehensions\": [\"<listcomp>\", \"<setcomp>\", "
    "\"<dictcomp>\"], "
    "\"HeapDict\": [\"_decrease_key\", \"_swap\", \"__setitem__\", "
    "\"_build_actor_busyness_heap\"], "
    "\"Scheduling misc\": [\"wait\", \"safe_round\", "
    "\"select_operator_to_run\"]}";

static char	*slurp(const char *, size_t *);
static int	skipws(const char *, int);
static void	gap(const char *, const char *, int, int, int);
static int	jstr(struct buf *, const char *, const jsmntok_t *);
static void	pututf8(struct buf *, unsigned long);
static void	loadcats(struct cats *, const char *, size_t, const char *);
static void	categorize(struct cats *, const struct leaves *);
static void	putrows(const struct cats *, double, int);
static __dead void usage(void);

/* The whole file path, NUL-terminated; its length in *len. */
static char *
slurp(const char *path, size_t *len)
{
	struct buf b;
	ssize_t n;
	int fd;

	buf_init(&b);
	fd = xopen(path);
	do {
		buf_grow(&b, 65536);
		if ((n = read(fd, b.data + b.len, 65536)) == -1)
			err(1, "%s", path);
		b.len += (size_t)n;
	} while (n > 0);
	if (fd != STDIN_FILENO)
		close(fd);
	b.data[b.len] = '\0';
	*len = b.len;
	return b.data;
}

/* The offset of the first byte at or after i that is not white space. */
static int
skipws(const char *s, int i)
{
	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
		i++;
	return i;
}

/*
 * Check that js[from..to) is white space around the separator sep (no
 * separator if 0), which jsmn does not check.
 */
static void
gap(const char *js, const char *name, int from, int to, int sep)
{
	from = skipws(js, from);
	if ((sep != 0 && js[from++] != sep) || skipws(js, from) != to)
		errx(1, "%s: not valid JSON", name);
}

/* Append the string token t of js to b, decoded and escaped; -1 if bad. */
static int
jstr(struct buf *b, const char *js, const jsmntok_t *t)
{
	struct buf d;
	const char *s = js + t->start, *e = js + t->end;
	unsigned long cp, lo;
	char *p;

	buf_init(&d);
	for (; s < e; s++) {
		if ((unsigned char)*s < 0x20) {
			buf_free(&d);
			return -1;
		}
		if (*s != '\\') {
			buf_addc(&d, *s);
			continue;
		}
		p = strchr("b\bf\fn\nr\rt\t", *++s);
		if (*s != 'u') {
			buf_addc(&d, p != NULL ? p[1] : *s);
			continue;
		}
		cp = strtoul((char [5]){ s[1], s[2], s[3], s[4], 0 }, NULL, 16);
		s += 4;
		if (cp >= 0xd800 && cp < 0xdc00 && e - s > 6 && s[1] == '\\' &&
		    s[2] == 'u' && (lo = strtoul((char [5]){ s[3], s[4], s[5],
		    s[6], 0 }, NULL, 16)) >= 0xdc00 && lo < 0xe000) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			s += 6;
		}
		pututf8(&d, cp);
	}
	if (d.len == 0 && t->parent > 0)	/* a function, not a key */
		buf_adds(b, "\\e");
	else
		esc_add(b, d.data, d.len);
	buf_free(&d);
	return 0;
}

/* Append code point cp as UTF-8 (a lone surrogate as WTF-8). */
static void
pututf8(struct buf *b, unsigned long cp)
{
	static const unsigned char lead[] = { 0, 0, 0xc0, 0xe0, 0xf0 };
	char s[4];
	int i, n;

	n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
	for (i = n - 1; i > 0; i--, cp >>= 6)
		s[i] = (char)(0x80 | (cp & 0x3f));
	s[0] = (char)(lead[n] | cp);
	buf_add(b, s, (size_t)n);
}

/*
 * Read the categories from the JSON text js (named name in messages):
 * the last list given for a category wins but the category keeps its
 * first place, and a function listed in several categories belongs to
 * the last of them, as when the reference fills its dictionaries.
 */
static void
loadcats(struct cats *c, const char *js, size_t len, const char *name)
{
	jsmn_parser jp;
	jsmntok_t *t = NULL;
	struct buf b;
	size_t ci, fi, nc;
	int nt, i, k, m, pos, *val = NULL, isnew;

	if (len > INT_MAX)
		errx(1, "%s: file too large", name);
	jsmn_init(&jp);
	if ((nt = jsmn_parse(&jp, js, len, NULL, 0)) > 0) {
		t = xreallocarray(NULL, (size_t)nt, sizeof(*t));
		jsmn_init(&jp);
		nt = jsmn_parse(&jp, js, len, t, (unsigned)nt);
	}
	if (nt <= 0)
		errx(1, "%s: not valid JSON", name);
	if (t[0].type != JSMN_OBJECT)
		errx(1, "%s: not a JSON object", name);
	gap(js, name, 0, t[0].start, 0);
	buf_init(&b);
	pos = t[0].start + 1;
	for (k = 1, m = 0; m < t[0].size; k += 2 + t[k + 1].size, m++) {
		gap(js, name, pos, t[k].start - 1, m > 0 ? ',' : 0);
		buf_reset(&b);
		if (t[k].size != 1 || jstr(&b, js, &t[k]) == -1)
			errx(1, "%s: not valid JSON", name);
		ci = ht_intern(c->names, b.data, b.len, &isnew);
		if (isnew)
			val = xreallocarray(val, ci + 1, sizeof(*val));
		val[ci] = k + 1;
		if (t[k + 1].type != JSMN_ARRAY)
			errx(1, "%s: category %s: not a list", name, b.data);
		gap(js, name, t[k].end + 1, t[k + 1].start, ':');
		pos = t[k + 1].start + 1;
		for (i = k + 2; i < k + 2 + t[k + 1].size; i++) {
			if (t[i].type != JSMN_STRING)
				errx(1, "%s: category %s: not a list of "
				    "strings", name, b.data);
			gap(js, name, pos, t[i].start - 1, i > k + 2 ? ',' : 0);
			pos = t[i].end + 1;
		}
		gap(js, name, pos, t[k + 1].end - 1, 0);
		pos = t[k + 1].end;
	}
	gap(js, name, pos, t[0].end - 1, 0);
	gap(js, name, t[0].end, (int)len, 0);
	nc = ht_count(c->names);
	for (ci = 0; ci < nc; ci++)
		for (i = val[ci] + 1; i <= val[ci] + t[val[ci]].size; i++) {
			buf_reset(&b);
			if (jstr(&b, js, &t[i]) == -1)
				errx(1, "%s: not valid JSON", name);
			fi = ht_intern(c->func, b.data, b.len, &isnew);
			if (isnew)
				c->fcat = xreallocarray(c->fcat, fi + 1,
				    sizeof(*c->fcat));
			c->fcat[fi] = ci;
		}
	buf_free(&b);
	free(val);
	free(t);
}

/*
 * Add the self time of each leaf, in first-seen order, to the category
 * of its function.  Leaves of no category (or of a category named "",
 * which the reference takes for none) go to "Other": the extra last
 * category, unless a category of that name has been used.
 */
static void
categorize(struct cats *c, const struct leaves *lv)
{
	size_t k, fi, len, ci = 0, n = 0, nc = ht_count(c->names);
	const struct tally *t = &lv->tally;
	const char *key;
	struct cat *cp;
	double other = 0;

	c->fseen = xcalloc(ht_count(c->func) + 1, sizeof(*c->fseen));
	c->c = xcalloc(nc + 1, sizeof(*c->c));
	c->w = xcalloc(nc + 1, sizeof(*c->w));
	c->rows = xcalloc(nc + 1, sizeof(*c->rows));
	for (k = 0; k <= nc; k++)
		buf_init(&c->c[k].list);
	for (k = 0; k < tally_count(t); k++) {
		key = ht_key(t->keys, k, NULL);
		len = (size_t)(strchr(key, '\t') - key);
		if ((fi = ht_find(c->func, key, len)) != (size_t)-1)
			ht_key(c->names, ci = c->fcat[fi], &n);
		if (fi == (size_t)-1 || n == 0) {
			other += t->weight[k];
			continue;
		}
		cp = &c->c[ci];
		if (!cp->used)
			c->rows[c->nrows++] = ci;
		cp->used = 1;
		c->w[ci] += t->weight[k];
		if (c->fseen[fi])
			continue;
		c->fseen[fi] = 1;
		if (cp->n++ > 0)
			buf_adds(&cp->list, ", ");
		buf_add(&cp->list, key, len);
		if (cp->n == 6)
			cp->len6 = cp->list.len;
	}
	if (other > 0) {
		ci = ht_find(c->names, "Other", 5);
		if (ci == (size_t)-1 || !c->c[ci].used)
			c->rows[c->nrows++] = ci = nc;
		c->w[ci] = other;
		c->c[ci].n = 0;
		buf_reset(&c->c[ci].list);
	}
}

/* Print a row per category, at most 6 functions each unless raw. */
static void
putrows(const struct cats *c, double total, int raw)
{
	char pb[FMTBUF], wb[FMTBUF];
	const struct cat *cp;
	size_t i, ci, nc = ht_count(c->names);
	double pct;

	tally_sortw(c->rows, c->nrows, c->w);
	if (!raw)
		fputs("Self %\tSelf time\tCategory\tFunctions\n", stdout);
	for (i = 0; i < c->nrows; i++) {
		ci = c->rows[i];
		cp = &c->c[ci];
		pct = total != 0 ? 100 * c->w[ci] / total : 0;
		if (raw)
			printf("%s\t%s\t", fmt_double(pb, sizeof(pb), pct),
			    fmt_double(wb, sizeof(wb), c->w[ci]));
		else
			printf("%.1f%%\t%.2fs\t", pct, c->w[ci]);
		printf("%s\t", ci == nc ? "Other" : ht_key(c->names, ci, NULL));
		if (raw || cp->n <= 6)
			fwrite(cp->list.data, 1, cp->list.len, stdout);
		else {
			fwrite(cp->list.data, 1, cp->len6, stdout);
			fputs(", ...", stdout);
		}
		putchar('\n');
	}
}

static __dead void
usage(void)
{
	fprintf(stderr, "usage: sst-categories [-r] [-f catfile] [file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct cats c;
	struct leaves lv;
	const char *catfile = NULL;
	char *js;
	size_t len, k;
	int ch, i, rflag = 0;

	sst_init();
	while ((ch = getopt(argc, argv, "f:r")) != -1) {
		switch (ch) {
		case 'f':
			catfile = optarg;
			break;
		case 'r':
			rflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	memset(&c, 0, sizeof(c));
	c.names = ht_new();
	c.func = ht_new();
	if (catfile != NULL) {
		js = slurp(catfile, &len);
		loadcats(&c, js, len, catfile);
		free(js);
	} else
		loadcats(&c, defcats, sizeof(defcats) - 1, "defaults");
	memset(&lv, 0, sizeof(lv));
	tally_init(&lv.tally);
	if (argc == 0)
		tally_leaves(&lv.tally, &lv.total, NULL);
	for (i = 0; i < argc; i++)
		tally_leaves(&lv.tally, &lv.total, argv[i]);
	categorize(&c, &lv);
	putrows(&c, lv.total, rflag);
	for (k = 0; k <= ht_count(c.names); k++)
		buf_free(&c.c[k].list);
	ht_free(c.names);
	ht_free(c.func);
	tally_free(&lv.tally);
	free(c.fcat);
	free(c.fseen);
	free(c.c);
	free(c.rows);
	free(c.w);
	fshut(stdout, "stdout");
	return 0;
}
