#!/bin/sh
# Install what the pprof tests need, when it is missing: node and npm
# (Debian's, through tests/deps.sh) and the pure JavaScript pprof
# encoder and decoder pprof-format from the npm registry, into
# $SST_PPROF_DIR (default ~/.cache/sst-pprof), outside the work tree;
# then, if it can be done offline from Debian's packages golang-go and
# golang-github-google-pprof-dev, pprof's own command built into
# $SST_PPROF_DIR/bin/pprof (a warning, not a failure, when it cannot).
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
version=2.3.2
dir=${SST_PPROF_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sst-pprof}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1
then
	sh "$top/tests/deps.sh" nodejs npm || exit 1
fi
if [ ! -f "$dir/node_modules/pprof-format/package.json" ]; then
	mkdir -p "$dir" || exit 1
	echo "installing: pprof-format@$version into $dir" >&2
	npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
	    "pprof-format@$version" >&2 || exit 1
fi
NODE_PATH=$dir/node_modules node -e 'require("pprof-format")' || exit 1
if [ ! -x "$dir/bin/pprof" ]; then
	src=/usr/share/gocode/src/github.com/google/pprof
	sh "$top/tests/deps.sh" golang-go golang-github-google-pprof-dev &&
	    [ -d "$src" ] && mkdir -p "$dir/bin" &&
	    GOPATH=/usr/share/gocode GO111MODULE=off GOPROXY=off GOFLAGS= \
	    GOCACHE=$dir/gocache go build -o "$dir/bin/pprof" \
	    github.com/google/pprof >&2 ||
	    echo "warning: pprof could not be built from Debian's" \
		"packages: the pprof -top test will be skipped" >&2
fi
exit 0
