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
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "htab.h"
#include "fmt.h"
#include "tally.h"
#include "catmap.h"

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
	struct catmap	 map;		/* categories of functions */
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

static void	categorize(struct cats *, const struct leaves *);
static void	putrows(const struct cats *, double, enum sst_unit, int);
static __dead void usage(int);

/*
 * Add the self time of each leaf, in first-seen order, to the category
 * of its function.  Leaves of no category (or of a category named "",
 * which the reference takes for none) go to "Other": the extra last
 * category, unless a category of that name has been used.
 */
static void
categorize(struct cats *c, const struct leaves *lv)
{
	size_t k, fi, len, ci = 0, n = 0, nc = ht_count(c->map.names);
	const struct tally *t = &lv->tally;
	const char *key;
	struct cat *cp;
	double other = 0;

	c->fseen = xcalloc(ht_count(c->map.func) + 1, sizeof(*c->fseen));
	c->c = xcalloc(nc + 1, sizeof(*c->c));
	c->w = xcalloc(nc + 1, sizeof(*c->w));
	c->rows = xcalloc(nc + 1, sizeof(*c->rows));
	for (k = 0; k <= nc; k++)
		buf_init(&c->c[k].list);
	for (k = 0; k < tally_count(t); k++) {
		key = ht_key(t->keys, k, NULL);
		len = (size_t)(strchr(key, '\t') - key);
		if ((fi = ht_find(c->map.func, key, len)) != (size_t)-1)
			ht_key(c->map.names, ci = c->map.fcat[fi], &n);
		if (fi == (size_t)-1 || n == 0) {
			if (isinf(other += t->weight[k]))
				errx(1, "category Other: the weight overflows "
				    "to infinity");
			continue;
		}
		cp = &c->c[ci];
		if (!cp->used)
			c->rows[c->nrows++] = ci;
		cp->used = 1;
		if (isinf(c->w[ci] += t->weight[k]))
			errx(1, "category %s: the weight overflows to infinity",
			    ht_key(c->map.names, ci, NULL));
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
		ci = ht_find(c->map.names, "Other", 5);
		if (ci == (size_t)-1 || !c->c[ci].used)
			c->rows[c->nrows++] = ci = nc;
		c->w[ci] = other;
		c->c[ci].n = 0;
		buf_reset(&c->c[ci].list);
	}
}

/* Print a row per category, at most 6 functions each unless raw. */
static void
putrows(const struct cats *c, double total, enum sst_unit u, int raw)
{
	char pb[FMTBUF], wb[FMTBUF];
	const struct cat *cp;
	size_t i, ci, nc = ht_count(c->map.names);
	double pct;

	tally_sortw(c->rows, c->nrows, c->w);
	if (!raw)
		printf("Self %%\tSelf %s\tCategory\tFunctions\n",
		    fmt_unitnoun(u));
	for (i = 0; i < c->nrows; i++) {
		ci = c->rows[i];
		cp = &c->c[ci];
		pct = total != 0 ? 100 * c->w[ci] / total : 0;
		if (raw)
			printf("%s\t%s\t", fmt_double(pb, sizeof(pb), pct),
			    fmt_double(wb, sizeof(wb), c->w[ci]));
		else
			printf("%.1f%%\t%s\t", pct,
			    fmt_weight(wb, sizeof(wb), c->w[ci], u));
		printf("%s\t", ci == nc ? "Other" :
		    ht_key(c->map.names, ci, NULL));
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
usage(int help)
{
	xusage(help,
	    "usage: sst-categories [-hr] [-c catfile] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct cats c;
	struct leaves lv;
	const char *catfile = NULL;
	struct buf err;
	char msg[8192];
	size_t k;
	int ch, i, rc, rflag = 0;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "c:hr")) != -1) {
		switch (ch) {
		case 'c':
			catfile = optarg;
			break;
		case 'h':
			usage(1);
		case 'r':
			rflag = 1;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;

	memset(&c, 0, sizeof(c));
	catmap_init(&c.map);
	if (catfile != NULL)
		rc = catmap_loadfile(&c.map, catfile, msg, sizeof(msg));
	else
		rc = catmap_load(&c.map, defcats, sizeof(defcats) - 1,
		    "defaults", msg, sizeof(msg));
	if (rc == -1)
		errx(1, "%s", msg);
	memset(&lv, 0, sizeof(lv));
	tally_init(&lv.tally);
	buf_init(&err);
	if (argc == 0 && tally_leaves(&lv.tally, &lv.total, NULL, &err) == -1)
		errx(1, "%s", err.data);
	for (i = 0; i < argc; i++)
		if (tally_leaves(&lv.tally, &lv.total, argv[i], &err) == -1)
			errx(1, "%s", err.data);
	buf_free(&err);
	categorize(&c, &lv);
	putrows(&c, lv.total, lv.tally.unit < 0 ? U_SECONDS :
	    (enum sst_unit)lv.tally.unit, rflag);
	for (k = 0; k <= ht_count(c.map.names); k++)
		buf_free(&c.c[k].list);
	catmap_free(&c.map);
	tally_free(&lv.tally);
	free(c.fseen);
	free(c.c);
	free(c.rows);
	free(c.w);
	xfshut(stdout, "stdout");
	return 0;
}
