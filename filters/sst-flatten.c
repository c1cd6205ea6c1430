/*
 * sst-flatten: convert speedscope JSON profiles (py-spy's and every
 * other exporter's) to the sst stream, one record per distinct (thread,
 * stack) or, with -s, one per sample.  The JSON is read as a token
 * stream and never held whole: memory grows with distinct frames and
 * stacks only.  gzip and zstd input is decompressed as it is read.
 * Input that is no speedscope profile (a Chrome trace, a .cpuprofile,
 * perf script text, ...) is an error that says what it looks like and
 * which program reads it.  Long runs show their progress on standard
 * error when it is a terminal (-p: always, -P: never).  -z writes the
 * compact form of the stream (sst(5)): frames once, stacks as changes.
 * -k leaf keeps only each stack's leaf frame, one record per (thread,
 * leaf): what self time needs, without the stacks.
 */
#include <err.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "progress.h"
#include "json.h"
#include "rec.h"
#include "spd.h"
#include "input.h"
#include "compact.h"

struct out {
	FILE		*fp;
	struct cpw	*cw;		/* -z: the compact writer */
	unsigned long long n;		/* records written */
};

static void	emit(const struct sst_rec *, void *);
static void	text(const char *, size_t, size_t, void *);
static void	refuse(struct json *, unsigned);
static void	flatten(const char *, int, int, struct cpw *);
static __dead void usage(int);

/* The usage line: on stdout for help (exit 0), else on stderr (2). */
static void
usage(int help)
{
	xusage(help, "usage: sst-flatten [-hPpsz] [-k key] [file ...]\n");
}

/* -z: write record r in compact form. */
static void
emit(const struct sst_rec *r, void *arg)
{
	struct out *o = arg;

	if (cpw_write(o->cw, r) == -1)
		errx(1, "%s", cpw_error(o->cw));
	o->n++;
}

/* Write n records, the len bytes of lines t. */
static void
text(const char *t, size_t len, size_t n, void *arg)
{
	struct out *o = arg;

	xfwrite(t, len, o->fp, "stdout");
	o->n += n;
}

/*
 * Exit 1 for a document of which spd_flatten() read no profile, seen
 * being what it found, saying what it looks like and what reads it.
 */
static void
refuse(struct json *j, unsigned seen)
{
	enum sniff k;
	const char *head, *says;
	char msg[256], name[1024];
	size_t n;

	head = json_head(j, &n);
	strlcpy(name, json_name(j), sizeof(name));
	k = sniff(head, n);
	if (seen & SPD_TRACE)
		k = SN_TRACE;
	else if (seen & SPD_NODES)
		k = SN_CPUPROFILE;
	else if ((seen & (SPD_META | SPD_THREADS)) ==
	    (SPD_META | SPD_THREADS) || (seen & (SPD_PROFILE | SPD_TICKS)) ==
	    (SPD_PROFILE | SPD_TICKS))
		k = SN_FIREFOX;
	else if (seen & SPD_RECORDING)
		k = SN_SAFARI;
	else if (!(seen & (SPD_NOTJSON | SPD_NOTOBJ)))
		k = SN_JSON;
	progress_hide();
	says = k != SN_SPEEDSCOPE && sniff_reader(k) != NULL ?
	    sniff_says(k, msg, sizeof(msg)) : NULL;
	if (says == NULL && seen & SPD_NOTJSON)
		xjson_fail(j, "%s", json_errmsg(j));
	if (says == NULL && seen & SPD_NOTOBJ)
		xjson_fail(j, "expected a speedscope JSON object");
	/* Stop the reader (json_close joins its thread) before exiting. */
	json_close(j);
	if (says != NULL)
		errx(1, "%s: not speedscope JSON: %s", name, says);
	errx(1, "%s: JSON without \"profiles\": not a speedscope profile",
	    name);
}

/*
 * Convert one file ("-" for standard input) with spd_flatten() flags;
 * progress as for progress_open(); records through cw unless it is NULL.
 */
static void
flatten(const char *path, int flags, int progress, struct cpw *cw)
{
	struct progress *pr;
	struct json *j;
	struct out o = { stdout, cw, 0 };
	char msg[PATH_MAX + 64];
	unsigned seen;
	int fd;

	fd = xopen(path);
	j = json_open(fd, path);
	pr = progress_open(fd, path, progress);
	json_setprogress(j, pr);
	seen = spd_flatten(j, flags | (cw != NULL ? SPD_FRAMEIDS : 0), emit,
	    text, &o, msg, sizeof(msg));
	if (seen == SPD_ERROR) {
		progress_hide();
		errx(1, "%s", msg);
	}
	/* A speedscope document may hold no profile. */
	if (o.n == 0 && !(seen & SPD_PROFILES))
		refuse(j, seen);
	progress_close(pr);
	json_close(j);
	if (fd != STDIN_FILENO)
		close(fd);
}

int
main(int argc, char *argv[])
{
	struct cpw *cw = NULL;
	int ch, flags = 0, progress = -1;

	sst_init();
	/* Its tables grow, are freed and grow again, in huge pages. */
	(void)heap_huge();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "hk:Ppsz")) != -1) {
		switch (ch) {
		case 'h':
			usage(1);
		case 'k':
			if (strcmp(optarg, "leaf") == 0)
				flags |= SPD_LEAVES;
			else if (strcmp(optarg, "stack") == 0)
				flags &= ~SPD_LEAVES;
			else
				errx(2, "-k: expected stack or leaf, got %s",
				    optarg);
			break;
		case 'P':
			progress = 0;
			break;
		case 'p':
			progress = 1;
			break;
		case 's':
			flags |= SPD_SAMPLES;
			break;
		case 'z':
			cw = cpw_new(stdout);
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		flatten("-", flags, progress, cw);
	for (; argc > 0; argc--, argv++)
		flatten(*argv, flags, progress, cw);
	cpw_free(cw);
	xfshut(stdout, "stdout");
	return 0;
}
