/*
 * sst-hide: remove the frames matching an extended regular expression
 * from the stacks of an sst(5) stream (pprof's -hide; with -v, pprof's
 * -show); a record left with no frame is dropped.
 * The work is done by common/focus.c.
 */
#include "focus.h"

int
main(int argc, char *argv[])
{
	return focus_main(FOCUS_HIDE, argc, argv);
}
