/*
 * fuzz_rec: the sst(5) stream reader and writer (common/stream/rec.c), the
 * escaping (esc.c), the line reader (lines.c) and the chain rows of
 * chain.c.  For each line of the input:
 *  - rec_parse either rejects it or accepts it, and then rec_write
 *    writes it back as a line that parses to the same record;
 *  - the line escaped with esc_add is valid and decodes back to it;
 *  - chainrow_parse and the frames helpers run on it;
 *  - for a record with a period and up to 100000 samples, fmt_pysum
 *    (which skips ahead) sums exactly as that many additions do.
 * Then the whole input is read with xrec_read through a descriptor that
 * gives 1 to 16 bytes a read: it must accept exactly the lines that
 * rec_parse accepted, up to the first bad one, where it exits 1 (a
 * jump back here when fuzzing, see fuzz.h).  An input with lines of the
 * compact form (compact.c) is read whole instead: every record it
 * gives must be a text line that rec_parse accepts, and those lines,
 * written in the compact form by cpw_write and read again, must come
 * back the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "recread.h"
#include "fmt.h"
#include "chain.h"
#include "fuzz.h"
#include "compact.h"

struct readall {
	int		 fd;
	unsigned long long nrec;
	int		 compact;	/* collect the records' text lines */
	struct tbuf {			/* this file's malloc, untracked */
		char	*data;
		size_t	 len, cap;
	}		 text;
};

/* What the compact writer makes of text lines t[0..n). */
struct writeall {
	const char	*t;
	size_t		 n;
	char		*out, *want;	/* compact; rec_write's text */
	size_t		 len, wlen;
};

/* Append s[0..n) and a newline to b. */
static void
tadd(struct tbuf *b, const char *s, size_t n)
{
	while (b->len + n + 1 > b->cap) {
		b->cap = b->cap ? b->cap * 2 : 4096;
		if ((b->data = realloc(b->data, b->cap)) == NULL)
			abort();
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len++] = '\n';
}

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
same(const char *a, size_t an, const char *b, size_t bn)
{
	return an == bn && memcmp(a, b, an) == 0;
}

/* The properties of one line s[0..n), NUL-terminated; 0 if it parsed. */
static int
checkline(char *s, size_t n)
{
	struct sst_rec r, r2;
	struct chainrow cr;
	struct frames fr;
	struct buf b;
	const char *why, *p;
	char *text, *copy;
	size_t len, k;
	uint64_t i;
	double sum;
	FILE *fp;

	/* Escaping round trip, on the raw bytes. */
	buf_init(&b);
	esc_add(&b, s, n);
	if (esc_valid(b.data, b.len) == -1)
		fuzz_bug("esc_add wrote an invalid field");
	k = esc_decode(b.data, b.data, b.len);
	if (!same(b.data, k, s, n))
		fuzz_bug("esc_decode(esc_add(s)) != s");
	buf_free(&b);

	copy = malloc(n + 1);
	memcpy(copy, s, n + 1);
	if (chainrow_parse(copy, n, &cr, &why) == 0) {
		memset(&fr, 0, sizeof(fr));
		frames_split(&fr, cr.chain, cr.chainlen);
		(void)frames_find(&fr, cr.chain, "a", 1, 0);
		(void)frames_find(&fr, cr.chain, "a", 1, 1);
		(void)frames_span(&fr, cr.chain, 0, fr.n, &len);
		if (len != cr.chainlen)
			fuzz_bug("frames_span of all frames is %zu bytes, "
			    "not %zu", len, cr.chainlen);
		frames_free(&fr);
	}
	free(copy);

	if (rec_parse(s, n, &r, &why) == -1)
		return -1;
	k = rec_nframes(r.stack, r.stacklen);
	if ((k == 0) != (r.stacklen == 0))
		fuzz_bug("rec_nframes %zu of a %zu-byte stack", k, r.stacklen);
	p = rec_last(r.stack, r.stacklen, &len);
	if (p < r.stack || p + len != r.stack + r.stacklen)
		fuzz_bug("rec_last out of the field");
	if ((fp = open_memstream(&text, &len)) == NULL)
		abort();
	rec_write(fp, &r);
	if (fclose(fp) == EOF)
		abort();
	if (len == 0 || text[len - 1] != '\n')
		fuzz_bug("rec_write wrote no line");
	text[--len] = '\0';
	if (rec_parse(text, len, &r2, &why) == -1)
		fuzz_bug("rec_write wrote a bad line (%s): %s", why, text);
	if (!same(r.thread, r.threadlen, r2.thread, r2.threadlen) ||
	    !same(r.stack, r.stacklen, r2.stack, r2.stacklen) ||
	    !same(r.locs, r.locslen, r2.locs, r2.locslen) ||
	    r.samples != r2.samples || r.unit != r2.unit ||
	    r.hasperiod != r2.hasperiod || r.weight != r2.weight ||
	    (r.hasperiod && r.period != r2.period))
		fuzz_bug("rec_write changed the record: %s", text);
	free(text);
	if (r.hasperiod && r.samples <= 100000) {
		sum = r.weight;
		for (i = 0; i < r.samples; i++)
			sum += r.period;
		if (memcmp(&sum, &(double){ fmt_pysum(r.weight, r.period,
		    r.samples) }, sizeof(sum)) != 0)
			fuzz_bug("fmt_pysum(%a, %a, %llu) is not %a", r.weight,
			    r.period, (unsigned long long)r.samples, sum);
	}
	return 0;
}

static void
readall(void *arg)
{
	struct readall *ra = arg;
	struct sst_reader *rd;
	struct sst_rec r;

	const char *l, *why;
	char *copy;
	size_t n;

	rd = rec_open(ra->fd, "in");
	while (xrec_read(rd, &r)) {
		ra->nrec++;
		if (!ra->compact)
			continue;
		l = rec_line(rd, &n);
		tadd(&ra->text, l, n);
		copy = ra->text.data + ra->text.len - n - 1;
		if (rec_parse(copy, n, &r, &why) == -1)
			fuzz_bug("a record reads as a bad text line (%s)",
			    why);
		/* rec_parse changes nothing: the line stays for later. */
	}
	rec_close(rd);
}

/* Write the lines of wa compact and with rec_write (in fuzz_call). */
static void
writeall(void *arg)
{
	struct writeall *wa = arg;
	struct sst_rec r;
	struct cpw *w;
	const char *why, *t = wa->t, *e = wa->t + wa->n, *nl;
	FILE *fp, *wp;

	if ((fp = open_memstream(&wa->out, &wa->len)) == NULL ||
	    (wp = open_memstream(&wa->want, &wa->wlen)) == NULL)
		abort();
	w = cpw_new(fp);
	for (; t < e; t = nl + 1) {
		nl = memchr(t, '\n', (size_t)(e - t));
		if (rec_parse((char *)t, (size_t)(nl - t), &r, &why) == -1)
			fuzz_bug("roundtrip: %s", why);
		cpw_write(w, &r);
		rec_write(wp, &r);
	}
	cpw_free(w);
	fclose(fp);
	fclose(wp);
}

/*
 * Text lines t[0..n), each a record: written compact, they must read
 * back as the text rec_write writes for them (numbers in their
 * shortest spelling).
 */
static void
roundtrip(char *t, size_t n)
{
	struct writeall wa = { t, n, NULL, NULL, 0, 0 };
	struct readall ra;
	int st;

	if (fuzz_call(writeall, &wa, 1) != -1)
		fuzz_bug("writing the compact form failed: %s", fuzz_msg);
	memset(&ra, 0, sizeof(ra));
	ra.compact = 1;
	ra.fd = fuzz_input((const uint8_t *)wa.out, wa.len);
	st = fuzz_call(readall, &ra, 1);
	if (st != -1 || ra.text.len != wa.wlen || memcmp(ra.text.data,
	    wa.want, wa.wlen) != 0)
		fuzz_bug("the compact form of the records did not read "
		    "back the same (status %d)", st);
	free(ra.text.data);
	free(wa.out);
	free(wa.want);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct readall ra;
	unsigned long long good = 0;
	const char *s, *e, *nl;
	char *line;
	int bad = 0, st, compact = 0;

	for (s = (const char *)data, e = s + size; s < e; s = nl + 1) {
		if ((nl = memchr(s, '\n', (size_t)(e - s))) == NULL)
			nl = e;
		line = malloc((size_t)(nl - s) + 1);
		memcpy(line, s, (size_t)(nl - s));
		line[nl - s] = '\0';
		compact |= cp_isline(line, (size_t)(nl - s));
		/* lines.c refuses a line with a NUL byte: rec_read stops. */
		if (checkline(line, (size_t)(nl - s)) == 0 && !bad &&
		    memchr(line, '\0', (size_t)(nl - s)) == NULL)
			good++;
		else
			bad = 1;
		free(line);
	}
	memset(&ra, 0, sizeof(ra));
	ra.compact = compact;
	ra.fd = fuzz_input(data, size);
	fuzz_chunk = 1 + (int)(size % 16);
	st = fuzz_call(readall, &ra, 1);
	fuzz_chunk = 0;
	if (compact) {
		if (st == -1 && ra.text.len > 0)
			roundtrip(ra.text.data, ra.text.len);
		free(ra.text.data);
		return 0;
	}
	if (st != (bad ? 1 : -1) || ra.nrec != good)
		fuzz_bug("rec_read read %llu records (status %d), rec_parse "
		    "accepted %llu%s", ra.nrec, st, good,
		    bad ? " then rejected one" : "");
	return 0;
}
