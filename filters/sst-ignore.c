/*
 * sst-ignore: drop the records of an sst(5) stream that have a frame
 * matching an extended regular expression (pprof's -ignore); -v drops
 * those that have none.
 * The matching is common/reduce/focus.c's.
 */
#include "focusmain.h"

static __dead void usage(int);

/* The usage line: on stdout for help (exit 0), else on stderr (2). */
static void
usage(int help)
{
	xusage(help, "usage: sst-ignore [-lv] regex [file ...]\n");
}

int
main(int argc, char *argv[])
{
	return focus_main(FOCUS_DROP, "hlv", usage, argc, argv);
}
