-- PID 100 = globalTid / 0x1000000; threads 7 ("MainThread") and 8.
INSERT INTO StringIds VALUES (1, 'MainThread'), (2, 'forward'),
    (10, 'void gemm<float>(float*)'), (11, 'gemm'), (12, 'relu_kernel'),
    (13, 'relu');
INSERT INTO ThreadNames VALUES (1, 0, 1677721607);
INSERT INTO PROCESSES VALUES (1677721600, 100, 'python');
-- Push/pop ranges of thread 7, not in start order; a mark (34) and a
-- domain creation (75) are skipped.
INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId)
VALUES
    (0, 1000, 59, 'train_step', 1677721607, NULL),
    (150, 250, 59, 'matmul', 1677721607, NULL),
    (100, 400, 59, NULL, 1677721607, 2),
    (120, NULL, 34, 'mark', 1677721607, NULL),
    (400, 900, 59, 'backward', 1677721607, NULL),
    (800, 1200, 59, 'optimizer', 1677721607, NULL),
    (1500, 1600, 59, 'train_step', 1677721607, NULL),
    (0, NULL, 75, 'domain', 1677721607, NULL),
    (50, 700, 60, 'load', 1677721607, NULL),
    (600, 1100, 60, 'io', 1677721607, NULL),
    (10, 40, 59, 'worker', 1677721608, NULL),
    (15, NULL, 59, 'hang', 1677721608, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId,
    streamId, globalPid, demangledName, shortName, registersPerThread,
    gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory,
    dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId)
VALUES
    (200, 260, 0, 1, 7, 1677721600, 10, 11, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1),
    (300, 310, 0, 1, 7, 1677721600, 12, 13, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 2),
    (205, 215, 0, 1, 13, 1677721600, 12, 13, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 3),
    (400, 460, 0, 1, 7, 1677721600, 10, 11, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 4);
