"""Random traces against a model of temporal and launch (issue 32).

Each trace: 1 to 4 GPU streams, each stream's kernels in time order
(overlapping or with gaps, some streams quiet after one event), the
streams interleaved at random; computation, communication and memory
kernels; launch calls placed before or after their kernels, some
correlations with two kernels, orphan kernels and calls without a
kernel; one trace in four has a stream out of order (the fallback).
The model merges the intervals sorted by start as HTA does and joins
calls and kernels by correlation (every pair); sst-gpu's temporal must
equal it exactly and its launch rows as a multiset.  Times are whole
microseconds, so the exact figures are integers.  Prints ok N.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

NAMES = ["gemm", "ncclKernel_AllReduce", "Memcpy HtoD"]


def trace(rng):
    streams = rng.randint(1, 4)
    per = []
    for s in range(streams):
        t = rng.randint(0, 50)
        evs = []
        n = 1 if rng.random() < 0.2 else rng.randint(1, 40)
        for _ in range(n):
            d = rng.randint(1, 30)
            evs.append({"ph": "X", "cat": "kernel",
                        "name": rng.choice(NAMES), "ts": t, "dur": d,
                        "args": {"stream": 7 + s}})
            t += rng.randint(0, 40)
        if rng.random() < 0.25 and len(evs) > 2:
            i = rng.randrange(len(evs) - 1)
            evs[i], evs[i + 1] = evs[i + 1], evs[i]
        per.append(evs)
    if rng.random() < 0.1:
        # Longer than sst-gpu's window of 4,096 intervals, and one time
        # in two an event read last that starts before all of them.
        per.append([{"ph": "X", "cat": "kernel", "name": "gemm",
                     "ts": 2 * i + 60, "dur": 1, "args": {"stream": 30}}
                    for i in range(4200)])
        if rng.random() < 0.5:
            late = {"ph": "X", "cat": "kernel", "name": "gemm",
                    "ts": 1, "dur": 3, "args": {"stream": 31}}
        else:
            late = None
    else:
        late = None
    out = []
    while any(per):
        k = rng.choice([i for i, p in enumerate(per) if p])
        out.append(per[k].pop(0))
    if late:
        out.append(late)
    corr = 0
    before = [[] for _ in range(len(out) + 1)]    # calls before out[i]
    for p, e in enumerate(out):
        r = rng.random()
        if r < 0.1:
            continue        # orphan kernel
        if r < 0.2 and corr > 0:
            e["args"]["correlation"] = corr     # a second kernel
            continue
        corr += 1
        e["args"]["correlation"] = corr
        call = {"ph": "X", "cat": "cuda_runtime",
                "name": "cudaLaunchKernel", "ts": e["ts"] -
                rng.randint(0, 20), "dur": rng.randint(1, 10),
                "args": {"correlation": corr}}
        j = max(0, min(len(out), p + rng.randint(-5, 3)))
        before[j].append(call)
    out = [x for i, e in enumerate(out) for x in before[i] + [e]] + \
        before[len(out)]
    for _ in range(rng.randint(0, 2)):
        corr += 1
        out.insert(rng.randint(0, len(out)), {"ph": "X",
                   "cat": "cuda_runtime", "name": "cudaLaunchKernel",
                   "ts": 0, "dur": 1, "args": {"correlation": corr}})
    return out


def union(iv):
    busy, cur = 0, None
    for s, e in sorted(iv):
        if cur and s <= cur[1]:
            cur[1] = max(cur[1], e)
            continue
        if cur:
            busy += cur[1] - cur[0]
        cur = [s, e]
    return busy + (cur[1] - cur[0] if cur else 0)


def model(evs, label):
    g = [e for e in evs if "stream" in e["args"]]
    iv = [(e["ts"], e["ts"] + e["dur"]) for e in g]
    kt = max(e for _, e in iv) - min(s for s, _ in iv)
    busy = union(iv)
    comp = union([(e["ts"], e["ts"] + e["dur"]) for e in g
                  if e["name"] == "gemm"])
    idle = kt - busy
    row = [label, idle, comp, kt - comp - idle, kt]
    pct = ["%.2f" % (100 * x / kt) if kt else "" for x in
           (idle, comp, kt - comp - idle)]
    temporal = "\t".join(str(x) for x in row + pct)
    calls = [e for e in evs if "stream" not in e["args"]]
    bycorr = {}
    for k in g:
        bycorr.setdefault(k["args"].get("correlation"), []).append(k)
    launch = []
    for c in calls:
        for k in bycorr.get(c["args"]["correlation"], []):
            cend = c["ts"] + c["dur"]
            launch.append("\t".join(str(x) for x in (
                label, c["args"]["correlation"], c["dur"], k["dur"],
                max(0, k["ts"] - cend))))
    return temporal, sorted(launch)


def main():
    rng = random.Random(32)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for i in range(n):
            evs = trace(rng)
            path = os.path.join(d, "t%d.json" % i)
            with open(path, "w") as f:
                json.dump({"traceEvents": evs}, f)
            temporal, launch = model(evs, "t%d" % i)
            out = subprocess.run(["sst-gpu", "-F", "temporal", "-F",
                                  "launch", path], capture_output=True,
                                 text=True, check=True).stdout
            t, l = out.split("\n\n")
            t = t.split("\n")[1]
            l = sorted(l.split("\n")[1:-1])
            if t != temporal or l != launch:
                bad += 1
                print("t%d: temporal %r, model %r; launch %s" % (
                    i, t, temporal, "same" if l == launch else "differs"))
    print("ok %d" % n if bad == 0 else "%d of %d differ" % (bad, n))


main()
