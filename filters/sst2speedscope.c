/*
 * sst2speedscope: write an sst(5) stream as a speedscope JSON document,
 * one sampled profile per thread, byte for byte as Python's json.dump()
 * writes it.  The document is made by common/formats/scopedoc.c: the
 * records wait in a temporary spill file, their stacks as frame ids, so
 * memory grows with distinct frames and threads only.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "rec.h"
#include "recread.h"
#include "scopedoc.h"

static void	readfile(struct scopedoc *, const char *, struct buf *);
static __dead void usage(int);

/* Read the records of one input into the document. */
static void
readfile(struct scopedoc *g, const char *path, struct buf *err)
{
	struct sst_reader *rd;
	struct sst_rec r;
	const char *name;
	unsigned long long lineno;
	int fd;

	name = path == NULL || strcmp(path, "-") == 0 ? "<stdin>" : path;
	fd = xopen(path);
	rd = rec_open(fd, path);
	for (lineno = 1; xrec_read(rd, &r); lineno++)
		if (scopedoc_add(g, &r, err) == -1)
			errx(1, "%s:%llu: %s", name, lineno, err->data);
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

static __dead void
usage(int help)
{
	xusage(help, "usage: sst2speedscope [-hSV] [-D name] [-e exporter] "
	    "[file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct scopedoc *g;
	struct buf err;
	struct scopedoc_opts o = { NULL, "sst2speedscope", 0 };
	int ch, i, vflag = 0;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "D:e:hSV")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		case 'V':
			vflag = 1;
			break;
		default:
			if (!scopedoc_opt(&o, ch, optarg))	/* D e S */
				usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	g = scopedoc_new(SCOPEDOC_MEM);
	buf_init(&err);
	if (argc == 0)
		readfile(g, NULL, &err);
	for (i = 0; i < argc; i++)
		readfile(g, argv[i], &err);
	scopedoc_write(g, &o, argc, argv);
	xfshut(stdout, "stdout");
	if (vflag)
		scopedoc_verbose(g, getprogname());
	scopedoc_free(g);
	buf_free(&err);
	return 0;
}
