# The thread as the first frame, then the stack, then the sample count.
awk 'BEGIN { n = 1000000; printf "t;f0"
    for (i = 1; i < n; i++) printf ";f%d", i % 1000
    printf " 1\n" }'
