#!/usr/bin/env python3
"""speedscope-check.py FOLDED JSON: check, independently of the program
that wrote JSON, that a speedscope document holds the folded stacks of
FOLDED.  FOLDED is read as "frame;frame;... count" lines (split at the
last space, a count being a decimal number, the first frame naming the
thread, which stays the first frame of its samples, and an offset
"+0xHEX" after a name dropped, as perf's symbol offsets are; other
lines are left out); JSON's samples, one
profile per thread, are summed by (profile, frames).  Prints the
threads and stacks of each side, the one weight per count that every
stack must share, and the first stacks that differ.
"""
import json
import re
import sys
from collections import defaultdict

NUM = re.compile(r"[0-9]+(\.[0-9]*)?")
OFFSET = re.compile(r"\+0x[0-9a-fA-F]+$")


def folded(path):
    tot = defaultdict(float)
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            head, sep, count = line.rpartition(" ")
            if not sep or not head or not NUM.fullmatch(count):
                continue
            frames = [OFFSET.sub("", fr) for fr in head.split(";")]
            tot[(frames[0], tuple(frames))] += float(count)
    return tot


def document(path):
    with open(path, "rb") as f:
        doc = json.loads(f.read().decode("utf-8", "replace"))
    names = [fr["name"] for fr in doc["shared"]["frames"]]
    tot = defaultdict(float)
    for p in doc["profiles"]:
        for s, w in zip(p["samples"], p["weights"]):
            tot[(p["name"], tuple(names[i] for i in s))] += w
    return tot


def main():
    a, b = folded(sys.argv[1]), document(sys.argv[2])
    keys = set(a) | set(b)
    per = set()
    bad = 0
    for k in sorted(keys):
        if k not in a or k not in b:
            if bad < 5:
                print("only in %s: %s" % ("folded" if k in a else "JSON",
                                          ";".join(k[1])))
            bad += 1
            continue
        per.add(float("%.6g" % (b[k] / a[k])) if a[k] else None)
    if bad:
        print("%d stacks differ" % bad)
    print("folded: %d threads, %d stacks; JSON: %d threads, %d stacks"
          % (len({k[0] for k in a}), len(a), len({k[0] for k in b}),
             len(b)))
    print("weight per count: %s" % (" ".join("%g" % p for p in
          sorted(x for x in per if x is not None)) or "none"))
    return 1 if bad or len(per) > 1 else 0


sys.exit(main())
