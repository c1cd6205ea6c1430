/*
 * sst-prune: cut each stack of an sst(5) stream below its deepest frame
 * matching an extended regular expression, which stays (pprof's
 * -prune_from); stacks without a match pass unchanged.
 * The matching is common/reduce/focus.c's.
 */
#include "focusmain.h"

static __dead void usage(int);

/* The usage line: on stdout for help (exit 0), else on stderr (2). */
static void
usage(int help)
{
	xusage(help, "usage: sst-prune [-l] regex [file ...]\n");
}

int
main(int argc, char *argv[])
{
	return focus_main(FOCUS_PRUNE, "hl", usage, argc, argv);
}
