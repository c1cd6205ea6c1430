#!/bin/sh
# slowpipe.sh FILE N: FILE on standard output, with a pause of 1.2 s
# after its first N bytes, for the cases that show the progress line,
# which appears only once a run has taken a second (common/base/progress.c).
# N is larger than a pipe holds (64 KiB): the first part is written
# whole only once the reader has taken in all but 64 KiB of it, so the
# reader is running and reading when the pause starts, and its second
# is over when the rest comes, however late it started.
head -c "$2" -- "$1" && sleep 1.2 && tail -c +"$(($2 + 1))" -- "$1"
