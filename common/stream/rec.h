/*
 * rec.h: the sst stream (rec.c).
 */
#ifndef REC_H
#define REC_H

#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"
#include "fmt.h"

struct sst_rec {
	const char	*thread;	/* escaped, as in the stream */
	size_t		 threadlen;
	uint64_t	 samples;
	double		 weight;
	enum sst_unit	 unit;
	int		 hasperiod;
	double		 period;
	const char	*stack;		/* escaped frames joined by ';' */
	size_t		 stacklen;
	const char	*locs;		/* escaped file:line:col joined
					   by ';' */
	size_t		 locslen;
	int		 hasstart;	/* the optional eighth field */
	double		 start;		/* seconds from the profile's start */
	const struct sst_frames *frames; /* or NULL: see below */
};
/*
 * A producer may hand out a record's stack as frame numbers of its own
 * instead of stack and locs (empty then): the compact writer (compact.h)
 * writes each frame's text once, got from text().
 */
struct sst_frames {
	const uint32_t	*ids;		/* root first */
	size_t		 n;
	void		(*text)(const void *, uint32_t, const char **,
			    size_t *, const char **, size_t *);
	const void	*src;		/* text()'s first argument */
	uint64_t	 serial;	/* of the numbering (compact.h) */
};
const char *rec_unitname(enum sst_unit);
int	 rec_parseunit(const char *, size_t, enum sst_unit *);
void	 rec_write(FILE *, const struct sst_rec *);
/* Fields samples..period of r, TAB-separated, into buf; the length. */
#define REC_NUMSZ	(3 * FMTBUF + 32)
size_t	 rec_nums(char *, const struct sst_rec *);
/* Parse one line; 0 ok, else -1 with a static message in *why. */
int	 rec_parse(char *, size_t, struct sst_rec *, const char **);
/* Its parts: fields thread..period (f[0..5)); the start field (NULL:
 * none) and the checks of a whole record's numbers (compact.c). */
int	 rec_head(char *const *, const size_t *, struct sst_rec *,
	    const char **);
int	 rec_tail(const char *, size_t, struct sst_rec *, const char **);
/* Number of frames in a stack/locs field, and the last one. */
size_t	 rec_nframes(const char *, size_t);
const char *rec_last(const char *, size_t, size_t *);
/* acc plus the weight of r, sample by sample as Python sums it. */
double	 rec_addw(double, const struct sst_rec *);

#endif /* REC_H */
