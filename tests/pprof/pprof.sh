#!/bin/sh
# pprof.sh ARG...: run pprof's own command, built by install.sh from
# Debian's golang-go and golang-github-google-pprof-dev into
# $SST_PPROF_DIR/bin; where it is missing, say "skipped: ..." and exit
# 77.  Its notes on standard error about binaries it cannot find (there
# are no mappings) are left out.
dir=${SST_PPROF_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sst-pprof}
if [ ! -x "$dir/bin/pprof" ]; then
	echo "skipped: no pprof in $dir/bin (make deps builds it where" \
	    "Debian's golang-go and golang-github-google-pprof-dev install)" >&2
	exit 77
fi
HOME=${TMPDIR:-/tmp} PPROF_TMPDIR=${TMPDIR:-/tmp} "$dir/bin/pprof" "$@" 2>&1 |
    grep -v -e '^Main binary filename not available' \
	-e '^Local symbolization failed' -e '^Some binary filenames' \
	-e '^Try setting PPROF_BINARY_PATH'
