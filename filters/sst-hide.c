/*
 * sst-hide: remove the frames matching an extended regular expression
 * from the stacks of an sst(5) stream (pprof's -hide; with -v, pprof's
 * -show); a record left with no frame is dropped.
 * The matching is common/reduce/focus.c's.
 */
#include "focusmain.h"

static __dead void usage(int);

/* The usage line: on stdout for help (exit 0), else on stderr (2). */
static void
usage(int help)
{
	xusage(help, "usage: sst-hide [-lv] regex [file ...]\n");
}

int
main(int argc, char *argv[])
{
	return focus_main(FOCUS_HIDE, "hlv", usage, argc, argv);
}
