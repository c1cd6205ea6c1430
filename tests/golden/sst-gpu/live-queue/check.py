"""Random traces against a model of the views sst-gpu summarises as read
since the queue change (issue 32, the memory clause): queue, annotations
and cpu-annotations, from their definitions as the row-keeping path
(common/reduce/gpuq.c, gpustat.c) applies them.

Each trace: 1 to 3 GPU streams of kernels, each launched by a
cudaLaunchKernel of the same args.correlation whose start is up to 40 us
before the kernel's (sometimes equal, sometimes after it); some calls
with no kernel, some kernels with no correlation or none launched, some
correlations given to two calls or to two kernels on other streams,
cuda_sync events on the streams, gpu_user_annotation and
user_annotation spans (a few with a stream: GPU events then).  Times in
nanoseconds.  The events are written in one of four orders: by time,
CPU events then GPU events, reversed, or by time shuffled within 40
places; one trace in ten has 6,000 launches in flight on one stream (all
the calls, then all the kernels: more steps waiting than sst-gpu's
window of 4,096), and one in ten a launch call with a stream of its own.

The model, from the definitions: an event counts with ts, dur and a cat
other than Trace and python_function; it is on the GPU with an integer
args.stream; HTA's GPU kernel: stream >= 0 and correlation >= 0.  A
launch: a cudaLaunchKernel that is no HTA GPU kernel, with a
correlation (not -1) that an HTA GPU kernel has; its stream is the
first GPU event's (not cuda_sync) of that correlation in trace order,
none: not counted.  A start: each GPU event (not cuda_sync).  The
launches (trace order) then the starts (trace order), sorted stably by
time; per stream the length after each step; count, mean (sum of the
sorted lengths over n), std (n-1, squares summed in sorted order), min,
pandas' linear quartiles, max, %.10g; streams by number.  annotations
(cpu-annotations): the gpu_user_annotation (user_annotation) spans not
on a stream, by name in trace order with Welford's update in doubles,
rows by name, stddev 0 alone.  sst-gpu -F VIEW alone and with the
others in one pass must print the model's tables byte for byte.
Prints ok N.
"""
import json
import math
import os
import random
import subprocess
import sys
import tempfile

ANN = ["fwd", "bwd", "opt", "## a ##"]


def us(ns):
    """ns as sst-gpu prints microseconds: up to three decimals."""
    s = "-" if ns < 0 else ""
    ns = abs(ns)
    q, f = divmod(ns, 1000)
    return s + str(q) + ("." + ("%03d" % f).rstrip("0") if f else "")


def ev(cat, name, ts, dur, **args):
    return {"cat": cat, "name": name, "ts": ts, "dur": dur, "args": args}


def trace(rng):
    cpu, gpu = [], []
    corr = 100
    for s in range(rng.randint(1, 3)):
        t = rng.randint(0, 50000)
        for _ in range(rng.randint(1, 40)):
            corr += 1
            d = rng.randint(0, 20000)
            r = rng.random()
            lts = t - rng.choice([0, rng.randint(0, 40000)])
            if r < 0.05:
                lts = t + rng.randint(0, 3000)
            if rng.random() < 0.9:
                cpu.append(ev("cuda_runtime", "cudaLaunchKernel", lts,
                              rng.randint(0, 5000), correlation=corr))
            if rng.random() < 0.05:
                cpu.append(ev("cuda_runtime", "cudaLaunchKernel",
                              lts + rng.randint(-5000, 5000), 100,
                              correlation=corr))
            c = corr if rng.random() < 0.95 else -1
            gpu.append(ev("kernel", "k%d" % rng.randint(0, 3), t, d,
                          stream=7 + s, correlation=c))
            if rng.random() < 0.04:
                gpu.append(ev("kernel", "dup", t + rng.randint(0, 9000),
                              50, stream=8 + s, correlation=corr))
            if rng.random() < 0.05:
                gpu.append(ev("cuda_sync", "Event Sync", t, 10,
                              stream=7 + s, correlation=corr))
            if rng.random() < 0.05:
                cpu.append(ev("cuda_runtime", "cudaLaunchKernel", t, 100,
                              correlation=99999 + corr))
            t += rng.randint(0, 30000)
    for _ in range(rng.randint(0, 12)):
        t = rng.randint(0, 900000)
        cat = rng.choice(["gpu_user_annotation", "user_annotation"])
        if rng.random() < 0.1:
            gpu.append(ev(cat, rng.choice(ANN), t, rng.randint(0, 9000),
                          stream=7))
        else:
            cpu.append(ev(cat, rng.choice(ANN), t, rng.randint(0, 99999)))
    if rng.random() < 0.1:
        t = rng.randint(0, 90000)
        for i in range(6000):
            corr += 1
            cpu.append(ev("cuda_runtime", "cudaLaunchKernel", t + i, 1,
                          correlation=corr))
            gpu.append(ev("kernel", "long", t + 100000 + 50 * i, 40,
                          stream=30, correlation=corr))
        order = "long"
    else:
        order = rng.choice(["time", "cpu-first", "reversed", "shuffled"])
    if rng.random() < 0.1:
        cpu.append(ev("cuda_runtime", "cudaLaunchKernel", 5, 1,
                      correlation=101, stream=-3))
    if order in ("cpu-first", "long"):
        out = cpu + gpu
    else:
        out = sorted(cpu + gpu, key=lambda e: e["ts"])
    if order == "reversed":
        out.reverse()
    if order == "shuffled":
        for i in range(len(out)):
            j = max(0, i - rng.randint(0, 40))
            out.insert(j, out.pop(i))
    return out


def dump(evs, path):
    with open(path, "w") as f:
        f.write('{"traceEvents": [\n')
        rows = []
        for e in evs:
            e = dict(e, ph="X")
            for k in ("ts", "dur"):
                v = e[k]
                e[k] = float(v) / 1000 if v % 1000 else v // 1000
            rows.append(json.dumps(e))
        f.write(",\n".join(rows))
        f.write("\n]}\n")


def isgpu(e):
    return isinstance(e["args"].get("stream"), int)


def corr(e):
    return e["args"].get("correlation", -1)


def isgk(e):
    return isgpu(e) and e["args"]["stream"] >= 0 and corr(e) >= 0


def quant(v, p):
    x = p * (len(v) - 1)
    lo = math.floor(x)
    i = int(lo)
    if i + 1 >= len(v):
        return float(v[-1])
    return v[i] + (v[i + 1] - v[i]) * (x - lo)


def queue(evs, label):
    gk = set(corr(e) for e in evs if isgk(e))
    first = {}
    for e in evs:
        if isgpu(e) and e["cat"] != "cuda_sync":
            first.setdefault(corr(e), e["args"]["stream"])
    steps = []
    for e in evs:
        if (e["name"] == "cudaLaunchKernel" and not isgk(e) and
                corr(e) != -1 and corr(e) in gk and corr(e) in first):
            steps.append((e["ts"], first[corr(e)], 1))
    for e in evs:
        if isgpu(e) and e["cat"] != "cuda_sync":
            steps.append((e["ts"], e["args"]["stream"], -1))
    steps.sort(key=lambda s: s[0])
    lens, cur = {}, {}
    for _, st, d in steps:
        cur[st] = cur.get(st, 0) + d
        lens.setdefault(st, []).append(cur[st])
    rows = []
    for st in sorted(lens):
        v = sorted(lens[st])
        n = len(v)
        tot = 0.0
        for x in v:
            tot += x
        mean = tot / n
        m2 = 0.0
        for x in v:
            m2 += (x - mean) * (x - mean)
        sd = "%.10g" % math.sqrt(m2 / (n - 1)) if n > 1 else ""
        rows.append("%s\t%d\t%d\t%.10g\t%s\t%d\t%.10g\t%.10g\t%.10g\t%d" % (
            label, st, n, mean, sd, v[0], quant(v, .25), quant(v, .5),
            quant(v, .75), v[-1]))
    return rows


def annotations(evs, cat, label):
    agg = {}
    for e in evs:
        if e["cat"] != cat or isgpu(e):
            continue
        d = e["dur"]
        a = agg.setdefault(e["name"], [0, 0, None, None, 0.0, 0.0])
        a[0] += 1
        a[1] += d
        a[2] = d if a[2] is None or d > a[2] else a[2]
        a[3] = d if a[3] is None or d < a[3] else a[3]
        x = float(d) - a[4]
        a[4] += x / float(a[0])
        a[5] += x * (float(d) - a[4])
    rows = []
    for name in sorted(agg, key=lambda k: k.encode()):
        n, s, mx, mn, mean, m2 = agg[name]
        sd = math.sqrt(m2 / float(n - 1)) if n > 1 else 0.0
        rows.append("\t".join([name, us(s), us(mx), us(mn),
                               "%.10g" % (sd / 1000.0),
                               "%.10g" % (mean / 1000.0), label]))
    return rows


def run(args):
    return subprocess.run(["sst-gpu"] + args, capture_output=True,
                          text=True, check=True).stdout


def tables(out):
    return [t.strip("\n").split("\n")[1:] for t in out.split("\n\n")]


VIEWS = ["queue", "annotations", "cpu-annotations"]


def main():
    rng = random.Random(3233)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for i in range(n):
            evs = trace(rng)
            path = os.path.join(d, "t%d.json" % i)
            dump(evs, path)
            label = "t%d" % i
            want = [queue(evs, label),
                    annotations(evs, "gpu_user_annotation", label),
                    annotations(evs, "user_annotation", label)]
            got = [tables(run(["-F", v, path]))[0] for v in VIEWS]
            both = tables(run(["-F", "queue", "-F", "annotations", "-F",
                               "cpu-annotations", "-F", "launch", path]))
            if got != want or both[:3] != want:
                bad += 1
                print("%s differs:\n%s\n%s\n%s" % (label, got, both[:3],
                                                   want))
    print("ok %d" % n if bad == 0 else "%d of %d differ" % (bad, n))


main()
