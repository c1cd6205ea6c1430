#!/bin/sh
# trace-mem.sh: trace2sst's memory per unit of input (issue 34 item 7)
# on traces generated here with awk: peak resident memory and time from
# /usr/bin/time -v, per case and size, so that two sizes show whether
# growth is linear.  Each input is written to a temporary file first
# (1.2 GB for 10M launches, in TMPDIR), so that the time is trace2sst's
# alone.
#   threads N    N threads of one span each (pid 1, tid 1..N)
#   launches N   -g, N cudaLaunchKernel spans with correlation ids and
#                no kernel (unmatched), on one thread in time order
# Usage: sh bench/trace-mem.sh [BIN] (BIN: the trace2sst to measure,
# default bin/trace2sst); sizes from TM_THREADS and TM_LAUNCHES
# (default "100000 1000000" and "1000000 10000000").
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/bin/trace2sst}
threads=${TM_THREADS:-100000 1000000}
launches=${TM_LAUNCHES:-1000000 10000000}
gen() {
	awk -v kind="$1" -v n="$2" 'BEGIN {
		print "{\"traceEvents\": ["
		for (i = 1; i <= n; i++) {
			if (kind == "threads")
				printf "{\"ph\": \"X\", \"name\": \"s\", " \
				    "\"pid\": 1, \"tid\": %d, \"ts\": 0, " \
				    "\"dur\": 1}", i
			else
				printf "{\"ph\": \"X\", \"cat\": " \
				    "\"cuda_runtime\", \"name\": " \
				    "\"cudaLaunchKernel\", \"pid\": 1, " \
				    "\"tid\": 1, \"ts\": %d, \"dur\": 1, " \
				    "\"args\": {\"correlation\": %d}}", 2 * i, i
			print i < n ? "," : ""
		}
		print "]}"
	}'
}
measure() {	# kind n flags
	log=$(mktemp "${TMPDIR:-/tmp}/tm.XXXXXXXXXX") || exit 1
	in=$(mktemp "${TMPDIR:-/tmp}/tm.XXXXXXXXXX") || exit 1
	gen "$1" "$2" >"$in"
	/usr/bin/time -v "$bin" $3 "$in" >/dev/null 2>"$log" ||
	    { cat "$log"; rm -f "$log" "$in"; exit 1; }
	rm -f "$in"
	awk -v k="$1" -v n="$2" '
	    /Maximum resident set size/ { rss = $NF }
	    /Elapsed \(wall clock\)/ { t = $NF }
	    /User time/ { u = $NF }
	    END { printf "%-8s %9d  peak %8.1f MB  %6.0f B/unit  " \
		"wall %s  user %ss\n", k, n, rss / 1024, rss * 1024 / n, t, u }
	' "$log"
	rm -f "$log"
}
for n in $threads; do measure threads "$n" ""; done
for n in $launches; do measure launches "$n" -g; done
