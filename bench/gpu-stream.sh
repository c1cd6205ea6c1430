#!/bin/sh
# bench/gpu-stream.sh [-n RUNS] OLDBIN NEWBIN: issue 32, the views that
# sst-gpu summarises as read since the queue change (annotations,
# cpu-annotations, queue), for two builds, on generated Kineto-like
# traces of 200 and 400 MB: bench/gpu-cpu.sh at both sizes (CPU time
# and peak RSS by GNU time, medians of RUNS rounds, default 3, against
# cat|cat), to show memory bounded and time linear in the size.
set -u
here=$(cd "$(dirname -- "$0")" && pwd) || exit 1
runs=3

usage() {
	echo "usage: gpu-stream.sh [-n runs] oldbin newbin" >&2
	exit 2
}

while getopts n: c; do
	case $c in
	n) runs=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
for mb in 200 400; do
	sh "$here/gpu-cpu.sh" -n "$runs" -m "$mb" \
	    -v "annotations cpu-annotations queue" "$1" "$2" || exit 1
done
