#!/bin/sh
# bench/bars.sh [BINDIR]: sst-bars (of BINDIR, default bin/) on tables
# of 250,000 and 500,000 rows of sst-gpu -F temporal's shape: the
# seconds and the peak RSS of each run, so that twice the rows show
# twice the time and memory (it keeps each row's label, drawn cells and
# numbers until it draws).  Needs GNU time (/usr/bin/time).
set -u
root=$(cd "$(dirname -- "$0")/.." && pwd) || exit 1
bin=${1:-$root/bin}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

for n in 250000 500000; do
	awk -v n="$n" 'BEGIN { print "rank\tidle_time(us)\tcompute_time(us)\t" \
	    "non_compute_time(us)\tkernel_time(us)\tidle_time_pctg\t" \
	    "compute_time_pctg\tnon_compute_time_pctg"
	    for (i = 0; i < n; i++) printf "%d\t%d.5\t%d\t%d.25\t0\t0\t0\t0\n",
	    i, i % 1000, i % 777, i % 555 }' >"$tmp/t.tsv"
	/usr/bin/time -f '%e s %M KB' -o "$tmp/t" "$bin/sst-bars" \
	    "$tmp/t.tsv" >/dev/null 2>"$tmp/err"
	st=$?
	printf 'sst-bars %7d rows  %s  exit %d  %s\n' "$n" \
	    "$(tail -n 1 "$tmp/t")" "$st" "$(sed -n 1p "$tmp/err")"
done
