INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES (5, NULL, 34, 'mark', 1);
