#!/usr/bin/env python3
"""
stats-check.py STREAM TABLE: an independent model of sst-stats(1) -r.
Reads the sst stream STREAM (a record of one sample is one instance of
its weight, one of n samples with a period n instances of the period),
groups the instances by leaf frame, and computes with Python's own
arithmetic and its statistics module the total (summed in stream
order), count, mean, median, minimum, maximum and sample standard
deviation of each, sorted by total, heaviest first, ties in first-seen
order.  Compares them with the rows of TABLE (sst-stats -r output):
names, order, counts, totals, shares, means, medians, minimums and
maximums exactly, standard deviations within 1e-9 relative.  Prints one
summary line, or the first difference and exits 1.
"""
import statistics
import sys


def main():
    vals = {}
    grand = 0.0
    with open(sys.argv[1]) as f:
        for line in f:
            fl = line.rstrip('\n').split('\t')
            n = int(fl[1])
            if n == 0:
                continue
            leaf = fl[5].split(';')[-1]
            v = float(fl[2]) if n == 1 else float(fl[4])
            lst = vals.setdefault(leaf, [])
            for _ in range(n):
                lst.append(v)
                grand += v
    totals = {k: sum(v) for k, v in vals.items()}
    order = sorted(vals, key=lambda k: -totals[k])
    rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[2])]
    if len(rows) != len(order):
        print('rows: %d, want %d' % (len(rows), len(order)))
        sys.exit(1)
    ninst = 0
    for row, k in zip(rows, order):
        v = vals[k]
        want = [100 * totals[k] / grand if grand else 0, totals[k], len(v),
                totals[k] / len(v), statistics.median(v), min(v), max(v)]
        got = [float(row[0]), float(row[1]), int(row[2]), float(row[3]),
               float(row[4]), float(row[5]), float(row[6])]
        sd = statistics.stdev(v) if len(v) > 1 else 0.0
        if row[8] != k or got != want or \
                abs(float(row[7]) - sd) > 1e-9 * abs(sd):
            print('got %r, want %r %r %r' % (row, k, want, sd))
            sys.exit(1)
        ninst += len(v)
    print('%d names, %d instances: ok' % (len(order), ninst))


main()
