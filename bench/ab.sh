#!/bin/sh
# bench/ab.sh: the cases of bench/run.sh timed with two builds, an old
# and a new one, alternately in the same run (old then new, then new
# then old, ...), so that both see the same machine load.  Each run
# records wall seconds, CPU seconds (user + sys of every process of the
# case, from GNU time) and peak RSS; the summary gives each case's
# medians and the change from old to new.  See bench/README, "Issue 36".
#
# usage: OLD=root NEW=root sh bench/ab.sh [summary-only raw.tsv]
#
# OLD and NEW are the roots of two built checkouts (bin/, pipelines/,
# build/genpyspy, build/gentrace); the inputs are made once with NEW's
# generators and shared.  Environment as bench/run.sh: BENCH_DIR
# (default /tmp/sst-ab), BENCH_MB (400), BENCH_TEXT_MB (200), BENCH_RUNS
# (5 each), BENCH_ONLY, BENCH_CGRAPH_MB (128), CORPUS.  Every run goes
# to $BENCH_DIR/ab-raw.tsv (case, build, run, wall, user, sys, RSS kB,
# status); the summary (TSV) to standard output at the end.

# Commands are single-quoted on purpose: sh -c expands $F in each run.
# shellcheck disable=SC2016,SC2086,SC2254
set -u

root=$(cd "$(dirname -- "$0")/.." && pwd) || exit 1
dir=${BENCH_DIR:-/tmp/sst-ab}
raw=${BENCH_RAW:-$dir/ab-raw.tsv}

# Medians per case and build of the raw runs in $1, as TSV: wall, CPU
# and RSS (MB) old and new, and the changes in per cent.
summary() {
	awk -F '\t' '
	function med(s,   a, n, i, j, t) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function pc(a, b) {
		return a > 0 ? sprintf("%+.1f", 100 * (b - a) / a) : "-"
	}
	$8 != 0 { bad[$1, $2] = 1 }
	{
		if (!(($1) in seen)) { seen[$1] = 1; order[++nc] = $1 }
		w[$1, $2] = w[$1, $2] " " $4
		c[$1, $2] = c[$1, $2] " " ($5 + $6)
		m[$1, $2] = m[$1, $2] " " $7
		n[$1, $2]++
	}
	END {
		print "case\truns\told_wall_s\told_cpu_s\told_rss_mb\t" \
		    "new_wall_s\tnew_cpu_s\tnew_rss_mb\twall_pct\tcpu_pct\t" \
		    "rss_pct\tflag"
		for (i = 1; i <= nc; i++) {
			k = order[i]
			if (bad[k, "old"] || bad[k, "new"]) {
				printf "%s\t%d\t%s\n", k, n[k, "new"], \
				    (bad[k, "old"] ? "old failed" : "") \
				    (bad[k, "new"] ? " new failed" : "")
				continue
			}
			ow = med(w[k, "old"]); oc = med(c[k, "old"])
			om = med(m[k, "old"]) / 1024
			nw = med(w[k, "new"]); nc2 = med(c[k, "new"])
			nm = med(m[k, "new"]) / 1024
			f = oc > 0 && (nc2 - oc) / oc > 0.05 ? "SLOWER" : ""
			printf "%s\t%d\t%.3f\t%.3f\t%.1f\t%.3f\t%.3f\t%.1f\t" \
			    "%s\t%s\t%s\t%s\n", k, n[k, "new"], ow, oc, om,
			    nw, nc2, nm, pc(ow, nw), pc(oc, nc2), pc(om, nm), f
		}
	}' "$1"
}

if [ $# -eq 1 ]; then
	summary "$1"
	exit
fi

old=${OLD:?OLD=root of the old build}
new=${NEW:?NEW=root of the new build}
mb=${BENCH_MB:-400}
textmb=${BENCH_TEXT_MB:-200}
runs=${BENCH_RUNS:-5}
only=${BENCH_ONLY:-*}
cgmb=${BENCH_CGRAPH_MB:-128}
corpus=${CORPUS:-$root/../shared/corpus}
gen=$new/build/genpyspy
tgen=$new/build/gentrace
[ -x /usr/bin/time ] || { echo "ab: needs GNU time" >&2; exit 1; }
mkdir -p "$dir" || exit 1

# Write "$@"'s output to $dir/NAME ($1) unless it exists, with NEW's
# programs first on PATH.
mkinput() {
	name=$1
	shift
	[ -s "$dir/$name" ] && return 0
	echo "ab: making $dir/$name" >&2
	PATH=$new/bin:$new/pipelines:$PATH "$@" >"$dir/$name.tmp" &&
	    mv "$dir/$name.tmp" "$dir/$name" && return
	rm -f "$dir/$name.tmp"
	exit 1
}

# Copies of file $1, end to end, to at least $2 megabytes.
repeat() {
	size=$(wc -c <"$1")
	n=$((($2 * 1048576 + size - 1) / size))
	while [ "$n" -gt 0 ]; do
		cat "$1" || return 1
		n=$((n - 1))
	done
}

# Run sh command $2 once with build $1 (old or new) for case $3, run $4:
# one line of $raw.
once() {
	s=$(date +%s.%N)
	PATH=$(eval echo "\$$1")/bin:$(eval echo "\$$1")/pipelines:$PATH \
	    /usr/bin/time -f '%U %S %M' -o "$dir/.t" sh -c "$2" \
	    >/dev/null 2>"$dir/.err"
	st=$?
	e=$(date +%s.%N)
	[ "$st" -eq 0 ] || sed 's/^/ab: /' "$dir/.err" | head -3 >&2
	tail -n 1 "$dir/.t" | awk -v c="$3" -v b="$1" -v r="$4" \
	    -v s="$s" -v e="$e" -v st="$st" '{ printf "%s\t%s\t%d\t%.4f\t" \
	    "%s\t%s\t%s\t%d\n", c, b, r, e - s, $1, $2, $3, st }' >>"$raw"
}

# Case $1 on input $F (a file or directory) with sh command $2: old and
# new alternately, $runs times each.
ab() {
	case $1 in
	$only) ;;
	*) return ;;
	esac
	if [ ! -e "$F" ]; then
		echo "ab: $1: skipped (no input)" >&2
		return
	fi
	if [ -d "$F" ]; then cat "$F"/* >/dev/null; else cat "$F" >/dev/null; fi
	i=1
	while [ "$i" -le "$runs" ]; do
		if [ $((i % 2)) -eq 1 ]; then
			once old "$2" "$1" "$i"
			once new "$2" "$1" "$i"
		else
			once new "$2" "$1" "$i"
			once old "$2" "$1" "$i"
		fi
		i=$((i + 1))
	done
	echo "ab: $(date -u +%H:%M:%S) $1 done" >&2
}
export F O

echo "ab: $(date -u '+%Y-%m-%d %H:%M') UTC, $runs runs each, old $old," \
    "new $new, inputs in $dir, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# Traces (trace2sst, sst-gpu, sst-timeline): gentrace writes the same
# bytes for run.sh's trace-N.json and gputrace-N.json.
want=0
for c in "trace2sst one line ${mb}MB" "trace2sst pretty ${mb}MB" \
    "trace2sst shuffled ${mb}MB" "trace2sst pretty shuffled ${mb}MB" \
    "trace2sst -g one line ${mb}MB" "sst-gpu temporal 200MB" \
    "sst-gpu launch ${mb}MB" "sst-gpu temporal shuffled ${mb}MB" \
    "sst-timeline trace 200MB" "sst-timeline cgraph-kineto 4 actors"; do
	case $c in $only) want=1 ;; esac
done
if [ "$want" -eq 1 ]; then
	mkinput "trace-$mb.json" "$tgen" -m "$mb"
	mkinput "trace-pretty-$mb.json" "$tgen" -p -m "$mb"
	mkinput "trace-shuffled-$mb.json" "$tgen" -s -m "$mb"
	mkinput "trace-pretty-shuffled-$mb.json" "$tgen" -ps -m "$mb"
	mkinput trace-200.json "$tgen" -m 200
	t1=$dir/trace-$mb.json ts=$dir/trace-shuffled-$mb.json
	F=$t1; ab "trace2sst one line ${mb}MB" 'trace2sst "$F"'
	F=$dir/trace-pretty-$mb.json
	ab "trace2sst pretty ${mb}MB" 'trace2sst "$F"'
	F=$ts; ab "trace2sst shuffled ${mb}MB" 'trace2sst "$F"'
	F=$dir/trace-pretty-shuffled-$mb.json
	ab "trace2sst pretty shuffled ${mb}MB" 'trace2sst "$F"'
	F=$t1; ab "trace2sst -g one line ${mb}MB" 'trace2sst -g "$F"'
	for v in temporal launch; do
		F=$dir/trace-200.json
		ab "sst-gpu $v 200MB" "sst-gpu -F $v \"\$F\""
		F=$t1; ab "sst-gpu $v ${mb}MB" "sst-gpu -F $v \"\$F\""
		F=$ts; ab "sst-gpu $v shuffled ${mb}MB" "sst-gpu -F $v \"\$F\""
	done
	F=$dir/trace-200.json
	ab "sst-timeline trace 200MB" 'trace2sst -s "$F" | sst-timeline'
	d=$corpus/cgraph-kineto/compiled_graph_torch_profiles
	F=$d
	ab "sst-timeline cgraph-kineto 4 actors" \
	    'trace2sst -s "$F"/*.json | sst-timeline'
	rm -f "$dir"/trace-*.json
fi

# The py-spy profiles.
mkinput pyspy-10.json "$gen" -m 10
mkinput pyspy-200.json "$gen" -m 200
mkinput "pyspy-$mb.json" "$gen" -m "$mb"
mkinput pyspy-shared-first-100.json "$gen" -r -m 100
mkinput "pyspy-z50k-$mb.json" "$gen" -k 50000 -m "$mb"
mkinput pyspy-z200k-200.json "$gen" -k 200000 -m 200
p10=$dir/pyspy-10.json p200=$dir/pyspy-200.json pbig=$dir/pyspy-$mb.json
pr=$dir/pyspy-shared-first-100.json z50k=$dir/pyspy-z50k-$mb.json
z200k=$dir/pyspy-z200k-200.json
F=$p10; ab "sst-flatten 10MB" 'sst-flatten "$F"'
F=$p200; ab "sst-flatten 200MB" 'sst-flatten "$F"'
F=$pbig; ab "sst-flatten ${mb}MB" 'sst-flatten "$F"'
F=$pr; ab "sst-flatten shared-first 100MB" 'sst-flatten "$F"'
ab "sst-flatten -s shared-first 100MB" 'sst-flatten -s "$F"'
F=$p10; ab "analyze-pyspy-profile 10MB" \
    'analyze-pyspy-profile "$F" --no-categories'
F=$pbig; ab "analyze-pyspy-profile ${mb}MB" \
    'analyze-pyspy-profile "$F" --no-categories'
ab "sst-flatten ${mb}MB | head -1" 'sst-flatten "$F" | head -1'
F=$pr; ab "sst-flatten shared-first | head -1" 'sst-flatten "$F" | head -1'
ab "sst-flatten -s shared-first | head -1" 'sst-flatten -s "$F" | head -1'
F=$z50k; ab "sst-flatten z50k ${mb}MB" 'sst-flatten "$F"'
F=$z200k; ab "sst-flatten z200k 200MB" 'sst-flatten "$F"'
F=$z50k; ab "sst-flatten -z z50k ${mb}MB" 'sst-flatten -z "$F"'
ab "sst-flatten -z -k leaf z50k ${mb}MB" 'sst-flatten -z -k leaf "$F"'
ab "analyze-pyspy-profile z50k ${mb}MB" 'analyze-pyspy-profile "$F"'
ab "analyze-pyspy-profile -no-cat z50k" \
    'analyze-pyspy-profile "$F" --no-categories'
F=$pbig; ab "sst-flatten ${mb}MB | sst-flame" 'sst-flatten "$F" | sst-flame'
F=$z200k; ab "sst-flatten z200k | sst-flame" 'sst-flatten "$F" | sst-flame'

# The stream filters on the big profile's stream repeated to at least
# 10 million samples.
mkstream() {
	sst-flatten "$pbig" >"$dir/.one.sst" || return 1
	n=$(sst-threads -F total "$dir/.one.sst" | cut -f1)
	[ "$n" -gt 0 ] || return 1
	k=$(((10000000 + n - 1) / n))
	while [ "$k" -gt 0 ]; do
		cat "$dir/.one.sst" || return 1
		k=$((k - 1))
	done
	rm -f "$dir/.one.sst"
}
want=0
for c in "sst-grep-thread | head -1" "sst2collapsed | head -1" \
    "sst-leaf (all input) | head -1" "sst-threads 10M samples" \
    "sst-leaf 10M samples" "sst2collapsed 10M samples" \
    "sst2speedscope 10M samples"; do
	case $c in $only) want=1 ;; esac
done
if [ "$want" -eq 1 ]; then
	mkinput stream-10M.sst mkstream
	F=$dir/stream-10M.sst
	ab "sst-grep-thread | head -1" 'sst-grep-thread Thread "$F" | head -1'
	ab "sst2collapsed | head -1" 'sst2collapsed "$F" | head -1'
	ab "sst-leaf (all input) | head -1" 'sst-leaf "$F" | head -1'
	ab "sst-threads 10M samples" 'sst-threads "$F"'
	ab "sst-leaf 10M samples" 'sst-leaf "$F"'
	ab "sst2collapsed 10M samples" 'sst2collapsed "$F"'
	ab "sst2speedscope 10M samples" 'sst2speedscope "$F"'
	rm -f "$dir/stream-10M.sst"
fi

# sst2pprof and pprof2sst on z200k's stream and its profile; the
# reducers on the streams of pyspy-200.json and of z200k.
want=0
for c in "sst2pprof z200k stream" "pprof2sst z200k profile" \
    "sst-merge p200 stream" "sst-dot z200k stream" "sst-flame p200 stream" \
    "sst-diff z200k stream"; do
	case $c in $only) want=1 ;; esac
done
if [ "$want" -eq 1 ]; then
	mkinput stream-z200k.sst sst-flatten "$z200k"
	mkinput stream-p200.sst sst-flatten "$p200"
	F=$dir/stream-z200k.sst; ab "sst2pprof z200k stream" 'sst2pprof "$F"'
	case "pprof2sst z200k profile" in
	$only)
		mkinput pprof-z200k.pb.gz sst2pprof "$dir/stream-z200k.sst"
		F=$dir/pprof-z200k.pb.gz
		ab "pprof2sst z200k profile" 'pprof2sst "$F"'
		;;
	esac
	for sk in p200 z200k; do
		F=$dir/stream-$sk.sst
		for c in sst-merge sst-dot sst-flame; do
			ab "$c $sk stream" "$c \"\$F\""
		done
		ab "sst-diff $sk stream" 'sst-diff "$F" "$F"'
	done
	rm -f "$dir"/stream-z200k.sst "$dir"/pprof-z200k.pb.gz
fi

# Shortest floats: 1,000,000 folded stacks with random or 0.01 weights.
for k in rand 0.01; do
	case "c2s 1M $k" in $only) ;; *)
	case "sst2speedscope 1M $k" in $only) ;; *) continue ;; esac ;;
	esac
	mkinput "folded-1m-$k.txt" awk -v k="$k" 'BEGIN { srand(35)
	    for (i = 0; i < 1000000; i++) {
		w = k == "rand" ? (rand() + rand() / 2^26) * 20000 : k
		printf "main;run;work_%d;leaf_%d %.17g\n", i % 1000, i,
		    w } }'
	mkinput "stream-1m-$k.sst" collapsed2sst -F lines -s -f 99 \
	    "$dir/folded-1m-$k.txt"
	O=$dir/.c2s.json
	F=$dir/folded-1m-$k.txt
	ab "c2s 1M $k" 'collapsed-to-speedscope -o "$O" "$F"'
	F=$dir/stream-1m-$k.sst
	ab "sst2speedscope 1M $k" 'sst2speedscope -S "$F"'
	rm -f "$O"
done

# The text converters and the batch of 64 files.
src=$corpus/perf/perf_system_wide_a_collapsed.txt
if [ -r "$src" ]; then
	mkinput "collapsed-$textmb.txt" repeat "$src" "$textmb"
	F=$dir/collapsed-$textmb.txt
	ab "collapsed2sst ${textmb}MB" 'collapsed2sst "$F"'
	ab "collapsed2sst -s -u count | head -1" \
	    'collapsed2sst -s -u count "$F" | head -1'
	b=$dir/batch
	if [ ! -d "$b" ]; then
		mkdir -p "$b.tmp" && head -c 4194304 "$F" | sed '$d' \
		    >"$b.tmp/one" || exit 1
		i=0
		while [ "$i" -lt 64 ]; do
			cp "$b.tmp/one" "$b.tmp/perf_f${i}_collapsed.txt"
			i=$((i + 1))
		done
		rm "$b.tmp/one" && mv "$b.tmp" "$b" || exit 1
	fi
	F=$b
	ab "analyze-perf-profiles 64 files -j1" \
	    'cd "$F" && analyze-perf-profiles -j 1'
	ab "analyze-perf-profiles 64 files -j2" \
	    'cd "$F" && analyze-perf-profiles -j 2'
fi
src=$corpus/perf/perf_system_wide_a_script.txt
if [ -r "$src" ]; then
	mkinput "perf-script-$textmb.txt" repeat "$src" "$textmb"
	F=$dir/perf-script-$textmb.txt
	ab "perf2sst ${textmb}MB" 'perf2sst "$F"'
	ab "perf2sst -s | head -1" 'perf2sst -s "$F" | head -1'
fi

# sst-merge of 64 streams of about 5 MB.
m=$dir/merge64
case "sst-merge 64 streams" in
$only)
	if [ ! -d "$m" ]; then
		mkdir -p "$m.tmp" && "$gen" -k 300 -m 2 >"$m.tmp/p.json" &&
		    "$new/bin/sst-flatten" "$m.tmp/p.json" >"$m.tmp/one" ||
		    exit 1
		i=0
		while [ "$i" -lt 64 ]; do
			cp "$m.tmp/one" "$m.tmp/w$i.sst"
			i=$((i + 1))
		done
		rm "$m.tmp/one" "$m.tmp/p.json" && mv "$m.tmp" "$m" || exit 1
	fi
	F=$m; ab "sst-merge 64 streams" 'sst-merge "$F"/w*.sst' ;;
esac

# analyze-cgraph-profiles -j 2 on $cgmb MiB of Ray-shaped traces; each
# build runs its own pipeline script.
cg=$dir/cgraph-$cgmb
case "analyze-cgraph-profiles ${cgmb}MB dir" in
$only)
	src=$corpus/cgraph-kineto/compiled_graph_torch_profiles
	if [ ! -d "$cg" ] && [ -d "$src" ]; then
		sh "$new/bench/gencgraph.sh" -m "$cgmb" "$src" "$cg.tmp" &&
		    mv "$cg.tmp" "$cg" || exit 1
	fi
	F=$cg; ab "analyze-cgraph-profiles ${cgmb}MB dir" \
	    'analyze-cgraph-profiles -j 2 "$F"' ;;
esac

echo "ab: $(date -u '+%H:%M') UTC done, load" \
    "$(cut -d' ' -f1-3 /proc/loadavg)" >&2
summary "$raw"
