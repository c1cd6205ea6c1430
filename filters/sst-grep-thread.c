/*
 * sst-grep-thread: keep the records of an sst(5) stream whose thread
 * name, unescaped, contains a pattern (with -E: matches an extended
 * regular expression; with -x: is it, whole, or its short name), case
 * folded on both sides as Python's str.lower() folds all of Unicode,
 * as the reference's --thread option does (-I: case-sensitive).  Only
 * the thread field is matched.  Records pass through unchanged, in the
 * text form, or in the compact form with -z (sst(5)).
 */
#define _GNU_SOURCE		/* memmem */
#include <err.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unicase.h>
#include <unistd.h>

#include "util.h"
#include "buf.h"
#include "esc.h"
#include "rec.h"
#include "recread.h"
#include "chain.h"
#include "compact.h"

struct grep {
	char		*pat;		/* folded unless -I */
	size_t		 patlen;
	regex_t		 re;
	int		 Eflag, Iflag, vflag, xflag;
	struct buf	 name, low, last;	/* last: escaped, cached */
	int		 lastok;
	struct cpw	*cw;			/* -z */
};

static void	lower(struct buf *, const char *, size_t);
static void	fold(struct buf *, const char *, size_t, int);
static int	has(struct grep *, const char *, size_t);
static int	match(struct grep *, const struct sst_rec *);
static void	grepfile(struct grep *, const char *);
static __dead void usage(int);

/*
 * Append s[0..n) lower-cased as Python's str.lower() does (final sigma
 * included), or ASCII only if it is no UTF-8.
 */
static void
lower(struct buf *b, const char *s, size_t n)
{
	uint8_t *r;
	size_t i, len;

	if ((r = u8_tolower((const uint8_t *)s, n, NULL, NULL, NULL,
	    &len)) != NULL) {
		buf_add(b, r, len);
		free(r);
		return;
	}
	for (i = 0; i < n; i++)
		buf_addc(b, s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 'a' - 'A' :
		    s[i]);
}

/*
 * Into b (reset): s[0..n) lower-cased; with keepesc (a regular
 * expression) each backslash and the byte after it stay as they are,
 * and the text between such escapes is lower-cased piece by piece.
 */
static void
fold(struct buf *b, const char *s, size_t n, int keepesc)
{
	const char *p, *e = s + n, *q;

	buf_reset(b);
	for (p = s; p < e; p = q + 2) {
		if (!keepesc || (q = memchr(p, '\\', (size_t)(e - p))) == NULL)
			q = e;
		lower(b, p, (size_t)(q - p));
		if (q + 1 >= e) {
			if (q < e)
				buf_addc(b, '\\');
			break;
		}
		buf_add(b, q, 2);
	}
}

/* Whether s[0..n), folded already, matches as the options say. */
static int
has(struct grep *g, const char *s, size_t n)
{
	regmatch_t m;

	if (g->Eflag) {
		m.rm_so = 0;
		m.rm_eo = (regoff_t)n;
		return regexec(&g->re, s, 1, &m, REG_STARTEND) == 0;
	}
	if (g->xflag)
		return n == g->patlen && memcmp(s, g->pat, n) == 0;
	if (g->patlen == 0)
		return 1;
	return n >= g->patlen && memmem(s, n, g->pat, g->patlen) != NULL;
}

/* Whether the thread of r matches, before -v. */
static int
match(struct grep *g, const struct sst_rec *r)
{
	const char *s, *sh;
	size_t n, shn;

	if (g->last.len == r->threadlen &&
	    memcmp(g->last.data, r->thread, r->threadlen) == 0 &&
	    g->last.data != NULL)
		return g->lastok;
	buf_reset(&g->last);
	buf_add(&g->last, r->thread, r->threadlen);
	buf_reset(&g->name);
	buf_grow(&g->name, r->threadlen + 1);
	g->name.len = esc_decode(g->name.data, r->thread, r->threadlen);
	g->name.data[g->name.len] = '\0';	/* as regexec() reads it */
	s = g->name.data;
	n = g->name.len;
	if (!g->Iflag) {
		fold(&g->low, s, n, 0);
		s = g->low.data;
		n = g->low.len;
	}
	if ((g->lastok = has(g, s, n)) == 0 && g->xflag) {
		sh = chain_shortthread(s, n, &shn);
		if (shn != n)
			g->lastok = has(g, sh, shn);
	}
	return g->lastok;
}

/* Copy the matching records of one input to stdout. */
static void
grepfile(struct grep *g, const char *path)
{
	struct sst_reader *rd;
	struct sst_rec r;
	const char *line;
	size_t len;
	int fd;

	fd = xopen(path);
	rd = rec_open(fd, path);
	/* Only the thread is matched; rec_line() builds the rest. */
	rec_nostacks(rd);
	while (xrec_read(rd, &r)) {
		if (match(g, &r) == g->vflag)
			continue;
		if (g->cw != NULL) {
			if (cpw_write(g->cw, &r) == -1)
				errx(1, "%s", cpw_error(g->cw));
		} else {
			line = rec_line(rd, &len);
			fwrite(line, 1, len, stdout);
			putchar('\n');
		}
	}
	rec_close(rd);
	if (fd != STDIN_FILENO)
		close(fd);
}

static __dead void
usage(int help)
{
	xusage(help,
	    "usage: sst-grep-thread [-EhIvxz] pattern [file ...]\n");
}

int
main(int argc, char *argv[])
{
	struct grep g;
	struct buf re;
	char msg[256];
	int ch, i, e;

	sst_init();
	memset(&g, 0, sizeof(g));
	sst_longhelp(argc, argv, usage);
	while ((ch = getopt(argc, argv, "EhIvxz")) != -1) {
		switch (ch) {
		case 'E':
			g.Eflag = 1;
			break;
		case 'h':
			usage(1);
		case 'I':
			g.Iflag = 1;
			break;
		case 'v':
			g.vflag = 1;
			break;
		case 'x':
			g.xflag = 1;
			break;
		case 'z':
			g.cw = cpw_new(stdout);
			break;
		default:
			usage(0);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage(0);
	buf_init(&g.low);
	if (g.Iflag) {
		g.pat = argv[0];
		g.patlen = strlen(g.pat);
	} else {
		fold(&g.low, argv[0], strlen(argv[0]), g.Eflag);
		g.pat = xmemdup(g.low.data, g.low.len);
		g.patlen = g.low.len;
	}
	if (g.Eflag) {
		buf_init(&re);
		buf_printf(&re, g.xflag ? "^(%s)$" : "%s", g.pat);
		if ((e = regcomp(&g.re, re.data, REG_EXTENDED | REG_NOSUB))
		    != 0) {
			regerror(e, &g.re, msg, sizeof(msg));
			errx(2, "%s: %s", argv[0], msg);
		}
		buf_free(&re);
	}
	buf_init(&g.name);
	buf_init(&g.last);
	if (argc == 1)
		grepfile(&g, NULL);
	for (i = 1; i < argc; i++)
		grepfile(&g, argv[i]);
	if (g.Eflag)
		regfree(&g.re);
	if (!g.Iflag)
		free(g.pat);
	buf_free(&g.name);
	buf_free(&g.low);
	buf_free(&g.last);
	cpw_free(g.cw);
	xfshut(stdout, "stdout");
	return 0;
}
