-- Tables are made lazily: an export may have NVTX_EVENTS alone.
DROP TABLE StringIds; DROP TABLE ThreadNames; DROP TABLE PROCESSES;
DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId)
VALUES (5, 9, 59, 'a', 33554435, NULL), (6, 7, 59, NULL, 33554435, 4);
