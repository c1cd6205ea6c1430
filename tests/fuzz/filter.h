/*
 * filter.h: driving a whole filter from a harness.  The filter's C file
 * is compiled with main renamed filter_main (see fuzz.h); runfilter()
 * calls it with the given arguments (copied, as getopt and the filter
 * may write to them) and stdout captured, and returns its exit status.
 * Memory the filter did not free before returning from main is freed
 * here, as a process exit would.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rec.h"

#define MAXARGS	16

struct fmain {
	int	 argc;
	char	*argv[MAXARGS + 1];
	int	 ret;
};

int	filter_main(int, char **);

static void
callmain(void *arg)
{
	struct fmain *m = arg;

	optind = 1;
	m->ret = filter_main(m->argc, m->argv);
}

/* Run the filter on the NULL-terminated args; its stdout in *out. */
static inline int
runfilter(const char *const *args, const char **out, size_t *outlen)
{
	struct fmain m;
	int st, i;

	memset(&m, 0, sizeof(m));
	for (i = 0; args[i] != NULL && i < MAXARGS; i++)
		m.argv[i] = strdup(args[i]);
	m.argc = i;
	fuzz_capture();
	if ((st = fuzz_call(callmain, &m, 0)) == -1)
		st = m.ret;
	*out = fuzz_output(outlen);
	for (i = 0; i < m.argc; i++)
		free(m.argv[i]);
	return st;
}

/*
 * Run the filter as prog with the options of the NULL-terminated row
 * opts, then the input's path (fuzz_inpath()); as runfilter().
 */
static inline int
runopts(const char *prog, const char *const *opts, const char **out,
    size_t *outlen)
{
	const char *args[MAXARGS + 1];
	int i;

	args[0] = prog;
	for (i = 0; opts[i] != NULL && i + 2 < MAXARGS; i++)
		args[i + 1] = opts[i];
	args[++i] = fuzz_inpath();
	args[++i] = NULL;
	return runfilter(args, out, outlen);
}

/* Check that out[0..len) is an sst(5) stream; "what" names the case. */
static inline void
checkstream(const char *out, size_t len, const char *what)
{
	struct sst_rec r;
	const char *why, *e = out + len;
	char *line, *p, *nl;
	unsigned long long n = 1;

	if (len > 0 && out[len - 1] != '\n')
		fuzz_bug("%s: output does not end in a newline", what);
	line = malloc(len + 1);
	memcpy(line, out, len);
	line[len] = '\0';
	e = line + len;
	for (p = line; p < e; p = nl + 1, n++) {
		nl = memchr(p, '\n', (size_t)(e - p));
		*nl = '\0';
		if (rec_parse(p, (size_t)(nl - p), &r, &why) == -1)
			fuzz_bug("%s: output line %llu: %s: %s", what, n, why,
			    p);
	}
	free(line);
}
