/*
 * label.c: the prefix of the threads of a file, for producers that read
 * several files into one stream (as grep -H names the file of a line):
 * a label given by -L, or the file's base name, its name without
 * directories up to its first '.', which for Ray's torch traces
 * (<host>_<pid>.<ns>.pt.trace.json) is <host>_<pid>.
 */
#include <string.h>

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
