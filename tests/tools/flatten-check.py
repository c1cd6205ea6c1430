#!/usr/bin/env python3
"""flatten-check.py [-s] JSON SST: check, independently of sst-flatten,
that the sst stream SST holds what JSON's sampled speedscope profiles
say: for each profile in order, one record per distinct stack in the
order the samples first use it, its sample count, its weight the
left-to-right sum of its samples' weights (as Python adds them), its
period the one weight they share, its stack the frame names root first
joined by ";" and its locations file:line:col:index joined the same
way.  With -s (sst-flatten -s), one record per sample, in order, with
its start: startValue plus the weights of the samples before it.  The whole
document is loaded with Python's json module.  Only what bench/genpyspy
writes is modelled: sampled profiles in seconds, distinct thread names,
names that need no escaping, and one weight per stack; anything else is
reported as not modelled.  Prints a line of totals and "same", or the
first difference, and exits 1 on a difference.
"""
import json
import sys

PLAIN = set(map(chr, range(32, 127))) - {"\\", ";"}


def fail(msg):
    print(msg)
    sys.exit(1)


def plain(s, what):
    if not set(s) <= PLAIN:
        fail("not modelled: %s %r needs escaping" % (what, s))
    return s


def num(v):
    return "null" if v is None else str(v)


def model(path, persample):
    with open(path, "rb") as f:
        doc = json.load(f)
    frames = doc["shared"]["frames"]
    names = [plain(fr["name"], "frame name") for fr in frames]
    locs = ["%s:%s:%s:%d" % (plain(fr.get("file", ""), "file"),
            num(fr.get("line")), num(fr.get("col")), i)
            for i, fr in enumerate(frames)]

    def text(stack):
        return (";".join(names[i] for i in stack),
                ";".join(locs[i] for i in stack))

    recs = []
    seen = set()
    for p in doc["profiles"]:
        if p.get("type") != "sampled" or p.get("unit") != "seconds":
            fail("not modelled: a profile not sampled in seconds")
        thread = plain(p["name"], "thread name")
        if thread in seen:
            fail("not modelled: thread name %r given twice" % thread)
        seen.add(thread)
        if len(p["samples"]) != len(p["weights"]):
            fail("not modelled: samples and weights of unequal counts")
        if persample:
            t = 0.0
            for stack, w in zip(p["samples"], p["weights"]):
                recs.append((thread, 1, w, w) + text(stack)
                            + (p.get("startValue", 0) + t,))
                t += w
            continue
        agg = {}
        for stack, w in zip(p["samples"], p["weights"]):
            key = tuple(stack)
            if key not in agg:
                agg[key] = [0, 0.0, w]
            a = agg[key]
            if a[2] != w:
                fail("not modelled: a stack of two weights")
            a[0] += 1
            a[1] += w
        for key, (n, tot, w) in agg.items():
            recs.append((thread, n, tot, w) + text(key))
    return recs


def stream(path, persample):
    recs = []
    nf = 8 if persample else 7
    with open(path, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            fld = raw.decode("utf-8").rstrip("\n").split("\t")
            if len(fld) != nf or fld[3] != "seconds":
                fail("%s:%d: not a %d-field record in seconds"
                     % (path, lineno, nf))
            recs.append((fld[0], int(fld[1]), float(fld[2]),
                         float(fld[4]), fld[5], fld[6])
                        + ((float(fld[7]),) if persample else ()))
    return recs


def main():
    args = sys.argv[1:]
    persample = args[:1] == ["-s"]
    if persample:
        args = args[1:]
    if len(args) != 2:
        sys.exit("usage: flatten-check.py [-s] JSON SST")
    want = model(args[0], persample)
    got = stream(args[1], persample)
    fields = ("thread", "samples", "weight", "period", "stack", "locations",
              "start")
    for i, (w, g) in enumerate(zip(want, got)):
        for k, name in enumerate(fields[:len(w)]):
            if w[k] != g[k]:
                fail("record %d: %s: want %r, got %r"
                     % (i + 1, name, w[k], g[k]))
    if len(want) != len(got):
        fail("want %d records, got %d" % (len(want), len(got)))
    print("%d threads, %d records, %d samples: same"
          % (len({r[0] for r in want}), len(want),
             sum(r[1] for r in want)))


main()
