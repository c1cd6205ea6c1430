/*
 * dside.c: the totals of one stream for a comparison (sst-diff(1)).
 * Functions are keyed by their escaped name alone, so that the same
 * function matches across two profiles whose frame tables differ; the
 * folded lines are keyed by the decoded thread and frames, as
 * flamegraph.pl and difffolded.pl read them, by their text.  (Keyed by
 * their paths in a stacktab they took 146 MB instead of 369 on the 1.3
 * GB of z200k's stream and half of it, but 2.1 times the CPU time:
 * each frame of each line interned, where a line is hashed once.)
 */
#include <math.h>
#include <stdio.h>
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
#include "kind.h"
#include "tally.h"
#include "chain.h"
#include "dside.h"

void
dside_init(struct dside *s, const char *path)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	tally_init(&s->fn);
	tally_init(&s->fold);
}

void
dside_free(struct dside *s)
{
	tally_free(&s->fn);
	tally_free(&s->fold);
	free(s->stamp);
	memset(s, 0, sizeof(*s));
}

void
dside_foldname(struct buf *b, const char *s, size_t n)
{
	size_t i, k;

	buf_grow(b, n);
	k = esc_decode(b->data + b->len, s, n);
	for (i = b->len; i < b->len + k; i++)
		if (b->data[i] == ';')
			b->data[i] = ':';
		else if (b->data[i] == '\n' || b->data[i] == '\r')
			b->data[i] = ' ';
	b->len += k;
	b->data[b->len] = '\0';
}

/* Add r to function id unless this record (recno) already did. */
static void
addfn(struct dside *s, size_t id, size_t recno, const struct sst_rec *r)
{
	size_t n;

	if (id >= s->nstamp) {
		n = s->nstamp;
		s->nstamp = id * 2 + 64;
		s->stamp = xreallocarray(s->stamp, s->nstamp,
		    sizeof(*s->stamp));
		memset(s->stamp + n, 0, (s->nstamp - n) * sizeof(*s->stamp));
	}
	if (s->stamp[id] != recno) {
		s->stamp[id] = recno;
		tally_addid(&s->fn, id, r);
	}
}

int
dside_read(struct dside *s, int incl, char *err, size_t errlen)
{
	struct sst_reader *rd;
	struct sst_rec r;
	struct frames fr;
	struct buf line;
	const char *p, *name;
	size_t i, n, recno = 0;
	int fd, ret = 0;

	name = s->path == NULL || strcmp(s->path, "-") == 0 ? "<stdin>" :
	    s->path;
	memset(&fr, 0, sizeof(fr));
	buf_init(&line);
	fd = xopen(s->path);
	rd = rec_open(fd, name);
	while (xrec_read(rd, &r)) {
		recno++;
		if (!s->hasunit) {
			s->unit = r.unit;
			s->hasunit = 1;
		} else if (r.unit != s->unit) {
			snprintf(err, errlen, "%s:%zu: unit %s, the records "
			    "before are in %s", name, recno,
			    rec_unitname(r.unit), rec_unitname(s->unit));
			ret = -1;
			break;
		}
		s->total = rec_addw(s->total, &r);
		if (r.samples == 0 || r.stacklen == 0)
			continue;
		buf_reset(&line);
		if (!s->nofold)
			dside_foldname(&line, r.thread, r.threadlen);
		frames_split(&fr, r.stack, r.stacklen);
		for (i = 0; i < fr.n; i++) {
			p = frames_span(&fr, r.stack, i, i + 1, &n);
			if (!s->nofold) {
				buf_addc(&line, ';');
				dside_foldname(&line, p, n);
			}
			if (incl || i + 1 == fr.n)
				addfn(s, tally_intern(&s->fn, p, n, NULL),
				    recno, &r);
		}
		if (!s->nofold)
			tally_add(&s->fold, line.data, line.len, &r);
	}
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
	frames_free(&fr);
	buf_free(&line);
	return ret;
}

double
dside_value(const struct tally *t, const char *k, size_t n)
{
	size_t id;

	if ((id = ht_find(t->keys, k, n)) == (size_t)-1)
		return 0;
	return t->weight[id];
}

/*
 * A side the comparison cannot use: a total that overflowed, or, for
 * the gate, no weight at all, against which every share is 0 and so
 * never grows.  0 ok, else -1 and the message in the buffer.
 */
int
dside_check(const struct dside *s, const char *path, int gating, char *msg,
    size_t msgsz)
{
	if (strcmp(path, "-") == 0)
		path = "<stdin>";
	if (!isfinite(s->total)) {
		snprintf(msg, msgsz, "%s: the total weight overflows to "
		    "infinity", path);
		return -1;
	}
	if (gating && s->total == 0) {
		snprintf(msg, msgsz, "--fail-above: %s is empty (a total "
		    "weight of 0): the gate cannot compare it", path);
		return -1;
	}
	return 0;
}

/*
 * A weight in its unit, signed if asked to; seconds below 1 with three
 * significant digits in ms, µs or ns, so that a kernel is not 0.000s.
 */
void
dside_putval(FILE *fp, double v, enum sst_unit u, int sign)
{
	char b[FMTBUF];

	if (v == 0)
		v = 0;
	if (u == U_SECONDS && v != 0 && fabs(v) < 0.9995)
		fprintf(fp, "%s%s", sign && v > 0 ? "+" : "",
		    fmt_time(b, sizeof(b), v));
	else if (u == U_SECONDS)
		fprintf(fp, sign ? "%+.3fs" : "%.3fs", v);
	else
		fprintf(fp, sign ? "%+.6g%s" : "%.6g%s", v,
		    u == U_BYTES ? " B" : "");
}

/*
 * "stack countA countB" for every stack of a, then b's new ones, b's
 * counts times scale.
 */
void
dside_putfolded(FILE *fp, const struct dside *sa, const struct dside *sb,
    double scale)
{
	const struct tally *a = &sa->fold, *b = &sb->fold;
	const char *k;
	char buf[FMTBUF];
	size_t i, len, id;
	double v;

	for (i = 0; i < tally_count(a) + tally_count(b); i++) {
		if (i < tally_count(a))
			k = ht_key(a->keys, i, &len);
		else {
			k = ht_key(b->keys, i - tally_count(a), &len);
			if (ht_find(a->keys, k, len) != (size_t)-1)
				continue;
		}
		id = ht_find(a->keys, k, len);
		fprintf(fp, "%s %llu ", k, id == (size_t)-1 ? 0ULL :
		    (unsigned long long)a->samples[id]);
		id = ht_find(b->keys, k, len);
		v = id == (size_t)-1 ? 0 : (double)b->samples[id] * scale;
		if (v == floor(v) && v < 1e19)
			fprintf(fp, "%.0f\n", v);
		else
			fprintf(fp, "%s\n", fmt_double(buf, sizeof(buf), v));
	}
}
