# The chain from the outermost f5 (frame 5) to the leaf.
awk 'BEGIN { n = 1000000; printf "1\t1\tseconds\t\tf5"
    for (i = 6; i < n; i++) printf ";f%d", i % 1000
    printf "\n" }'
