/*
 * label.c: the prefix of the threads of a file, for producers that read
 * several files into one stream (as grep -H names the file of a line):
 * a label given by -L, or the file's base name, its name without
 * directories up to its first '.' (after its first character), which
 * for Ray's torch traces (<host>_<pid>.<ns>.pt.trace.json) is
 * <host>_<pid>; and the loop over a producer's files.
 */
#include <string.h>

#include "buf.h"
#include "esc.h"
#include "label.h"

void
label_base(struct buf *b, const char *path)
{
	const char *s, *e;

	if (path == NULL || strcmp(path, "-") == 0) {
		buf_adds(b, "stdin");
		return;
	}
	s = (s = strrchr(path, '/')) != NULL ? s + 1 : path;
	if (s[0] == '\0' || (e = strchr(s + 1, '.')) == NULL)
		e = s + strlen(s);
	buf_add(b, s, (size_t)(e - s));
}

void
label_prefix(struct buf *b, const char *path, const char *label, int force)
{
	struct buf raw;

	if (label != NULL)
		esc_add(b, label, strlen(label));
	else if (!force)
		return;
	else {
		buf_init(&raw);
		label_base(&raw, path);
		esc_add(b, raw.data, raw.len);
		buf_free(&raw);
	}
	buf_adds(b, ": ");
}

void
label_each(int argc, char *argv[], const char *label, int force, int s,
    struct label_run *run, void (*convert)(const char *, const char *, int,
    int, const struct label_run *))
{
	if (argc > 1)
		force = 1;
	if (argc == 0)
		convert("-", label, force, s, run);
	run->nfiles = (size_t)argc;
	for (; argc > 0; argc--, argv++) {
		run->nth++;
		convert(*argv, label, force, s, run);
	}
}
