/*
 * fuzz.c: the run-time support of the libFuzzer harnesses (see fuzz.h):
 * exit and err(3) turned into longjmp, tracked allocations, short reads,
 * inputs and captured output in memory files.  Compiled without the
 * renames, so it calls the real functions.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

int	 fuzz_chunk;
char	 fuzz_msg[512];

static jmp_buf	 jb;
static int	 injmp;
static int	 status;
static void	**live;		/* blocks allocated and not yet freed */
static size_t	 nlive, caplive;
static int	 infd = -1, outfd = -1;
static int	 extrafd[4] = { -1, -1, -1, -1 };
static char	 inpath[64], extrapath[4][64];
static char	*outbuf;
static size_t	 outcap;
static FILE	*realerr;
#define FDSPAN	64		/* descriptors looked at after a call */
static FILE	*streams[16];	/* opened by the code under test */

/* Functions the renamed code calls. */
void	*fuzz_malloc(size_t);
void	*fuzz_calloc(size_t, size_t);
void	*fuzz_realloc(void *, size_t);
void	*fuzz_reallocarray(void *, size_t, size_t);
void	*fuzz_aligned_alloc(size_t, size_t);
char	*fuzz_strdup(const char *);
void	 fuzz_free(void *);
void	 fuzz_exit(int) __attribute__((__noreturn__));
void	 fuzz_err(int, const char *, ...) __attribute__((__noreturn__));
void	 fuzz_errx(int, const char *, ...) __attribute__((__noreturn__));
void	 fuzz_warn(const char *, ...);
void	 fuzz_warnx(const char *, ...);
ssize_t	 fuzz_read(int, void *, size_t);
FILE	*fuzz_fopen(const char *, const char *);
FILE	*fuzz_fdopen(int, const char *);
int	 fuzz_fclose(FILE *);
void	 fuzz_sst_init(void);

static void	 track(void *);
static void	 untrack(void *);
static void	 freelive(void);
static int	 memfile(const char *);
static void	 trackfp(FILE *);
static void	 closelive(int, const unsigned char *);

void
fuzz_bug(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(realerr != NULL ? realerr : stderr, "fuzz: BUG: ");
	va_start(ap, fmt);
	vfprintf(realerr != NULL ? realerr : stderr, fmt, ap);
	va_end(ap);
	fputc('\n', realerr != NULL ? realerr : stderr);
	abort();
}

static int
memfile(const char *name)
{
	int fd;

	if ((fd = memfd_create(name, 0)) == -1) {
		perror("memfd_create");
		abort();
	}
	return fd;
}

/* libFuzzer's set-up, the same for every harness. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init();
	return 0;
}

void
fuzz_init(void)
{
	realerr = stderr;
	if (getenv("FUZZ_VERBOSE") == NULL) {
		/* libFuzzer and the sanitizers keep the real fd 2. */
		realerr = fdopen(dup(2), "w");
		setvbuf(realerr, NULL, _IONBF, 0);
		stderr = fopen("/dev/null", "w");
	}
	infd = memfile("fuzz-input");
	snprintf(inpath, sizeof(inpath), "/proc/self/fd/%d", infd);
}

/* Remember the block p (not NULL). */
static void
track(void *p)
{
	if (nlive == caplive) {
		caplive = caplive ? caplive * 2 : 256;
		if ((live = realloc(live, caplive * sizeof(*live))) == NULL)
			abort();
	}
	live[nlive++] = p;
}

/* Forget the block p; a block that is not ours is a bug. */
static void
untrack(void *p)
{
	size_t i;

	for (i = nlive; i > 0; i--)
		if (live[i - 1] == p) {
			live[i - 1] = live[--nlive];
			return;
		}
	fuzz_bug("free of a block not allocated by malloc: %p", p);
}

static void
freelive(void)
{
	while (nlive > 0)
		free(live[--nlive]);
}

void *
fuzz_malloc(size_t n)
{
	void *p;

	if ((p = malloc(n)) != NULL)
		track(p);
	return p;
}

void *
fuzz_aligned_alloc(size_t al, size_t n)
{
	void *p;

	if ((p = aligned_alloc(al, n)) != NULL)
		track(p);
	return p;
}

void *
fuzz_calloc(size_t n, size_t sz)
{
	void *p;

	if ((p = calloc(n, sz)) != NULL)
		track(p);
	return p;
}

void *
fuzz_realloc(void *q, size_t n)
{
	void *p;

	if ((p = realloc(q, n)) == NULL)
		return NULL;
	if (q != NULL)
		untrack(q);
	track(p);
	return p;
}

void *
fuzz_reallocarray(void *q, size_t n, size_t sz)
{
	if (sz != 0 && n > SIZE_MAX / sz) {
		errno = ENOMEM;
		return NULL;
	}
	return fuzz_realloc(q, n * sz);
}

char *
fuzz_strdup(const char *s)
{
	char *p;

	if ((p = strdup(s)) != NULL)
		track(p);
	return p;
}

void
fuzz_free(void *p)
{
	if (p == NULL)
		return;
	untrack(p);
	free(p);
}

void
fuzz_exit(int st)
{
	if (!injmp)
		fuzz_bug("exit(%d) outside fuzz_call", st);
	status = st;
	longjmp(jb, 1);
}

void
fuzz_err(int st, const char *fmt, ...)
{
	va_list ap;
	size_t n;
	int e = errno;

	va_start(ap, fmt);
	vsnprintf(fuzz_msg, sizeof(fuzz_msg), fmt, ap);
	va_end(ap);
	n = strlen(fuzz_msg);
	snprintf(fuzz_msg + n, sizeof(fuzz_msg) - n, ": %s", strerror(e));
	fuzz_exit(st);
}

void
fuzz_errx(int st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fuzz_msg, sizeof(fuzz_msg), fmt, ap);
	va_end(ap);
	fuzz_exit(st);
}

void
fuzz_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fuzz_msg, sizeof(fuzz_msg), fmt, ap);
	va_end(ap);
}

void
fuzz_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fuzz_msg, sizeof(fuzz_msg), fmt, ap);
	va_end(ap);
}

ssize_t
fuzz_read(int fd, void *p, size_t n)
{
	if (fuzz_chunk > 0 && n > (size_t)fuzz_chunk)
		n = (size_t)fuzz_chunk;
	return read(fd, p, n);
}

FILE *
fuzz_fopen(const char *path, const char *mode)
{
	FILE *fp;

	if ((fp = fopen(path, mode)) != NULL)
		trackfp(fp);
	return fp;
}

FILE *
fuzz_fdopen(int fd, const char *mode)
{
	FILE *fp;

	if ((fp = fdopen(fd, mode)) != NULL)
		trackfp(fp);
	return fp;
}

int
fuzz_fclose(FILE *fp)
{
	size_t i;

	for (i = 0; i < sizeof(streams) / sizeof(streams[0]); i++)
		if (streams[i] == fp)
			streams[i] = NULL;
	return fclose(fp);
}

/* Keep fp, opened by the code under test, to close it after the call. */
static void
trackfp(FILE *fp)
{
	size_t i;

	for (i = 0; i < sizeof(streams) / sizeof(streams[0]); i++)
		if (streams[i] == NULL) {
			streams[i] = fp;
			return;
		}
	fuzz_bug("more than %zu streams open",
	    sizeof(streams) / sizeof(streams[0]));
}

/*
 * Close what the code under test left open, as a process exit would:
 * its streams, then the descriptors from lo on that were not open
 * before the call (was[]).  An error exit leaves its input open; a
 * million runs would run out of descriptors.
 */
static void
closelive(int lo, const unsigned char *was)
{
	size_t i;
	int fd;

	for (i = 0; i < sizeof(streams) / sizeof(streams[0]); i++)
		if (streams[i] != NULL) {
			fclose(streams[i]);
			streams[i] = NULL;
		}
	for (fd = lo; fd < lo + FDSPAN; fd++)
		if (!was[fd - lo] && fcntl(fd, F_GETFD) != -1)
			close(fd);
}

void
fuzz_sst_init(void)
{
}

int
fuzz_call(void (*fn)(void *), void *arg, int strict)
{
	static unsigned char was[FDSPAN];
	static int lo;
	int fd;

	if (nlive != 0)
		fuzz_bug("%zu blocks live before fuzz_call", nlive);
	/* The lowest free descriptor, and which ones above it are open. */
	if ((lo = dup(STDIN_FILENO)) == -1)
		fuzz_bug("dup: %s", strerror(errno));
	close(lo);
	for (fd = lo; fd < lo + FDSPAN; fd++)
		was[fd - lo] = fcntl(fd, F_GETFD) != -1;
	fuzz_msg[0] = '\0';
	injmp = 1;
	if (setjmp(jb) != 0) {
		injmp = 0;
		freelive();
		closelive(lo, was);
		return status;
	}
	fn(arg);
	injmp = 0;
	if (strict && nlive != 0)
		fuzz_bug("%zu blocks leaked by a call that returned", nlive);
	freelive();
	closelive(lo, was);
	return -1;
}

/* Replace the contents of the memory file fd with data; rewind it. */
static void
fill(int fd, const void *data, size_t size)
{
	if (ftruncate(fd, 0) == -1 ||
	    (size > 0 && pwrite(fd, data, size, 0) != (ssize_t)size) ||
	    lseek(fd, 0, SEEK_SET) == -1) {
		perror("fuzz input");
		abort();
	}
}

int
fuzz_input(const uint8_t *data, size_t size)
{
	fill(infd, data, size);
	return infd;
}

const char *
fuzz_inpath(void)
{
	return inpath;
}

const char *
fuzz_file(int i, const void *data, size_t size)
{
	if (extrafd[i] == -1) {
		extrafd[i] = memfile("fuzz-extra");
		snprintf(extrapath[i], sizeof(extrapath[i]),
		    "/proc/self/fd/%d", extrafd[i]);
	}
	fill(extrafd[i], data, size);
	return extrapath[i];
}

void
fuzz_capture(void)
{
	fflush(stdout);
	if (outfd == -1) {
		outfd = memfile("fuzz-output");
		if (dup2(outfd, STDOUT_FILENO) == -1)
			abort();
	}
	fill(STDOUT_FILENO, NULL, 0);
	clearerr(stdout);
}

const char *
fuzz_output(size_t *len)
{
	off_t n;

	fflush(stdout);
	clearerr(stdout);
	if ((n = lseek(STDOUT_FILENO, 0, SEEK_END)) == -1)
		abort();
	if ((size_t)n + 1 > outcap) {
		outcap = (size_t)n + 1;
		if ((outbuf = realloc(outbuf, outcap)) == NULL)
			abort();
	}
	if (n > 0 && pread(STDOUT_FILENO, outbuf, (size_t)n, 0) != n)
		abort();
	outbuf[n] = '\0';
	*len = (size_t)n;
	return outbuf;
}
