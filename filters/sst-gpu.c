/*
 * sst-gpu: the GPU analyses of HolisticTraceAnalysis (HTA) over
 * Chrome/Kineto trace JSON, one table (TSV, HTA's column names) per run:
 * temporal, kernel-types, kernels, idle, overlap, launch, queue,
 * annotations, cpu-annotations.  Each file is a rank, named by its
 * distributedInfo.rank, else by -L or (-H) its base name.  --hta keeps
 * HTA's defaults: trimmed to the ProfilerStep range without the last
 * step, times rounded to whole microseconds.  The rules are in
 * common/gpu.c, common/gpustat.c and sst-gpu(1).
 */
#include <err.h>
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
	xusage(help, "usage: sst-gpu [--hta] -F view [-H | -L label] "
	    "[file ...]\n");
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

/* Read one file ("-": stdin) as a rank and add it to the table. */
static void
onefile(const char *path, const struct gpu_opt *o, const char *label,
    struct gstat *g, char ***seen, size_t *nseen)
{
	struct grank r;
	struct json *j;
	char *name;
	int fd;

	fd = xopen(path);
	j = json_open(fd, path);
	gpu_read(&r, j, o, label);
	name = unique(seen, nseen, r.label);
	free(r.label);
	r.label = name;
	gpu_trim(&r, o);
	gstat_rank(g, &r);
	gpu_free(&r);
	json_close(j);
	if (fd != STDIN_FILENO)
		close(fd);
}

int
main(int argc, char *argv[])
{
	struct gpu_opt o;
	struct gstat *g;
	const char *label = NULL;
	const char *path;
	char **seen = NULL, *b;
	size_t nseen = 0, i;
	int ch, hflag = 0, v = -1, k;

	sst_init();
	memset(&o, 0, sizeof(o));
	sst_longhelp(argc, argv, usage);
	for (k = 1; k < argc && strcmp(argv[k], "--") != 0; k++)
		if (strcmp(argv[k], "--hta") == 0) {
			o.hta = 1;
			memmove(argv + k, argv + k + 1,
			    (size_t)(argc - k) * sizeof(*argv));
			argc--;
			k--;
		}
	while ((ch = getopt(argc, argv, "F:HhL:")) != -1) {
		switch (ch) {
		case 'F':
			if ((v = gpu_view(optarg)) == -1) {
				warnx("unknown view: %s", optarg);
				usage(0);
			}
			break;
		case 'H':
			hflag = 1;
			break;
		case 'h':
			usage(1);
		case 'L':
			label = optarg;
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (v == -1 || (hflag && label != NULL))
		usage(0);
	o.view = (enum gpu_view)v;
	o.scale = o.hta ? 1 : 1000;
	g = gstat_new(&o, stdout);
	for (k = 0; k < (argc > 0 ? argc : 1); k++) {
		path = argc > 0 ? argv[k] : "-";
		b = basepart(path);
		onefile(path, &o, label != NULL ? label : hflag || !o.hta ?
		    b : NULL, g, &seen, &nseen);
		free(b);
	}
	gstat_end(g);
	for (i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	xfshut(stdout, "stdout");
	return 0;
}
