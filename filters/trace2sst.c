/*
 * trace2sst: convert Chrome trace-event JSON (PyTorch profiler and
 * Kineto traces, Chrome and node traces, clang -ftime-trace) to the sst
 * stream: one record per distinct (thread, stack of spans) with the
 * spans that end there and their summed self time, or with -s one
 * record per span.  The rules are in common/trace.c and trace2sst(1).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"
#include "trace.h"

static void	convert(const char *, const struct trace_opt *, const char *);
static char	*basepart(const char *);
static __dead void usage(int);

/* The usage: for -h and --help on standard output, else an error. */
static __dead void
usage(int help)
{
	sst_usage(help, "usage: trace2sst [-AgHhKs] [-C cats] [-c cats] "
	    "[-L label] [file ...]\n");
}

/* The file name of path up to its first '.' ("-": standard input). */
static char *
basepart(const char *path)
{
	const char *b;
	char *s;

	if (strcmp(path, "-") == 0)
		return xstrdup("-");
	b = strrchr(path, '/');
	b = b != NULL ? b + 1 : path;
	s = xstrdup(b);
	if (s[0] != '\0' && strchr(s + 1, '.') != NULL)
		*strchr(s + 1, '.') = '\0';
	return s;
}

/*
 * Convert one file ("-": standard input) with thread prefix prefix and
 * say what had to be repaired in it.
 */
static void
convert(const char *path, const struct trace_opt *o, const char *prefix)
{
	struct trace_stats st;
	struct json *j;
	const char *name;
	int fd;

	memset(&st, 0, sizeof(st));
	fd = xopen(path);
	j = json_open(fd, path);
	name = json_name(j);
	trace_convert(j, o, prefix, stdout, &st);
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
	char *prefix;
	int ch, hflag = 0, i;

	sst_init();
	memset(&o, 0, sizeof(o));
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "AC:c:gHhKL:s")) != -1) {
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
	if (argc == 0)
		convert("-", &o, hflag ? "-" : label);
	for (i = 0; i < argc; i++) {
		if (label == NULL && (hflag || argc > 1)) {
			prefix = basepart(argv[i]);
			convert(argv[i], &o, prefix);
			free(prefix);
		} else
			convert(argv[i], &o, label);
	}
	fshut(stdout, "stdout");
	if (o.keep != NULL)
		ht_free(o.keep);
	if (o.drop != NULL)
		ht_free(o.drop);
	return 0;
}
