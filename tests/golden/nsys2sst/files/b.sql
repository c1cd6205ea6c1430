INSERT INTO StringIds VALUES (5, 'k;x');
-- demangledName 6 is not in StringIds: the short name is used.
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId,
    streamId, demangledName, shortName, registersPerThread, gridX, gridY,
    gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory,
    localMemoryPerThread, localMemoryTotal, gridId)
VALUES (0, 1000000000, 1, 1, 2, 6, 5, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1);
