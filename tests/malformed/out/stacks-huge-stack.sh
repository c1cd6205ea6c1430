# The one stack of deepstack.sst: f0;f1;...;f999;f0;... a million frames.
awk 'BEGIN { n = 1000000; printf "1\t1\tseconds\t\tf0"
    for (i = 1; i < n; i++) printf ";f%d", i % 1000
    printf "\n" }'
