#!/bin/sh
# sigterm.sh: whether analyze-cgraph-profiles removes its temporary
# files when it is killed while a conversion runs.  The directory holds
# one trace that is a FIFO; once trace2sst has it open to read (its
# writer's open returns), the pipeline's process group gets SIGTERM, as
# from a terminal's kill.  Prints the exit status and the names left in
# TMPDIR.  (tests/pipelines/sigterm.sh does the same for pipelines that
# take a file.)
set -u
work=$(mktemp -d "${TMPDIR:-/tmp}/cgsig.XXXXXXXXXX") || exit 1
wpid=
trap 'rm -rf -- "$work"; [ -z "$wpid" ] || kill "$wpid" 2>/dev/null' EXIT
mkdir "$work/tmp" "$work/traces" && mkfifo "$work/traces/a.json" || exit 1

TMPDIR=$work/tmp setsid analyze-cgraph-profiles -j 1 "$work/traces" \
    >/dev/null 2>&1 &
pid=$!
sleep 60 >"$work/traces/a.json" &
wpid=$!
i=0
while [ "$(cat "/proc/$wpid/comm" 2>/dev/null)" != sleep ]; do
	i=$((i + 1))
	if [ "$i" -gt 400 ]; then
		echo "sigterm.sh: the FIFO was never opened" >&2
		kill -s TERM -- "-$pid"
		exit 1
	fi
	sleep 0.05
done
kill -s TERM -- "-$pid"
wait "$pid"
echo "status $?"
left=$(ls -A "$work/tmp")
echo "left: $left"
