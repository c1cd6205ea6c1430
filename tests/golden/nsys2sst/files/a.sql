INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES
    (1000, 3000, 59, 'step', 16777217);
