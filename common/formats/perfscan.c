/*
 * perfscan.c: the text perf script prints, read line by line into
 * samples (perf2sst).  A sample is a header (thread, event, period),
 * frame lines leaf first, and a blank line; by Ray's perf.py's rules
 * the header is any unindented line and a sample cut off by the end of
 * the input counts, by stackcollapse-perf.pl's (-F) the header must be
 * "comm pid[/tid] ...", only the samples of the first event named are
 * kept, and a sample ends at a blank line only.  The frame lines go
 * through the frame table of common/formats/perf.c, the samples into its
 * record table.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "buf.h"
#include "esc.h"
#include "fmt.h"
#include "perf.h"
#include "perfscan.h"

#define PLWS(c)	((c) == ' ' || ((c) >= '\t' && (c) <= '\r'))
#define PYWS(c)	(PLWS(c) || ((c) >= 0x1c && (c) <= 0x1f))

struct perfscan {
	struct perf_view v;
	struct perf_frames *fr;		/* frame lines to names ids */
	struct perf_recs *recs;		/* the records so far */
	struct perfscan_counts n;	/* of the input */
	int		 hdr;		/* 0 none, 1 sample header, 2 skipped */
	int		 java;		/* the thread's name starts "java" */
	struct buf	 thread;	/* escaped */
	uint32_t	*ids;		/* the sample's names ids, leaf first */
	size_t		 nids, idcap;
	double		 w;
	enum sst_unit	 unit;
	struct buf	 filter;	/* -F: the one event kept */
	int		 hasfilter;
	struct buf	 tmp;
};

static void	setweight(struct perfscan *, const char *, size_t, double);
static int	endsample(struct perfscan *);
static void	push(struct perfscan *, uint32_t);
static int	rayline(struct perfscan *, const char *, size_t);
static int	fghead(struct perfscan *, const char *, size_t, int *);
static int	fgline(struct perfscan *, const char *, size_t);

/* Weigh the next samples by the period per of event ev (-F period). */
static void
setweight(struct perfscan *ps, const char *ev, size_t evn, double per)
{
	ps->w = perf_weight(ev, evn, ps->v.period ? per : 0, &ps->unit);
}

/*
 * A sample ends: write it (each) or add it to its record.  A sample
 * whose command perf.py reads as empty (a command with a space in it)
 * folds with its root frame first, as perf.py writes it: that frame is
 * then the thread, and the stack is the frames under it.
 */
static int
endsample(struct perfscan *ps)
{
	int r = 0;

	if (!ps->v.fg && ps->thread.len == 0 && ps->nids > 0) {
		perf_frames_stack(ps->fr, &ps->ids[ps->nids - 1], 1,
		    &ps->thread);
		ps->nids--;
	}
	if (perf_recs_add(ps->recs, ps->thread.data, ps->thread.len,
	    ps->ids, ps->nids, ps->w, ps->unit) == -1)
		r = PERFSCAN_INF;
	ps->nids = 0;
	ps->n.samples++;
	return r;
}

/* Add a frame line's names to the sample. */
static void
push(struct perfscan *ps, uint32_t id)
{
	if (ps->nids == ps->idcap)
		ps->ids = xgrow(ps->ids, &ps->idcap, ps->nids + 1, 256,
		    sizeof(*ps->ids));
	ps->ids[ps->nids++] = id;
}

/* One line by perf.py's rules (its lines lose trailing white space). */
static int
rayline(struct perfscan *ps, const char *s, size_t n)
{
	const char *t, *ev = NULL;
	size_t i, j, evn = 0;
	double per = 0;
	uint32_t id;
	int r = 0;

	while (n > 0 && PYWS((unsigned char)s[n - 1]))
		n--;
	if (n == 0) {
		if (ps->nids > 0) {
			r = endsample(ps);
			buf_reset(&ps->thread);
		}
		ps->hdr = 0;
	} else if (s[0] == ' ' || s[0] == '\t') {
		if (!ps->hdr) {
			r |= PERFSCAN_NOHEAD;
			ps->hdr = 1;
		}
		for (t = s; PYWS((unsigned char)*t); t++)
			;
		if ((id = perf_frames_id(ps->fr, t, s + n, 0)) == PERF_BADLINE)
			r |= PERFSCAN_NOSYMBOL;
		else
			push(ps, id);
	} else {
		if (perf_rayhead(s, n, &i, &j)) {
			ps->n.heads++;
			buf_reset(&ps->thread);
			esc_add(&ps->thread, s + i, j - i);
			ps->hdr = 1;
		} else if (s[0] != '#') {
			r |= PERFSCAN_BADHEAD;
			ps->hdr = 1;
		}
		if (s[0] != '#') {
			perf_event(s, n, &ev, &evn, &per);
			setweight(ps, ev, evn, per);
		}
	}
	return r;
}

/*
 * A sample header "comm pid[/tid] ..." by -F rules; 0 if not one.  Its
 * flags are added to *r.
 */
static int
fghead(struct perfscan *ps, const char *s, size_t n, int *r)
{
	struct perf_head h;
	const char *ev = NULL;
	size_t evn = 0;
	double per = 0;

	if (!perf_fghead(s, n, &h))
		return 0;
	if (perf_event(s, n, &ev, &evn, &per)) {
		if (!ps->hasfilter) {
			buf_add(&ps->filter, ev, evn);
			ps->hasfilter = 1;
		} else if (ps->filter.len != evn ||
		    memcmp(ps->filter.data, ev, evn) != 0) {
			*r |= PERFSCAN_OTHEREV;
			if (ps->hdr == 0)
				ps->hdr = 2;
			return 1;
		}
	}
	setweight(ps, ev, evn, per);
	perf_fgthread(&ps->tmp, s, &h, ps->v.id);
	buf_reset(&ps->thread);
	esc_add(&ps->thread, ps->tmp.data, ps->tmp.len);
	ps->java = strncmp(ps->tmp.data, "java", 4) == 0;
	ps->hdr = 1;
	ps->n.heads++;
	return 1;
}

/* One line by stackcollapse-perf.pl's rules. */
static int
fgline(struct perfscan *ps, const char *s, size_t n)
{
	const char *t;
	uint32_t id;
	int r = 0;

	if (n > 0 && s[n - 1] == '\r')
		n--;
	if (n > 0 && s[0] == '#')
		return 0;
	if (n == 0) {
		if (ps->hdr == 1)
			r = endsample(ps);
		ps->hdr = 0;
		return r;
	}
	if (!PLWS(s[0]) && fghead(ps, s, n, &r))
		return r;
	for (t = s; t < s + n && PLWS(*t); t++)
		;
	id = perf_frames_id(ps->fr, t, s + n, ps->java);
	if (id == PERF_BADLINE)
		r |= PERFSCAN_BADLINE;
	else if (ps->hdr != 1) {
		if (ps->hdr == 0)
			r |= PERFSCAN_NOHEAD;
		ps->hdr = 2;
	} else if (id != PERF_NOFRAME)
		push(ps, id);
	return r;
}

/* A reader by view v; each: write each sample as it ends. */
struct perfscan *
perfscan_new(const struct perf_view *v, int each)
{
	struct perfscan *ps;

	ps = xcalloc(1, sizeof(*ps));
	ps->v = *v;
	ps->fr = perf_frames_new(v->fg, v->flags);
	ps->recs = perf_recs_new(ps->fr, each);
	buf_init(&ps->thread);
	buf_init(&ps->filter);
	buf_init(&ps->tmp);
	return ps;
}

/* Start an input. */
void
perfscan_start(struct perfscan *ps)
{
	memset(&ps->n, 0, sizeof(ps->n));
	ps->hdr = 0;
	ps->nids = 0;
	buf_reset(&ps->thread);
	setweight(ps, NULL, 0, 0);
}

/* Read a line, unless it is binary data; what was wrong with it. */
int
perfscan_line(struct perfscan *ps, const char *s, size_t n)
{
	size_t i;

	if (n > 0 && s[0] != '#' && !ps->n.text)
		for (i = 0; i < n && !ps->n.text; i++)
			ps->n.text = !PYWS((unsigned char)s[i]);
	if (!PLWS(s[0]) && memchr(s, '\0', n) != NULL)
		return PERFSCAN_BINARY | (strncmp(s, "PERFILE", 7) == 0 ?
		    PERFSCAN_PERFDATA : 0);
	return ps->v.fg ? fgline(ps, s, n) : rayline(ps, s, n);
}

/* End an input; by perf.py's rules a sample cut off by it counts. */
int
perfscan_end(struct perfscan *ps)
{
	return !ps->v.fg && ps->nids > 0 ? endsample(ps) : 0;
}

/* The samples, text and headers of the input so far. */
const struct perfscan_counts *
perfscan_counts(const struct perfscan *ps)
{
	return &ps->n;
}

/* The event kept (-F), or NULL before a header names one. */
const char *
perfscan_event(const struct perfscan *ps)
{
	return ps->hasfilter ? ps->filter.data : NULL;
}

/* Write the records in first-seen order. */
void
perfscan_put(struct perfscan *ps)
{
	perf_recs_put(ps->recs);
}

/* Free the reader and all it holds. */
void
perfscan_free(struct perfscan *ps)
{
	if (ps == NULL)
		return;
	perf_recs_free(ps->recs);
	perf_frames_free(ps->fr);
	free(ps->ids);
	buf_free(&ps->thread);
	buf_free(&ps->filter);
	buf_free(&ps->tmp);
	free(ps);
}
