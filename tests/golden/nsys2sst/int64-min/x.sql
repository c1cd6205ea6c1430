-- An end of INT64_MIN is data (it was taken for "no end"): a range of
-- 0 ns at INT64_MIN, and one of 10 ns at 0, on thread 7 of PID 100.
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid)
VALUES
    (-9223372036854775807 - 1, -9223372036854775807 - 1, 59, 'a', 1677721607),
    (0, 10, 59, 'b', 1677721607);
