/*
 * sst-focus: keep the records of an sst(5) stream that have a frame
 * matching an extended regular expression (pprof's -focus); -v keeps
 * those that have none.
 * The work is done by common/focus.c.
 */
#include "focus.h"

int
main(int argc, char *argv[])
{
	return focus_main(FOCUS_KEEP, argc, argv);
}
