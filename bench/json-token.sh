#!/bin/sh
# bench/json-token.sh [BINDIR]: cpuprofile2sst (of BINDIR, default bin/)
# on a .cpuprofile whose one function name is 16 MB and 48 MB long, read
# from the file and from a pipe, to show that the JSON tokenizer's cost
# grows linearly with a token's length and is the same from a pipe as
# from a file (issue 34 item 4).  Prints the seconds of each run.  The
# inputs are made in $TMPDIR and removed.
set -u
root=$(cd "$(dirname -- "$0")/.." && pwd) || exit 1
bin=${1:-$root/bin}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# gen MB: a profile of one node named MB megabytes of 'a'.
gen() {
	printf '{"nodes":[{"id":1,"callFrame":{"functionName":"'
	head -c "$(($1 * 1048576))" /dev/zero | tr '\0' a
	printf '"}}],"samples":[1],"timeDeltas":[1]}\n'
}

# run NAME CMD: the seconds sh -c CMD takes.
run() {
	t0=$(date +%s.%N)
	sh -c "$2" >/dev/null 2>"$tmp/err"
	st=$?
	t1=$(date +%s.%N)
	printf '%-24s %6.2f s  exit %d  %s\n' "$1" \
	    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$st" \
	    "$(sed -n 1p "$tmp/err")"
}

for mb in 16 48; do
	gen "$mb" >"$tmp/n$mb.json"
	run "$mb MB name, file" "'$bin/cpuprofile2sst' '$tmp/n$mb.json'"
	run "$mb MB name, pipe" "cat '$tmp/n$mb.json' | '$bin/cpuprofile2sst'"
done
