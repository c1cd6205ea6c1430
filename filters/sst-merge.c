/*
 * sst-merge: sum aggregated sst(5) streams into one, a record per
 * distinct (thread, stack, locations) in first-seen order, so that
 * profiles of many processes or hosts become one.  Samples add up,
 * weights are summed sample by sample as rec_addw() does, and a period
 * survives when every record of the key had the same one.  A thread
 * keeps one unit.  -L LABEL (once per file) or -H (the file's base name
 * up to its first '.') puts "LABEL: " before each thread of a file.
 * Merging is associative: merging merged parts gives the one pass over
 * the whole.
 */
#include <err.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"

struct merge {
	struct htab	*keys;		/* "thread TAB stack TAB locs" */
	uint64_t	*samples;	/* by key id */
	double		*weight;
	double		*period;
	unsigned char	*hasperiod;
	enum sst_unit	*unit;
	size_t		 cap;
	struct tally	 threads;	/* by thread: its first unit */
	enum sst_unit	*tunit;
	size_t		 tcap;
	struct buf	 key;
};

static void	grow(struct merge *, size_t);
static void	add(struct merge *, const char *, const struct sst_rec *,
		    struct sst_reader *);
static void	mergefile(struct merge *, const char *, const char *);
static void	put(const struct merge *);
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
	m->unit = xreallocarray(m->unit, m->cap, sizeof(*m->unit));
}

/* Add record r of reader rd, its thread labelled. */
static void
add(struct merge *m, const char *label, const struct sst_rec *r,
    struct sst_reader *rd)
{
	size_t id, tlen;
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
		rec_fail(rd, "thread %.*s in %s, in %s before", (int)tlen, m->key.data, rec_unitname(r->unit),
		    rec_unitname(m->tunit[id]));
	buf_addc(&m->key, '\t');
	buf_add(&m->key, r->stack, r->stacklen);
	buf_addc(&m->key, '\t');
	buf_add(&m->key, r->locs, r->locslen);
	id = ht_intern(m->keys, m->key.data, m->key.len, &isnew);
	grow(m, id);
	if (isnew) {
		m->samples[id] = 0;
		m->weight[id] = 0;
		m->hasperiod[id] = r->hasperiod;
		m->period[id] = r->period;
		m->unit[id] = r->unit;
	} else if (m->hasperiod[id] &&
	    (!r->hasperiod || r->period != m->period[id]))
		m->hasperiod[id] = 0;
	if (m->samples[id] > UINT64_MAX - r->samples)
		rec_fail(rd, "the sample count overflows");
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
	while (rec_read(rd, &r))
		add(m, label, &r, rd);
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* Write the merged records in first-seen order. */
static void
put(const struct merge *m)
{
	struct sst_rec r;
	const char *k, *t1, *t2;
	size_t id, n;

	memset(&r, 0, sizeof(r));
	for (id = 0; id < ht_count(m->keys); id++) {
		k = ht_key(m->keys, id, &n);
		t1 = memchr(k, '\t', n);
		t2 = memchr(t1 + 1, '\t', n - (size_t)(t1 + 1 - k));
		r.thread = k;
		r.threadlen = (size_t)(t1 - k);
		r.stack = t1 + 1;
		r.stacklen = (size_t)(t2 - t1 - 1);
		r.locs = t2 + 1;
		r.locslen = n - (size_t)(t2 + 1 - k);
		r.samples = m->samples[id];
		r.weight = m->weight[id];
		r.unit = m->unit[id];
		r.hasperiod = m->hasperiod[id];
		r.period = m->period[id];
		rec_write(stdout, &r);
	}
}

static __dead void
usage(int help)
{
	sst_usage(help, "usage: sst-merge [-H] [-L label] [file ...]\n");
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
	m.keys = ht_new();
	tally_init(&m.threads);
	buf_init(&m.key);
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
	fshut(stdout, "stdout");
	ht_free(m.keys);
	tally_free(&m.threads);
	buf_free(&m.key);
	free(m.samples);
	free(m.weight);
	free(m.period);
	free(m.hasperiod);
	free(m.unit);
	free(m.tunit);
	free(labels);
	return 0;
}
