#!/bin/sh
# bench/gpu-cpu.sh [-n RUNS] [-m MB | -f FILE] [-v VIEWS] OLDBIN NEWBIN:
# the CPU time (user + system, by GNU time) of sst-gpu -F VIEW for each
# of VIEWS (default "temporal launch") of two builds (directories
# holding sst-gpu) on a generated Kineto-like trace of MB megabytes
# (default 1024, made by build/gentrace in $TMPDIR and removed after; or
# FILE, a trace made before), against cat FILE | cat in the same run
# (issue 32: at most 3x).  The commands run in turn, RUNS times
# (default 5): cat|cat, then old and new of each view.  Prints per
# command the medians of CPU, user, system and wall seconds, the CPU
# ratio to cat|cat's median and the peak RSS.  Needs GNU time
# (/usr/bin/time).
set -u
root=$(cd "$(dirname -- "$0")/.." && pwd) || exit 1
runs=5
mb=1024
views="temporal launch"

usage() {
	echo "usage: gpu-cpu.sh [-n runs] [-m MB | -f file] [-v views]" \
	    "oldbin newbin" >&2
	exit 2
}

F=
while getopts f:m:n:v: c; do
	case $c in
	f) F=$OPTARG ;;
	m) mb=$OPTARG ;;
	n) runs=$OPTARG ;;
	v) views=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
old=$1
new=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
if [ -z "$F" ]; then
	if [ ! -x "$root/build/gentrace" ]; then
		(cd "$root" && ${MAKE:-make} -s build/gentrace) || exit 1
	fi
	F=$tmp/gputrace.json
	"$root/build/gentrace" -m "$mb" >"$F" || exit 1
else
	mb=$(($(wc -c <"$F") / 1048576))
fi
cat "$F" >/dev/null

# once K CMD: run sh -c CMD once, append "K cpu user sys wall rss".
once() {
	/usr/bin/time -f '%U %S %e %M' -o "$tmp/t" sh -c "$2" >/dev/null ||
	    exit 1
	awk -v k="$1" '{ printf "%s %.2f %.2f %.2f %.2f %d\n", k, $1 + $2,
	    $1, $2, $3, $4 }' "$tmp/t" >>"$tmp/raw"
}

i=0
while [ "$i" -lt "$runs" ]; do
	once cat "cat '$F' | cat"
	for v in $views; do
		once "old-$v" "'$old/sst-gpu' -F $v '$F'"
		once "new-$v" "'$new/sst-gpu' -F $v '$F'"
	done
	i=$((i + 1))
done

# The median of column c of command k's rows.
med() {
	awk -v k="$1" -v c="$2" '$1 == k { print $c }' "$tmp/raw" |
	    sort -n | awk '{ v[NR] = $1 } END {
	    print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '%-18s %5s %5s %5s %5s %6s %7s  (%s MB, median of %s)\n' command \
    cpu user sys wall ratio "RSS MB" "$mb" "$runs"
base=$(med cat 2)
ks=cat
for v in $views; do
	ks="$ks old-$v new-$v"
done
for k in $ks; do
	rss=$(awk -v k="$k" '$1 == k && $6 > m { m = $6 } END {
	    printf "%.1f", m / 1024 }' "$tmp/raw")
	printf '%-18s %5.2f %5.2f %5.2f %5.2f %5.2fx %7s\n' "$k" \
	    "$(med "$k" 2)" "$(med "$k" 3)" "$(med "$k" 4)" \
	    "$(med "$k" 5)" "$(awk -v a="$(med "$k" 2)" -v b="$base" \
	    'BEGIN { print a / b }')" "$rss"
done
echo "raw (command cpu user sys wall rss-KB):"
cat "$tmp/raw"
