#!/bin/sh
# bench/cpuprofile-depth.sh [BINDIR]: cpuprofile2sst (of BINDIR, default
# bin/) on deep node trees at two sizes each, to show that its cost grows
# linearly with the number of nodes (issue 34 item 2): a forest of
# chains 4,000 nodes deep (accepted, SST_MAXDEPTH being 4,096), 100,000
# and 200,000 nodes, one sample at each leaf; and a single chain of
# 25,000 and 50,000 nodes (refused: deeper than 4,096).  Prints the
# seconds of each run.  The inputs are made in $TMPDIR and removed.
set -u
root=$(cd "$(dirname -- "$0")/.." && pwd) || exit 1
bin=${1:-$root/bin}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# gen NODES DEPTH: chains of DEPTH nodes, one sample at each leaf.
gen() {
	awk -v n="$1" -v d="$2" 'BEGIN {
		printf "{\"nodes\":["
		for (i = 1; i <= n; i++) {
			printf "%s{\"id\":%d,\"callFrame\":" \
			    "{\"functionName\":\"f%d\"}", \
			    (i > 1 ? "," : ""), i, i % 97
			if ((i - 1) % d != 0)
				printf ",\"parent\":%d", i - 1
			printf "}"
		}
		printf "],\"samples\":["
		k = 0
		for (i = d; i <= n; i += d)
			printf "%s%d", (k++ ? "," : ""), i
		printf "],\"timeDeltas\":["
		for (i = 0; i < k; i++)
			printf "%s1", (i ? "," : "")
		printf "]}\n"
	}'
}

# run NAME FILE: the seconds cpuprofile2sst takes on FILE.
run() {
	t0=$(date +%s.%N)
	"$bin/cpuprofile2sst" "$2" >/dev/null 2>"$tmp/err"
	st=$?
	t1=$(date +%s.%N)
	printf '%-28s %6.2f s  exit %d  %s\n' "$1" \
	    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$st" "$(sed -n 1p "$tmp/err")"
}

gen 100000 4000 >"$tmp/f100k.json"
gen 200000 4000 >"$tmp/f200k.json"
gen 25000 25000 >"$tmp/c25k.json"
gen 50000 50000 >"$tmp/c50k.json"
run "forest 100k nodes, 4000 deep" "$tmp/f100k.json"
run "forest 200k nodes, 4000 deep" "$tmp/f200k.json"
run "chain 25k nodes" "$tmp/c25k.json"
run "chain 50k nodes" "$tmp/c50k.json"
