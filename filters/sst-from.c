/*
 * sst-from: cut each stack of an sst(5) stream above its outermost frame
 * matching an extended regular expression, which stays (pprof's
 * -show_from); records without a match are dropped.
 * The work is done by common/focus.c.
 */
#include "focus.h"

int
main(int argc, char *argv[])
{
	return focus_main(FOCUS_FROM, argc, argv);
}
