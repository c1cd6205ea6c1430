/*
 * cpuprofile2sst: convert Chrome and node .cpuprofile files (the
 * DevTools protocol's Profile) to the sst stream, one record per
 * distinct stack (-s: per sample), weights in seconds (see
 * common/formats/cpuprofile.c for which time a sample gets).  A file's thread
 * is "Process PID Thread TID" when it has node's --cpu-prof name, else
 * "Profile"; -L LABEL, -H or more than one file put "LABEL: " or
 * "BASE: " before it, BASE being the file's base name (label_base() of
 * common/reduce/label.c: its name up to the first '.' after its first
 * character, "stdin" for standard input).
 * gzip and zstd input is decompressed as it is read.  Long runs show
 * their progress on standard error when it is a terminal (-p: always,
 * -P: never).
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
#include "rec.h"
#include "cpuprofile.h"
#include "input.h"
#include "label.h"

static void	emit(const struct sst_rec *, void *);
static void	convert(const char *, const char *, int, int,
		    const struct label_run *);
static __dead void refuse(struct json *, const char *);
static __dead void usage(int);

/* The usage: for -h and --help on standard output, else an error. */
static __dead void
usage(int help)
{
	xusage(help, "usage: cpuprofile2sst [-HPps] [-L label] [file ...]\n");
}

static void
emit(const struct sst_rec *r, void *arg)
{
	rec_write(arg, r);
}

/*
 * Exit 1 for input j that is no .cpuprofile, with the reader's message
 * err, or with what the input looks like when it is no JSON the reader
 * knows (perf script text, folded stacks, Firefox profiles, ...).
 */
static __dead void
refuse(struct json *j, const char *err)
{
	const char *head, *says = NULL;
	char msg[256], name[1024];
	size_t n;
	enum sniff k;

	head = json_head(j, &n);
	switch ((k = sniff(head, n))) {
	case SN_SST:
	case SN_PERF:
	case SN_PERFDATA:
	case SN_FOLDED:
	case SN_FIREFOX:
	case SN_SAFARI:
		says = sniff_says(k, msg, sizeof(msg));
		break;
	default:
		break;
	}
	strlcpy(name, json_name(j), sizeof(name));
	progress_hide();
	/* Stop the reader (json_close joins its thread) before exiting. */
	json_close(j);
	if (says != NULL)
		errx(1, "%s: not a .cpuprofile: %s", name, says);
	errx(1, "%s", err);
}

/*
 * Convert one file ("-": standard input), with a label or none;
 * progress as run says.
 */
static void
convert(const char *path, const char *label, int prefix, int persample,
    const struct label_run *run)
{
	struct progress *pr;
	struct json *j;
	struct buf thr;
	char err[512];
	int fd;

	buf_init(&thr);
	label_prefix(&thr, path, label, prefix);
	cpuprof_thread(&thr, path);
	fd = xopen(path);
	j = json_open(fd, path);
	pr = progress_open(fd, path, run->progress);
	if (run->nfiles > 1)
		progress_file(pr, run->nth, run->nfiles);
	json_setprogress(j, pr);
	if (cpuprof_read(j, thr.data, thr.len, persample, emit, stdout, err,
	    sizeof(err)) == -1)
		refuse(j, err);
	progress_close(pr);
	json_close(j);
	if (fd != STDIN_FILENO)
		close(fd);
	buf_free(&thr);
}

int
main(int argc, char *argv[])
{
	struct label_run run = { -1, 0, 0 };
	const char *label = NULL;
	int ch, force = 0, s = 0;

	sst_init();
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "HhL:Pps")) != -1) {
		switch (ch) {
		case 'H':
			force = 1;
			break;
		case 'h':
			usage(1);
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
			s = 1;
			break;
		default:
			usage(0);
		}
	}
	label_each(argc - optind, argv + optind, label, force, s, &run,
	    convert);
	xfshut(stdout, "stdout");
	return 0;
}
