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

The model (tests/tools/gpuqmodel.py, which reads the file written) takes
the definitions the row-keeping path applies: its docstring gives them.
sst-gpu -F VIEW alone and with the others (and launch) in one pass must
print the model's tables byte for byte.
Prints ok N.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), "..", "..", "..", "tools"))
import gpuqmodel  # noqa: E402

ANN = ["fwd", "bwd", "opt", "## a ##"]


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


def run(args):
    return subprocess.run(["sst-gpu"] + args, capture_output=True,
                          text=True, check=True).stdout


def tables(out):
    return [t.strip("\n").split("\n")[1:] for t in out.split("\n\n")]


VIEWS = ["queue", "annotations", "cpu-annotations"]


def gpuqlive_model(path, label):
    """The model's three tables (tests/tools/gpuqmodel.py) of the file."""
    evs = gpuqmodel.load(path)
    return ([label + "\t" + r for r in gpuqmodel.queue(evs)],
            [r + "\t" + label for r in gpuqmodel.annotations(
                evs, "gpu_user_annotation")],
            [r + "\t" + label for r in gpuqmodel.annotations(
                evs, "user_annotation")])


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
            m = gpuqlive_model(path, label)
            want = [m[0], m[1], m[2]]
            got = [tables(run(["-F", v, path]))[0] for v in VIEWS]
            both = tables(run(["-F", "queue", "-F", "annotations", "-F",
                               "cpu-annotations", "-F", "launch", path]))
            if got != want or both[:3] != want:
                bad += 1
                print("%s differs:\n%s\n%s\n%s" % (label, got, both[:3],
                                                   want))
    print("ok %d" % n if bad == 0 else "%d of %d differ" % (bad, n))


main()
