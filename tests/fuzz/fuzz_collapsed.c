/*
 * fuzz_collapsed: collapsed2sst, the whole program (filters/
 * collapsed2sst.c compiled with main renamed, see fuzz.h and filter.h),
 * on the input as a file.  The input's size picks one of several option
 * sets.  Bad lines are skipped with a warning, so the program must end
 * with status 0, and what it wrote must be an sst(5) stream.
 */
#include "fuzz.h"
#include <string.h>

#include "filter.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const opts[][5] = {
	{ NULL },
	{ "-s", NULL },
	{ "-u", "ns", NULL },
	{ "-s", "-u", "count", NULL },
	{ "-f", "1000000", NULL },
	{ "-L", "T;x", "-V", NULL },
	{ "-F", "lines", "-s", NULL },
	{ "-u", "none", "-s", NULL },
};
#define NOPTS	(sizeof(opts) / sizeof(opts[0]))

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *out;
	size_t len;
	int st;

	(void)fuzz_input(data, size);
	/*
	 * Status 1 only for an input with no line read, a count or weight
	 * that overflows, bad compressed data, a NUL byte or a line over
	 * SST_MAXLINE (lines.c).
	 */
	st = runopts("collapsed2sst", opts[size % NOPTS], &out, &len);
	if (st != 0 && (st != 1 ||
	    (strstr(fuzz_msg, "no folded stack read") == NULL &&
	    strstr(fuzz_msg, "passes 2^64 - 1") == NULL &&
	    strstr(fuzz_msg, "overflows to inf") == NULL &&
	    strstr(fuzz_msg, ": gzip: ") == NULL &&
	    strstr(fuzz_msg, ": zstd: ") == NULL &&
	    strstr(fuzz_msg, ": a NUL byte: ") == NULL &&
	    strstr(fuzz_msg, ": line longer than ") == NULL)))
		fuzz_bug("collapsed2sst exited %d: %s", st, fuzz_msg);
	checkstream(out, len, "collapsed2sst");
	return 0;
}
