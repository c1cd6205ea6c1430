/*
 * sst-gpu: the GPU analyses of HolisticTraceAnalysis (HTA) over
 * Chrome/Kineto trace JSON, a table (TSV, HTA's column names) per -F
 * view, one after another in one pass: temporal, kernel-types, kernels,
 * idle, overlap, launch, queue, annotations, cpu-annotations.  Each file
 * is a rank, named by its distributedInfo.rank, else by -L or (-H) its
 * base name.  --hta keeps HTA's defaults: trimmed to the ProfilerStep
 * range without the last step, times rounded to whole microseconds; -b
 * trims to a range of steps instead.  The rules are in common/gpu.c,
 * common/gpustat.c and sst-gpu(1).
 */
#include <err.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sst.h"
#include "gpu.h"

static __dead void usage(int);

/* The usage: for -h and --help on standard output, else an error. */
static __dead void
usage(int help)
{
	sst_usage(help, "usage: sst-gpu [--hta] [-hPp] [-H | -L label] "
	    "[-b steps] -F view ... [file ...]\n");
}

/* The file name of path up to its first '.' ("-": stdin). */
static char *
basepart(const char *path)
{
	const char *b;
	char *s;

	if (strcmp(path, "-") == 0)
		return xstrdup("stdin");
	b = strrchr(path, '/');
	b = b != NULL ? b + 1 : path;
	s = xstrdup(b);
	if (s[0] != '\0' && strchr(s + 1, '.') != NULL)
		*strchr(s + 1, '.') = '\0';
	return s;
}

/*
 * The rank names so far (seen): a name given before gets ".2", ".3" and
 * so on, so that two files never merge into one rank.
 */
static char *
unique(char ***seen, size_t *n, const char *name)
{
	size_t i, k = 1, m = strlen(name) + 24;
	char *s = xreallocarray(NULL, m, 1);

	snprintf(s, m, "%s", name);
	for (;;) {
		for (i = 0; i < *n; i++)
			if (strcmp((*seen)[i], s) == 0)
				break;
		if (i == *n)
			break;
		snprintf(s, m, "%s.%zu", name, ++k);
	}
	*seen = xreallocarray(*seen, *n + 1, sizeof(**seen));
	(*seen)[(*n)++] = xstrdup(s);
	return s;
}

/* Exit 1 with r's error, at j's place when it is about one. */
static __dead void
fail(struct grank *r, struct json *j)
{
	const char *msg;
	int loc;

	msg = gpu_errmsg(r, &loc);
	if (loc)
		json_fail(j, "%s", msg);
	fflush(stdout);
	progress_hide();
	errx(1, "%s", msg);
}

/*
 * Read file i of n ("-": stdin) as a rank and add it to the tables;
 * progress as for progress_open().
 */
static void
onefile(const char *path, size_t i, size_t n, const struct gpu_opt *o,
    const char *label, struct gstat *g, char ***seen, size_t *nseen,
    int progress)
{
	struct progress *pr;
	struct grank r;
	struct json *j;
	char *name;
	int fd;

	fd = xopen(path);
	j = json_open(fd, path);
	pr = progress_open(fd, path, progress);
	json_setprogress(j, pr);
	if (n > 1)
		progress_file(pr, i, n);
	if (gpu_read(&r, j, o, label) == -1)
		fail(&r, j);
	progress_close(pr);
	name = unique(seen, nseen, r.label);
	free(r.label);
	r.label = name;
	if (gpu_trim(&r, o) == -1)
		fail(&r, j);
	gstat_rank(g, &r);
	gpu_free(&r);
	json_close(j);
	if (fd != STDIN_FILENO)
		close(fd);
}

/* -b first[:last]: the ProfilerStep numbers into o. */
static void
steps(struct gpu_opt *o, char *arg)
{
	const char *errstr;
	char *c;

	if ((c = strchr(arg, ':')) != NULL)
		*c++ = '\0';
	o->first = strtonum(arg, 0, LLONG_MAX, &errstr);
	if (errstr != NULL)
		errx(2, "-b: first step %s: %s", errstr, arg);
	o->last = c == NULL ? o->first : strtonum(c, 0, LLONG_MAX, &errstr);
	if (errstr != NULL)
		errx(2, "-b: last step %s: %s", errstr, c);
	if (o->last < o->first)
		errx(2, "-b: last step %lld before first %lld", o->last,
		    o->first);
	o->steps = 1;
}

/* Take --hta out of argv into o. */
static void
longopts(int *argc, char **argv, struct gpu_opt *o)
{
	int k;

	for (k = 1; k < *argc && strcmp(argv[k], "--") != 0; k++)
		if (strcmp(argv[k], "--hta") == 0) {
			o->hta = 1;
			memmove(argv + k, argv + k + 1,
			    (size_t)(*argc - k) * sizeof(*argv));
			(*argc)--;
			k--;
		}
}

int
main(int argc, char *argv[])
{
	struct gpu_opt o;
	struct gstat *g;
	const char *label = NULL;
	const char *path;
	char **seen = NULL, *b;
	size_t nseen = 0, i, nf;
	int ch, hflag = 0, progress = -1, v, k;

	sst_init();
	memset(&o, 0, sizeof(o));
	sst_longhelp(argc, argv, usage);
	longopts(&argc, argv, &o);
	while ((ch = getopt(argc, argv, "F:HL:Pb:hp")) != -1) {
		switch (ch) {
		case 'F':
			if ((v = gpu_view(optarg)) == -1) {
				warnx("unknown view: %s", optarg);
				usage(0);
			}
			gpu_addview(&o, (enum gpu_view)v);
			break;
		case 'H':
			hflag = 1;
			break;
		case 'L':
			label = optarg;
			break;
		case 'P':
			progress = 0;
			break;
		case 'b':
			steps(&o, optarg);
			break;
		case 'h':
			usage(1);
		case 'p':
			progress = 1;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (o.nview == 0 || (hflag && label != NULL))
		usage(0);
	o.scale = o.hta ? 1 : 1000;
	g = gstat_new(&o, stdout);
	nf = argc > 0 ? (size_t)argc : 1;
	for (k = 0; k < (argc > 0 ? argc : 1); k++) {
		path = argc > 0 ? argv[k] : "-";
		b = basepart(path);
		onefile(path, (size_t)k + 1, nf, &o, label != NULL ? label :
		    hflag || !o.hta ? b : NULL, g, &seen, &nseen, progress);
		free(b);
	}
	if (gstat_end(g) == -1)
		err(1, "temporary file");
	for (i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	fshut(stdout, "stdout");
	return 0;
}
