/*
 * sst-prune: cut each stack of an sst(5) stream below its deepest frame
 * matching an extended regular expression, which stays (pprof's
 * -prune_from); stacks without a match pass unchanged.
 * The work is done by common/focus.c.
 */
#include "focus.h"

int
main(int argc, char *argv[])
{
	return focus_main(FOCUS_PRUNE, argc, argv);
}
