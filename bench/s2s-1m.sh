#!/bin/sh
# bench/s2s-1m.sh [BINDIR [OLDBINDIR]]: sst2speedscope -S (of BINDIR,
# default bin/) on the two streams of bench/run.sh's "1M" cases (issue
# 35): 1,000,000 records, each a stack and a leaf frame of its own, the
# weights random doubles of 17 significant digits (awk, srand(35)) or
# all 0.01, made by collapsed2sst -F lines -s -f 99 as
# collapsed-to-speedscope makes them.  Each run alternates with cat | cat
# of the JSON it writes (the least its time could be) and, when given,
# with OLDBINDIR's sst2speedscope, whose output must be the same bytes,
# and with build/s2sfloor, the least work of the conversion (a floor):
# wall seconds (median of $RUNS, default 5), the ratio to cat | cat,
# user+system seconds (median) and the largest peak RSS.  The inputs
# (about 300 MB) are made in $BENCH_DIR (default /tmp/sst-bench, the
# names run.sh gives them, so either script reuses the other's) and
# kept.  Needs GNU time (/usr/bin/time).
set -u
root=$(cd "$(dirname -- "$0")/.." && pwd) || exit 1
bin=${1:-$root/bin}
old=${2:-}
runs=${RUNS:-5}
dir=${BENCH_DIR:-/tmp/sst-bench}
mkdir -p "$dir" || exit 1

# The least work of the conversion (bench/s2sfloor.c, checking nothing),
# whose output must be the same bytes: a row of its own.
floor=$root/build/s2sfloor
if [ ! -x "$floor" ]; then
	(cd "$root" && ${MAKE:-make} -s build/s2sfloor) || exit 1
fi

# Write "$@"'s output to file $1 unless it exists already.
mk() {
	out=$1
	shift
	[ -s "$out" ] && return 0
	"$@" >"$out.tmp" && mv "$out.tmp" "$out" && return 0
	rm -f "$out.tmp"
	exit 1
}

for k in rand 0.01; do
	mk "$dir/folded-1m-$k.txt" awk -v k="$k" 'BEGIN { srand(35)
	    for (i = 0; i < 1000000; i++) {
		w = k == "rand" ? (rand() + rand() / 2^26) * 20000 : k
		printf "main;run;work_%d;leaf_%d %.17g\n", i % 1000, i,
		    w } }'
	mk "$dir/stream-1m-$k.sst" "$bin"/collapsed2sst -F lines -s -f 99 \
	    "$dir/folded-1m-$k.txt"
	mk "$dir/speedscope-1m-$k.json" "$bin"/sst2speedscope -S \
	    "$dir/stream-1m-$k.sst"
done

# Run sh command $1 once: prints "wall cpu rssKB".
once() {
	t0=$(date +%s.%N)
	/usr/bin/time -f '%U %S %M' -o "$dir/.s2s.t" sh -c "$1" || exit 1
	t1=$(date +%s.%N)
	awk -v s="$t0" -v e="$t1" '{ printf "%.4f %.2f %d\n", e - s,
	    $1 + $2, $3 }' "$dir/.s2s.t"
}

# The median of the numbers on standard input.
median() {
	sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

printf '%-30s %8s %8s %8s %8s\n' case "wall s" ratio "cpu s" "RSS MB"
for k in rand 0.01; do
	s=$dir/stream-1m-$k.sst
	j=$dir/speedscope-1m-$k.json
	if [ -n "$old" ]; then
		"$old"/sst2speedscope -S "$s" | cmp -s - "$j" || {
			echo "s2s-1m: $old/sst2speedscope -S $s differs" >&2
			exit 1
		}
	fi
	"$bin"/sst2speedscope -S "$s" | cmp -s - "$j" || {
		echo "s2s-1m: $bin/sst2speedscope -S $s differs" >&2
		exit 1
	}
	"$floor" "$s" <"$s" | cmp -s - "$j" || {
		echo "s2s-1m: $floor differs from sst2speedscope" >&2
		exit 1
	}
	: >"$dir/.s2s.cat" && : >"$dir/.s2s.new" && : >"$dir/.s2s.old"
	: >"$dir/.s2s.floor"
	i=0
	while [ "$i" -lt "$runs" ]; do
		once "cat '$j' | cat >/dev/null" >>"$dir/.s2s.cat"
		once "'$bin'/sst2speedscope -S '$s' >/dev/null" \
		    >>"$dir/.s2s.new"
		once "'$floor' '$s' <'$s' >/dev/null" >>"$dir/.s2s.floor"
		[ -z "$old" ] ||
		    once "'$old'/sst2speedscope -S '$s' >/dev/null" \
		    >>"$dir/.s2s.old"
		i=$((i + 1))
	done
	c=$(cut -d' ' -f1 "$dir/.s2s.cat" | median)
	for w in new old floor; do
		[ -s "$dir/.s2s.$w" ] || continue
		t=$(cut -d' ' -f1 "$dir/.s2s.$w" | median)
		u=$(cut -d' ' -f2 "$dir/.s2s.$w" | median)
		m=$(cut -d' ' -f3 "$dir/.s2s.$w" | sort -n | tail -n 1)
		l="sst2speedscope 1M $k"
		[ "$w" = old ] && l="$l before"
		[ "$w" = floor ] && l="s2sfloor 1M $k (least work)"
		printf '%-30s %8s %8.1f %8s %8d\n' "$l" "$t" \
		    "$(echo "$t $c" | awk '{ print $1 / $2 }')" "$u" \
		    "$((m / 1024))"
	done
	printf '%-30s %8s %8s\n' "cat|cat of its output" "$c" 1.0
done
rm -f "$dir"/.s2s.*
