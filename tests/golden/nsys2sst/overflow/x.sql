-- Two ranges of thread 7 of PID 100; the second lasts 2^64 - 2 ns.
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid)
VALUES
    (0, 10, 59, 'ok', 1677721607),
    (-9223372036854775807, 9223372036854775807, 59, 'huge', 1677721607);
