/*
 * util.c: allocation and I/O helpers that exit on failure, and xfshut(),
 * which flushes and checks an output stream before exit.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n ? n : 1)) == NULL)
		err(1, "malloc");
	return p;
}

void *
xcalloc(size_t n, size_t sz)
{
	void *p;

	if ((p = calloc(n ? n : 1, sz ? sz : 1)) == NULL)
		err(1, "calloc");
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t sz)
{
	if ((p = reallocarray(p, n ? n : 1, sz ? sz : 1)) == NULL)
		err(1, "realloc");
	return p;
}

/*
 * The capacity that holds need elements: cap, or min when cap is 0,
 * doubled until it does; 0 when that overflows.  The one growth rule
 * of the arrays of sst (xgrow() and the code that grows several
 * parallel arrays at once).
 */
size_t
growcap(size_t cap, size_t need, size_t min)
{
	if (cap == 0)
		cap = min ? min : 1;
	while (cap < need) {
		if (cap > SIZE_MAX / 2)
			return 0;
		cap *= 2;
	}
	return cap;
}

/* growcap(), exiting when the capacity overflows. */
size_t
xgrowcap(size_t cap, size_t need, size_t min)
{
	if ((cap = growcap(cap, need, min)) == 0)
		errx(1, "realloc: %zu elements", need);
	return cap;
}

/*
 * Array p of *cap elements of size bytes, grown when it holds fewer
 * than need to xgrowcap(*cap, need, min) elements (xreallocarray());
 * *cap is updated.
 */
void *
xgrow(void *p, size_t *cap, size_t need, size_t min, size_t size)
{
	size_t c;

	if (need <= *cap)
		return p;
	c = xgrowcap(*cap, need, min);
	p = xreallocarray(p, c, size);
	*cap = c;
	return p;
}

/*
 * An array of n elements of size bytes, big and read or written at
 * random: from HUGEPAGE bytes up, aligned to huge pages and in them
 * where the system gives them on request (madvise(2)), which saves a
 * fault for each 4 KB page first touched (dear in a virtual machine)
 * and most TLB misses.  free(3) frees it.
 */
void *
xhuge(size_t n, size_t size)
{
	void *p;

	if (size != 0 && n > SIZE_MAX / size)
		errx(1, "malloc: %zu elements of %zu bytes", n, size);
	n *= size;
#ifdef MADV_HUGEPAGE
	if (n >= HUGEPAGE) {
		if (n > SIZE_MAX - HUGEPAGE)
			errx(1, "malloc: %zu bytes", n);
		n = (n + HUGEPAGE - 1) & ~(size_t)(HUGEPAGE - 1);
		if ((p = aligned_alloc(HUGEPAGE, n)) == NULL)
			err(1, "malloc");
		(void)madvise(p, n, MADV_HUGEPAGE);
		return p;
	}
#endif
	if ((p = malloc(n ? n : 1)) == NULL)
		err(1, "malloc");
	return p;
}

/*
 * xhuge(), zeroed by writing it: calloc() would leave a fresh mapping
 * untouched, first read as the zero page and then faulted again when
 * written.
 */
void *
xhugezero(size_t n, size_t size)
{
	void *p;

	p = xhuge(n, size);
	memset(p, 0, n * size);
	return p;
}

/* Array p of old elements of size bytes grown to n (n >= old) by xhuge(). */
void *
xhugegrow(void *p, size_t old, size_t n, size_t size)
{
	void *q;

	if (size == 0 || n < HUGEPAGE / size)
		return xreallocarray(p, n, size);
	q = xhuge(n, size);
	memcpy(q, p, old * size);
	free(p);
	return q;
}

/*
 * Make the heap grow in huge pages, for a program whose threads fill
 * tables, free them and fill them again (glibc on Linux; elsewhere
 * nothing).  Every thread allocates from the one heap, which grows
 * HEAPPAD bytes at a time and is trimmed only when twice that is free
 * at its top; it is grown once here, and those HEAPPAD bytes are
 * advised to be in huge pages.  A page first touched is a fault, dear
 * in a virtual machine (some 10 microseconds each on this project's
 * hosts): the arenas of the threads, each grown and trimmed page by
 * page, took sst-flatten thousands of them.  Blocks of 128 KB or more
 * are still mappings of their own, given back whole when freed and
 * grown without a copy, where glibc's rising threshold would keep them
 * on the heap; the heap past its first HEAPPAD bytes is in pages of 4
 * KB, so that what a program keeps costs about what it touches.
 * Returns 0, or -1 if the heap was not advised (another malloc(3), as
 * under a sanitizer).
 */
int
heap_huge(void)
{
#if defined(__GLIBC__) && defined(M_ARENA_MAX) && defined(MADV_HUGEPAGE)
	uintptr_t a, e;
	void *p[64];
	size_t i, n;

	if (mallopt(M_ARENA_MAX, 1) == 0 ||
	    mallopt(M_MMAP_THRESHOLD, 128 * 1024) == 0 ||
	    mallopt(M_TOP_PAD, HEAPPAD) == 0 ||
	    mallopt(M_TRIM_THRESHOLD, 2 * HEAPPAD) == 0)
		return -1;
	/* Blocks from the heap's top until it grows by HEAPPAD. */
	if ((a = (uintptr_t)sbrk(0)) == (uintptr_t)-1)
		return -1;
	for (n = 0, e = a; n < 64 && e == a; n++) {
		if ((p[n] = malloc(64 * 1024)) == NULL)
			break;
		e = (uintptr_t)sbrk(0);
	}
	for (i = 0; i < n; i++)
		free(p[i]);
	a = (a + HUGEPAGE - 1) & ~(uintptr_t)(HUGEPAGE - 1);
	if (e == (uintptr_t)-1 || e <= a || e - a > 2 * HEAPPAD ||
	    madvise((void *)a, e - a, MADV_HUGEPAGE) == -1)
		return -1;
	return 0;
#else
	return -1;
#endif
}

/*
 * A structure out of the room its indices or sizes give it (a stack
 * too deep for a size_t, a table past 32-bit ids): fatal, as running
 * out of memory is.  Exits 1 with what.
 */
void
xnoroom(const char *what)
{
	errx(1, "%s", what);
}

char *
xstrdup(const char *s)
{
	char *p;

	if ((p = strdup(s)) == NULL)
		err(1, "strdup");
	return p;
}

void *
xmemdup(const void *s, size_t n)
{
	char *p;

	p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

FILE *
xfopen(const char *path, const char *mode)
{
	FILE *fp;

	if ((fp = fopen(path, mode)) == NULL)
		err(1, "%s", path);
	return fp;
}

/* Open an input file for reading; "-" is standard input. */
int
xopen(const char *path)
{
	int fd;

	if (path == NULL || strcmp(path, "-") == 0)
		return STDIN_FILENO;
	if ((fd = open(path, O_RDONLY)) == -1)
		err(1, "%s", path);
	return fd;
}

/* Exit on a failed write to name: quietly (0) for a closed pipe. */
static __dead void
xwfail(const char *name)
{
	if (errno == EPIPE)
		exit(0);
	err(1, "%s", name);
}

/* Flush fp and exit 1 with a message if anything written to it failed. */
void
xfshut(FILE *fp, const char *name)
{
	if (fflush(fp) == EOF || ferror(fp))
		xwfail(name);
}

/*
 * Write n bytes of p to fp (named name), exiting as xfshut() does on
 * failure.  A block of BIGWRITE bytes or more goes straight to fp's
 * descriptor, after what fp holds, rather than through fp's buffer,
 * which would copy most of it.
 */
void
xfwrite(const void *p, size_t n, FILE *fp, const char *name)
{
	const char *q = p;
	ssize_t k;

	if (n < BIGWRITE) {
		if (fwrite(p, 1, n, fp) != n)
			xfshut(fp, name);
		return;
	}
	xfshut(fp, name);
	while (n > 0) {
		if ((k = write(fileno(fp), q, n)) == -1) {
			if (errno == EINTR)
				continue;
			xwfail(name);
		}
		q += k;
		n -= (size_t)k;
	}
}

/*
 * Common start-up: a closed pipe ends the program quietly and at once,
 * and stdout gets a large buffer.
 */
void
sst_init(void)
{
	static char obuf[1 << 16];

	signal(SIGPIPE, SIG_DFL);
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
}

/*
 * The usage text u: for help (-h, --help) on standard output with
 * status 0, else on standard error with status 2.
 */
void
xusage(int help, const char *u)
{
	if (help) {
		fputs(u, stdout);
		xfshut(stdout, "stdout");
		exit(0);
	}
	fputs(u, stderr);
	exit(2);
}

/*
 * Option opt's argument s as a number from min to max (strtonum(3));
 * anything else is a usage error: exit 2 with "opt: why: s".
 */
long long
xoptnum(const char *opt, const char *s, long long min, long long max)
{
	const char *errstr;
	long long v;

	v = strtonum(s, min, max, &errstr);
	if (errstr != NULL)
		errx(2, "%s: %s: %s", opt, errstr, s);
	return v;
}

/*
 * The index of option opt's argument s among names[0..n), a what; one
 * not there is a usage error: exit 2 with "opt: unknown what: s".
 */
int
xoptword(const char *opt, const char *what, const char *s,
    const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	errx(2, "%s: unknown %s: %s", opt, what, s);
}

/* Call usage(1) when "--help" comes before any "--" in argv. */
void
sst_longhelp(int argc, char *argv[], void (*usage)(int))
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0)
			usage(1);
}
