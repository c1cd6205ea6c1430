/*
 * fuzz.h: what the libFuzzer harnesses of tests/fuzz share (fuzz.c).
 *
 * libsst and the filters are compiled for fuzzing with these names
 * replaced (FUZZDEFS in the Makefile), so that one process can run
 * millions of inputs, bad ones included:
 *
 *  - exit, err, errx, warn and warnx become fuzz_*: an error no longer
 *    ends the process (libFuzzer would take that for a crash) but jumps
 *    back to fuzz_call() with longjmp(3), its message in fuzz_msg;
 *  - malloc, calloc, realloc, reallocarray, strdup and free become
 *    fuzz_*: the live blocks are tracked, so that those abandoned by an
 *    error are freed when it unwinds (a process would have ended), while
 *    a library call that returns normally must leave none behind;
 *  - read becomes fuzz_read: at most fuzz_chunk bytes a call (0: no
 *    limit), so that tokens and lines straddle the buffer refills;
 *  - fopen, fdopen and fclose become fuzz_*: the streams left open, and
 *    any new descriptor, are closed after each call, as an exit would;
 *  - in a filter, main becomes filter_main and sst_init fuzz_sst_init
 *    (which leaves stdout's buffer alone).
 *
 * The harness's own code and fuzz.c use the real functions.  Standard
 * error of the code under test goes to /dev/null (set FUZZ_VERBOSE=1 to
 * see it); the harness reports a broken property with fuzz_bug(), which
 * prints to the real standard error and aborts.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>

extern int	 fuzz_chunk;
extern char	 fuzz_msg[512];

/* Set up: fuzz.c's LLVMFuzzerInitialize() calls it for every harness. */
int	 LLVMFuzzerInitialize(int *, char ***);
void	 fuzz_init(void);
/*
 * Run fn(arg).  Returns -1 when it returned, else the status it tried
 * to exit with.  Blocks left by an exit are freed; blocks left by a
 * normal return are a bug when strict (a leak), else freed too.
 */
int	 fuzz_call(void (*)(void *), void *, int);
/* A file descriptor reading data (a memfd; rewound, size bytes). */
int	 fuzz_input(const uint8_t *, size_t);
/* A path naming that same input, for programs that open(2) a file. */
const char *fuzz_inpath(void);
/* Make a second input file holding data; returns its path. */
const char *fuzz_file(int, const void *, size_t);
/* Send stdout to a memfd; fuzz_output() returns what was written since. */
void	 fuzz_capture(void);
const char *fuzz_output(size_t *);
/* Report a broken property and abort. */
void	 fuzz_bug(const char *, ...)
	    __attribute__((__noreturn__, __format__(__printf__, 1, 2)));

#endif
