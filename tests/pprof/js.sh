#!/bin/sh
# js.sh SCRIPT ARG...: run tests/pprof/SCRIPT.js in node with the
# pprof-format package that install.sh put in $SST_PPROF_DIR; where node
# or the package is missing, say "skipped: ..." and exit 77.
here=$(cd "$(dirname "$0")" && pwd) || exit 1
dir=${SST_PPROF_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sst-pprof}
if ! command -v node >/dev/null 2>&1 ||
    [ ! -f "$dir/node_modules/pprof-format/package.json" ]; then
	echo "skipped: no node or no pprof-format in $dir (make deps" \
	    "installs it)" >&2
	exit 77
fi
s=$1
shift
NODE_PATH=$dir/node_modules exec node "$here/$s.js" "$@"
