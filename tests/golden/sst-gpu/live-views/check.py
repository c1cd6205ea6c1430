"""Random traces against a model of the views sst-gpu summarises as read
besides temporal and launch (issue 32, the memory clause): kernels,
kernel-types and overlap.

Each trace: 1 to 4 GPU streams of computation, communication and memory
kernels (and cuda_sync events, which are no kernels), each stream in
time order, the streams interleaved at random; times in nanoseconds
(three decimals of a microsecond).  One trace in three is then shuffled
within a window (each event moved back by up to 40 places), one in
ten has a stream of 4,200 kernels (more than sst-gpu's window of 4,096
intervals) and, one time in two, a kernel read last that starts before
all the others (temporal, run in the same pass, falls back on its rows).
The model computes each view as the row-keeping path does, from the
definitions: kernels groups the kernels by name in trace order (Welford:
d = v - mean; mean += d / n; m2 += d * (v - mean), in doubles, as
Python's floats are), stddev sqrt(m2 / (n - 1)), values in ns printed in
us; rows by sum descending, then name.  kernel-types and overlap merge
each type's kernels sorted by start as HTA does (one that starts at or
before the end so far joins it), then cut the time at every end of a
merged interval: each piece is covered by a set of types, and
kernel-types sums the pieces by set (rows by sum descending, the
smaller set mask first of equal sums; percentages of the total, %.1f),
overlap divides the time of computation and communication together by
that of communication (%.2f; nothing without communication kernels).
sst-gpu's tables must equal the model's byte for byte.  Prints ok N.
"""
import bisect
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), "..", "..", "..", "tools"))
import gpuqmodel  # noqa: E402

NAMES = ["gemm", "ncclKernel_AllReduce", "Memcpy HtoD", "relu",
         "Memset (Device)"]


def us(ns):
    """ns as sst-gpu prints microseconds: up to three decimals."""
    s = "-" if ns < 0 else ""
    ns = abs(ns)
    q, f = divmod(ns, 1000)
    return s + str(q) + ("." + ("%03d" % f).rstrip("0") if f else "")


def trace(rng):
    per = []
    for s in range(rng.randint(1, 4)):
        t = rng.randint(0, 50000)
        evs = []
        for _ in range(1 if rng.random() < 0.2 else rng.randint(1, 60)):
            d = rng.randint(0, 30000)
            sync = rng.random() < 0.05
            evs.append((t, d, "Event Sync" if sync else rng.choice(NAMES),
                        7 + s, sync))
            t += rng.randint(0, 40000)
        per.append(evs)
    long = rng.random() < 0.1
    if long:
        per.append([(2000 * i + 60000, 1000 + i % 7, "gemm", 30, False)
                    for i in range(4200)])
    out = []
    while any(per):
        k = rng.choice([i for i, p in enumerate(per) if p])
        out.append(per[k].pop(0))
    if rng.random() < 0.33:
        for i in range(len(out)):
            j = max(0, i - rng.randint(0, 40))
            out.insert(j, out.pop(i))
    if long and rng.random() < 0.5:
        out.append((1000, 3000, "gemm", 31, False))
    return out


def dump(evs, path):
    with open(path, "w") as f:
        f.write('{"traceEvents": [\n')
        f.write(",\n".join(json.dumps({
            "ph": "X", "cat": "cuda_sync" if e[4] else "kernel",
            "name": e[2], "ts": float(e[0]) / 1000 if e[0] % 1000 else
            e[0] // 1000, "dur": float(e[1]) / 1000 if e[1] % 1000 else
            e[1] // 1000, "args": {"stream": e[3]}}) for e in evs))
        f.write("\n]}\n")


def ktype(name):
    if name.startswith("nccl") or "ncclKernel" in name:
        return "COMMUNICATION"
    if "Memcpy" in name or "Memset" in name:
        return "MEMORY"
    return "COMPUTATION"


def kernels(evs, label):
    agg = gpuqmodel.stats((name, d) for ts, d, name, _, sync in evs
                          if not sync)
    return ["\t".join([name] + gpuqmodel.statcols(agg[name]) +
                      [ktype(name), label])
            for name in sorted(agg, key=lambda k: (-agg[k][1], k))]


TYPES = ["COMPUTATION", "COMMUNICATION", "MEMORY"]


def merged(iv):
    out = []
    for a, b in sorted(iv):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def bysets(evs):
    """The time covered by exactly each set of types, by mask."""
    m = [merged([(e[0], e[0] + e[1]) for e in evs if not e[4] and
                 TYPES.index(ktype(e[2])) == t]) for t in range(3)]
    pts = sorted(set(x for t in range(3) for iv in m[t] for x in iv))
    starts = [[iv[0] for iv in m[t]] for t in range(3)]
    acc = [0] * 8
    for a, b in zip(pts, pts[1:]):
        mask = 0
        for t in range(3):
            k = bisect.bisect_right(starts[t], a) - 1
            if k >= 0 and m[t][k][1] >= b:
                mask |= 1 << t
        acc[mask] += b - a
    return acc


def ktypes(evs):
    acc = bysets(evs)
    tot = sum(acc[1:])
    rows = []
    for mask in sorted(range(1, 8), key=lambda k: (-acc[k], k)):
        if acc[mask] > 0:
            rows.append("%s\t%s\t%.1f" % (" overlapping ".join(
                TYPES[t] for t in range(3) if mask >> t & 1),
                us(acc[mask]), 100 * acc[mask] / tot))
    return rows


def overlap(evs, label):
    acc = bysets(evs)
    comm = acc[2] + acc[3] + acc[6] + acc[7]
    ncomm = [e for e in evs if not e[4] and ktype(e[2]) == TYPES[1]]
    return ["%s\t%s" % (label, "%.2f" % (100 * (acc[3] + acc[7]) / comm)
                        if ncomm and comm else "")]


def run(args):
    return subprocess.run(["sst-gpu"] + args, capture_output=True,
                          text=True, check=True).stdout


def main():
    rng = random.Random(3232)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for i in range(n):
            evs = trace(rng)
            path = os.path.join(d, "t%d.json" % i)
            dump(evs, path)
            want = kernels(evs, "t%d" % i)
            out = subprocess.run(["sst-gpu", "-F", "temporal", "-F",
                                  "kernels", path], capture_output=True,
                                 text=True, check=True).stdout
            got = out.split("\n\n")[1].split("\n")[1:-1]
            alone = subprocess.run(["sst-gpu", "-F", "kernels", path],
                                   capture_output=True, text=True,
                                   check=True).stdout.split("\n")[1:-1]
            if got != want or alone != want:
                bad += 1
                print("t%d: kernels differ:\n%s\n%s" % (
                    i, "\n".join(got), "\n".join(want)))
            want = ktypes(evs), overlap(evs, "t%d" % i)
            got = [t.strip("\n").split("\n")[1:] for t in run(
                ["-F", "kernel-types", "-F", "overlap", "-F", "temporal",
                 path]).split("\n\n")[:2]]
            alone = [run(["-F", v, path]).split("\n")[1:-1] for v in
                     ("kernel-types", "overlap")]
            if tuple(got) != want or tuple(alone) != want:
                bad += 1
                print("t%d: kernel-types or overlap differ:\n%s\n%s" % (
                    i, got, want))
    print("ok %d" % n if bad == 0 else "%d of %d differ" % (bad, n))


main()
