/*
 * trace2sst: convert Chrome trace-event JSON (PyTorch profiler and
 * Kineto traces, Chrome and node traces, clang -ftime-trace) to the sst
 * stream: one record per distinct (thread, stack of spans) with the
 * spans that end there and their summed self time, or with -s one
 * record per span.  The rules are in common/formats/trace.c,
 * common/formats/nest.c (the span-nesting engine nsys2sst shares) and
 * trace2sst(1); the labels of several files follow common/reduce/label.c's
 * rule.
 * Long runs show their progress on standard error when it is a
 * terminal (-p: always, -P: never).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "progress.h"
#include "json.h"
#include "htab.h"
#include "sort.h"
#include "label.h"
#include "trace.h"

static void	convert(const char *, const struct trace_opt *, const char *,
		    int);
static char	*basepart(const char *);
static const char *nspart(const char *, size_t *);
static int	 nscmp(size_t, size_t, void *);
static char	**labels(char **, int);
static __dead void usage(int);

static int	 nfiles, nth;	/* the files given; the one being read */

/* The usage: for -h and --help on standard output, else an error. */
static __dead void
usage(int help)
{
	xusage(help, "usage: trace2sst [-AgHhKPps] [-C cats] [-c cats] "
	    "[-L label] [file ...]\n");
}

/* The base name of path, label_base()'s, as a string. */
static char *
basepart(const char *path)
{
	struct buf b;
	char *s;

	buf_init(&b);
	label_base(&b, path);
	buf_addc(&b, '\0');
	s = xstrdup(b.data);
	buf_free(&b);
	return s;
}

/*
 * The decimal digits after the first '.' of path's file name up to the
 * next '.' (the <ns> of <host>_<pid>.<ns>.pt.trace.json), their count
 * in *n, leading zeros left out; NULL if there are none.
 */
static const char *
nspart(const char *path, size_t *n)
{
	const char *b, *e;

	b = strrchr(path, '/');
	b = b != NULL ? b + 1 : path;
	if (b[0] == '\0' || (b = strchr(b + 1, '.')) == NULL)
		return NULL;
	for (e = ++b; *e >= '0' && *e <= '9'; e++)
		;
	if (e == b || (*e != '.' && *e != '\0'))
		return NULL;
	while (*b == '0' && b + 1 < e)
		b++;
	*n = (size_t)(e - b);
	return b;
}

/* Files by base name, then <ns> numerically (none last), then order. */
static int
nscmp(size_t a, size_t b, void *arg)
{
	char **v = arg;
	const char *x, *y, *pa = v[2 * a + 1], *pb = v[2 * b + 1];
	size_t nx, ny;
	int c;

	if ((c = strcmp(v[2 * a], v[2 * b])) != 0)
		return c;
	x = nspart(pa, &nx);
	y = nspart(pb, &ny);
	if (x == NULL || y == NULL)
		return (x == NULL) - (y == NULL);
	if (nx != ny)
		return nx < ny ? -1 : 1;
	return memcmp(x, y, nx) < 0 ? -1 : memcmp(x, y, nx) > 0;
}

/*
 * The thread prefixes of the n files path: each file's base name, and
 * where files share one, the base name for the first in <ns> order and
 * base.2, base.3 and so on for the others, so that they never merge.
 */
static char **
labels(char **path, int n)
{
	char **v, **lab;
	size_t *ix, i, k, m;
	char *s;

	v = xreallocarray(NULL, 2 * (size_t)n, sizeof(*v));
	ix = xreallocarray(NULL, (size_t)n, sizeof(*ix));
	for (i = 0; i < (size_t)n; i++) {
		v[2 * i] = basepart(path[i]);
		v[2 * i + 1] = path[i];
		ix[i] = i;
	}
	sst_sort(ix, (size_t)n, nscmp, v);
	lab = xreallocarray(NULL, (size_t)n, sizeof(*lab));
	for (i = k = 0; i < (size_t)n; i++) {
		k = i > 0 && strcmp(v[2 * ix[i]], v[2 * ix[i - 1]]) == 0 ?
		    k + 1 : 1;
		if (k == 1)
			lab[ix[i]] = xstrdup(v[2 * ix[i]]);
		else {
			m = strlen(v[2 * ix[i]]) + 24;
			s = xreallocarray(NULL, m, 1);
			snprintf(s, m, "%s.%zu", v[2 * ix[i]], k);
			lab[ix[i]] = s;
		}
	}
	for (i = 0; i < (size_t)n; i++)
		free(v[2 * i]);
	free(v);
	free(ix);
	return lab;
}

/*
 * Convert one file ("-": standard input) with thread prefix prefix and
 * say what had to be repaired in it; progress as for progress_open().
 */
static void
convert(const char *path, const struct trace_opt *o, const char *prefix,
    int progress)
{
	struct trace_stats st;
	struct progress *pr;
	struct json *j;
	const char *name;
	char err[1024];
	int fd;

	memset(&st, 0, sizeof(st));
	fd = xopen(path);
	j = json_open(fd, path);
	name = json_name(j);
	pr = progress_open(fd, path, progress);
	json_setprogress(j, pr);
	if (nfiles > 1)
		progress_file(pr, (size_t)nth, (size_t)nfiles);
	if (trace_convert(j, o, prefix, stdout, &st, err, sizeof(err)) == -1) {
		fflush(stdout);
		progress_hide();
		json_close(j);		/* stops the reader's thread */
		errx(1, "%s", err);
	}
	progress_close(pr);
	if (st.clipped > 0 || st.unclosed > 0 || st.unmatched > 0)
		fflush(stdout);
	if (st.clipped > 0)
		warnx("%s: %llu span%s cut to the end of %s parent", name,
		    (unsigned long long)st.clipped, st.clipped > 1 ? "s" : "",
		    st.clipped > 1 ? "their" : "its");
	if (st.unclosed > 0)
		warnx("%s: %llu B event%s without E, ended at the thread's "
		    "last time", name, (unsigned long long)st.unclosed,
		    st.unclosed > 1 ? "s" : "");
	if (st.unmatched > 0)
		warnx("%s: %llu E event%s without B skipped", name,
		    (unsigned long long)st.unmatched,
		    st.unmatched > 1 ? "s" : "");
	json_close(j);
	if (fd != STDIN_FILENO)
		close(fd);
}

int
main(int argc, char *argv[])
{
	struct trace_opt o;
	const char *label = NULL;
	char **lab = NULL, *stdinlab;
	int ch, hflag = 0, i, progress = -1;

	sst_init();
	memset(&o, 0, sizeof(o));
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "AC:c:gHhKL:Pps")) != -1) {
		switch (ch) {
		case 'A':
			o.allthreads = 1;
			break;
		case 'C':
			if (o.drop != NULL)
				ht_free(o.drop);
			o.drop = trace_cats(optarg);
			break;
		case 'c':
			if (o.keep != NULL)
				ht_free(o.keep);
			o.keep = trace_cats(optarg);
			break;
		case 'g':
			o.gpu = 1;
			break;
		case 'H':
			hflag = 1;
			break;
		case 'h':
			usage(1);
		case 'K':
			o.rawnames = 1;
			break;
		case 'L':
			label = optarg;
			break;
		case 'P':
			progress = 0;
			break;
		case 'p':
			progress = 1;
			break;
		case 's':
			o.persample = 1;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (hflag && label != NULL)
		usage(0);
	if (argc == 0) {
		stdinlab = hflag ? basepart("-") : NULL;
		convert("-", &o, hflag ? stdinlab : label, progress);
		free(stdinlab);
	}
	if (label == NULL && (hflag || argc > 1))
		lab = labels(argv, argc);
	nfiles = argc;
	for (i = 0; i < argc; i++) {
		nth = i + 1;
		convert(argv[i], &o, lab != NULL ? lab[i] : label, progress);
		if (lab != NULL)
			free(lab[i]);
	}
	free(lab);
	xfshut(stdout, "stdout");
	if (o.keep != NULL)
		ht_free(o.keep);
	if (o.drop != NULL)
		ht_free(o.drop);
	return 0;
}
