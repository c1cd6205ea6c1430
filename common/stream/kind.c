/*
 * kind.c: sampled or timed.  The weights of an sst(5) stream in seconds
 * are either samples of one period, as py-spy and perf take them (the
 * reference's "CPU time", in samples), or times measured one by one,
 * as the spans of a trace (trace2sst, nsys2sst) or samples that each
 * carry their own interval (cpuprofile2sst): wall-clock time, counted
 * in spans, and often far below a second.  Nothing in a record names
 * the kind, but the records of timed streams show it, and the tables
 * pick their words and units from it: see kind.h for the rule.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rec.h"
#include "fmt.h"
#include "kind.h"

void
kind_init(struct kind *k)
{
	memset(k, 0, sizeof(*k));
}

/* Note what r says: it can only make the stream timed, never undo it. */
void
kind_add(struct kind *k, const struct sst_rec *r)
{
	if (k->timed || r->samples == 0 || r->unit != U_SECONDS)
		return;
	if (!r->hasperiod || r->weight == 0) {
		k->timed = 1;
		return;
	}
	if (!r->hasstart || r->samples != 1)
		return;
	if (!k->hasw) {
		k->w = r->weight;
		k->hasw = 1;
	} else if (r->weight != k->w)
		k->timed = 1;
}

int
kind_timed(const struct kind *k, enum sst_unit u)
{
	return u == U_SECONDS && k->timed;
}

/* w seconds in s, ms, µs or ns, three significant digits. */
char *
fmt_time(char *buf, size_t sz, double w)
{
	static const char *unit[] = { "ms", "\xc2\xb5s", "ns" };
	char t[32];
	double r, x, a;
	int i;

	if (!isfinite(w)) {
		snprintf(buf, sz, "%s", isnan(w) ? "nan" : w > 0 ? "inf" :
		    "-inf");
		return buf;
	}
	if (w == 0) {
		snprintf(buf, sz, "0s");
		return buf;
	}
	/* Rounded to three digits first, so that 0.9996 is "1.00s". */
	snprintf(t, sizeof(t), "%.2e", w);
	r = strtod(t, NULL);
	if (fabs(r) >= 1) {
		snprintf(buf, sz, "%.2fs", w);
		return buf;
	}
	for (i = 0, x = r * 1e3; i < 2 && fabs(x) < 1; i++)
		x *= 1e3;
	a = fabs(x);
	snprintf(buf, sz, "%.*f%s", a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2, x,
	    unit[i]);
	return buf;
}

char *
fmt_kindw(char *buf, size_t sz, double w, enum sst_unit u, int timed)
{
	if (timed && u == U_SECONDS)
		return fmt_time(buf, sz, w);
	return fmt_weight(buf, sz, w, u);
}
