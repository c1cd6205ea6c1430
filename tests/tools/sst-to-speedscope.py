#!/usr/bin/env python3
"""sst-to-speedscope.py [FILE]: write an sst(5) stream (text form) as a
speedscope document, to run a reference that reads speedscope (Ray's
analyze_pyspy_profile.py) on the hand-written streams of the tests and
compare its report with the program's.  Independent of sst: written
from sst(5) alone.  One sampled profile per thread, in first-seen order
(a thread of 0 samples gets an empty profile); a frame per distinct
(name, location) pair, its file and line taken from the location
(file:line:col:index, split at the last three colons; no location, no
file); a record of N samples becomes N samples of its period, or, when
the period is "-", one sample of its weight and N - 1 of 0 (the sums
and counts are kept, the single weights are not: say so where it
matters).  Names are unescaped; \\e is the empty name.
"""
import json
import sys


def unescape(s):
    if s == "\\e":
        return ""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = s[i + 1]
        if n == "x":
            out.append(chr(int(s[i + 2:i + 4], 16)))
            i += 4
            continue
        out.append({"\\": "\\", "t": "\t", "n": "\n", "r": "\r",
                    "e": ""}[n])
        i += 2
    return "".join(out)


def main():
    fh = open(sys.argv[1], encoding="utf-8", errors="surrogateescape") \
        if len(sys.argv) > 1 and sys.argv[1] != "-" else sys.stdin
    frames, fidx, profs = [], {}, {}
    for line in fh:
        f = line.rstrip("\n").split("\t")
        thread, n, w, unit, period, stack = f[0], int(f[1]), float(f[2]), \
            f[3], f[4], f[5]
        locs = f[6].split(";") if len(f) > 6 and f[6] else []
        p = profs.setdefault(thread, {"type": "sampled",
                                      "name": unescape(thread),
                                      "unit": "seconds" if unit == "seconds"
                                      else "none",
                                      "startValue": 0, "endValue": 0,
                                      "samples": [], "weights": []})
        if n == 0:
            continue
        names = stack.split(";") if stack != "" else []
        st = []
        for i, nm in enumerate(names):
            loc = locs[i] if locs else ""
            key = (nm, loc)
            if key not in fidx:
                fr = {"name": unescape(nm)}
                if loc:
                    file_, line_, col, _ = loc.rsplit(":", 3)
                    fr["file"] = unescape(file_)
                    if line_ not in ("", "null"):
                        fr["line"] = int(line_)
                fidx[key] = len(frames)
                frames.append(fr)
            st.append(fidx[key])
        ws = [float(period)] * n if period != "-" else [w] + [0.0] * (n - 1)
        p["samples"].extend([st] * n)
        p["weights"].extend(ws)
    doc = {"shared": {"frames": frames}, "profiles": list(profs.values())}
    json.dump(doc, sys.stdout)


if __name__ == "__main__":
    main()
