#!/bin/sh
# One case of analyze-cgraph-profiles: cgcase.sh SCENARIO [option ...].
# Lay out the scenario's directory, run the pipeline on it with the
# options given, and print its standard output and exit status; its
# messages go to standard error as they are.
#
# The expected outputs of the cases on traces (cgraph, pytorch, kineto,
# mixed, same, compressed, legacymd, gpu, gpulegacy, gpufail) are what
# tests/tools/cgraph-model.py prints for the same directory: a model of
# the report over the JSON that runs no sst program (each case's why
# says so).
top=$(cd "$(dirname "$0")/../../.." && pwd) || exit 1
scenario=$1
shift
prog=$top/pipelines/analyze-cgraph-profiles
fix=$top/tests/fixtures

work=$(mktemp -d "${TMPDIR:-/tmp}/cgcase.XXXXXXXXXX") || exit 1
trap 'rm -rf -- "$work"' EXIT
trap 'exit 1' HUP INT PIPE TERM
arg=compiled_graph_torch_profiles
dir=$work/$arg
run=$work	# where the pipeline runs; only $work is ever removed

case $scenario in
cgraph)
	cp -R "$fix/ac-compiled_graph_torch_profiles" "$dir" || exit 1
	arg= ;;
pytorch)
	# The public traces, read in place (never written).
	run=$CORPUS
	arg=pytorch ;;
kineto)
	# Ray's loop as Kineto with the Python tracer writes it, read in
	# place.
	run=$CORPUS/cgraph-kineto ;;
mixed)
	# Ray's loop with do_exec_tasks (and a background thread, Kineto's
	# pseudo-thread, ops named operator|| and bad<newline>name), with
	# _compute only (the window is the extent), with GPU kernels, and a
	# trace with no loop.
	mkdir "$dir" || exit 1
	cp "$fix/ac-loop-a.json" "$dir/vm_100.5.pt.trace.json" &&
	    cp "$fix/ac-loop-b.json" "$dir/vm_200.7.pt.trace.json" &&
	    cp "$fix/ac-gpu.json" "$dir/vm_300.9.pt.trace.json" &&
	    cp "$fix/ac-driver.json" "$dir/drv_1.1.pt.trace.json" || exit 1 ;;
same)
	# Three traces of one host_pid: by <ns> as numbers (30 < 200 <
	# 1000, which glob order has the other way round), vm_1, vm_1.2,
	# vm_1.3; and one whose <ns> is no number, last.
	mkdir "$dir" || exit 1
	cp "$fix/ac-loop-a.json" "$dir/vm_1.1000.pt.trace.json" &&
	    cp "$fix/ac-loop-b.json" "$dir/vm_1.200.pt.trace.json" &&
	    cp "$fix/ac-gpu.json" "$dir/vm_1.30.pt.trace.json" &&
	    cp "$fix/ac-loop-b.json" "$dir/vm_1.x.pt.trace.json" || exit 1 ;;
compressed)
	# Compressed traces: told by their first bytes, the GPU kernels
	# found in them too (they are not searched for the word kernel).
	mkdir "$dir" || exit 1
	gzip -c "$fix/ac-gpu.json" >"$dir/a_1.1.pt.trace.json.gz" &&
	    zstd -q -c "$fix/ac-loop-a.json" \
	    >"$dir/b_2.2.pt.trace.json.zst" || exit 1 ;;
gpu)
	# GPU events on streams (sst-gpu(1)'s): actors with Ray's loop,
	# one plain, the same one gzip'd and zstd'd, and one without GPU
	# events.
	mkdir "$dir" || exit 1
	cp "$fix/ac-gpu-a.json" "$dir/vm_1.1.pt.trace.json" &&
	    gzip -c "$fix/ac-gpu-b.json" >"$dir/vm_2.1.pt.trace.json.gz" &&
	    cp "$fix/ac-loop-a.json" "$dir/vm_3.1.pt.trace.json" &&
	    zstd -q -c "$fix/ac-gpu-b.json" \
	    >"$dir/vm_4.1.pt.trace.json.zst" || exit 1 ;;
gpulegacy)
	# GPU events on streams in a trace without Ray's loop.
	mkdir "$dir" || exit 1
	cp "$fix/gpu-two-streams.json" "$dir/r_3.1.pt.trace.json" || exit 1 ;;
gpufail)
	# A trace that says "stream": but that sst-gpu(1) cannot read (B/E
	# spans only, no event with a dur), beside a good one.
	mkdir "$dir" || exit 1
	cp "$fix/gpu-two-streams.json" "$dir/r_3.1.pt.trace.json" &&
	    printf '%s\n' '[{"ph": "B", "pid": 1, "tid": 1, "ts": 1,' \
	    '"name": "step", "args": {"stream": 7}},' \
	    '{"ph": "E", "pid": 1, "tid": 1, "ts": 5}]' \
	    >"$dir/s_1.1.pt.trace.json" || exit 1 ;;
legacymd)
	# record_function names holding '|' and a newline.
	mkdir "$dir" || exit 1
	cp "$fix/ac-legacy-md.json" "$dir/vm_9.1.pt.trace.json" || exit 1 ;;
default)
	# No directory given, and no compiled_graph_torch_profiles here.
	arg= ;;
fail)
	# A good trace, a speedscope file and a trace with no span, named
	# so that the good one comes between the bad ones.
	mkdir "$dir" || exit 1
	cp "$fix/ac-compiled_graph_torch_profiles/vm_13419.1796284901809.pt.trace.json" \
	    "$dir/b_2.1.pt.trace.json" || exit 1
	printf '{"profiles": [], "shared": {"frames": []}}\n' \
	    >"$dir/a_1.1.pt.trace.json"
	printf '[{"ph": "M", "pid": 1, "tid": 1, "name": "thread_name"}]\n' \
	    >"$dir/c_3.1.pt.trace.json" ;;
names)
	# Labels with a space, a TAB and a backslash, a directory named
	# like a trace (skipped) and a file that is not a trace.
	mkdir "$dir" "$dir/d.json" || exit 1
	one=$fix/ac-compiled_graph_torch_profiles/vm_13419.1796284901809.pt.trace.json
	cp "$one" "$dir/a b.1.json" && cp "$one" "$dir/tab	x.2.json" &&
	    cp "$one" "$dir/back\\sl.3.json" || exit 1
	echo 'not a trace' >"$dir/notes.txt" ;;
empty)
	mkdir "$dir" || exit 1
	echo 'not a trace' >"$dir/notes.txt" ;;
none)
	arg=nowhere ;;
file)
	echo x >"$work/file"
	arg=file ;;
*)
	echo "cgcase: unknown scenario: $scenario" >&2
	exit 1 ;;
esac

echo "== stdout"
if [ -n "$arg" ]; then
	(cd "$run" && "$prog" "$@" "$arg")
else
	(cd "$run" && "$prog" "$@")
fi
echo "== status $?"
