/*
 * fuzz_json: the JSON pull tokenizer (common/json/json.c).  Each input is
 * tokenized twice, from memory (json_open_mem) and from a file
 * descriptor that returns 1 to 16 bytes a read (json_open), and both
 * walks must agree token for token: type, text, position, and the
 * error message and position.  The walk also checks that every token's
 * text is NUL-terminated, that numbers convert, that the depth stays in
 * range, and that after EOF or an error every call returns the same.
 * Arrays and objects that start at a token count divisible by 7 are
 * skipped with json_skip().  From memory, the numbers after a number
 * that are spelled the same are skipped with json_skipsame() and must
 * be the tokens that the other walk reads one by one; so must runs of
 * arrays of numbers in key form (as a sample of speedscope's) that
 * json_rawarrays() finds and json_rawtake() skips.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "fuzz.h"

struct walk {
	const uint8_t	*data;
	size_t		 size;
	int		 fd;		/* -1: read from memory */
	uint64_t	 hash;		/* of everything seen */
	unsigned long long ntok;
	enum json_tok	 last;
	char		 err[160];
};

static void	skipsame(struct walk *, struct json *, const char *, size_t,
		    const unsigned long long *, int);
static void	seen(struct walk *, enum json_tok, int, const char *, size_t,
		    unsigned long long, unsigned long long, unsigned long long);
static int	keyform(const char *, size_t);
static void	rawtake(struct walk *, struct json *);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Mix n bytes at p into h (FNV-1a). */
static uint64_t
mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n-- > 0)
		h = (h ^ *s++) * 0x100000001b3ULL;
	return h;
}

/* Mix in a token as the walk does: kind, depth, text, place. */
static void
seen(struct walk *w, enum json_tok t, int depth, const char *s, size_t len,
    unsigned long long off, unsigned long long line, unsigned long long col)
{
	unsigned long long pos[3];

	pos[0] = off;
	pos[1] = line;
	pos[2] = col;
	w->ntok++;
	w->hash = mix(w->hash, &t, sizeof(t));
	w->hash = mix(w->hash, &depth, sizeof(depth));
	w->hash = mix(w->hash, s, len);
	w->hash = mix(w->hash, pos, sizeof(pos));
}

/*
 * From memory, the numbers spelled as the one just read (text s, len,
 * at pos) that json_skipsame() skips are mixed in as the tokens that
 * the walk by reads, which does not skip, sees: one after another, each
 * len + 1 bytes on.
 */
static void
skipsame(struct walk *w, struct json *j, const char *s, size_t len,
    const unsigned long long *pos, int depth)
{
	unsigned long long at[3];
	size_t i, k;

	k = json_skipsame(j, 1 + (size_t)(w->ntok % 5) * 1000);
	for (i = 1; i <= k; i++) {
		at[0] = pos[0] + i * (len + 1);
		at[1] = pos[1];
		at[2] = pos[2] + i * (len + 1);
		seen(w, JT_NUM, depth, s, len, at[0], at[1], at[2]);
	}
	if (k > 0 && (json_offset(j) != at[0] || json_line(j) != at[1] ||
	    json_col(j) != at[2]))
		fuzz_bug("json_skipsame: the last token read is not at the "
		    "last one skipped");
	if (k > 0 && (json_text(j, &i) != s || i != len))
		fuzz_bug("json_skipsame: the token's text changed");
}

/* Whether s[0..len) is numbers without a sign, '.', exponent or 0 lead. */
static int
keyform(const char *s, size_t len)
{
	size_t i, d = 0;

	for (i = 0; i < len; i++)
		if (s[i] >= '0' && s[i] <= '9') {
			if (d == 1 && s[i - 1] == '0')
				return 0;
			d++;
		} else if (s[i] == ',' && d > 0 && i + 1 < len)
			d = 0;
		else
			return 0;
	return len == 0 || d > 0;
}

/*
 * From memory: the arrays of numbers in key form that json_rawarrays()
 * finds from here on, skipped with json_rawtake() and mixed in as the
 * tokens that the other walk reads, json_skip() where it skips.
 */
static void
rawtake(struct walk *w, struct json *j)
{
	struct json_raw r[4];
	unsigned long long off, line, col;
	size_t n, k, i, b;
	int depth = json_depth(j);

	n = json_rawarrays(j, r, 1 + (size_t)(w->ntok % 4));
	for (k = 0; k < n && keyform(r[k].p, r[k].len); k++) {
		off = json_rawplace(j, &r[k], &line, &col);
		seen(w, JT_ARR, depth + 1, "", 0, off, line, col);
		if (w->ntok % 7 == 0) {
			w->hash = mix(w->hash, "skip", 4);
			continue;
		}
		for (i = 0; i < r[k].len; i = b + 1) {
			for (b = i; b < r[k].len && r[k].p[b] != ','; b++)
				continue;
			seen(w, JT_NUM, depth + 1, r[k].p + i, b - i,
			    off + 1 + i, line, col + 1 + i);
		}
		seen(w, JT_ARR_END, depth, "", 0, off + 1 + r[k].len, line,
		    col + 1 + r[k].len);
	}
	if (json_rawtake(j, r, k) == -1)
		fuzz_bug("json_rawtake: not where json_rawarrays() was");
	if (k > 0 && (json_offset(j) != off + 1 + r[k - 1].len ||
	    json_line(j) != line || json_col(j) != col + 1 + r[k - 1].len ||
	    json_depth(j) != depth))
		fuzz_bug("json_rawtake: the last token read is not at the "
		    "last array taken");
}

static void
walk(void *arg)
{
	struct walk *w = arg;
	struct json *j;
	enum json_tok t;
	unsigned long long pos[3];
	const char *s;
	size_t len;
	long long ll;
	double d;
	int depth;

	if (w->fd == -1)
		j = json_open_mem(w->data, w->size, "mem");
	else
		j = json_open(w->fd, "mem");
	w->hash = 0xcbf29ce484222325ULL;
	for (;;) {
		if (w->fd == -1)
			rawtake(w, j);
		t = json_next(j);
		depth = json_depth(j);
		if (depth < 0 || depth > JSON_MAXDEPTH)
			fuzz_bug("depth %d", depth);
		s = json_text(j, &len);
		if (s[len] != '\0')
			fuzz_bug("token text not NUL-terminated");
		if (t == JT_NUM) {
			if (json_double(j, &d) == 0 && d != d)
				fuzz_bug("json_double gave NaN");
			(void)json_int(j, &ll);
		}
		pos[0] = json_offset(j);
		pos[1] = json_line(j);
		pos[2] = json_col(j);
		if (pos[1] == 0 || pos[2] == 0)
			fuzz_bug("line or column 0");
		seen(w, t, depth, s, len, pos[0], pos[1], pos[2]);
		if (t == JT_ERROR || t == JT_EOF)
			break;
		if (t == JT_NUM && w->fd == -1)
			skipsame(w, j, s, len, pos, depth);
		if ((t == JT_ARR || t == JT_OBJ || t == JT_KEY) &&
		    w->ntok % 7 == 0) {
			if (json_skip(j, t) == -1 && json_next(j) != JT_ERROR)
				fuzz_bug("json_skip failed without an error");
			w->hash = mix(w->hash, "skip", 4);
		}
	}
	w->last = t;
	snprintf(w->err, sizeof(w->err), "%s", json_errmsg(j));
	if (t == JT_ERROR)
		w->hash = mix(w->hash, w->err, strlen(w->err));
	if (json_next(j) != t || json_next(j) != t)
		fuzz_bug("token %d not repeated after the end", t);
	json_close(j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct walk a, b;

	/*
	 * A file that starts as a zstd skippable frame ("[*M\x18" is
	 * one) is decompressed by the file reader and not from memory:
	 * the two cannot agree on it.
	 */
	if (size >= 4 && (data[0] & 0xf0) == 0x50 && data[1] == 0x2a &&
	    data[2] == 0x4d && data[3] == 0x18)
		return 0;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.data = b.data = data;
	a.size = b.size = size;
	a.fd = -1;
	fuzz_chunk = 0;
	if (fuzz_call(walk, &a, 1) != -1)
		fuzz_bug("walk exited: %s", fuzz_msg);
	b.fd = fuzz_input(data, size);
	fuzz_chunk = 1 + (int)(size % 16);
	if (fuzz_call(walk, &b, 1) != -1)
		fuzz_bug("walk exited: %s", fuzz_msg);
	fuzz_chunk = 0;
	if (a.hash != b.hash || a.last != b.last || a.ntok != b.ntok)
		fuzz_bug("memory and %d-byte reads differ: %llu tokens, %s / "
		    "%llu tokens, %s", 1 + (int)(size % 16), a.ntok, a.err,
		    b.ntok, b.err);
	return 0;
}
