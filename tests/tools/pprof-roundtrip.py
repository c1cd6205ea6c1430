#!/usr/bin/env python3
"""pprof-roundtrip.py [FILE]: print the sst(5) stream that
sst2pprof | pprof2sst should give back for the stream FILE (or standard
input), of one unit, worked out from sst2pprof(1) and pprof2sst(1)
alone.  What profile.proto cannot hold is left out: a location entry
keeps its file, and its line and column when they are whole numbers
other than 0 ("null" and the frame number go), and a record whose
entries then say nothing has an empty locations field.  Records that
become alike (thread, stack, locations) are one, in first-seen order,
their samples and nanoseconds summed.  A record's nanoseconds are its
samples times its period's (rounded) when it has one, else its weight's
rounded (counts and bytes
are whole, as they stay); its period is its own, else its nanoseconds when it has one
sample; merged records keep a period they all share.  The weight is
then the period added samples times from 0, as Python's sum() adds,
when samples times the period make the nanoseconds, else the
nanoseconds over 1e9 (counts and bytes as they are); the period is printed only in the first case.
"""
import re
import sys


def short(x):
    """The first %.15g, %.16g text that reads back as x, else %.17g, as
    sst writes numbers (from %.1g for subnormals)."""
    if x == 0:
        return '0'
    for p in range(15 if abs(x) >= 2.2250738585072014e-308 else 1, 17):
        s = '%.*g' % (p, x)
        if float(s) == x:
            return s
    return '%.17g' % x


def whole(s):
    return int(s) if re.fullmatch(r'-?[0-9]+', s) and int(s) != 0 else None


def entry(e):
    f, line, col, _ = e.rsplit(':', 3)
    line, col = whole(line), whole(col)
    said = f != '' or line is not None or col is not None
    return '%s:%s:%s:' % (f, '' if line is None else line,
                          '' if col is None else col), said


def main():
    src = open(sys.argv[1], encoding='latin-1') if len(sys.argv) > 1 \
        else sys.stdin
    order, tot, unit = [], {}, None
    for line in src:
        f = line.rstrip('\n').split('\t')
        n, w = int(f[1]), float(f[2])
        unit = unit or f[3]
        div = 1e9 if unit == 'seconds' else 1
        per = None if f[4] == '-' else float(f[4]) * div
        if per is not None and div == 1 and per != int(per):
            per = None
        per = None if per is None else round(per)
        locs = f[6]
        if locs:
            es = [entry(e) for e in locs.split(';')]
            locs = ';'.join(e for e, _ in es) if any(s for _, s in es) \
                else ''
        v = n * per if per is not None and n > 0 else round(w * div)
        if n == 0:
            per = None
        elif per is None and n == 1:
            per = v
        k = (f[0], f[5], locs)
        if k not in tot:
            order.append(k)
            tot[k] = [0, 0, 'unset']
        t = tot[k]
        t[0] += n
        t[1] += v
        if n > 0:
            t[2] = per if t[2] == 'unset' or t[2] == per else None
    for k in order:
        n, v, per = tot[k]
        if per not in (None, 'unset') and per != 0 and v == n * per:
            s = 0.0
            for _ in range(n):
                s += per / div
            w, p = short(s), short(per / div)
        elif per == 0 and v == 0:
            w, p = '0', '0'
        else:
            w, p = short(v / div), '-'
        print('\t'.join([k[0], str(n), w, unit, p, k[1], k[2]]))


main()
