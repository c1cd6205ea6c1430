/*
 * s2sfloor: the least work sst2speedscope -S does on a stream of one
 * thread whose frames need no escaping and carry no location, for
 * bench/run.sh's "1M" cases (issue 35): how fast that conversion could
 * be at all on this machine.  It reads the stream in pieces of 1 MiB,
 * splits each record's fields and frames, interns every frame in an
 * open addressing table (its slots prefetched a batch of records ahead,
 * a frame's name copied when it is new), keeps each record's frame ids
 * and weight, then writes the document as sst2speedscope does from one
 * output buffer: the frames, the samples, the weights in their shortest
 * text (the library's Ryu and Eisel-Lemire).  It checks nothing
 * (escapes, locations, units, threads, counts, overflow): a reader
 * must, so this is a floor, not a program.
 *
 * usage: s2sfloor name < stream > json
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "htab.h"
#include "util.h"

#define PIECE	(1 << 20)
#define BATCH	32		/* records whose lookups wait */

struct slot {
	uint64_t	 h;
	uint32_t	 id;		/* + 1; 0 is empty */
	uint32_t	 len;
	size_t		 off;		/* of the key in the arena */
};

struct wait {
	const char	*s;		/* in the piece read */
	uint32_t	 len;
	uint64_t	 h;
};

static struct slot *tab;
static size_t	 mask, nframe;
static struct slot *frames;	/* by id: a copy of its slot */
static char	*arena;
static size_t	 arenalen, arenacap;
static uint32_t	*ids, *nf;
static double	*w;
static size_t	 nid, nrec, fcap, idcap, reccap;
#define PUTS(s)	put(s, sizeof(s) - 1)
#define NWAIT	4096
static struct wait waits[NWAIT];
static size_t	 nwait;
static char	*out;
static size_t	 olen;

/* Double the table, placing its keys again. */
static void
rehash(void)
{
	struct slot *old = tab;
	size_t i, j, n = mask + 1;

	mask = n * 2 - 1;
	tab = xcalloc(mask + 1, sizeof(*tab));
	for (i = 0; i < n; i++) {
		if (old[i].id == 0)
			continue;
		for (j = old[i].h & mask; tab[j].id != 0; j = (j + 1) & mask)
			;
		tab[j] = old[i];
	}
	free(old);
}

/* The id of the key waiting w, interned. */
static uint32_t
intern(const struct wait *k)
{
	struct slot *t;
	size_t i;

	for (i = k->h & mask;; i = (i + 1) & mask) {
		t = &tab[i];
		if (t->id == 0)
			break;
		if (t->h == k->h && t->len == k->len && memcmp(arena + t->off,
		    k->s, k->len) == 0)
			return t->id - 1;
	}
	arena = xgrow(arena, &arenacap, arenalen + k->len, 1024, 1);
	memcpy(arena + arenalen, k->s, k->len);
	t->h = k->h;
	t->len = k->len;
	t->off = arenalen;
	t->id = ++nframe;
	arenalen += k->len;
	frames = xgrow(frames, &fcap, nframe, 1024, sizeof(*frames));
	frames[nframe - 1] = *t;
	if (nframe * 2 > mask)
		rehash();
	return nframe - 1;
}

/* Intern the keys waiting, in order. */
static void
drain(void)
{
	size_t i;

	ids = xgrow(ids, &idcap, nid + nwait, 1024, sizeof(*ids));
	for (i = 0; i < nwait; i++)
		ids[nid++] = intern(&waits[i]);
	nwait = 0;
}

/* One record, line[0..n) without its newline. */
static void
record(const char *line, size_t n)
{
	const char *f[7], *p = line, *e = line + n, *s, *t;
	size_t k = 0, len;
	uint32_t c = 0;

	while (k < 7 && (t = memchr(p, '\t', e - p)) != NULL) {
		f[k++] = p;
		p = t + 1;
	}
	if (k < 6)
		errx(1, "not a record");
	if (nrec == reccap) {
		w = xgrow(w, &reccap, nrec + 1, 1024, sizeof(*w));
		nf = xreallocarray(nf, reccap, sizeof(*nf));
	}
	fmt_strtod(f[2], f[3] - f[2] - 1, &w[nrec]);
	for (s = f[5], e = p - 1; s < e; s = t + 1, c++) {
		if ((t = memchr(s, ';', e - s)) == NULL)
			t = e;
		len = t - s;
		if (nwait == NWAIT)
			drain();
		waits[nwait].s = s;
		waits[nwait].len = len;
		waits[nwait].h = ht_hash(s, len);
		__builtin_prefetch(&tab[waits[nwait].h & mask]);
		nwait++;
	}
	nf[nrec++] = c;
	if (nrec % BATCH == 0)
		drain();
}

/* Append s[0..n) to the output, writing it out when full. */
static inline void
put(const char *s, size_t n)
{
	if (olen + n > PIECE) {
		if (write(STDOUT_FILENO, out, olen) != (ssize_t)olen)
			err(1, "write");
		olen = 0;
	}
	memcpy(out + olen, s, n);
	olen += n;
}

/* The document, named name. */
static void
document(const char *name)
{
	char num[FMTBUF];
	double sum = 0;
	size_t i, j, q = 0;
	uint32_t k;

	PUTS("{\"$schema\": \"https://www.speedscope.app/file-format-schema"
	    ".json\", \"shared\": {\"frames\": [");
	for (i = 0; i < nframe; i++) {
		put(i ? ", {\"name\": \"" : "{\"name\": \"", i ? 12 : 10);
		put(arena + frames[i].off, frames[i].len);
		put("\"}", 2);
	}
	for (i = 0; i < nrec; i++)
		sum += w[i];
	fmt_pyfloat(num, sizeof(num), sum);
	PUTS("]}, \"profiles\": [{\"type\": \"sampled\", \"name\": \"main\", "
	    "\"unit\": \"seconds\", \"startValue\": 0, \"endValue\": ");
	put(num, strlen(num));
	PUTS(", \"samples\": [");
	for (i = 0; i < nrec; i++) {
		put(i ? ", [" : "[", i ? 3 : 1);
		for (j = 0; j < nf[i]; j++, q++) {
			if (j)
				put(", ", 2);
			k = fmt_u64(num, ids[q]);
			put(num, k);
		}
		put("]", 1);
	}
	PUTS("], \"weights\": [");
	for (i = 0; i < nrec; i++) {
		if (i)
			put(", ", 2);
		fmt_pyfloat(num, sizeof(num), w[i]);
		put(num, strlen(num));
	}
	PUTS("]}], \"name\": \"");
	put(name, strlen(name));
	PUTS("\", \"exporter\": \"sst2speedscope\"}");
	if (write(STDOUT_FILENO, out, olen) != (ssize_t)olen)
		err(1, "write");
}

int
main(int argc, char *argv[])
{
	char *in, *nl, *p;
	size_t have = 0, cap = 2 * PIECE;
	ssize_t n;

	if (argc != 2)
		errx(2, "usage: s2sfloor name < stream > json");
	mask = (1 << 16) - 1;
	tab = xcalloc(mask + 1, sizeof(*tab));
	in = xmalloc(cap);
	out = xmalloc(PIECE);
	while ((n = read(STDIN_FILENO, in + have, cap - have)) > 0) {
		have += n;
		for (p = in; (nl = memchr(p, '\n', in + have - p)) != NULL;
		    p = nl + 1)
			record(p, nl - p);
		drain();	/* the keys waiting point into the piece */
		have -= p - in;
		memmove(in, p, have);
		if (have == cap)
			in = xgrow(in, &cap, cap + 1, PIECE, 1);
	}
	if (n == -1)
		err(1, "read");
	drain();
	document(argv[1]);
	return 0;
}
