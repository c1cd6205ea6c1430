/*
 * fuzz_categories: sst-categories's reader of the categories file (the
 * whole program, filters/sst-categories.c compiled with main renamed,
 * see fuzz.h and filter.h).  The input is the file given to -c; the
 * stream is a fixed one whose leaves are named in the reference's
 * categories and in the seed files.  A bad file ends with status 1 and
 * a message naming it; a good one prints one row per category, each of
 * four TAB-separated cells.  Odd sizes add -r.
 */
#include "fuzz.h"
#include "filter.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char stream[] =
    "t\t3\t0.3\tseconds\t0.1\tmain;wait\tf.py:1::0;f.py:2::1\n"
    "t\t2\t0.2\tseconds\t0.1\tmain;<listcomp>\tf.py:1::0;g.py:3::2\n"
    "t\t1\t0.1\tseconds\t0.1\tmain;_swap\tf.py:1::0;h.py:4::3\n"
    "u\t4\t0.4\tseconds\t0.1\tmain;readinto\t\n"
    "u\t1\t1\tseconds\t1\tmain;\\e\t\n"
    "u\t2\t0.2\tseconds\t0.1\tmain;a\\x3bb;compute\t\n"
    "v\t0\t0\tseconds\t-\t\t\n";
static const char *streampath;	/* the stream, made at the first run */

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *args[MAXARGS + 1], *out, *p, *e, *nl;
	size_t len, i = 0, ntab;
	int st;

	if (streampath == NULL)
		streampath = fuzz_file(0, stream, sizeof(stream) - 1);
	(void)fuzz_input(data, size);
	args[i++] = "sst-categories";
	if (size % 2 == 1)
		args[i++] = "-r";
	args[i++] = "-c";
	args[i++] = fuzz_inpath();
	args[i++] = streampath;
	args[i] = NULL;
	st = runfilter(args, &out, &len);
	if (st == 1) {
		if (strncmp(fuzz_msg, fuzz_inpath(),
		    strlen(fuzz_inpath())) != 0)
			fuzz_bug("message does not name the file: %s",
			    fuzz_msg);
		return 0;
	}
	if (st != 0)
		fuzz_bug("sst-categories exited %d: %s", st, fuzz_msg);
	for (p = out, e = out + len; p < e; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			fuzz_bug("last row has no newline");
		for (ntab = 0; p < nl; p++)
			ntab += *p == '\t';
		if (ntab != 3)
			fuzz_bug("a row of %zu cells", ntab + 1);
	}
	return 0;
}
