#!/bin/sh
# gencgraph.sh: write a directory of Ray-shaped traces of about -m
# megabytes (MiB), for the benchmark of analyze-cgraph-profiles: each
# trace of SRC (the pretty-printed Kineto traces of the cgraph-kineto
# corpus, one per actor) is written to OUT under its own name with its
# events repeated until the directory holds the size, each copy shifted
# in time by the trace's length and a millisecond, so that every actor
# runs its loop that many times over; the M and i events are written
# once.  The "ts" of a copy is the original's integer microseconds plus
# a whole number of microseconds, its decimals kept, so that no time is
# rounded.  Deterministic: a given size always gives the same bytes.
#
#	sh bench/gencgraph.sh -m megabytes SRC OUT

usage() {
	echo "usage: gencgraph.sh -m megabytes src out" >&2
	exit 2
}

mb=
while getopts m: opt; do
	case $opt in
	m) mb=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ "$#" -eq 2 ] || usage
case $mb in
''|*[!0-9]*|0) usage ;;
esac
src=$1 out=$2
set -- "$src"/*.pt.trace.json
[ -e "$1" ] || {
	echo "gencgraph.sh: $src: no *.pt.trace.json" >&2
	exit 1
}
total=$(cat "$@" | wc -c)
# Copies per trace, so that all of them hold at least $mb MiB.
k=$(((mb * 1048576 + total - 1) / total))
mkdir -p "$out" || exit 1
for f in "$@"; do
	LC_ALL=C awk -v k="$k" '
	# The events of "traceEvents", a block of lines each, from "  {"
	# to "  }" with or without its comma; the lines before and after.
	{ line[NR] = $0 }
	/"traceEvents": \[/ && !ev { ev = NR; next }
	ev && !end && /^  \],?$/ { end = NR; next }
	ev && !end && /^  \{$/ { nb++; first[nb] = NR }
	ev && !end && /^  \},?$/ { last[nb] = NR }
	ev && !end && /"ts": [0-9]/ {
		s = $0; sub(/.*"ts": /, "", s); t = s + 0
		d = 0
		if ($0 ~ /"dur": /) { d = $0; sub(/.*"dur": /, "", d); d += 0 }
		if (!seen++ || t < lo) lo = t
		if (t + d > hi) hi = t + d
		if ($0 ~ /"ph": "[Mi]"/) once[nb] = 1
	}
	ev && !end && /"ph": "[Mi]"/ { once[nb] = 1 }
	END {
		period = int(hi - lo) + 1001
		for (i = 1; i <= ev; i++) print line[i]
		n = 0
		for (r = 0; r < k; r++)
			for (b = 1; b <= nb; b++) {
				if (r > 0 && once[b]) continue
				if (n++) print "  },"
				for (i = first[b]; i < last[b]; i++)
					print r ? shift(line[i], r * period) : \
					    line[i]
			}
		if (n) print "  }"
		for (i = end; i <= NR; i++) print line[i]
	}
	# Line l with its "ts" moved by s whole microseconds.
	function shift(l, s,    p, a, rest, ip) {
		if ((p = index(l, "\"ts\": ")) == 0) return l
		a = substr(l, 1, p + 5); rest = substr(l, p + 6)
		match(rest, /^[0-9]+/)
		ip = substr(rest, 1, RLENGTH)
		return a sprintf("%.0f", ip + s) substr(rest, RLENGTH + 1)
	}' "$f" >"$out/${f##*/}" || exit 1
done
