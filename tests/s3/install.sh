#!/bin/sh
# Install what the S3 tests of download-job-output need, when it is
# missing: the AWS CLI (Debian's awscli, through tests/deps.sh) and the
# local S3 server s3rver from the npm registry, into $SST_S3RVER_DIR
# (default ~/.cache/sst-s3rver), outside the work tree.
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
version=3.7.1
dir=${SST_S3RVER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sst-s3rver}

sh "$top/tests/deps.sh" awscli || exit 1
if ! command -v npm >/dev/null 2>&1; then
	sh "$top/tests/deps.sh" nodejs npm || exit 1
fi
if [ ! -x "$dir/node_modules/.bin/s3rver" ]; then
	mkdir -p "$dir" || exit 1
	echo "installing: s3rver@$version into $dir" >&2
	npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
	    "s3rver@$version" >&2 || exit 1
fi
"$dir/node_modules/.bin/s3rver" --version >/dev/null || exit 1
