#!/bin/sh
# bench/reducers-mem.sh [BINDIR [OLDBINDIR]]: the reducers of issue 35
# (sst-merge, sst-flame, sst-dot, sst-diff of a stream against itself)
# of BINDIR (default bin/) on three streams: stream-p200.sst and
# stream-z200k.sst (sst-flatten of genpyspy -m 200 and -k 200000 -m 200,
# as bench/run.sh makes them) and stream-nl200k.sst, the second
# with its locations field blanked (awk): 149 MB, 296,410 records, 11.1
# million frames, 6.2 million distinct stack prefixes.  Each run
# alternates with OLDBINDIR's program when given, whose output must
# hash the same (checked once per case): user+system seconds (median
# of $RUNS, default 3), wall seconds (median) and the largest peak RSS,
# then the issue's limit (64 MB or 20% of the input, the larger).  The
# streams are made in $BENCH_DIR (default /tmp/sst-bench, run.sh's
# names) and kept; the JSON they come from is deleted.  Needs GNU time.
set -u
root=$(cd "$(dirname -- "$0")/.." && pwd) || exit 1
bin=${1:-$root/bin}
old=${2:-}
runs=${RUNS:-3}
dir=${BENCH_DIR:-/tmp/sst-bench}
mkdir -p "$dir" || exit 1
[ -x "$root/build/genpyspy" ] || (cd "$root" && make -s build/genpyspy) ||
    exit 1

# Make stream $1 from genpyspy's arguments $2... unless it exists.
mk() {
	out=$dir/$1
	shift
	[ -s "$out" ] && return 0
	"$root/build/genpyspy" "$@" >"$out.json" &&
	    "$bin/sst-flatten" "$out.json" >"$out.tmp" &&
	    mv "$out.tmp" "$out" && rm -f "$out.json" && return 0
	rm -f "$out.tmp" "$out.json"
	exit 1
}
mk stream-p200.sst -m 200
mk stream-z200k.sst -k 200000 -m 200
f=$dir/stream-nl200k.sst
if [ ! -s "$f" ]; then
	awk -F '\t' -v OFS='\t' '{ $7 = ""; print }' \
	    "$dir/stream-z200k.sst" >"$f.tmp" && mv "$f.tmp" "$f" || exit 1
fi

# Run program $1 (a path) of case $2 on $F once: prints "cpu wall rssKB".
once() {
	if [ "$2" = sst-diff ]; then
		set -- "$1 \"\$F\" \"\$F\""
	else
		set -- "$1 \"\$F\""
	fi
	t0=$(date +%s.%N)
	F=$F /usr/bin/time -f '%U %S %M' -o "$dir/.red.t" \
	    sh -c "$1 >/dev/null" || exit 1
	t1=$(date +%s.%N)
	awk -v s="$t0" -v e="$t1" '{ printf "%.2f %.3f %d\n", $1 + $2,
	    e - s, $3 }' "$dir/.red.t"
}

# The median of the numbers on standard input.
median() {
	sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# "cpu wall rssMB" of the runs in file $1: medians, the largest RSS.
summ() {
	printf '%8.2f %8.3f %8.0f\n' "$(cut -d' ' -f1 "$1" | median)" \
	    "$(cut -d' ' -f2 "$1" | median)" \
	    "$(cut -d' ' -f3 "$1" | sort -n | tail -1 |
	    awk '{ print $1 / 1024 }')"
}

export F
printf '%-32s %8s %8s %8s\n' case "cpu s" "wall s" "RSS MB"
for s in p200 z200k nl200k; do
	F=$dir/stream-$s.sst
	for p in sst-merge sst-flame sst-dot sst-diff; do
		if [ -n "$old" ]; then
			a=$("$bin/$p" "$F" $([ $p = sst-diff ] && echo "$F") |
			    md5sum)
			b=$("$old/$p" "$F" $([ $p = sst-diff ] && echo "$F") |
			    md5sum)
			[ "$a" = "$b" ] || echo "$p $s: outputs differ"
		fi
		: >"$dir/.red.new"
		: >"$dir/.red.old"
		i=0
		while [ "$i" -lt "$runs" ]; do
			once "$bin/$p" "$p" >>"$dir/.red.new"
			[ -n "$old" ] && once "$old/$p" "$p" >>"$dir/.red.old"
			i=$((i + 1))
		done
		printf '%-32s %s\n' "$p $s" "$(summ "$dir/.red.new")"
		[ -n "$old" ] && printf '%-32s %s\n' "           before" \
		    "$(summ "$dir/.red.old")"
	done
	awk -v n="$(wc -c <"$F")" -v k="$s" 'BEGIN { n /= 1048576
	    printf "(stream-%s.sst, %.0f MB: RSS limit %.0f MB)\n",
		k, n, (n / 5 > 64 ? n / 5 : 64) }'
done
rm -f "$dir/.red.t" "$dir/.red.new" "$dir/.red.old"
