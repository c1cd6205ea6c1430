/*
 * fuzz_spd: the speedscope reader (spd_flatten over the JSON tokenizer),
 * as sst-flatten runs it.  Bad input ends in xjson_fail() or errx(),
 * which exit; compiled for fuzzing they jump back here instead (see
 * fuzz.h), so an input may fail but must not crash, and every record
 * written before the end must be a well-formed sst(5) line (its
 * escapes and numbers finite), read back with rec_parse.  Odd sizes read
 * from memory, even ones from a descriptor giving 1 to 8 bytes a read;
 * sizes divisible by 3 write one record per sample (-s), sizes of 1 or 2
 * more than a multiple of 5 keep the leaves only (-k leaf).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "rec.h"
#include "spd.h"
#include "fuzz.h"

struct run {
	const uint8_t	*data;
	size_t		 size;
	int		 fd;		/* -1: from memory */
	int		 flags;		/* spd_flatten()'s */
	FILE		*out;
	unsigned long long nrec;
};

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Write lines as they are handed out, n records, whole lines. */
static void
text(const char *t, size_t len, size_t n, void *arg)
{
	struct run *run = arg;

	if (len == 0 || t[len - 1] != '\n')
		fuzz_bug("record %llu: lines handed out cut", run->nrec);
	if (fwrite(t, 1, len, run->out) != len)
		abort();
	run->nrec += n;
}

static void
flatten(void *arg)
{
	struct run *run = arg;
	struct json *j;
	char msg[256];

	if (run->fd == -1)
		j = json_open_mem(run->data, run->size, "in");
	else
		j = json_open(run->fd, "in");
	/* An error returned (SPD_ERROR) is a normal return here. */
	spd_flatten(j, run->flags, NULL, text, run, msg, sizeof(msg));
	json_close(j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run run;
	struct sst_rec r;
	const char *why;
	char *text, *line, *nl;
	size_t len;
	unsigned long long n = 0;

	memset(&run, 0, sizeof(run));
	run.data = data;
	run.size = size;
	run.fd = -1;
	run.flags = (size % 3 == 0 ? SPD_SAMPLES : 0) |
	    (size % 5 == 1 || size % 5 == 2 ? SPD_LEAVES : 0);
	if (size % 2 == 0) {
		run.fd = fuzz_input(data, size);
		fuzz_chunk = 1 + (int)(size / 2 % 8);
	}
	if ((run.out = open_memstream(&text, &len)) == NULL)
		abort();
	(void)fuzz_call(flatten, &run, 1);
	fuzz_chunk = 0;
	if (fclose(run.out) == EOF)
		abort();
	for (line = text; line < text + len; line = nl + 1, n++) {
		if ((nl = memchr(line, '\n', (size_t)(text + len - line))) ==
		    NULL)
			fuzz_bug("record %llu has no newline", n);
		*nl = '\0';
		if (rec_parse(line, (size_t)(nl - line), &r, &why) == -1)
			fuzz_bug("record %llu does not read back: %s: %s", n,
			    why, line);
	}
	if (n != run.nrec)
		fuzz_bug("%llu records written, %llu lines", run.nrec, n);
	free(text);
	return 0;
}
