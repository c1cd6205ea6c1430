# deepstack.txt: "t;f1;...;f999;f0;... 1": one sample of 1/99 s (the
# default 99 Hz) in thread t, whose name stays the first frame.
awk 'BEGIN { n = 1000000
    printf "t\t1\t0.010101010101010102\tseconds\t0.010101010101010102\tt"
    for (i = 1; i < n; i++) printf ";f%d", i % 1000
    printf "\t\n" }'
