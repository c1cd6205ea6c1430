#!/bin/sh
# bench/c2s-1m.sh [ROOT [OLDROOT]]: collapsed-to-speedscope (ROOT's
# pipelines/ script and bin/, default this tree) on the two folded
# inputs of bench/run.sh's "1M" cases (issue 35): 1,000,000 lines, each
# a stack of its own, the weights random doubles of 17 significant
# digits (awk, srand(35)) or all 0.01.  Each run alternates with
# OLDROOT's (an older build), whose output must be the same bytes, and
# with $RAY (the path of Ray's collapsed_to_speedscope.py, not part of
# sst; skipped with a reason when unset or absent), $RAYRUNS times
# (default 1: it takes seconds where sst takes a fraction).  Wall
# seconds and user+system seconds of every process of the run (GNU
# time counts the children), median of $RUNS (default 3), the largest
# peak RSS, and Ray's time over each row's both ways.  The inputs are
# made in $BENCH_DIR (default /tmp/sst-bench, the names run.sh gives
# them) and kept; the JSON goes to a file there, removed at the end.
set -u
root=$(cd "${1:-$(dirname -- "$0")/..}" && pwd) || exit 1
old=${2:-}
[ -z "$old" ] || old=$(cd "$old" && pwd) || exit 1
runs=${RUNS:-3}
rayruns=${RAYRUNS:-1}
ray=${RAY:-}
dir=${BENCH_DIR:-/tmp/sst-bench}
mkdir -p "$dir" || exit 1
if [ -z "$ray" ]; then
	echo "ray: skipped (RAY not set: the path of Ray's" \
	    "collapsed_to_speedscope.py)"
elif [ ! -f "$ray" ]; then
	echo "ray: skipped (no $ray)"
	ray=
elif ! command -v python3 >/dev/null 2>&1; then
	echo "ray: skipped (python3 absent)"
	ray=
fi

for k in rand 0.01; do
	f=$dir/folded-1m-$k.txt
	[ -s "$f" ] && continue
	awk -v k="$k" 'BEGIN { srand(35)
	    for (i = 0; i < 1000000; i++) {
		w = k == "rand" ? (rand() + rand() / 2^26) * 20000 : k
		printf "main;run;work_%d;leaf_%d %.17g\n", i % 1000, i,
		    w } }' >"$f.tmp" && mv "$f.tmp" "$f" || exit 1
done

# Run sh command $1 once: prints "wall cpu rssKB".
once() {
	t0=$(date +%s.%N)
	/usr/bin/time -f '%U %S %M' -o "$dir/.c2s.t" sh -c "$1" || exit 1
	t1=$(date +%s.%N)
	awk -v s="$t0" -v e="$t1" '{ printf "%.3f %.2f %d\n", e - s,
	    $1 + $2, $3 }' "$dir/.c2s.t"
}

# The median of column $1 of file $2.
median() {
	cut -d' ' -f"$1" "$2" | sort -n |
	    awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

printf '%-22s %7s %7s %7s %6s %9s %9s\n' case "wall s" "cpu s" "RSS MB" \
    runs "Ray/wall" "Ray/cpu"
j=$dir/.c2s.json
for k in rand 0.01; do
	f=$dir/folded-1m-$k.txt
	: >"$dir/.c2s.new" && : >"$dir/.c2s.old" && : >"$dir/.c2s.ray"
	i=0
	while [ "$i" -lt "$runs" ]; do
		if [ -n "$old" ]; then
			once "sh '$old/pipelines/collapsed-to-speedscope' \
			    -o '$j.old' '$f' >/dev/null" >>"$dir/.c2s.old"
		fi
		once "sh '$root/pipelines/collapsed-to-speedscope' \
		    -o '$j' '$f' >/dev/null" >>"$dir/.c2s.new"
		if [ -n "$ray" ] && [ "$i" -lt "$rayruns" ]; then
			once "python3 '$ray' -o '$j.ray' '$f' >/dev/null" \
			    >>"$dir/.c2s.ray"
		fi
		i=$((i + 1))
	done
	for w in old ray; do
		[ -s "$dir/.c2s.$w" ] || continue
		cmp -s "$j" "$j.$w" || {
			echo "c2s-1m: $k: the $w output differs" >&2
			exit 1
		}
	done
	rw= rc=
	if [ -s "$dir/.c2s.ray" ]; then
		rw=$(median 1 "$dir/.c2s.ray")
		rc=$(median 2 "$dir/.c2s.ray")
	fi
	for w in new old ray; do
		[ -s "$dir/.c2s.$w" ] || continue
		t=$(median 1 "$dir/.c2s.$w")
		u=$(median 2 "$dir/.c2s.$w")
		m=$(cut -d' ' -f3 "$dir/.c2s.$w" | sort -n | tail -n 1)
		n=$(wc -l <"$dir/.c2s.$w" | tr -d ' ')
		l="c2s 1M $k"
		[ "$w" = old ] && l="$l before"
		[ "$w" = ray ] && l="Ray's script 1M $k"
		xw= xc=
		if [ -n "$rw" ]; then
			xw=$(echo "$rw $t" | awk '{ printf "%.1fx", $1 / $2 }')
			xc=$(echo "$rc $u" | awk '{ printf "%.1fx", $1 / $2 }')
		fi
		printf '%-22s %7s %7s %7d %6s %9s %9s\n' "$l" "$t" "$u" \
		    "$((m / 1024))" "$n" "$xw" "$xc"
	done
done
rm -f "$dir"/.c2s.*
