# The chain from the root to the innermost f5 (frame 999005).
awk 'BEGIN { printf "1\t1\tseconds\tt\tf0"
    for (i = 1; i <= 999005; i++) printf ";f%d", i % 1000
    printf "\n" }'
