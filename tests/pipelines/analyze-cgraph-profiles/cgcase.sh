#!/bin/sh
# One case of analyze-cgraph-profiles: cgcase.sh SCENARIO [option ...].
# Lay out the scenario's directory, run the pipeline on it with the
# options given, and print its standard output and exit status; its
# messages go to standard error as they are.
#
# The numbers of the expected outputs of the cgraph and pytorch cases
# were checked against a separate Python model kept outside the tree:
# it loads each trace whole with the json module, rounds times to whole
# nanoseconds, nests spans by the rules of trace2sst(1) and sums self
# time per op name, per file and over all files, and the durations of
# kernel spans; busy time and span counts agree with
# tests/trace_totals.py as well.
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
