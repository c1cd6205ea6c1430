#!/bin/sh
# Install what the script tests of sst-flame need, when it is missing:
# node and npm (Debian's, through tests/deps.sh) and the DOM library
# jsdom from the npm registry, into $SST_JSDOM_DIR (default
# ~/.cache/sst-jsdom), outside the work tree.  tests/pics/drive.js
# finds it there.
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
version=26.1.0
dir=${SST_JSDOM_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sst-jsdom}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1
then
	sh "$top/tests/deps.sh" nodejs npm || exit 1
fi
if [ ! -f "$dir/node_modules/jsdom/package.json" ]; then
	mkdir -p "$dir" || exit 1
	echo "installing: jsdom@$version into $dir" >&2
	npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
	    "jsdom@$version" >&2 || exit 1
fi
NODE_PATH=$dir/node_modules node -e 'require("jsdom")' || exit 1
