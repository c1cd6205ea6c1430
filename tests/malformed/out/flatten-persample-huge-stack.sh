# deepstack.json: one sample of a million frames, a;b;a;b;...
awk 'BEGIN { n = 1000000; printf "\t1\t1\tseconds\t1\ta"
    for (i = 1; i < n; i++) printf ";%s", i % 2 ? "b" : "a"
    printf "\t:::0"
    for (i = 1; i < n; i++) printf ";:::%d", i % 2
    printf "\t0\n" }'
