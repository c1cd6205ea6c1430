# One profile, frames f0..f999 in first-seen order, one sample of the
# million indices 0, 1, ..., 999, 0, ... and weight 1.
awk 'BEGIN { n = 1000000
    printf "{\"$schema\": \"https://www.speedscope.app/file-format-schema.json\", \"shared\": {\"frames\": [{\"name\": \"f0\"}"
    for (i = 1; i < 1000; i++) printf ", {\"name\": \"f%d\"}", i
    printf "]}, \"profiles\": [{\"type\": \"sampled\", \"name\": \"t\", \"unit\": \"seconds\", \"startValue\": 0, \"endValue\": 1.0, \"samples\": [[0"
    for (i = 1; i < n; i++) printf ", %d", i % 1000
    printf "]], \"weights\": [1.0]}], \"name\": \"deepstack.sst\", \"exporter\": \"sst2speedscope\"}" }'
