/*
 * sst-gpu: the GPU analyses of HolisticTraceAnalysis (HTA) over
 * Chrome/Kineto trace JSON, a table (TSV, HTA's column names) per -F
 * view, one after another in one pass: temporal, kernel-types, kernels,
 * idle, overlap, launch, queue, annotations, cpu-annotations.  Each file
 * is a rank, named by its distributedInfo.rank, else by -L or (-H) its
 * base name.  --hta keeps HTA's defaults: trimmed to the ProfilerStep
 * range without the last step, times rounded to whole microseconds; -b
 * trims to a range of steps instead.  The rules are in common/formats/gpu.c,
 * common/reduce/gpustat.c and sst-gpu(1).
 */
#include <err.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "progress.h"
#include "json.h"
#include "htab.h"
#include "gpu.h"
#include "gpustat.h"
#include "label.h"

static __dead void usage(int);

/* The usage: for -h and --help on standard output, else an error. */
static __dead void
usage(int help)
{
	xusage(help, "usage: sst-gpu [--hta] [-hPp] [-H | -L label] "
	    "[-b steps] -F view ... [file ...]\n");
}

/* The rank names so far, and for each the last suffix it was given. */
struct names {
	struct htab	*ht;
	size_t		*last;
	size_t		 cap;
};

/* Take name into nm; its id. */
static size_t
taken(struct names *nm, const char *name)
{
	size_t id;
	int isnew;

	id = ht_intern(nm->ht, name, strlen(name), &isnew);
	nm->last = xgrow(nm->last, &nm->cap, id + 1, 16, sizeof(*nm->last));
	if (isnew)
		nm->last[id] = 1;
	return id;
}

/*
 * A name given before gets ".2", ".3" and so on, so that two files never
 * merge into one rank; the search starts from the name's last suffix.
 */
static char *
unique(struct names *nm, const char *name)
{
	size_t id, k, m = strlen(name) + 24;
	char *s = xmalloc(m);

	snprintf(s, m, "%s", name);
	if ((id = ht_find(nm->ht, name, strlen(name))) == (size_t)-1) {
		taken(nm, s);
		return s;
	}
	for (k = nm->last[id] + 1;; k++) {
		snprintf(s, m, "%s.%zu", name, k);
		if (ht_find(nm->ht, s, strlen(s)) == (size_t)-1)
			break;
	}
	nm->last[id] = k;
	taken(nm, s);
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
		xjson_fail(j, "%s", msg);
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
    const char *label, struct gstat *g, struct names *nm,
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
	name = unique(nm, r.label);
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
	struct names nm = { NULL, NULL, 0 };
	struct buf b;
	size_t nf;
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
	buf_init(&b);
	nm.ht = ht_new();
	nf = argc > 0 ? (size_t)argc : 1;
	for (k = 0; k < (argc > 0 ? argc : 1); k++) {
		path = argc > 0 ? argv[k] : "-";
		buf_reset(&b);
		label_base(&b, path);
		onefile(path, (size_t)k + 1, nf, &o, label != NULL ? label :
		    hflag || !o.hta ? b.data : NULL, g, &nm, progress);
	}
	if (gstat_end(g) == -1)
		err(1, "temporary file");
	buf_free(&b);
	ht_free(nm.ht);
	free(nm.last);
	xfshut(stdout, "stdout");
	return 0;
}
