/*
 * label.c: the prefix of the threads of a file, for producers that read
 * several files into one stream (as grep -H names the file of a line):
 * a label given by -L, or the file's base name, its name without
 * directories up to its first '.', which for Ray's torch traces
 * (<host>_<pid>.<ns>.pt.trace.json) is <host>_<pid>.
 */
#include <string.h>
#include <unistd.h>

#include "sst.h"
#include "label.h"

void
label_prefix(struct buf *b, const char *path, const char *label, int force)
{
	const char *s, *e;

	if (label != NULL)
		esc_add(b, label, strlen(label));
	else if (!force)
		return;
	else if (path == NULL || strcmp(path, "-") == 0)
		buf_adds(b, "stdin");
	else {
		s = (s = strrchr(path, '/')) != NULL ? s + 1 : path;
		if ((e = strchr(s, '.')) == NULL)
			e = s + strlen(s);
		esc_add(b, s, (size_t)(e - s));
	}
	buf_adds(b, ": ");
}

int
label_main(int argc, char *argv[], void (*usage)(int),
    void (*convert)(const char *, const char *, int, int,
    const struct label_run *), int sflag)
{
	struct label_run run = { -1, 0, 0 };
	const char *label = NULL;
	int ch, force = 0, s = 0;

	for (ch = 1; ch < argc && strcmp(argv[ch], "--") != 0; ch++)
		if (strcmp(argv[ch], "--help") == 0)
			usage(1);
	while ((ch = getopt(argc, argv, "HhL:Pps")) != -1) {
		switch (ch) {
		case 'H':
			force = 1;
			break;
		case 'h':
			usage(1);
			break;
		case 'L':
			label = optarg;
			break;
		case 'P':
			run.progress = 0;
			break;
		case 'p':
			run.progress = 1;
			break;
		case 's':
			s = sflag;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		force = 1;
	if (argc == 0)
		convert("-", label, force, s, &run);
	run.nfiles = (size_t)argc;
	for (; argc > 0; argc--, argv++) {
		run.nth++;
		convert(*argv, label, force, s, &run);
	}
	xfshut(stdout, "stdout");
	return 0;
}
