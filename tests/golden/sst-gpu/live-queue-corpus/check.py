"""sst-gpu's queue, annotations and cpu-annotations (summarised as read)
against the model of tests/tools/gpuqmodel.py on the corpus traces:
../shared/corpus/pytorch/*.json* and cgraph-kineto/**/*.json*.  The rank
column is left out of the comparison (sst-gpu names a rank by its
distributedInfo.rank, which the model does not take up).  Prints ok N
(the traces compared).
"""
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), "..", "..", "..", "tools"))
import gpuqmodel  # noqa: E402


def tables(out):
    return [t.strip("\n").split("\n")[1:] for t in out.split("\n\n")]


def main():
    corpus = sys.argv[1]
    paths = sorted(glob.glob(os.path.join(corpus, "pytorch", "*.json*")) +
                   glob.glob(os.path.join(corpus, "cgraph-kineto", "**",
                                          "*.json*"), recursive=True))
    bad = 0
    for p in paths:
        evs = gpuqmodel.load(p)
        want = [gpuqmodel.queue(evs),
                gpuqmodel.annotations(evs, "gpu_user_annotation"),
                gpuqmodel.annotations(evs, "user_annotation")]
        out = subprocess.run(["sst-gpu", "-F", "queue", "-F",
                              "annotations", "-F", "cpu-annotations", p],
                             capture_output=True, text=True, check=True)
        t = tables(out.stdout)
        got = [[r.split("\t", 1)[1] for r in t[0]],
               [r.rsplit("\t", 1)[0] for r in t[1]],
               [r.rsplit("\t", 1)[0] for r in t[2]]]
        alone = [[r.split("\t", 1)[1] for r in tables(subprocess.run(
            ["sst-gpu", "-F", "queue", p], capture_output=True, text=True,
            check=True).stdout)[0]]]
        if got != want or alone[0] != want[0]:
            bad += 1
            print("%s differs:\n%s\n%s" % (os.path.basename(p), got, want))
    print("ok %d" % len(paths) if bad == 0 else "%d of %d differ" % (
        bad, len(paths)))


main()
