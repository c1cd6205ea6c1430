#!/bin/sh
# bench/run.sh: time the sst filters on large inputs against `cat | cat`
# reading the same file.  Inputs are generated once into $BENCH_DIR and
# reused; each case runs $BENCH_RUNS times and the median wall time is
# kept, with the largest peak RSS seen.  See bench/README.

# Commands are single-quoted on purpose: sh -c expands $F in each run.
# shellcheck disable=SC2016,SC2034,SC2086,SC2254
set -u

root=$(cd "$(dirname -- "$0")/.." && pwd) || exit 1
dir=${BENCH_DIR:-/tmp/sst-bench}
mb=${BENCH_MB:-1024}
textmb=${BENCH_TEXT_MB:-300}
runs=${BENCH_RUNS:-3}
only=${BENCH_ONLY:-*}
corpus=${CORPUS:-$root/../shared/corpus}
refdir=${REF_DIR:-}
refmax=${REF_MAX_MB:-400}
gen=$root/build/genpyspy
PATH=$root/bin:$root/pipelines:$PATH
export PATH

for v in "$mb" "$textmb" "$runs" "$refmax"; do
	case $v in
	''|*[!0-9]*|0)
		echo "bench: BENCH_MB, BENCH_TEXT_MB, BENCH_RUNS and" \
		    "REF_MAX_MB must be positive integers" >&2
		exit 2 ;;
	esac
done

if [ -x /usr/bin/time ]; then
	timer=/usr/bin/time
else
	timer=
	echo "bench: /usr/bin/time (GNU time) not found, peak RSS not" \
	    "measured; install it with: apt-get install time" >&2
fi

if [ ! -x "$gen" ]; then
	(cd "$root" && ${MAKE:-make} -s build/genpyspy) || exit 1
fi
mkdir -p "$dir" || exit 1

# Write "$@"'s output to $dir/NAME ($1 is NAME) unless it exists already.
mkinput() {
	name=$1
	shift
	[ -s "$dir/$name" ] && return 0
	echo "bench: making $dir/$name" >&2
	"$@" >"$dir/$name.tmp" && mv "$dir/$name.tmp" "$dir/$name" && return
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

# Inputs: in_KEY is the path, or empty when it cannot be made.
mkinput pyspy-10.json "$gen" -m 10
mkinput pyspy-200.json "$gen" -m 200
mkinput "pyspy-$mb.json" "$gen" -m "$mb"
mkinput pyspy-shared-first-100.json "$gen" -r -m 100
# High stack cardinality (issue 15): K distinct stacks per thread with
# Zipf popularity, 8 threads, about 5,000 frames.
mkinput "pyspy-z50k-$mb.json" "$gen" -k 50000 -m "$mb"
mkinput pyspy-z200k-200.json "$gen" -k 200000 -m 200
# The same shape, three times the size: about twice the distinct
# records, for the memory each further record costs.
mkinput pyspy-z200k-600.json "$gen" -k 200000 -m 600
in_z50k=$dir/pyspy-z50k-$mb.json
in_z200k=$dir/pyspy-z200k-200.json
in_z200k600=$dir/pyspy-z200k-600.json
in_p10=$dir/pyspy-10.json
in_p200=$dir/pyspy-200.json
in_pbig=$dir/pyspy-$mb.json
in_pr=$dir/pyspy-shared-first-100.json
in_col='' in_scr=''
src=$corpus/perf/perf_system_wide_a_collapsed.txt
if [ -r "$src" ]; then
	mkinput "collapsed-$textmb.txt" repeat "$src" "$textmb"
	in_col=$dir/collapsed-$textmb.txt
fi
src=$corpus/perf/perf_system_wide_a_script.txt
if [ -r "$src" ]; then
	mkinput "perf-script-$textmb.txt" repeat "$src" "$textmb"
	in_scr=$dir/perf-script-$textmb.txt
fi

# The sst stream of the big profile, repeated to at least 10 million
# samples (the records keep their sample counts): sst2speedscope's input.
mkstream() {
	sst-flatten "$in_pbig" >"$dir/.one.sst" || return 1
	n=$(sst-threads -F total "$dir/.one.sst" | cut -f1)
	[ "$n" -gt 0 ] || return 1
	k=$(((10000000 + n - 1) / n))
	while [ "$k" -gt 0 ]; do
		cat "$dir/.one.sst" || return 1
		k=$((k - 1))
	done
	rm -f "$dir/.one.sst"
}
mkinput stream-10M.sst mkstream
in_s10m=$dir/stream-10M.sst

# A directory of 64 perf_*_collapsed.txt files of 4 MB each, for the
# batch case.
in_batch=''
if [ -n "$in_col" ]; then
	if [ ! -d "$dir/batch" ]; then
		echo "bench: making $dir/batch" >&2
		mkdir -p "$dir/batch.tmp" &&
		    head -c 4194304 "$in_col" | sed '$d' \
		    >"$dir/batch.tmp/one" || exit 1
		i=0
		while [ "$i" -lt 64 ]; do
			cp "$dir/batch.tmp/one" \
			    "$dir/batch.tmp/perf_f${i}_collapsed.txt" || exit 1
			i=$((i + 1))
		done
		rm "$dir/batch.tmp/one"
		mv "$dir/batch.tmp" "$dir/batch" || exit 1
	fi
	in_batch=$dir/batch
fi

# Run sh command $1 once: w = wall seconds, k = peak RSS in kB ("-"
# unknown); clears ok when it fails.
once() {
	s=$(date +%s.%N)
	if [ -n "$timer" ]; then
		$timer -f %M -o "$dir/.rss" sh -c "$1" || ok=0
		k=$(tail -n 1 "$dir/.rss")
	else
		sh -c "$1" || ok=0
		k=-
	fi
	e=$(date +%s.%N)
	w=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f", e - s }')
}

# The median of the numbers in $1.
median() {
	printf '%s\n' $1 | sort -n | awk '{ a[NR] = $1 }
	    END { print a[int((NR + 1) / 2)] }'
}

# Run sh command $1 and the baseline ($base, or cat | cat of $F) on $F
# alternately, $runs times each, so that both see the same load: t and
# ct = median wall seconds, rss = largest peak RSS of $1 in kB ("-"
# unknown), ok = 0 when a run failed.
measure() {
	ts='' cts='' rss=0 ok=1 i=0
	cat "$F" >/dev/null	# warm the page cache
	while [ "$i" -lt "$runs" ]; do
		once "${base:-cat \"\$F\" | cat >/dev/null}"
		cts="$cts $w"
		once "$1"
		ts="$ts $w"
		if [ "$k" = - ]; then
			rss=-
		elif [ "$rss" != - ] && [ "$k" -gt "$rss" ]; then
			rss=$k
		fi
		i=$((i + 1))
	done
	t=$(median "$ts")
	ct=$(median "$cts")
}

row() {
	printf '%-34s %8s %8s %8s %6s %8s %8s\n' "$@"
}

# Time case $1 (label) on input KEY $2 with sh command $4 ($F is the
# input), when every program in $3 is there.
bench() {
	case $1 in
	$only) ;;
	*) return ;;
	esac
	eval "F=\${in_$2:-}"
	export F
	if [ -z "$F" ]; then
		printf '%-34s %8s  skipped (no input)\n' "$1" -
		return
	fi
	inmb=$(wc -c <"$F" | awk '{ printf "%.0f", $1 / 1048576 }')
	for p in $3; do
		if ! command -v "$p" >/dev/null 2>&1 && [ ! -r "$p" ]; then
			printf '%-34s %8s  skipped (%s absent)\n' "$1" \
			    "$inmb" "$(basename -- "$p")"
			return
		fi
	done
	measure "$4"
	if [ "$ok" -eq 0 ]; then
		row "$1" "$inmb" failed "$ct"
		return
	fi
	awk -v c="$1" -v n="$inmb" -v t="$t" -v b="$ct" -v m="$rss" 'BEGIN {
	    r = b > 0 ? t / b : 0
	    v = t > 0 ? n / t : 0
	    if (m != "-")
		m = sprintf("%.0f", m / 1024)
	    printf "%-34s %8s %8.3f %8.3f %6.1f %8.0f %8s\n", c, n, t, b,
		r, v, m }'
}

echo "sst bench: $(date '+%Y-%m-%d %H:%M'), $(uname -m)," \
    "$(nproc 2>/dev/null || echo '?') cpus, median of $runs runs," \
    "inputs in $dir"
echo
row case "input MB" "sst s" "cat s" ratio "MB/s" "RSS MB"
bench "sst-flatten 10MB" p10 sst-flatten 'sst-flatten "$F" >/dev/null'
bench "sst-flatten 200MB" p200 sst-flatten 'sst-flatten "$F" >/dev/null'
bench "sst-flatten ${mb}MB" pbig sst-flatten 'sst-flatten "$F" >/dev/null'
bench "sst-flatten shared-first 100MB" pr sst-flatten \
    'sst-flatten "$F" >/dev/null'
bench "sst-flatten -s shared-first 100MB" pr sst-flatten \
    'sst-flatten -s "$F" >/dev/null'
bench "collapsed2sst ${textmb}MB" col collapsed2sst \
    'collapsed2sst "$F" >/dev/null'
bench "perf2sst ${textmb}MB" scr perf2sst 'perf2sst "$F" >/dev/null'
bench "analyze-pyspy-profile 10MB" p10 "sst-flatten analyze-pyspy-profile" \
    'analyze-pyspy-profile "$F" --no-categories >/dev/null'
bench "analyze-pyspy-profile ${mb}MB" pbig \
    "sst-flatten analyze-pyspy-profile" \
    'analyze-pyspy-profile "$F" --no-categories >/dev/null'
bench "sst-flatten ${mb}MB | head -1" pbig sst-flatten \
    'sst-flatten "$F" | head -1 >/dev/null'
bench "sst-flatten shared-first | head -1" pr sst-flatten \
    'sst-flatten "$F" | head -1 >/dev/null'
bench "sst-flatten -s shared-first | head -1" pr sst-flatten \
    'sst-flatten -s "$F" | head -1 >/dev/null'
bench "collapsed2sst -s -u count | head -1" col collapsed2sst \
    'collapsed2sst -s -u count "$F" | head -1 >/dev/null'
bench "perf2sst -s | head -1" scr perf2sst \
    'perf2sst -s "$F" | head -1 >/dev/null'
bench "sst-grep-thread | head -1" s10m sst-grep-thread \
    'sst-grep-thread Thread "$F" | head -1 >/dev/null'
bench "sst2collapsed | head -1" s10m sst2collapsed \
    'sst2collapsed "$F" | head -1 >/dev/null'
bench "sst-leaf (all input) | head -1" s10m sst-leaf \
    'sst-leaf "$F" | head -1 >/dev/null'
bench "sst-threads 10M samples" s10m sst-threads \
    'sst-threads "$F" >/dev/null'
bench "sst-leaf 10M samples" s10m sst-leaf 'sst-leaf "$F" >/dev/null'
bench "sst2collapsed 10M samples" s10m sst2collapsed \
    'sst2collapsed "$F" >/dev/null'
bench "sst2speedscope 10M samples" s10m sst2speedscope \
    'sst2speedscope "$F" >/dev/null'
bench "sst-flatten z50k ${mb}MB" z50k sst-flatten \
    'sst-flatten "$F" >/dev/null'
bench "sst-flatten z200k 200MB" z200k sst-flatten \
    'sst-flatten "$F" >/dev/null'
# What writing sst-flatten's text output costs by itself: the output
# through cat | cat, against cat | cat of the input (the ratio is the
# least sst-flatten's could be).  z200k's output is 4.5 times its input.
for k in z50k z200k; do
	case "cat|cat of $k's text output" in
	$only)
		O=$dir/.out.sst
		export O
		eval "sst-flatten \"\$in_$k\" >\"\$O\"" || exit 1
		bench "cat|cat of $k's text output" "$k" sst-flatten \
		    'cat "$O" | cat >/dev/null'
		rm -f "$O" ;;
	esac
done
bench "sst-flatten -z z50k ${mb}MB" z50k sst-flatten \
    'sst-flatten -z "$F" >/dev/null'
bench "sst-flatten -z -k leaf z50k ${mb}MB" z50k sst-flatten \
    'sst-flatten -z -k leaf "$F" >/dev/null'
bench "analyze-pyspy-profile z50k ${mb}MB" z50k \
    "sst-flatten analyze-pyspy-profile" \
    'analyze-pyspy-profile "$F" >/dev/null'
bench "analyze-pyspy-profile -no-cat z50k" z50k \
    "sst-flatten analyze-pyspy-profile" \
    'analyze-pyspy-profile "$F" --no-categories >/dev/null'

# sst2pprof and pprof2sst on the streams of the z200k shape at 200 and
# 600 MB (296,000 and 599,000 distinct records, twice as many) and on
# the profiles sst2pprof makes of them: time and memory should grow as
# the records do, the line after the rows gives the ratios.  Made only
# when one of these cases runs.
case "sst2pprof z200k" in
$only)
	for k in z200k z200k600; do
		eval "F=\${in_$k:-}"
		mkinput "pprof-$k.sst" sst-flatten "$F"
		mkinput "pprof-$k.pb.gz" sst2pprof "$dir/pprof-$k.sst"
		eval "in_pps_$k=\$dir/pprof-\$k.sst"
		eval "in_ppb_$k=\$dir/pprof-\$k.pb.gz"
	done
	pt='' pm=''
	for k in z200k z200k600; do
		bench "sst2pprof $k stream" "pps_$k" sst2pprof \
		    'sst2pprof "$F" >/dev/null'
		pt="$pt $t" pm="$pm $rss"
	done
	for k in z200k z200k600; do
		bench "pprof2sst $k profile" "ppb_$k" pprof2sst \
		    'pprof2sst "$F" >/dev/null'
		pt="$pt $t" pm="$pm $rss"
	done
	n1=$(wc -l <"$dir/pprof-z200k.sst")
	n2=$(wc -l <"$dir/pprof-z200k600.sst")
	echo "$n1 $n2 $pt $pm" | awk '{ printf "%-34s records x%.2f: " \
	    "sst2pprof time x%.2f RSS x%.2f, pprof2sst time x%.2f RSS x%.2f\n",
	    "pprof growth 200 -> 600MB", $2 / $1, $4 / $3, $8 / $7, $6 / $5,
	    $10 / $9 }' ;;
esac

# Peak RSS of sst-flatten against the distinct records it writes, on
# 200 and 600 MB of the z200k shape: what a further record costs.
case "sst-flatten RSS per record z200k" in
$only)
	if [ -n "$timer" ]; then
		for k in z200k z200k600; do
			eval "F=\${in_$k:-}"
			$timer -f %M -o "$dir/.rss" sst-flatten "$F" \
			    >"$dir/.recs" || exit 1
			eval "rss_$k=\$(tail -n 1 \"\$dir/.rss\")"
			eval "n_$k=\$(wc -l <\"\$dir/.recs\")"
		done
		rm -f "$dir/.recs"
		awk -v r1="$rss_z200k" -v r2="$rss_z200k600" \
		    -v n1="$n_z200k" -v n2="$n_z200k600" 'BEGIN {
		    printf "%-34s %d records %.1f MB, %d records %.1f MB: " \
			"%.0f bytes per further record\n",
			"sst-flatten RSS per record", n1, r1 / 1024, n2,
			r2 / 1024, (r2 - r1) * 1024 / (n2 - n1) }'
	fi ;;
esac

# The largest total size of the drop-in's temporary files, sampled
# every 20 ms, against the input's size.
case "analyze-pyspy-profile temporaries z50k z200k" in
$only)
	for k in z50k z200k; do
		eval "F=\${in_$k:-}"
		[ -n "$F" ] || continue
		tw=$dir/.tmpwatch
		rm -rf "$tw" && mkdir -p "$tw" || exit 1
		TMPDIR=$tw analyze-pyspy-profile "$F" >/dev/null &
		p=$!
		peak=0
		while kill -0 "$p" 2>/dev/null; do
			u=$(du -sk "$tw" 2>/dev/null | cut -f1)
			[ "${u:-0}" -gt "$peak" ] && peak=$u
			sleep 0.02
		done
		wait "$p"
		awk -v k="$k" -v p="$peak" -v n="$(wc -c <"$F")" 'BEGIN {
		    printf "%-34s %8.0f temporaries %.0f MB (%.1f%% of input)\n",
			"analyze-pyspy-profile " k, n / 1048576, p / 1024,
			100 * p * 1024 / n }'
		rm -rf "$tw"
	done ;;
esac

# Batch: the same 64 files converted with one job and with two; the
# "cat s" column is the one-job time here, so ratio is two jobs' share
# of it (0.59 or less is a speedup of 1.7 or more).
case "analyze-perf-profiles" in
$only)
	if [ -n "$in_batch" ]; then
		F=$in_batch/perf_f0_collapsed.txt
		export F in_batch
		measure 'cd "$in_batch" && analyze-perf-profiles -j 1 \
		    >/dev/null'
		t1=$t
		measure 'cd "$in_batch" && analyze-perf-profiles -j 2 \
		    >/dev/null'
		awk -v t="$t" -v b="$t1" -v m="$rss" 'BEGIN {
		    if (m != "-")
			m = sprintf("%.0f", m / 1024)
		    printf "%-34s %8s %8.3f %8.3f %6.2f %8.0f %8s\n",
			"analyze-perf-profiles 64 files -j2", 256, t, b,
			t / b, 256 / t, m
		    printf "(speedup of -j 2 over -j 1: %.2fx)\n", b / t }'
	fi ;;
esac

# sst-merge (issue 14): 64 streams of about 5 MB each (the stream of a
# generated profile of 300 stacks per thread, one copy per file, as 64
# workers running the same code), summed into one, against cat of the
# same 64 files.
case "sst-merge 64 streams" in
$only)
	m=$dir/merge64
	if [ ! -d "$m" ]; then
		echo "bench: making $m" >&2
		mkdir -p "$m.tmp" &&
		    "$gen" -k 300 -m 2 >"$m.tmp/profile.json" &&
		    sst-flatten "$m.tmp/profile.json" >"$m.tmp/one" || exit 1
		i=0
		while [ "$i" -lt 64 ]; do
			cp "$m.tmp/one" "$m.tmp/w$i.sst" || exit 1
			i=$((i + 1))
		done
		rm "$m.tmp/one" "$m.tmp/profile.json"
		mv "$m.tmp" "$m" || exit 1
	fi
	ts='' cts='' rss=0 ok=1 i=0
	cat "$m"/w*.sst >/dev/null
	while [ "$i" -lt "$runs" ]; do
		once "cat '$m'/w*.sst | cat >/dev/null"
		cts="$cts $w"
		once "sst-merge '$m'/w*.sst >/dev/null"
		ts="$ts $w"
		[ "$k" = - ] || [ "$k" -le "$rss" ] || rss=$k
		i=$((i + 1))
	done
	t=$(median "$ts")
	ct=$(median "$cts")
	[ "$ok" -eq 1 ] || t=failed
	awk -v t="$t" -v b="$ct" -v m="$rss" \
	    -v n="$(cat "$m"/w*.sst | wc -c)" 'BEGIN {
	    n /= 1048576
	    if (t == "failed") {
		printf "%-34s %8.0f %8s %8.3f\n", "sst-merge 64 streams", n,
		    t, b
		exit
	    }
	    printf "%-34s %8.0f %8.3f %8.3f %6.1f %8.0f %8.0f\n",
		"sst-merge 64 streams", n, t, b, t / b, n / t, m / 1024 }' ;;
esac

# analyze-cgraph-profiles (issue 33) on a directory of Ray-shaped traces
# of $BENCH_CGRAPH_MB MiB (bench/gencgraph.sh: the four actors of the
# cgraph-kineto corpus, each running its loop that many times longer),
# with two jobs, against cat | cat of the directory's files; the largest
# peak RSS of any of its processes.  Made only when the case is asked
# for.
cgmb=${BENCH_CGRAPH_MB:-512}
case "analyze-cgraph-profiles ${cgmb}MB dir" in
$only)
	cg=$dir/cgraph-$cgmb
	src=$corpus/cgraph-kineto/compiled_graph_torch_profiles
	if [ ! -d "$cg" ] && [ -d "$src" ]; then
		echo "bench: making $cg" >&2
		rm -rf "$cg.tmp"
		sh "$root/bench/gencgraph.sh" -m "$cgmb" "$src" "$cg.tmp" &&
		    mv "$cg.tmp" "$cg" || exit 1
	fi
	c="analyze-cgraph-profiles ${cgmb}MB dir"
	if [ -d "$cg" ]; then
		ts='' cts='' rss=0 ok=1 i=0
		cat "$cg"/*.json >/dev/null
		while [ "$i" -lt "$runs" ]; do
			once "cat '$cg'/*.json | cat >/dev/null"
			cts="$cts $w"
			once "analyze-cgraph-profiles -j 2 '$cg' >/dev/null"
			ts="$ts $w"
			[ "$k" = - ] || [ "$k" -le "$rss" ] || rss=$k
			i=$((i + 1))
		done
		t=$(median "$ts")
		ct=$(median "$cts")
		[ "$ok" -eq 1 ] || t=failed
		awk -v c="$c" -v t="$t" -v b="$ct" -v m="$rss" \
		    -v n="$(cat "$cg"/*.json | wc -c)" 'BEGIN {
		    n /= 1048576
		    if (t == "failed") {
			printf "%-34s %8.0f %8s %8.3f\n", c, n, t, b
			exit
		    }
		    printf "%-34s %8.0f %8.3f %8.3f %6.1f %8.0f %8.0f\n", c,
			n, t, b, t / b, n / t, m / 1024 }'
	else
		printf '%-34s %8s  skipped (no cgraph-kineto corpus)\n' \
		    "$c" -
	fi ;;
esac

# trace2sst on generated Kineto-like traces of $mb MB (bench/gentrace):
# one line and pretty-printed, in time order and shuffled (so that every
# thread is nested at the end, from one entry per span).  The inputs
# are made only when a case is asked for.
want=0
for c in "trace2sst one line" "trace2sst pretty" "trace2sst shuffled" \
    "trace2sst pretty shuffled" "trace2sst -g one line"; do
	case "$c ${mb}MB" in
	$only) want=1 ;;
	esac
done
if [ "$want" -eq 1 ]; then
	tgen=$root/build/gentrace
	if [ ! -x "$tgen" ]; then
		(cd "$root" && ${MAKE:-make} -s build/gentrace) || exit 1
	fi
	mkinput "trace-$mb.json" "$tgen" -m "$mb"
	mkinput "trace-pretty-$mb.json" "$tgen" -p -m "$mb"
	mkinput "trace-shuffled-$mb.json" "$tgen" -s -m "$mb"
	mkinput "trace-pretty-shuffled-$mb.json" "$tgen" -ps -m "$mb"
	in_t1=$dir/trace-$mb.json
	in_tp=$dir/trace-pretty-$mb.json
	in_ts=$dir/trace-shuffled-$mb.json
	in_tps=$dir/trace-pretty-shuffled-$mb.json
	bench "trace2sst one line ${mb}MB" t1 trace2sst \
	    'trace2sst "$F" >/dev/null'
	bench "trace2sst pretty ${mb}MB" tp trace2sst \
	    'trace2sst "$F" >/dev/null'
	bench "trace2sst shuffled ${mb}MB" ts trace2sst \
	    'trace2sst "$F" >/dev/null'
	bench "trace2sst pretty shuffled ${mb}MB" tps trace2sst \
	    'trace2sst "$F" >/dev/null'
	bench "trace2sst -g one line ${mb}MB" t1 trace2sst \
	    'trace2sst -g "$F" >/dev/null'
fi

# sst-gpu (issue 32): -F temporal, -F launch and -F idle on the generated
# Kineto-like traces (one line, each thread in time order) of 200 MB and
# $mb MB: two sizes, so that the time and the peak RSS show how they
# grow; temporal and launch in one pass; and the $mb MB trace shuffled in windows
# of 4,096 events (gentrace -s), which temporal cannot summarise as read
# (its fallback on the rows, see sst-gpu(1) MEMORY).  The inputs are
# made only when a case is asked for.
want=0
for c in "sst-gpu temporal" "sst-gpu launch" "sst-gpu idle" \
    "sst-gpu temporal+launch" "sst-gpu temporal shuffled" \
    "sst-gpu launch shuffled"; do
	for z in 200 "$mb"; do
		case "$c ${z}MB" in
		$only) want=1 ;;
		esac
	done
done
if [ "$want" -eq 1 ]; then
	tgen=$root/build/gentrace
	if [ ! -x "$tgen" ]; then
		(cd "$root" && ${MAKE:-make} -s build/gentrace) || exit 1
	fi
	mkinput gputrace-200.json "$tgen" -m 200
	mkinput "gputrace-$mb.json" "$tgen" -m "$mb"
	in_g200=$dir/gputrace-200.json
	in_gbig=$dir/gputrace-$mb.json
	for v in temporal launch idle; do
		bench "sst-gpu $v 200MB" g200 sst-gpu \
		    "sst-gpu -F $v \"\$F\" >/dev/null"
		bench "sst-gpu $v ${mb}MB" gbig sst-gpu \
		    "sst-gpu -F $v \"\$F\" >/dev/null"
	done
	bench "sst-gpu temporal+launch ${mb}MB" gbig sst-gpu \
	    'sst-gpu -F temporal -F launch "$F" >/dev/null'
	in_gshuf=''
	for v in temporal launch; do
		case "sst-gpu $v shuffled ${mb}MB" in
		$only)
			mkinput "gputrace-shuffled-$mb.json" "$tgen" -s -m "$mb"
			in_gshuf=$dir/gputrace-shuffled-$mb.json ;;
		esac
		bench "sst-gpu $v shuffled ${mb}MB" gshuf sst-gpu \
		    "sst-gpu -F $v \"\$F\" >/dev/null"
	done
fi

# sst-timeline (issue 33): trace2sst -s | sst-timeline on the four actors
# of cgraph-kineto (the corpus) and on a generated Kineto-like trace of
# 200 MB: the pipeline's time and peak RSS against cat of the same
# files, the SVG's size and, when chromium is there, how long headless
# Chromium takes to save a screenshot of it ($dir/NAME.png), against
# the time it takes on an SVG of one rectangle (its own start).
tlcase() {
	case $1 in
	$only) ;;
	*) return ;;
	esac
	[ -n "$F" ] || { printf '%-34s %8s  skipped (no input)\n' "$1" -;
	    return; }
	inmb=$(cat $F | wc -c | awk '{ printf "%.0f", $1 / 1048576 }')
	ts='' cts='' rss=0 ok=1 i=0
	while [ "$i" -lt "$runs" ]; do
		once "cat $F | cat >/dev/null"
		cts="$cts $w"
		once "trace2sst -s $F | sst-timeline >\"$dir/$2.svg\""
		ts="$ts $w"
		[ "$k" = - ] || [ "$k" -le "$rss" ] || rss=$k
		i=$((i + 1))
	done
	t=$(median "$ts")
	ct=$(median "$cts")
	[ "$ok" -eq 1 ] || { row "$1" "$inmb" failed "$ct"; return; }
	awk -v c="$1" -v n="$inmb" -v t="$t" -v b="$ct" -v m="$rss" 'BEGIN {
	    r = b > 0 ? t / b : 0
	    v = t > 0 ? n / t : 0
	    printf "%-34s %8s %8.3f %8.3f %6.1f %8.0f %8.0f\n", c, n, t, b,
		r, v, m / 1024 }'
	svgkb=$(($(wc -c <"$dir/$2.svg") / 1024))
	if ! command -v chromium >/dev/null 2>&1; then
		echo "  SVG ${svgkb} kB; chromium absent"
		return
	fi
	h=$(sed -n 's/^<svg .* height="\([0-9]*\)".*/\1/p' "$dir/$2.svg")
	printf '<svg xmlns="http://www.w3.org/2000/svg" width="100" %s\n' \
	    'height="100"><rect width="10" height="10"/></svg>' \
	    >"$dir/.one.svg"
	chrome="chromium --headless --no-sandbox --disable-gpu \
	    --hide-scrollbars --user-data-dir=$dir/.chrome"
	once "$chrome --screenshot=$dir/.one.png file://$dir/.one.svg \
	    >/dev/null 2>&1"
	w0=$w
	ok=1
	once "$chrome --screenshot=$dir/$2.png --window-size=1200,$h \
	    file://$dir/$2.svg >/dev/null 2>&1"
	[ "$ok" -eq 1 ] || w=failed
	echo "  SVG ${svgkb} kB, $h px high; chromium screenshot $w s" \
	    "(one rectangle: $w0 s), $dir/$2.png"
}
F=''
d=$corpus/cgraph-kineto/compiled_graph_torch_profiles
[ -d "$d" ] && F=$(echo "$d"/*.json)
tlcase "sst-timeline cgraph-kineto 4 actors" timeline-kineto
case "sst-timeline trace 200MB" in
$only)
	tgen=$root/build/gentrace
	if [ ! -x "$tgen" ]; then
		(cd "$root" && ${MAKE:-make} -s build/gentrace) || exit 1
	fi
	mkinput trace-200.json "$tgen" -m 200
	F=$dir/trace-200.json
	tlcase "sst-timeline trace 200MB" timeline-trace200 ;;
esac

# Shortest floats (issue 35): 1,000,000 folded stacks, each a stack of
# its own (its own leaf frame), the weights random doubles of 17
# significant digits ("rand", as 10111.121212121214) or all 0.01
# ("0.01"); sst2speedscope -S on the stream collapsed-to-speedscope
# makes of them (collapsed2sst -F lines -s -f 99), and cat | cat of the
# JSON it writes, and build/s2sfloor (bench/s2sfloor.c), the least work
# of the conversion, checking nothing.  With BENCH_BEFORE=DIR
# (the bin/ of an older build) the same cases run with its programs
# too, in the same run, labelled "before".
fl=0
case "c2s 1M rand" in $only) fl=1 ;; esac
case "sst2speedscope 1M rand" in $only) fl=1 ;; esac
if [ "$fl" -eq 1 ]; then
	for k in rand 0.01; do
		mkinput "folded-1m-$k.txt" awk -v k="$k" 'BEGIN { srand(35)
		    for (i = 0; i < 1000000; i++) {
			w = k == "rand" ? (rand() + rand() / 2^26) * 20000 : k
			printf "main;run;work_%d;leaf_%d %.17g\n", i % 1000, i,
			    w } }'
		mkinput "stream-1m-$k.sst" collapsed2sst -F lines -s -f 99 \
		    "$dir/folded-1m-$k.txt"
		mkinput "speedscope-1m-$k.json" sst2speedscope -S \
		    "$dir/stream-1m-$k.sst"
	done
	in_f1r=$dir/folded-1m-rand.txt in_f1n=$dir/folded-1m-0.01.txt
	in_s1r=$dir/stream-1m-rand.sst in_s1n=$dir/stream-1m-0.01.sst
	in_j1r=$dir/speedscope-1m-rand.json in_j1n=$dir/speedscope-1m-0.01.json
	O=$dir/.c2s.json
	export O
	# The programs of $BENCH_BEFORE beside a copy of its tree's script
	# (today's if it has none: the script since issue 35 runs
	# collapsed2sst -J), which takes the filters beside it.
	old=''
	if [ -n "${BENCH_BEFORE:-}" ]; then
		old=$dir/before
		os=$BENCH_BEFORE/../pipelines/collapsed-to-speedscope
		[ -f "$os" ] || os=$root/pipelines/collapsed-to-speedscope
		rm -rf "$old" && mkdir -p "$old" &&
		    ln -s "$BENCH_BEFORE"/collapsed2sst \
		    "$BENCH_BEFORE"/sst2speedscope "$old"/ &&
		    cp "$os" "$old"/ || exit 1
	fi
	export old
	# The least work of the conversion (bench/s2sfloor.c: no checks),
	# whose output must be sst2speedscope's.
	floor=$root/build/s2sfloor
	if [ ! -x "$floor" ]; then
		(cd "$root" && ${MAKE:-make} -s build/s2sfloor) || exit 1
	fi
	for k in rand 0.01; do
		"$floor" "$dir/stream-1m-$k.sst" <"$dir/stream-1m-$k.sst" |
		    cmp -s - "$dir/speedscope-1m-$k.json" || {
			echo "bench: s2sfloor differs from sst2speedscope" >&2
			exit 1
		}
	done
	export floor
	# (once() and measure() set k and w: other names here.)
	for fk in r n; do
		fw=rand
		[ "$fk" = n ] && fw=0.01
		bench "c2s 1M $fw" "f1$fk" collapsed-to-speedscope \
		    'collapsed-to-speedscope -o "$O" "$F" >/dev/null'
		[ -z "$old" ] ||
		    bench "c2s 1M $fw before" "f1$fk" "$old/collapsed2sst" \
		    '"$old"/collapsed-to-speedscope -o "$O" "$F" >/dev/null'
		bench "sst2speedscope 1M $fw" "s1$fk" sst2speedscope \
		    'sst2speedscope -S "$F" >/dev/null'
		[ -z "$old" ] ||
		    bench "sst2speedscope 1M $fw before" "s1$fk" \
		    "$old/sst2speedscope" \
		    '"$old"/sst2speedscope -S "$F" >/dev/null'
		bench "s2sfloor 1M $fw (least work)" "s1$fk" "$floor" \
		    '"$floor" "$F" <"$F" >/dev/null'
		bench "cat|cat of sst2speedscope 1M $fw" "j1$fk" \
		    sst2speedscope 'cat "$F" | cat >/dev/null'
	done
	rm -f "$O"
fi

# sst-flame: the flame graph of the big profile and of the profile of
# 200,000 stacks per thread, from the JSON (the SVG is thrown away).
bench "sst-flatten ${mb}MB | sst-flame" pbig "sst-flatten sst-flame" \
    'sst-flatten "$F" | sst-flame >/dev/null'
bench "sst-flatten z200k | sst-flame" z200k "sst-flatten sst-flame" \
    'sst-flatten "$F" | sst-flame >/dev/null'

# Reducers that keep less (issue 35): sst-merge, sst-diff (the stream
# against itself, so its baseline is cat | cat of the file twice),
# sst-dot and sst-flame on the streams of pyspy-200.json (48,000
# distinct records) and pyspy-z200k-200.json (296,000 records, 6.2
# million distinct stack prefixes); with BENCH_BEFORE, the same with
# the programs of that bin/ ("before" rows).  The line after each
# stream gives the limit of the issue: 64 MB or 20% of the input,
# whichever is larger.  The streams are made only when a case runs.
# nl200k is z200k's stream with its locations blanked (149 MB: the
# stacks alone, where the trees of issue 35 were bound).
# (once() and measure() set k and w: other names here.)
export BENCH_BEFORE
for sk in p200 z200k nl200k; do
	want=0
	for c in sst-merge sst-diff sst-dot sst-flame; do
		case "$c $sk stream" in
		$only) want=1 ;;
		esac
	done
	[ "$want" -eq 1 ] || continue
	if [ "$sk" = nl200k ]; then
		mkinput stream-z200k.sst sst-flatten "$in_z200k"
		mkinput stream-nl200k.sst awk -F '\t' -v OFS='\t' \
		    '{ $7 = ""; print }' "$dir/stream-z200k.sst"
	else
		eval "src=\${in_$sk:-}"
		mkinput "stream-$sk.sst" sst-flatten "$src"
	fi
	eval "in_st$sk=\$dir/stream-\$sk.sst"
	for c in sst-merge sst-diff sst-dot sst-flame; do
		cmd="$c \"\$F\" >/dev/null"
		base=''
		if [ "$c" = sst-diff ]; then
			cmd='sst-diff "$F" "$F" >/dev/null'
			base='cat "$F" "$F" | cat >/dev/null'
		fi
		bench "$c $sk stream" "st$sk" "$c" "$cmd"
		[ -n "${BENCH_BEFORE:-}" ] &&
		    bench "$c $sk stream before" "st$sk" "$BENCH_BEFORE/$c" \
		    "\"\$BENCH_BEFORE\"/$cmd"
		base=''
	done
	awk -v n="$(wc -c <"$dir/stream-$sk.sst")" -v k="$sk" 'BEGIN {
	    n /= 1048576
	    printf "(reducers on stream-%s.sst, %.0f MB: RSS limit %.0f MB)\n",
		k, n, (n / 5 > 64 ? n / 5 : 64) }'
done

# Reference figures: the Python scripts sst replaces, on the same inputs
# (up to REF_MAX_MB, since they hold the whole profile in memory).
if [ -z "$refdir" ]; then
	echo "ref: skipped (REF_DIR not set: the directory of Ray's" \
	    "analyze_pyspy_profile.py and collapsed_to_speedscope.py)"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "ref: skipped (python3 absent)"
	exit 0
fi
R=$refdir
export R
echo
for k in p10 pbig col f1r f1n; do
	eval "f=\${in_$k:-}"
	[ -n "$f" ] || continue
	n=$(wc -c <"$f" | awk '{ printf "%.0f", $1 / 1048576 }')
	[ "$n" -le "$refmax" ] || continue
	case $k in
	col|f1r|f1n)
		l=${n}MB
		[ "$k" = f1r ] && l="1M rand"
		[ "$k" = f1n ] && l="1M 0.01"
		if [ ! -f "$R/collapsed_to_speedscope.py" ]; then
			echo "ref collapsed_to_speedscope $l: skipped (no" \
			    "$R/collapsed_to_speedscope.py: Ray's script, not" \
			    "part of sst)"
			continue
		fi
		bench "ref collapsed_to_speedscope $l" "$k" \
		    "python3 $R/collapsed_to_speedscope.py" \
		    'python3 "$R"/collapsed_to_speedscope.py "$F" \
		    -o /dev/null >/dev/null' ;;
	*)	bench "ref analyze_pyspy_profile ${n}MB" "$k" \
		    "python3 $R/analyze_pyspy_profile.py" \
		    'python3 "$R"/analyze_pyspy_profile.py "$F" \
		    --no-categories >/dev/null' ;;
	esac
done
