# deepstack.txt: "t;f1;...;f999;f0;... 1" with -J: one sample of 1/99 s
# (99 Hz) in thread t; the frames t, f1 ... f999, f0 numbered 0 to 1000
# in the order first met, so frame fK is K but f0, which is 1000.
awk 'BEGIN { n = 1000000
    printf "{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\", \"shared\": {\"frames\": [{\"name\": \"t\"}"
    for (i = 1; i <= 1000; i++) printf ", {\"name\": \"f%d\"}", i % 1000
    printf "]}, \"profiles\": [{\"type\": \"sampled\", \"name\": \"t\", \"unit\": \"seconds\", \"startValue\": 0, \"endValue\": 0.010101010101010102, \"samples\": [[0"
    for (i = 1; i < n; i++) printf ", %d", i % 1000 == 0 ? 1000 : i % 1000
    printf "]], \"weights\": [0.010101010101010102]}], \"name\": \"x\", \"exporter\": \"collapsed2sst\"}" }'
