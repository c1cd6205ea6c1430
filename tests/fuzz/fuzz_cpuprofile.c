/*
 * fuzz_cpuprofile: the .cpuprofile reader (common/formats/cpuprofile.c), one
 * record per stack or per sample (the input's size picks), from memory
 * and from a file descriptor that returns 1 to 16 bytes a read (through
 * input.c, so gzip and zstd, skippable frames included, are read too).
 * Both must end at once (parents in a cycle, of any shape, are an error,
 * never a loop: libFuzzer's timeout catches one), leave nothing
 * allocated, give records whose stacks are at most SST_MAXDEPTH frames
 * and which read back with rec_parse, and, for plain input, agree
 * record for record and on the error message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "rec.h"
#include "cpuprofile.h"
#include "fuzz.h"

struct run {
	const uint8_t	*data;
	size_t		 size;
	int		 fd;		/* -1: read from memory */
	int		 persample;
	int		 rv;
	char		 err[256];
	FILE		*fp;		/* the records, as lines */
	char		*out;
	size_t		 len;
};

static int	 compressed(const uint8_t *, size_t);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Check a record and append it to the run's output. */
static void
collect(const struct sst_rec *r, void *arg)
{
	struct run *ru = arg;
	struct sst_rec r2;
	const char *why;
	char *text;
	size_t len;
	FILE *fp;

	if (rec_nframes(r->stack, r->stacklen) > SST_MAXDEPTH)
		fuzz_bug("a stack of %zu frames",
		    rec_nframes(r->stack, r->stacklen));
	if ((fp = open_memstream(&text, &len)) == NULL)
		abort();
	rec_write(fp, r);
	if (fclose(fp) == EOF)
		abort();
	if (len == 0 || text[len - 1] != '\n')
		fuzz_bug("rec_write wrote no line");
	text[len - 1] = '\0';
	if (rec_parse(text, len - 1, &r2, &why) == -1)
		fuzz_bug("a record that does not parse (%s): %s", why, text);
	text[len - 1] = '\n';
	fwrite(text, 1, len, ru->fp);
	free(text);
}

/* Read the input once (in fuzz_call). */
static void
readone(void *arg)
{
	struct run *ru = arg;
	struct json *j;

	j = ru->fd == -1 ? json_open_mem(ru->data, ru->size, "in") :
	    json_open(ru->fd, "in");
	ru->rv = cpuprof_read(j, "T", 1, ru->persample, collect, ru, ru->err,
	    sizeof(ru->err));
	json_close(j);
}

/* Whether input.c reads the data as gzip or zstd (by its magic). */
static int
compressed(const uint8_t *d, size_t n)
{
	return (n >= 2 && d[0] == 0x1f && d[1] == 0x8b) || (n >= 4 &&
	    ((d[0] == 0x28 && d[1] == 0xb5 && d[2] == 0x2f && d[3] == 0xfd) ||
	    ((d[0] & 0xf0) == 0x50 && d[1] == 0x2a && d[2] == 0x4d &&
	    d[3] == 0x18)));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run a, b;
	int plain;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.data = b.data = data;
	a.size = b.size = size;
	a.persample = b.persample = size % 2;
	a.fd = -1;
	if ((a.fp = open_memstream(&a.out, &a.len)) == NULL ||
	    (b.fp = open_memstream(&b.out, &b.len)) == NULL)
		abort();
	plain = !compressed(data, size);
	fuzz_chunk = 0;
	if (fuzz_call(readone, &a, 1) != -1)
		fuzz_bug("reading from memory exited: %s", fuzz_msg);
	b.fd = fuzz_input(data, size);
	fuzz_chunk = 1 + (int)(size % 16);
	if (fuzz_call(readone, &b, 1) != -1)
		fuzz_bug("reading from a file exited: %s", fuzz_msg);
	fuzz_chunk = 0;
	if (fclose(a.fp) == EOF || fclose(b.fp) == EOF)
		abort();
	if (plain && (a.rv != b.rv || a.len != b.len ||
	    memcmp(a.out, b.out, a.len) != 0 ||
	    (a.rv == -1 && strcmp(a.err, b.err) != 0)))
		fuzz_bug("memory and %d-byte reads differ: %s / %s",
		    1 + (int)(size % 16), a.rv ? a.err : "ok",
		    b.rv ? b.err : "ok");
	free(a.out);
	free(b.out);
	return 0;
}
