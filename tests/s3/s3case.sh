#!/bin/sh
# One case of the S3 tests of download-job-output, named by $1.  It
# starts a local S3 server (s3rver, see install.sh) on 127.0.0.1 with a
# port the system picks, creates buckets and uploads a small tree into
# them with the real AWS CLI, then runs download-job-output in a
# temporary directory with the anyscale stand-in of bin/ first in PATH,
# and prints what can be compared byte for byte: the script's output
# without aws's progress lines, the script's own messages, the exit
# status, the files downloaded and whether they equal the uploaded ones.
# The server is stopped and the directory removed on exit.  Anything
# missing (aws, s3rver) or a server that does not start fails the case
# with a message.
#
# The expected outputs of the s3-* cases are what this script printed
# with the reference download_job_output.sh (and analyze_perf_profiles.sh
# for s3-analyze) behind wrappers that turn --endpoint-url into
# AWS_ENDPOINT_URL, with aws-cli 1.45, which reads that variable itself;
# the two messages of download-job-output about credentials were added
# by hand.  The same outputs come with Debian's aws-cli 2.9.
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
case=$1
s3rver=${SST_S3RVER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sst-s3rver}
s3rver=$s3rver/node_modules/.bin/s3rver

# Fail the case with a message on both outputs, so that it shows in the
# diff of tests/run.sh.
die() {
	echo "s3case: $*"
	echo "s3case: $*" >&2
	exit 1
}

[ -x "$s3rver" ] || s3rver=$(command -v s3rver) ||
    die "no s3 server: s3rver not found; run sh tests/s3/install.sh"
command -v aws >/dev/null 2>&1 ||
    die "aws not found; run sh tests/s3/install.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/s3case.XXXXXXXXXX") || exit 1
work=$(cd "$work" && pwd -P) || exit 1
spid=
cleanup() {
	if [ -n "$spid" ]; then
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
	fi
	rm -rf -- "$work"
}
trap cleanup EXIT
trap 'exit 1' HUP INT PIPE TERM

# No credentials, profiles, endpoints or instance metadata from outside.
unset AWS_PROFILE AWS_DEFAULT_PROFILE AWS_SESSION_TOKEN \
    AWS_SECURITY_TOKEN AWS_ENDPOINT_URL AWS_ENDPOINT_URL_S3 \
    AWS_CONTAINER_CREDENTIALS_RELATIVE_URI \
    AWS_CONTAINER_CREDENTIALS_FULL_URI AWS_WEB_IDENTITY_TOKEN_FILE \
    AWS_ROLE_ARN AWS_CA_BUNDLE PROFILING_S3_BUCKET ANYSCALE_STUB
HOME=$work/home
AWS_CONFIG_FILE=$work/home/aws-config
AWS_SHARED_CREDENTIALS_FILE=$work/home/aws-credentials
AWS_EC2_METADATA_DISABLED=true
AWS_DEFAULT_REGION=us-east-1
AWS_REGION=us-east-1
AWS_PAGER=
AWS_ACCESS_KEY_ID=S3RVER
AWS_SECRET_ACCESS_KEY=S3RVER
export HOME AWS_CONFIG_FILE AWS_SHARED_CREDENTIALS_FILE \
    AWS_EC2_METADATA_DISABLED AWS_DEFAULT_REGION AWS_REGION AWS_PAGER \
    AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
mkdir "$work/home" "$work/run" "$work/data" || exit 1

# Start the server; ep is its address.
server() {
	: >"$work/s3rver.log"
	"$s3rver" -s -d "$work/data" -a 127.0.0.1 -p 0 \
	    >"$work/s3rver.log" 2>&1 &
	spid=$!
	port='' i=0
	while :; do
		port=$(sed -n \
		    's/^S3rver listening on 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' \
		    "$work/s3rver.log")
		[ -n "$port" ] && break
		i=$((i + 1))
		if [ "$i" -gt 300 ] || ! kill -0 "$spid" 2>/dev/null; then
			cat "$work/s3rver.log" >&2
			die "no s3 server: s3rver did not start"
		fi
		sleep 0.1
	done
	ep=http://127.0.0.1:$port
}

# Create bucket $1 and upload into it the tree the job left under
# jobs/prof/, and objects near it that must stay there.
upload() {
	aws --endpoint-url "$ep" s3 mb "s3://$1" >/dev/null ||
	    die "aws s3 mb s3://$1 failed"
	aws --endpoint-url "$ep" s3 cp "$stage" "s3://$1/" --recursive \
	    --only-show-errors || die "aws s3 cp to s3://$1/ failed"
}

stage=$work/stage
src=$stage/jobs/prof
mkdir -p "$src/py spy" "$src/nested/deeper" "$stage/jobs/prof2" \
    "$stage/jobs/other" || exit 1
cp "$top/tests/fixtures/cg-perf_xz_fp_collapsed.txt" \
    "$src/perf_xz_fp_collapsed.txt" || exit 1
echo 'driver profile' >"$src/py spy/driver profile.json"
printf 'a\000b\377\n' >"$src/nested/deeper/data.bin"
: >"$src/empty.txt"
echo dash >"$src/-dash.txt"
echo 'not this one' >"$stage/jobs/prof2/secret.txt"
echo 'nor this one' >"$stage/jobs/other/secret.txt"
bucket=sst-test
default=anyscale-staging-data-cld-kvedzwag2qa8i5bjxuevf5i7

job=prodjob_test1
# DOWNLOAD_JOB_OUTPUT and ANALYZE_PERF_PROFILES name other
# implementations to run instead, such as the reference scripts behind
# wrappers taking the same arguments, to check the expected outputs.
dl=${DOWNLOAD_JOB_OUTPUT:-$top/pipelines/download-job-output}
ap=${ANALYZE_PERF_PROFILES:-$top/pipelines/analyze-perf-profiles}
PATH=$top/tests/s3/bin:$PATH
export PATH

# Run the command given (download-job-output, through env(1)) in
# $work/run.
run() {
	(cd "$work/run" && "$@" >"$work/out" 2>"$work/err")
	st=$?
	echo "== stdout"
	grep -v -e '^Completed ' -e '^download: ' "$work/out" |
	    sed "s|$work|WORK|"
	echo "== messages"
	grep '^download-job-output: ' "$work/err"
	echo "== status $st"
	if [ -d "$work/run/$job" ]; then
		echo "== $job"
		(cd "$work/run/$job" && find . -type f | LC_ALL=C sort)
		echo "== job-driver.log"
		cat "$work/run/$job/job-driver.log"
	fi
}

# Whether the job directory holds the uploaded tree and nothing else.
same() {
	rm -f "$work/run/$job/job-driver.log"
	if diff -r "$src" "$work/run/$job"; then
		echo "== the same files as uploaded"
	fi
}

case $case in
option)
	server
	upload "$bucket"
	run env PROFILING_S3_BUCKET="$bucket" \
	    "$dl" --endpoint-url "$ep" "$job" jobs/prof
	same ;;
option-equals)
	server
	upload "$bucket"
	run env AWS_ENDPOINT_URL=http://127.0.0.1:9 \
	    PROFILING_S3_BUCKET="$bucket" \
	    "$dl" --endpoint-url="$ep" -- "$job" jobs/prof
	same ;;
env-default-bucket)
	server
	upload "$default"
	run env AWS_ENDPOINT_URL="$ep" "$dl" "$job" jobs/prof
	same ;;
empty-prefix)
	server
	upload "$bucket"
	run env PROFILING_S3_BUCKET="$bucket" \
	    "$dl" --endpoint-url "$ep" "$job" jobs/none ;;
no-bucket)
	server
	run env PROFILING_S3_BUCKET=no-such-bucket \
	    "$dl" --endpoint-url "$ep" "$job" jobs/prof ;;
no-credentials)
	# Nothing listens on port 9: aws must fail before it connects.
	unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
	run env PROFILING_S3_BUCKET="$bucket" \
	    "$dl" --endpoint-url http://127.0.0.1:9 "$job" jobs/prof ;;
bad-credentials)
	server
	upload "$bucket"
	run env AWS_ACCESS_KEY_ID=WRONG AWS_SECRET_ACCESS_KEY=WRONG \
	    PROFILING_S3_BUCKET="$bucket" \
	    "$dl" --endpoint-url "$ep" "$job" jobs/prof ;;
analyze)
	server
	upload "$bucket"
	run env PROFILING_S3_BUCKET="$bucket" \
	    "$dl" --endpoint-url "$ep" "$job" jobs/prof
	echo "== analyze-perf-profiles -j 2 $job"
	(cd "$work/run" && "$ap" -j 2 "$job")
	echo "== status $?"
	cat "$work/run/$job/perf_thread_summary.txt"
	echo "== md5 of perf_xz_fp.speedscope.json"
	md5sum <"$work/run/$job/perf_xz_fp.speedscope.json" ;;
*)
	die "unknown case: $case" ;;
esac
exit 0
