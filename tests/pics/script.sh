#!/bin/sh
# script.sh [-i] IN [ADDRESS] ACTION ...: draw the sst stream IN with
# sst-flame --width 1020 (-i: as an icicle), then drive the SVG's script
# in node with jsdom (tests/pics/drive.js) and print what it shows.
# Where node or jsdom is missing it says "skipped: ..." and exits 77.
here=$(cd "$(dirname "$0")" && pwd) || exit 1
dir=${SST_JSDOM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sst-jsdom}
if ! command -v node >/dev/null 2>&1 ||
    [ ! -f "$dir/node_modules/jsdom/package.json" ]; then
	echo "skipped: no node or no jsdom in $dir (make deps installs it)" >&2
	exit 77
fi
flags=
if [ "$1" = -i ]; then
	flags=-i
	shift
fi
t=$(mktemp) || exit 1
trap 'rm -f "$t"' EXIT
trap 'exit 1' HUP INT TERM
in=$1
shift
sst-flame $flags --width 1020 "$in" >"$t" || exit
SST_JSDOM_DIR=$dir node "$here/drive.js" "$t" "$@"
