/*
 * sst-prune: cut each stack of an sst(5) stream below its deepest frame
 * matching an extended regular expression, which stays (pprof's
 * -prune_from); stacks without a match pass unchanged.
 * The matching is common/reduce/focus.c's.
 */
#include <err.h>
#include <stdlib.h>
#include <unistd.h>

#include "focus.h"
#include "util.h"
#include "buf.h"

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
	/* Static: still reachable when errx(3) ends the program (no leak). */
	static struct buf err;
	int ch, flags = 0, status;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "hl")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		case 'l':
			flags |= FOCUS_LOC;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage(0);
	buf_init(&err);
	if (focus_run(FOCUS_PRUNE, flags, argc, argv, &err, &status) == -1)
		errx(status, "%s", err.data);
	buf_free(&err);
	xfshut(stdout, "stdout");
	return 0;
}
