#!/bin/sh
# bench/long-line.sh [BINDIR]: collapsed2sst and sst-leaf (of BINDIR,
# default bin/) on one line of "[" with no newline, 256 MB and 512 MB,
# from a pipe, gzip-compressed as the issue's 10 GB one was (issue 34
# item 5): the seconds and the peak RSS of each run.  A line reader
# stops at 64 MB (SST_MAXLINE) whatever the size; without the cap it
# held the whole line.  Needs GNU time (/usr/bin/time).
set -u
root=$(cd "$(dirname -- "$0")/.." && pwd) || exit 1
bin=${1:-$root/bin}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

for mb in 256 512; do
	head -c "$((mb * 1048576))" /dev/zero | tr '\0' '[' | gzip -1 \
	    >"$tmp/l$mb.gz"
	for p in collapsed2sst sst-leaf; do
		/usr/bin/time -f '%e s %M KB' -o "$tmp/t" "$bin/$p" \
		    <"$tmp/l$mb.gz" >/dev/null 2>"$tmp/err"
		st=$?
		printf '%-14s %4d MB line  %s  exit %d  %s\n' "$p" "$mb" \
		    "$(cat "$tmp/t" | tail -n 1)" "$st" \
		    "$(sed -n 1p "$tmp/err")"
	done
done
