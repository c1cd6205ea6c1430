/*
 * focusmain.h: the main of the five focus programs (sst-focus,
 * sst-hide, sst-ignore, sst-from, sst-prune), which differ only in
 * their operation, their usage line and whether they take -v.  The
 * options and the exit are the programs' policy, so this stays in
 * filters/; the work is common/reduce/focus.c's focus_run().
 */
#ifndef FOCUSMAIN_H
#define FOCUSMAIN_H

#include <err.h>
#include <stdlib.h>
#include <unistd.h>

#include "focus.h"
#include "util.h"
#include "buf.h"

/*
 * Parse the options (opts: "hl" or "hlv"), run op on the regex and the
 * files, and exit as the program does: usage(0) on a usage error.
 */
static int
focus_main(enum focus_op op, const char *opts, void (*usage)(int),
    int argc, char *argv[])
{
	/* Static: still reachable when errx(3) ends the program (no leak). */
	static struct buf err;
	int ch, flags = 0, status;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, opts)) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
			break;
		case 'l':
			flags |= FOCUS_LOC;
			break;
		case 'v':
			flags |= FOCUS_INV;
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
	if (focus_run(op, flags, argc, argv, &err, &status) == -1)
		errx(status, "%s", err.data);
	buf_free(&err);
	xfshut(stdout, "stdout");
	return 0;
}

#endif
