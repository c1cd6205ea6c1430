INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES (5, 4, 59, 'r', 1);
