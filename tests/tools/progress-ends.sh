#!/bin/sh
# progress-ends.sh: of the progress lines on standard input (each drawn
# as CR, the line and spaces over the longer one before it; a newline
# after the last when the output is no terminal), the first line (empty:
# before the first CR) and the last, the padding cut off and the rate
# (which depends on the time taken) written R.  How many lines come
# between depends on the time taken too, so they are left out.
tr '\r' '\n' | sed 's/ *$//; s/, [0-9.]* \([A-Za-z]*\/s\)$/, R \1/' |
    sed -n '1p;$p'
