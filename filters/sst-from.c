/*
 * sst-from: cut each stack of an sst(5) stream above its outermost frame
 * matching an extended regular expression, which stays (pprof's
 * -show_from); records without a match are dropped.
 * The matching is common/reduce/focus.c's.
 */
#include "focusmain.h"

static __dead void usage(int);

/* The usage line: on stdout for help (exit 0), else on stderr (2). */
static void
usage(int help)
{
	xusage(help, "usage: sst-from [-l] regex [file ...]\n");
}

int
main(int argc, char *argv[])
{
	return focus_main(FOCUS_FROM, "hl", usage, argc, argv);
}
