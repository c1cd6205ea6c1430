/*
 * fuzz_gpu: sst-gpu's reader and views (common/formats/gpu.c,
 * common/reduce/gpu*.c), differentially: every view of the input read
 * as one rank, once summarised as the events are read (the live views,
 * their windows, waits and fallbacks) and once from the rank's rows
 * (gpu_opt's rowsonly, the path --hta and -b take).  Both must return,
 * leave nothing allocated, and print the same tables: byte for byte,
 * but for launch's rows, whose order differs by design (sst-gpu(1)),
 * compared as a multiset.  Half the inputs are read in 1-16 byte pieces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "gpu.h"
#include "gpustat.h"
#include "fuzz.h"

struct run {
	const uint8_t	*data;
	size_t		 size;
	int		 fd;		/* -1: read from memory */
	int		 rowsonly;
	int		 rv;
	char		*out;
	size_t		 len;
};

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Read the input as one rank and print every view (in fuzz_call). */
static void
readone(void *arg)
{
	static const enum gpu_view all[] = { GV_TEMPORAL, GV_KTYPES,
	    GV_KERNELS, GV_IDLE, GV_OVERLAP, GV_QUEUE, GV_ANN, GV_CPUANN,
	    GV_LAUNCH };
	struct run *ru = arg;
	struct gpu_opt o;
	struct grank r;
	struct gstat *g;
	struct json *j;
	FILE *fp;
	size_t i;

	memset(&o, 0, sizeof(o));
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		gpu_addview(&o, all[i]);
	o.scale = 1000;
	o.rowsonly = ru->rowsonly;
	if ((fp = open_memstream(&ru->out, &ru->len)) == NULL)
		abort();
	g = gstat_new(&o, fp);
	j = ru->fd == -1 ? json_open_mem(ru->data, ru->size, "in") :
	    json_open(ru->fd, "in");
	ru->rv = gpu_read(&r, j, &o, "t");
	if (ru->rv == 0 && (ru->rv = gpu_trim(&r, &o)) == 0)
		gstat_rank(g, &r);
	gpu_free(&r);
	json_close(j);
	if (gstat_end(g) == -1)
		fuzz_bug("a table's temporary file failed");
	if (fclose(fp) == EOF)
		abort();
}

static int
bytext(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort the lines of launch's table, the last of s (from its header on). */
static void
sortlaunch(char *s, size_t len)
{
	char *t, **ln, *copy, *p, *q;
	size_t n = 0, i;

	if ((t = strstr(s, "\nrank\tcorrelation\t")) == NULL)
		return;
	t = strchr(t + 1, '\n') + 1;
	if ((ln = malloc((len + 1) * sizeof(*ln))) == NULL ||
	    (copy = strdup(t)) == NULL)
		abort();
	for (p = copy; (q = strchr(p, '\n')) != NULL; p = q + 1) {
		*q = '\0';
		ln[n++] = p;
	}
	qsort(ln, n, sizeof(*ln), bytext);
	for (i = 0; i < n; i++)
		t += sprintf(t, "%s\n", ln[i]);
	free(copy);
	free(ln);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run a, b;
	int chunk = size % 2 ? 1 + (int)(size / 2 % 16) : 0;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.data = b.data = data;
	a.size = b.size = size;
	a.fd = chunk ? fuzz_input(data, size) : -1;
	fuzz_chunk = chunk;
	if (fuzz_call(readone, &a, 1) != -1)
		fuzz_bug("the live views exited: %s", fuzz_msg);
	b.fd = chunk ? fuzz_input(data, size) : -1;
	b.rowsonly = 1;
	if (fuzz_call(readone, &b, 1) != -1)
		fuzz_bug("the rows' views exited: %s", fuzz_msg);
	fuzz_chunk = 0;
	if (a.rv != b.rv)
		fuzz_bug("read: live %d, rows %d", a.rv, b.rv);
	sortlaunch(a.out, a.len);
	sortlaunch(b.out, b.len);
	/* A rank that failed is not printed: only the headers differ. */
	if (a.rv == 0 && strcmp(a.out, b.out) != 0)
		fuzz_bug("live and rows differ:\n%s---\n%s", a.out, b.out);
	free(a.out);
	free(b.out);
	return 0;
}
