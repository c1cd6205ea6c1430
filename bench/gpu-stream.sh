#!/bin/sh
# bench/gpu-stream.sh [-n RUNS] OLDBIN NEWBIN: issue 32, the views that
# sst-gpu summarises as read since the queue change (annotations,
# cpu-annotations, queue): the CPU time (user + system) and peak RSS, by
# GNU time, of sst-gpu -F VIEW for two builds (directories holding
# sst-gpu) on generated Kineto-like traces of 200 and 400 MB
# (build/gentrace -m, in $TMPDIR, removed after), to show memory bounded
# and time linear in the size.  Old and new alternate, RUNS rounds
# (default 3); prints per size, view and build the median CPU seconds,
# the median peak RSS and the CPU per 100 MB.  Needs /usr/bin/time.
set -u
root=$(cd "$(dirname -- "$0")/.." && pwd) || exit 1
runs=3
views="annotations cpu-annotations queue"

while getopts n: c; do
	case $c in
	n) runs=$OPTARG ;;
	*) echo "usage: gpu-stream.sh [-n runs] oldbin newbin" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { echo "usage: gpu-stream.sh [-n runs] oldbin newbin" >&2;
    exit 2; }
old=$1
new=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
if [ ! -x "$root/build/gentrace" ]; then
	(cd "$root" && ${MAKE:-make} -s build/gentrace) || exit 1
fi

# once K CMD: run sh -c CMD once, append "K cpu rss-KB".
once() {
	/usr/bin/time -f '%U %S %M' -o "$tmp/t" sh -c "$2" >/dev/null ||
	    exit 1
	awk -v k="$1" '{ printf "%s %.2f %d\n", k, $1 + $2, $3 }' \
	    "$tmp/t" >>"$tmp/raw"
}

# The median of column c of command k's rows.
med() {
	awk -v k="$1" -v c="$2" '$1 == k { print $c }' "$tmp/raw" |
	    sort -n | awk '{ v[NR] = $1 } END {
	    print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '%-5s %-16s %-4s %6s %8s %9s  (median of %s)\n' MB view build \
    cpu "RSS MB" "s/100MB" "$runs"
for mb in 200 400; do
	F=$tmp/t$mb.json
	"$root/build/gentrace" -m "$mb" >"$F" || exit 1
	i=0
	while [ "$i" -lt "$runs" ]; do
		for v in $views; do
			once "$mb-$v-old" "'$old/sst-gpu' -F $v '$F'"
			once "$mb-$v-new" "'$new/sst-gpu' -F $v '$F'"
		done
		i=$((i + 1))
	done
	rm -f "$F"
	for v in $views; do
		for b in old new; do
			k=$mb-$v-$b
			c=$(med "$k" 2)
			printf '%-5s %-16s %-4s %6.2f %8.1f %9.3f\n' "$mb" \
			    "$v" "$b" "$c" "$(awk -v r="$(med "$k" 3)" \
			    'BEGIN { print r / 1024 }')" "$(awk -v c="$c" \
			    -v m="$mb" 'BEGIN { print 100 * c / m }')"
		done
	done
done
