/*
 * callgraph.c: the functions and stacks of an sst(5) stream, for
 * sst-dot(1) and sst-flame(1).  A function is a frame's name and the
 * file of its location entry (frames of one function at different lines
 * are one function, as pprof's default granularity has it); each record
 * is handed on as the array of its frames' function ids, root first,
 * with its thread's id, and its thread's totals are kept.
 *
 * The reader also takes the two-count folded lines "stack countA countB"
 * of difffolded.pl (as sst-diff -F folded writes them) when the first
 * line of the first input holds no TAB: then the record's weight is
 * countB, cg.cura is countA, and the unit is none.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callgraph.h"
#include "compact.h"
#include "input.h"
#include "util.h"
#include "buf.h"
#include "lines.h"
#include "rec.h"
#include "htab.h"
#include "fmt.h"
#include "tally.h"
#include "chain.h"
#include "folded.h"

void
cg_init(struct cg *g)
{
	memset(g, 0, sizeof(*g));
	g->funcs = ht_new();
	tally_init(&g->threads);
	buf_init(&g->key);
	buf_init(&g->tmp);
	g->diff = -1;
}

void
cg_free(struct cg *g)
{
	ht_free(g->funcs);
	tally_free(&g->threads);
	frames_free(&g->fs);
	frames_free(&g->fl);
	buf_free(&g->key);
	buf_free(&g->tmp);
	free(g->ids);
}

/* The file of location entry s[0..n): all before its last three colons. */
static size_t
locfile(const char *s, size_t n)
{
	size_t k = 0;

	while (n > 0 && k < 3)
		if (s[--n] == ':')
			k++;
	return k == 3 ? n : 0;
}

/*
 * Turn r's stack into function ids in g->ids; returns their count, or
 * (size_t)-1 when the ids are used up.
 */
static size_t
funcids(struct cg *g, const struct sst_rec *r)
{
	size_t i, nl, a, b;

	frames_split(&g->fs, r->stack, r->stacklen);
	frames_split(&g->fl, r->locs, r->locslen);
	if (g->fs.n > g->idcap) {
		g->idcap = g->fs.n * 2;
		g->ids = xreallocarray(g->ids, g->idcap, sizeof(*g->ids));
	}
	for (i = 0; i < g->fs.n; i++) {
		buf_reset(&g->key);
		a = g->fs.off[i];
		b = g->fs.off[i + 1] - 1;
		buf_add(&g->key, r->stack + a, b - a);
		buf_addc(&g->key, '\t');
		if (g->fl.n == g->fs.n) {
			a = g->fl.off[i];
			nl = g->fl.off[i + 1] - 1 - a;
			buf_add(&g->key, r->locs + a, locfile(r->locs + a, nl));
		}
		g->ids[i] = (uint32_t)ht_intern(g->funcs, g->key.data,
		    g->key.len, NULL);
	}
	if (ht_count(g->funcs) >= UINT32_MAX)
		return (size_t)-1;
	return g->fs.n;
}

/*
 * Parse a two-count folded line into r (stack in g->tmp); 0 ok, -1 if
 * it is not one.
 */
static int
diffline(struct cg *g, char *line, size_t len, struct sst_rec *r)
{
	double v[2];
	size_t e = fold_rstrip(line, len), s;
	int k;

	for (k = 1; k >= 0; k--) {
		for (s = e; s > 0 && !isspace((unsigned char)line[s - 1]); s--)
			;
		if (s == 0 || s == e || fmt_strtod(line + s, e - s, &v[k]) ==
		    -1 || !isfinite(v[k]) || v[k] < 0)
			return -1;
		e = fold_rstrip(line, s);
	}
	if (e == 0)
		return -1;
	fold_stack(&g->tmp, line, e);
	memset(r, 0, sizeof(*r));
	r->thread = "";
	r->samples = 1;
	r->weight = v[1];
	r->unit = U_NONE;
	r->stack = g->tmp.data;
	r->stacklen = g->tmp.len;
	g->cura = v[0];
	return 0;
}

/*
 * Line line[0..len) into r: 0 a record, 1 none (a line of the compact
 * form's dictionary), -1 not one, with *why.  The first line tells
 * whether the input is a stream or two-count folded lines.
 */
static int
readline(struct cg *g, struct cpr **cp, char *line, size_t len,
    struct sst_rec *r, const char **why)
{
	enum cp_kind k;
	int compact;

	/* The compact form of the stream (sst(5)), read as it. */
	compact = g->diff != 1 && cp_isline(line, len);
	if (compact) {
		g->diff = 0;
		if (*cp == NULL)
			*cp = cpr_new();
		if ((k = cpr_line(*cp, line, len, r, why)) == CP_ERR)
			return -1;
		if (k == CP_DICT)
			return 1;
	} else if (g->diff == -1)
		g->diff = memchr(line, '\t', len) == NULL;
	if (g->diff && len > 0 && (*line == '{' || *line == '[')) {
		*why = "JSON, not an sst(5) stream: sst-flatten, trace2sst or "
		    "cpuprofile2sst turn it into one";
		return -1;
	}
	if (g->diff && diffline(g, line, len, r) == -1) {
		*why = "expected an sst(5) stream (7 TAB-separated fields) or "
		    "two-count folded lines \"stack countA countB\"";
		return -1;
	}
	if (!g->diff && !compact && rec_parse(line, len, r, why) == -1)
		return -1;
	return 0;
}

/*
 * Count record r (of the first unit) in its thread, *tid, and in the
 * totals: 0, 1 if it has no samples, -1 with *why if it cannot be.
 */
static int
addrec(struct cg *g, const struct sst_rec *r, uint32_t *tid,
    const char **why)
{
	if (r->weight < 0) {
		*why = "negative weight: only weights of 0 or more can be "
		    "drawn";
		return -1;
	}
	*tid = (uint32_t)tally_add(&g->threads, r->thread, r->threadlen, r);
	if (r->samples == 0)
		return 1;
	g->total += r->weight;
	g->samples += r->samples;
	if (!isfinite(g->total)) {
		*why = "the total weight overflows";
		return -1;
	}
	return 0;
}

int
cg_read(struct cg *g, const char *path, cg_emit emit, void *arg, char *msg,
    size_t mlen)
{
	struct lines *l;
	struct sst_rec r;
	struct cpr *cp = NULL;
	enum sniff sk;
	const char *why = NULL, *head;
	char *line;
	size_t len, n;
	uint32_t tid;
	int fd, k, rc = -1;

	fd = STDIN_FILENO;
	if (path != NULL && strcmp(path, "-") != 0 &&
	    (fd = open(path, O_RDONLY)) == -1) {
		snprintf(msg, mlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	l = lines_open(fd, path);
	while ((line = lines_next(l, &len)) != NULL) {
		if ((k = readline(g, &cp, line, len, &r, &why)) == -1)
			goto bad;
		if (k == 1)
			continue;
		if (!g->hasunit) {
			g->unit = r.unit;
			g->hasunit = 1;
		} else if (r.unit != g->unit) {
			snprintf(msg, mlen, "%s:%llu: unit %s after unit %s",
			    lines_name(l), lines_lineno(l),
			    rec_unitname(r.unit), rec_unitname(g->unit));
			goto out;
		}
		if ((k = addrec(g, &r, &tid, &why)) == -1)
			goto bad;
		if (k == 1)
			continue;
		if ((n = funcids(g, &r)) == (size_t)-1) {
			snprintf(msg, mlen, "too many functions");
			goto out;
		}
		emit(arg, tid, g->ids, n, &r);
	}
	if (lines_error(l) != NULL) {
		snprintf(msg, mlen, "%s", lines_error(l));
		goto out;
	}
	rc = 0;
	goto out;
bad:
	/* A first line of another format: the program that reads it. */
	head = lines_head(l, &n);
	sk = sniff(head, n);
	if (lines_lineno(l) == 1 && sk != SN_SST && sniff_reader(sk) != NULL)
		snprintf(msg, mlen, "%s:1: this looks like %s, not an sst(5) "
		    "stream: %s", lines_name(l), sniff_what(sk),
		    sniff_reader(sk));
	else
		snprintf(msg, mlen, "%s:%llu: %s", lines_name(l),
		    lines_lineno(l), why);
out:
	cpr_free(cp);
	lines_close(l);
	if (fd != STDIN_FILENO)
		close(fd);
	return rc;
}

const char *
cg_name(const struct cg *g, uint32_t id, size_t *len)
{
	const char *k, *t;

	k = ht_key(g->funcs, id, NULL);
	t = strchr(k, '\t');
	*len = (size_t)(t - k);
	return k;
}

const char *
cg_file(const struct cg *g, uint32_t id, size_t *len)
{
	const char *k, *t;
	size_t n;

	k = ht_key(g->funcs, id, &n);
	t = strchr(k, '\t') + 1;
	*len = n - (size_t)(t - k);
	return t;
}

const char *
cg_base(const char *f, size_t n, size_t *len)
{
	const char *p = f + n;

	while (p > f && p[-1] != '/')
		p--;
	*len = (size_t)(f + n - p);
	return p;
}

