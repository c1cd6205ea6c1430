/*
 * pprof.h: pprof's profile.proto (github.com/google/pprof,
 * proto/profile.proto), read and written by hand: protobuf varints,
 * length-delimited fields, packed and unpacked repeated fields, unknown
 * fields skipped, every length checked against the buffer.  Used by
 * sst2pprof and pprof2sst; no protobuf compiler.
 */
#ifndef PPROF_H
#define PPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "buf.h"
#include "rec.h"

struct buf;

/* --- protobuf, the wire format --- */
enum {
	PB_VARINT = 0,
	PB_FIXED64 = 1,
	PB_LEN = 2,
	PB_FIXED32 = 5
};
/* One field of a message. */
struct pb_field {
	uint32_t	 num;
	int		 wire;
	uint64_t	 v;		/* varint and fixed values */
	const uint8_t	*data;		/* PB_LEN: the bytes */
	size_t		 len;
};
/* A message being read: [p, end) of a buffer starting at base. */
struct pb {
	const uint8_t	*base;
	const uint8_t	*p;
	const uint8_t	*end;
};
void	 pb_init(struct pb *, const uint8_t *, const uint8_t *, size_t);
/*
 * The next field into f: 1, 0 at the end, -1 on malformed bytes (the
 * message, with its offset from base, in err[0..n)).
 */
int	 pb_next(struct pb *, struct pb_field *, char *, size_t);
/* A varint at *p before end, *p moved past it; 0 ok, -1 if malformed. */
int	 pb_varint(const uint8_t **, const uint8_t *, uint64_t *);

/* Appending: a varint, a tag, a varint field, a length-delimited one. */
void	 pb_putvarint(struct buf *, uint64_t);
void	 pb_puttag(struct buf *, uint32_t, int);
void	 pb_putuint(struct buf *, uint32_t, uint64_t);
void	 pb_putbytes(struct buf *, uint32_t, const void *, size_t);

/* --- profile.proto, decoded --- */
struct pprof_vt {
	int64_t		 type, unit;	/* string table indices */
	size_t		 off;
};
struct pprof_line {
	uint64_t	 func;
	int64_t		 line, col;
};
struct pprof_loc {
	uint64_t	 id, mapping, addr;
	size_t		 off;		/* of its message, for messages */
	size_t		 line0, nline;	/* lines[line0 .. line0 + nline) */
};
struct pprof_func {
	uint64_t	 id;
	size_t		 off;
	int64_t		 name, sysname, file;
};
struct pprof_map {
	uint64_t	 id;
	size_t		 off;
	int64_t		 file;
};
/* A message's bytes within the profile. */
struct pprof_span {
	size_t		 off, len;
};
struct pprof {
	const uint8_t	*data;
	size_t		 len;
	struct pprof_vt	*st;		/* sample_type */
	size_t		 nst;
	struct pprof_vt	 ptype;		/* period_type */
	int		 hasptype;
	int64_t		 period;
	int64_t		 defst;		/* default_sample_type */
	struct pprof_span *str;		/* string_table */
	size_t		 nstr;
	struct pprof_span *smp;		/* sample messages, undecoded */
	size_t		 nsmp;
	struct pprof_loc *loc;
	size_t		 nloc;
	struct pprof_line *line;
	size_t		 nline;
	struct pprof_func *fn;
	size_t		 nfn;
	struct pprof_map *map;
	size_t		 nmap;
	size_t		*locix, *fnix, *mapix;	/* indices sorted by id */
};
/*
 * Decode the profile data[0..len) (not copied; it must outlive p): the
 * tables whole, the samples as spans for pprof_sample().  0 ok, -1
 * with "offset N: what" in err[0..n).  Ids are checked (non-zero,
 * unique, referring to something), string indices checked in range.
 */
int	 pprof_decode(struct pprof *, const uint8_t *, size_t, char *,
	    size_t);
void	 pprof_free(struct pprof *);
/* String i of the table (checked by the caller), its length in *len. */
const char *pprof_str(const struct pprof *, int64_t, size_t *);
/* Index of the location, function or mapping of an id, or -1. */
long	 pprof_findloc(const struct pprof *, uint64_t);
long	 pprof_findfn(const struct pprof *, uint64_t);
long	 pprof_findmap(const struct pprof *, uint64_t);
/* One sample, decoded into arrays that grow as needed. */
struct pprof_label {
	int64_t		 key, str, num, unit;
};
struct pprof_sample {
	size_t		*loc;		/* location indices, leaf first */
	size_t		 nloc, locap;
	int64_t		*val;
	size_t		 nval, valcap;
	struct pprof_label *lab;
	size_t		 nlab, labcap;
};
/* Decode sample i into s; 0 ok, -1 with the message in err. */
int	 pprof_sample(const struct pprof *, size_t, struct pprof_sample *,
	    char *, size_t);
void	 pprof_sample_free(struct pprof_sample *);

/* --- pprofw.c: sst records as a profile (sst2pprof) --- */
struct sst_rec;
struct pprofw;
struct pprofw *pprofw_new(void);
/* Add a record; 0, or -1 with a static message in *why. */
int	 pprofw_add(struct pprofw *, const struct sst_rec *, const char **);
/* The profile, gzip-compressed, to the stream called name; 0 or -1. */
int	 pprofw_put(struct pprofw *, FILE *, const char *);
void	 pprofw_free(struct pprofw *);

/* --- pprofr.c: a profile's samples as sst records (pprof2sst) --- */
struct pprofr;
/*
 * For the decoded profile, the value of sample type x (a name or an
 * index from 0; NULL: pprof's default); NULL with a message in err when
 * there is no such type.
 */
struct pprofr *pprofr_new(const struct pprof *, const char *, char *,
	    size_t);
/* Add sample i to its record; 0, or -1 with "offset N: ..." in err. */
int	 pprofr_add(struct pprofr *, size_t, char *, size_t);
/* Write the records, in first-seen order. */
void	 pprofr_put(struct pprofr *, FILE *);
void	 pprofr_free(struct pprofr *);

#endif
