/*
 * fuzz_pprof2sst: pprof2sst, the whole program (filters/pprof2sst.c
 * compiled with main renamed, see fuzz.h and filter.h), on the input as
 * a file: the profile.proto reader of common/formats/pprof.c behind it.  The
 * input's size picks the value read (-X).  It may reject an input
 * (status 1, with a message), but what it wrote must be
 * an sst(5) stream.
 */
#include <string.h>

#include "fuzz.h"
#include "filter.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const opts[][3] = {
	{ NULL },
	{ "-X", "0", NULL },
	{ "-X", "1", NULL },
	{ "-X", "samples", NULL },
};
#define NOPTS	(sizeof(opts) / sizeof(opts[0]))

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *out;
	size_t len;
	int st;

	(void)fuzz_input(data, size);
	st = runopts("pprof2sst", opts[size % NOPTS], &out, &len);
	if (st != 0 && (st != 1 ||
	    fuzz_msg[0] == '\0'))
		fuzz_bug("pprof2sst exited %d: %s", st, fuzz_msg);
	checkstream(out, len, "pprof2sst");
	return 0;
}
