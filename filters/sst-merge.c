/*
 * sst-merge: sum aggregated sst(5) streams into one, a record per
 * distinct (thread, stack, locations) in first-seen order, so that
 * profiles of many processes or hosts become one.  Samples add up,
 * weights are summed sample by sample as rec_addw() does, and a period
 * survives when every record of the key had the same one.  A thread
 * keeps one unit.  -L LABEL (once per file) or -H (the file's base name
 * up to its first '.') puts "LABEL: " before each thread of a file.
 * Merging is associative: merging merged parts gives the one pass over
 * the whole.  A key is one sequence of interned ids in a stack table
 * (common/reduce/stacktab.c): its thread's, how its locations are
 * kept, then its frames'; its id is the key's, in first-seen order.
 */
#include <err.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "recread.h"
#include "htab.h"
#include "fmt.h"
#include "tally.h"
#include "stacktab.h"

struct merge {
	struct stacktab	*keys;		/* thread, LOCS, frames */
	struct stacktab	*locs;
	uint64_t	*samples;	/* by key id - 1 */
	double		*weight;
	double		*period;
	unsigned char	*hasperiod;
	size_t		 cap;
	struct tally	 threads;	/* by thread: its first unit */
	enum sst_unit	*tunit;
	size_t		 tcap;
	struct buf	 key;
	struct buf	 lkey;
};

/*
 * How a key keeps its locations, its second id: none (NOLOCS); as many
 * as frames, each frame a "frame TAB location" piece (PAIRED); else
 * LOCS + the id of their own path in m->locs.
 */
#define NOLOCS	0
#define PAIRED	1
#define LOCS	2

static void	grow(struct merge *, size_t);
static void	add(struct merge *, const char *, const struct sst_rec *,
		    struct sst_reader *);
static void	mergefile(struct merge *, const char *, const char *);
static void	put(struct merge *);
static __dead void usage(int);

/* Room for key id. */
static void
grow(struct merge *m, size_t id)
{
	if (id < m->cap)
		return;
	m->cap = xgrowcap(m->cap, id + 1, 1024);
	m->samples = xreallocarray(m->samples, m->cap, sizeof(*m->samples));
	m->weight = xreallocarray(m->weight, m->cap, sizeof(*m->weight));
	m->period = xreallocarray(m->period, m->cap, sizeof(*m->period));
	m->hasperiod = xreallocarray(m->hasperiod, m->cap, 1);
}

/* Add record r of reader rd, its thread labelled. */
static void
add(struct merge *m, const char *label, const struct sst_rec *r,
    struct sst_reader *rd)
{
	uint32_t k[2];
	size_t id, tlen, had;
	int isnew;

	buf_reset(&m->key);
	if (label != NULL) {
		esc_add(&m->key, label, strlen(label));
		buf_adds(&m->key, ": ");
	}
	buf_add(&m->key, r->thread, r->threadlen);
	tlen = m->key.len;
	id = tally_intern(&m->threads, m->key.data, tlen, &isnew);
	if (id >= m->tcap)
		m->tunit = xgrow(m->tunit, &m->tcap, id + 1, 64,
		    sizeof(*m->tunit));
	if (isnew)
		m->tunit[id] = r->unit;
	else if (m->tunit[id] != r->unit)
		xrec_fail(rd, "thread %.*s in %s, in %s before", (int)tlen,
		    m->key.data, rec_unitname(r->unit),
		    rec_unitname(m->tunit[id]));
	if (id >= UINT32_MAX)
		errx(1, "too many threads");
	k[0] = (uint32_t)id;
	had = stk_count(m->keys);
	if (r->locslen == 0) {
		k[1] = NOLOCS;
		id = stk_internp(m->keys, k, 2, r->stack, r->stacklen);
	} else if (r->stacklen > 0 && stack_pieces(r->stack, r->stacklen) ==
	    stack_pieces(r->locs, r->locslen)) {
		stack_zip(&m->key, r);
		k[1] = PAIRED;
		id = stk_internp(m->keys, k, 2, m->key.data, m->key.len);
	} else {
		k[1] = stk_intern(m->locs, r->locs, r->locslen);
		if (k[1] > UINT32_MAX - LOCS)
			errx(1, "too many locations");
		k[1] += LOCS;
		id = stk_internp(m->keys, k, 2, r->stack, r->stacklen);
	}
	id--;
	grow(m, id);
	if (stk_count(m->keys) > had) {
		m->samples[id] = 0;
		m->weight[id] = 0;
		m->hasperiod[id] = r->hasperiod;
		m->period[id] = r->period;
	} else if (m->hasperiod[id] &&
	    (!r->hasperiod || r->period != m->period[id]))
		m->hasperiod[id] = 0;
	if (m->samples[id] > UINT64_MAX - r->samples)
		xrec_fail(rd, "the sample count overflows");
	m->samples[id] += r->samples;
	m->weight[id] = rec_addw(m->weight[id], r);
}

/* Add the records of one input, their threads labelled. */
static void
mergefile(struct merge *m, const char *path, const char *label)
{
	struct sst_reader *rd;
	struct sst_rec r;
	int fd;

	fd = xopen(path);
	rd = rec_open(fd, path);
	while (xrec_read(rd, &r))
		add(m, label, &r, rd);
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* Write the merged records in first-seen order. */
static void
put(struct merge *m)
{
	struct sst_rec r;
	uint32_t k[2];
	size_t id;

	memset(&r, 0, sizeof(r));
	for (id = 0; id + 1 < stk_count(m->keys); id++) {
		buf_reset(&m->key);
		buf_reset(&m->lkey);
		stk_textp(m->keys, (uint32_t)id + 1, 2, k, &m->key);
		r.thread = ht_key(m->threads.keys, k[0], &r.threadlen);
		if (k[1] == PAIRED)
			stack_unzip(&m->key, &m->lkey);
		else if (k[1] != NOLOCS)
			stk_text(m->locs, k[1] - LOCS, &m->lkey);
		r.stack = m->key.data;
		r.stacklen = m->key.len;
		r.locs = m->lkey.data;
		r.locslen = m->lkey.len;
		r.samples = m->samples[id];
		r.weight = m->weight[id];
		r.unit = m->tunit[k[0]];
		r.hasperiod = m->hasperiod[id];
		r.period = m->period[id];
		rec_write(stdout, &r);
	}
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst-merge [-H] [-L label] [file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct merge m;
	char **labels = NULL, *base, *copy, *dot;
	size_t nlabels = 0;
	int ch, hflag = 0, i;

	sst_init();
	sst_longhelp(argc, argv, usage);
	labels = xreallocarray(NULL, (size_t)argc, sizeof(*labels));
	while ((ch = getopt(argc, argv, "HhL:")) != -1) {
		switch (ch) {
		case 'H':
			hflag = 1;
			break;
		case 'h':
			usage(1);
		case 'L':
			labels[nlabels++] = optarg;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (hflag && nlabels > 0)
		errx(2, "-H and -L do not mix");
	if (nlabels > 0 && nlabels != (size_t)(argc ? argc : 1))
		errx(2, "-L: %zu labels for %d files: give one per file",
		    nlabels, argc ? argc : 1);

	memset(&m, 0, sizeof(m));
	m.keys = stk_new();
	m.locs = stk_new();
	tally_init(&m.threads);
	buf_init(&m.key);
	buf_init(&m.lkey);
	if (argc == 0)
		mergefile(&m, NULL, nlabels ? labels[0] : hflag ? "stdin" :
		    NULL);
	for (i = 0; i < argc; i++) {
		base = copy = NULL;
		if (hflag) {
			copy = xstrdup(argv[i]);
			base = basename(copy);
			if ((dot = strchr(base, '.')) != NULL && dot > base)
				*dot = '\0';
		}
		mergefile(&m, argv[i], nlabels ? labels[i] : base);
		free(copy);
	}
	put(&m);
	xfshut(stdout, "stdout");
	stk_free(m.keys);
	stk_free(m.locs);
	tally_free(&m.threads);
	buf_free(&m.key);
	buf_free(&m.lkey);
	free(m.samples);
	free(m.weight);
	free(m.period);
	free(m.hasperiod);
	free(m.tunit);
	free(labels);
	return 0;
}
