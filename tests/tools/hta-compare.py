#!/usr/bin/env python3
"""Compare a table of `sst-gpu --hta -F VIEW` with HolisticTraceAnalysis's.

usage: hta-compare.py VIEW EXPECTED.tsv ACTUAL.tsv

EXPECTED is one TSV of ../shared/corpus/pytorch/hta-expected (HTA's own
output, pandas' column names; queue.tsv with pandas' two-row header and
index names); ACTUAL is sst-gpu's.  Rows are matched by their key
columns (rank, name, stream, category, correlation); the two must have
the same keys, and every value must agree within the tolerances of issue
32: times within 1 us, percentages and ratios within 0.01, means and
deviations within 0.1% (relative), counts and queue lengths exactly.
Prints "ok" and exits 0, or the differences and exits 1.
"""
import sys

KEYS = {
    "temporal": ["rank"],
    "kernel-types": ["kernel_type"],
    "kernels": ["name", "rank"],
    "idle": ["rank", "stream", "idle_category"],
    "overlap": ["rank"],
    "launch": ["rank", "correlation"],
    "queue": ["rank", "stream"],
    "annotations": ["name", "rank"],
    "cpu-annotations": ["name", "rank"],
}
QUEUE = ["rank", "stream", "count", "mean", "std", "min", "25%", "50%",
         "75%", "max"]


def tolerance(col):
    """(absolute, relative) tolerance of a column."""
    if col in ("mean", "std", "stddev", "mean (us)"):
        return (1e-9, 1e-3)
    if "pctg" in col or col in ("percentage", "idle_time_ratio"):
        return (0.01 + 1e-9, 0)
    if col in ("count", "min", "max", "25%", "50%", "75%"):
        return (1e-9, 0)
    return (1 + 1e-9, 0)            # times, in microseconds


def read(path, view, expected):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if view == "queue" and expected:
        head, lines = QUEUE, lines[3:]
    else:
        head, lines = lines[0].split("\t"), lines[1:]
    rows = {}
    for ln in lines:
        v = ln.split("\t")
        if len(v) != len(head):
            sys.exit("%s: %d fields, not %d: %r" % (path, len(v), len(head),
                                                     ln))
        r = dict(zip(head, v))
        k = tuple(norm(r[c]) for c in KEYS[view])
        n = 1
        while k + (n,) in rows:
            n += 1
        rows[k + (n,)] = r
    return head, rows


def norm(s):
    """A key value: numbers compare as numbers ("0.0" is "0")."""
    try:
        x = float(s)
        return repr(x)
    except ValueError:
        return s


def same(a, b, col):
    if a == "" or b == "":
        return a == b
    try:
        x, y = float(a), float(b)
    except ValueError:
        return a == b
    ab, rel = tolerance(col)
    return abs(x - y) <= max(ab, rel * abs(y))


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in KEYS:
        sys.exit(__doc__)
    view = sys.argv[1]
    eh, exp = read(sys.argv[2], view, True)
    ah, act = read(sys.argv[3], view, False)
    bad = []
    if [c.replace(" (ns)", " (us)") for c in eh] != ah:
        bad.append("columns: expected %s, got %s" % (eh, ah))
    for k in sorted(set(exp) - set(act)):
        bad.append("missing row %s" % (k,))
    for k in sorted(set(act) - set(exp)):
        bad.append("extra row %s" % (k,))
    for k in sorted(set(exp) & set(act)):
        for c in eh:
            if c in act[k] and not same(act[k][c], exp[k][c], c):
                bad.append("%s %s: expected %s, got %s" %
                           (k, c, exp[k][c], act[k][c]))
    if bad:
        print("\n".join(bad[:20]))
        print("%d differences" % len(bad))
        sys.exit(1)
    print("ok")


main()
