/*
 * gentrace: write a synthetic PyTorch-profiler (Kineto) trace of about
 * -m megabytes to standard output, for benchmarks of trace2sst.  Like
 * Kineto's: an object with schemaVersion, deviceProperties and
 * traceEvents; M events naming the process and threads; per profiler
 * step a tree of cpu_op spans on the main thread (modules, aten ops),
 * cudaLaunchKernel calls (cuda_runtime) with a correlation id, and the
 * kernels on two GPU streams (args.stream) with the same id, joined by
 * ac2g flow events; an autograd thread with its own ops.  Times are
 * microseconds with three decimals.
 *
 * By default the events of each thread are in time order and the file
 * is one line; -p pretty-prints every event over several lines as
 * Kineto does, and -s shuffles the events within windows of 4096, so
 * that no thread is in time order.  Everything comes from fixed-seed
 * PRNGs, so a given command line always writes the same bytes, and the
 * four forms of a size hold the same events.
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MB	1048576LL
#define WINDOW	4096		/* events shuffled together with -s */
#define NOPS	40

static const char *ops[NOPS] = {
	"aten::mm", "aten::addmm", "aten::linear", "aten::matmul",
	"aten::relu", "aten::gelu", "aten::softmax", "aten::layer_norm",
	"aten::native_layer_norm", "aten::add", "aten::add_", "aten::mul",
	"aten::copy_", "aten::to", "aten::_to_copy", "aten::empty",
	"aten::empty_strided", "aten::view", "aten::reshape",
	"aten::transpose", "aten::t", "aten::permute", "aten::contiguous",
	"aten::clone", "aten::dropout", "aten::native_dropout",
	"aten::embedding", "aten::index_select", "aten::cat", "aten::sum",
	"aten::mean", "aten::zeros", "aten::zero_", "aten::fill_",
	"aten::scaled_dot_product_attention", "aten::bmm", "aten::baddbmm",
	"aten::div", "aten::sub", "aten::sqrt"
};

static uint64_t	 rng = 0x9e3779b97f4a7c15ULL;	/* the events */
static uint64_t	 srng = 0x2545f4914f6cdd1dULL;	/* their shuffle */
static uint64_t	 shape;		/* the ops of a step: one of 8 shapes */
static int	 pretty, shuffle;
static long long written;
static char	**win;		/* -s: the window of events */
static size_t	 nwin;
static int	 first = 1;
static int	 flushing;	/* writing the window out */
static long long corr = 1000;
static long long gpuend[2];

static uint64_t	 rnd(uint64_t *);
static int	 rndn(int);
static int	 shapen(int);
static void	 emit(const char *);
static void	 flushwin(void);
static void	 span(int, const char *, const char *, long long, long long,
		    long long);
static void	 flow(int, int, long long, long long);
static void	 optree(int, long long, long long, int);
static void	 step(int, long long *);

/* xorshift64* on state *r */
static uint64_t
rnd(uint64_t *r)
{
	*r ^= *r >> 12;
	*r ^= *r << 25;
	*r ^= *r >> 27;
	return *r * 0x2545f4914f6cdd1dULL;
}

static int
rndn(int n)
{
	return (int)(rnd(&rng) % (uint64_t)n);
}

/* A choice of the step's shape (which ops, how nested). */
static int
shapen(int n)
{
	return (int)(rnd(&shape) % (uint64_t)n);
}

/* Write one event (or keep it for the shuffle). */
static void
emit(const char *ev)
{
	if (!flushing)
		written += (long long)strlen(ev) + 2;
	if (shuffle) {
		win[nwin++] = strdup(ev);
		if (nwin == WINDOW)
			flushwin();
		return;
	}
	if (!first)
		fputs(pretty ? ",\n" : ", ", stdout);
	first = 0;
	fputs(ev, stdout);
}

/* Write the window of events in a random order. */
static void
flushwin(void)
{
	size_t i, j;
	char *t;

	for (i = nwin; i > 1; i--) {
		j = (size_t)(rnd(&srng) % i);
		t = win[i - 1];
		win[i - 1] = win[j];
		win[j] = t;
	}
	shuffle = 0;
	flushing = 1;
	for (i = 0; i < nwin; i++) {
		emit(win[i]);
		free(win[i]);
	}
	flushing = 0;
	shuffle = 1;
	nwin = 0;
}

/* An X event on thread th (0 main, 1 autograd, 2-3 GPU streams). */
static void
span(int th, const char *cat, const char *name, long long ts, long long dur,
    long long c)
{
	static const int pid[4] = { 4242, 4242, 0, 0 };
	static const int tid[4] = { 4242, 4251, 7, 20 };
	char ev[1024], args[256];

	if (c > 0 && th >= 2)	/* a kernel: its stream, as Kineto's */
		snprintf(args, sizeof(args), pretty ?
		    "\n    \"args\": {\n      \"External id\": %lld, "
		    "\"correlation\": %lld, \"device\": 0, \"stream\": %d"
		    "\n    }" :
		    "\"args\": {\"External id\": %lld, \"correlation\": %lld, "
		    "\"device\": 0, \"stream\": %d}", c, c, tid[th]);
	else if (c > 0)
		snprintf(args, sizeof(args), pretty ?
		    "\n    \"args\": {\n      \"External id\": %lld, "
		    "\"correlation\": %lld, \"device\": 0\n    }" :
		    "\"args\": {\"External id\": %lld, \"correlation\": %lld, "
		    "\"device\": 0}", c, c);
	else
		snprintf(args, sizeof(args), pretty ?
		    "\n    \"args\": {\n      \"External id\": %lld, "
		    "\"Sequence number\": %d\n    }" :
		    "\"args\": {\"External id\": %lld, "
		    "\"Sequence number\": %d}",
		    corr, rndn(100000));
	snprintf(ev, sizeof(ev), pretty ?
	    "  {\n    \"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", "
	    "\"pid\": %d, \"tid\": %d,\n    \"ts\": %lld.%03lld, "
	    "\"dur\": %lld.%03lld,%s\n  }" :
	    "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": %d, "
	    "\"tid\": %d, \"ts\": %lld.%03lld, \"dur\": %lld.%03lld, %s}",
	    cat, name, pid[th], tid[th], ts / 1000, ts % 1000, dur / 1000,
	    dur % 1000, args);
	emit(ev);
}

/* An ac2g flow event: start on the main thread or end on a stream. */
static void
flow(int end, int stream, long long id, long long ts)
{
	char ev[256];

	snprintf(ev, sizeof(ev), pretty ?
	    "  {\n    \"ph\": \"%s\", \"id\": %lld, \"pid\": %d, \"tid\": %d, "
	    "\"ts\": %lld.%03lld,\n    \"cat\": \"ac2g\", "
	    "\"name\": \"ac2g\"%s\n"
	    "  }" :
	    "{\"ph\": \"%s\", \"id\": %lld, \"pid\": %d, \"tid\": %d, "
	    "\"ts\": %lld.%03lld, \"cat\": \"ac2g\", \"name\": \"ac2g\"%s}",
	    end ? "f" : "s", id, end ? 0 : 4242, end ? (stream ? 20 : 7) :
	    4242, ts / 1000, ts % 1000, end ? ", \"bp\": \"e\"" : "");
	emit(ev);
}

/*
 * A tree of ops on thread th over [ts, ts + len) nanoseconds, depth d;
 * the leaves of the main thread launch kernels.  Events go out in
 * start order, every child inside its parent.
 */
static void
optree(int th, long long ts, long long len, int d)
{
	long long c, k, kd, part, t;
	int n, i, s;
	char name[64];

	if (d >= 4 || len < 20000 || (d > 1 && shapen(3) == 0)) {
		span(th, "cpu_op", ops[shapen(NOPS)], ts, len, 0);
		if (th != 0)
			return;
		c = corr++;
		span(th, "cuda_runtime", "cudaLaunchKernel", ts + len / 4,
		    len / 2, c);
		flow(0, 0, c, ts + len / 4);
		s = shapen(2);
		k = gpuend[s] > ts + len ? gpuend[s] : ts + len;
		k += rndn(5000);
		kd = 2000 + rndn(200000);
		snprintf(name, sizeof(name), "void gemm_kernel_%d<float>",
		    shapen(30));
		span(2 + s, "kernel", name, k, kd, c);
		flow(1, s, c, k);
		gpuend[s] = k + kd;
		return;
	}
	span(th, d == 1 ? "user_annotation" : "cpu_op", d == 1 ?
	    "## forward ##" : ops[shapen(NOPS)], ts, len, 0);
	n = 1 + shapen(4);
	part = len * 9 / 10 / n;
	t = ts + len / 20;
	for (i = 0; i < n; i++, t += part)
		optree(th, t, part - part / 10, d + 1);
}

/* One profiler step of 4 ms from *ts (ns). */
static void
step(int no, long long *ts)
{
	char name[64];

	snprintf(name, sizeof(name), "ProfilerStep#%d", no % 10);
	shape = 0x853c49e6748fea9bULL +
	    (uint64_t)(no % 8) * 0x9e3779b97f4a7c15ULL;
	span(0, "user_annotation", name, *ts, 4000000, 0);
	optree(0, *ts + 10000, 3000000, 1);
	optree(0, *ts + 3100000, 800000, 2);
	optree(1, *ts + 20000, 2000000, 2);
	*ts += 4100000;
}

int
main(int argc, char *argv[])
{
	long long target = 100 * MB;
	long long ts = 1700000000000000LL;	/* ns */
	int ch, no = 0;
	char *end;

	while ((ch = getopt(argc, argv, "m:ps")) != -1) {
		switch (ch) {
		case 'm':
			target = strtoll(optarg, &end, 10) * MB;
			if (*end != '\0' || target <= 0)
				errx(2, "-m: bad size");
			break;
		case 'p':
			pretty = 1;
			break;
		case 's':
			shuffle = 1;
			break;
		default:
			fprintf(stderr, "usage: gentrace [-ps] [-m mb]\n");
			return 2;
		}
	}
	if (shuffle && (win = calloc(WINDOW, sizeof(*win))) == NULL)
		err(1, NULL);
	fputs(pretty ? "\n{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": "
	    "[\n    {\n      \"id\": 0, \"name\": \"NVIDIA A100\"\n    }\n  ],"
	    "\n  \"traceEvents\": [\n" :
	    "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, "
	    "\"name\": \"NVIDIA A100\"}], \"traceEvents\": [", stdout);
	emit(pretty ? "  {\n    \"name\": \"process_name\", \"ph\": \"M\", "
	    "\"ts\": 0, \"pid\": 4242, \"tid\": 0,\n    \"args\": {\n      "
	    "\"name\": \"python3\"\n    }\n  }" :
	    "{\"name\": \"process_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": "
	    "4242, \"tid\": 0, \"args\": {\"name\": \"python3\"}}");
	emit(pretty ? "  {\n    \"name\": \"thread_name\", \"ph\": \"M\", "
	    "\"ts\": 0, \"pid\": 4242, \"tid\": 4242,\n    \"args\": {\n      "
	    "\"name\": \"thread 4242 (python3)\"\n    }\n  }" :
	    "{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": "
	    "4242, \"tid\": 4242, \"args\": {\"name\": \"thread 4242 "
	    "(python3)\"}}");
	while (written < target)
		step(no++, &ts);
	if (shuffle)
		flushwin();
	fputs(pretty ? "\n  ],\n  \"traceName\": \"gentrace\"\n}\n" :
	    "], \"traceName\": \"gentrace\"}\n", stdout);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
}
