/*
 * fuzz_perf2sst: perf2sst, the whole program (filters/perf2sst.c
 * compiled with main renamed, see fuzz.h and filter.h), on the input as
 * a file.  The input's size picks one of several views (-F).  It may
 * reject an input (status 1), but what it wrote must be an sst(5)
 * stream.
 */
#include "fuzz.h"
#include "filter.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const opts[][5] = {
	{ NULL },
	{ "-s", NULL },
	{ "-F", "period", NULL },
	{ "-F", "tid,kernel,period", NULL },
	{ "-F", "pid,all,addrs", "-s", NULL },
	{ "-F", "comm,jit", NULL },
	{ "-F", "ray,period", NULL },
};
#define NOPTS	(sizeof(opts) / sizeof(opts[0]))

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *out;
	size_t len;
	int st;

	(void)fuzz_input(data, size);
	st = runopts("perf2sst", opts[size % NOPTS], &out, &len);
	if (st != 0 && st != 1)
		fuzz_bug("perf2sst exited %d: %s", st, fuzz_msg);
	checkstream(out, len, "perf2sst");
	return 0;
}
