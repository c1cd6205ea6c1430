/*
 * sst-grep-thread: keep the records of an sst(5) stream whose thread
 * name, unescaped, contains a pattern, ignoring ASCII case as the
 * reference's --thread option does.  Records pass through unchanged.
 */
#define _GNU_SOURCE
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"

struct grep {
	char		*pat;		/* lower-cased unless -s */
	size_t		 patlen;
	int		 sflag, vflag, xflag;
	struct buf	 name;
};

static void	lower(char *, size_t);
static int	match(struct grep *, const struct sst_rec *);
static void	grepfile(struct grep *, const char *);
static __dead void usage(void);

/* Fold ASCII upper case to lower case in place. */
static void
lower(char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] >= 'A' && s[i] <= 'Z')
			s[i] += 'a' - 'A';
}

/* Whether the thread of r matches, before -v. */
static int
match(struct grep *g, const struct sst_rec *r)
{
	size_t n;

	if (g->patlen == 0 && !g->xflag)
		return 1;
	buf_reset(&g->name);
	buf_grow(&g->name, r->threadlen);
	n = esc_decode(g->name.data, r->thread, r->threadlen);
	if (!g->sflag)
		lower(g->name.data, n);
	if (g->xflag)
		return n == g->patlen && memcmp(g->name.data, g->pat, n) == 0;
	return memmem(g->name.data, n, g->pat, g->patlen) != NULL;
}

/* Copy the matching records of one input to stdout. */
static void
grepfile(struct grep *g, const char *path)
{
	struct lines *l;
	struct sst_rec r;
	const char *why;
	char *line;
	size_t len;
	int fd;

	fd = xopen(path);
	l = lines_open(fd, path);
	while ((line = lines_next(l, &len)) != NULL) {
		if (rec_parse(line, len, &r, &why) == -1)
			errx(1, "%s:%llu: %s", lines_name(l), lines_lineno(l),
			    why);
		if (match(g, &r) != g->vflag) {
			fwrite(line, 1, len, stdout);
			putchar('\n');
		}
	}
	lines_close(l);
	if (fd != STDIN_FILENO)
		close(fd);
}

static __dead void
usage(void)
{
	fprintf(stderr, "usage: sst-grep-thread [-svx] pattern [file ...]\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct grep g;
	int ch, i;

	sst_init();
	memset(&g, 0, sizeof(g));
	while ((ch = getopt(argc, argv, "svx")) != -1) {
		switch (ch) {
		case 's':
			g.sflag = 1;
			break;
		case 'v':
			g.vflag = 1;
			break;
		case 'x':
			g.xflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	g.pat = argv[0];
	g.patlen = strlen(g.pat);
	if (!g.sflag)
		lower(g.pat, g.patlen);
	buf_init(&g.name);
	if (argc == 1)
		grepfile(&g, NULL);
	for (i = 1; i < argc; i++)
		grepfile(&g, argv[i]);
	buf_free(&g.name);
	fshut(stdout, "stdout");
	return 0;
}
