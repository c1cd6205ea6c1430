-- The tables of an `nsys export --type sqlite` database that nsys2sst
-- reads, as NVIDIA's SQLite Export Schema Reference documents them
-- (Nsight Systems 2023-2024; column order and types as `.schema`
-- prints them).  nsys is not installable here: the tests build their
-- databases from this file and hand-written INSERTs with sqlite3(1).
-- Tables are created lazily by nsys, so a real export may lack some.

CREATE TABLE StringIds (
    id                  INTEGER   NOT NULL   PRIMARY KEY,
    value               TEXT      NOT NULL
);
CREATE TABLE ENUM_NSYS_EVENT_TYPE (
    id                  INTEGER   NOT NULL   PRIMARY KEY,
    name                TEXT,
    description         TEXT
);
INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES
    (33, 'NvtxCategory', 'NVTX category'),
    (34, 'NvtxMark', 'NVTX mark'),
    (36, 'NvtxThread', 'NVTX thread'),
    (59, 'NvtxPushPopRange', 'NVTX push/pop range'),
    (60, 'NvtxStartEndRange', 'NVTX start/end range'),
    (75, 'NvtxDomainCreate', 'NVTX domain create'),
    (76, 'NvtxDomainDestroy', 'NVTX domain destroy');
CREATE TABLE ThreadNames (
    nameId              INTEGER   NOT NULL   REFERENCES StringIds(id),
    priority            INTEGER,
    globalTid           INTEGER
);
CREATE TABLE PROCESSES (
    globalPid           INTEGER,
    pid                 INTEGER,
    name                TEXT
);
-- start, end: nanoseconds; globalTid: serialized GlobalId, with the
-- PID in globalTid / 0x1000000 % 0x1000000 and the TID in
-- globalTid % 0x1000000.  text is set for ranges with a plain message,
-- textId (into StringIds) for registered strings.
CREATE TABLE NVTX_EVENTS (
    start               INTEGER   NOT NULL,
    end                 INTEGER,
    eventType           INTEGER   NOT NULL   REFERENCES ENUM_NSYS_EVENT_TYPE(id),
    rangeId             INTEGER,
    category            INTEGER,
    color               INTEGER,
    text                TEXT,
    globalTid           INTEGER,
    endGlobalTid        INTEGER,
    textId              INTEGER   REFERENCES StringIds(id),
    domainId            INTEGER,
    uint64Value         INTEGER,
    int64Value          INTEGER,
    doubleValue         REAL,
    uint32Value         INTEGER,
    int32Value          INTEGER,
    floatValue          REAL,
    jsonTextId          INTEGER,
    jsonText            TEXT,
    binaryData          BLOB
);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
    start               INTEGER   NOT NULL,
    end                 INTEGER   NOT NULL,
    eventClass          INTEGER   NOT NULL,
    globalTid           INTEGER,
    correlationId       INTEGER,
    nameId              INTEGER   NOT NULL   REFERENCES StringIds(id),
    returnValue         INTEGER   NOT NULL,
    callchainId         INTEGER
);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
    start               INTEGER   NOT NULL,
    end                 INTEGER   NOT NULL,
    deviceId            INTEGER   NOT NULL,
    contextId           INTEGER   NOT NULL,
    greenContextId      INTEGER,
    streamId            INTEGER   NOT NULL,
    correlationId       INTEGER,
    globalPid           INTEGER,
    demangledName       INTEGER   NOT NULL   REFERENCES StringIds(id),
    shortName           INTEGER   NOT NULL   REFERENCES StringIds(id),
    mangledName         INTEGER   REFERENCES StringIds(id),
    launchType          INTEGER,
    cacheConfig         INTEGER,
    registersPerThread  INTEGER   NOT NULL,
    gridX               INTEGER   NOT NULL,
    gridY               INTEGER   NOT NULL,
    gridZ               INTEGER   NOT NULL,
    blockX              INTEGER   NOT NULL,
    blockY              INTEGER   NOT NULL,
    blockZ              INTEGER   NOT NULL,
    staticSharedMemory  INTEGER   NOT NULL,
    dynamicSharedMemory INTEGER   NOT NULL,
    localMemoryPerThread INTEGER  NOT NULL,
    localMemoryTotal    INTEGER   NOT NULL,
    gridId              INTEGER   NOT NULL,
    sharedMemoryExecuted INTEGER,
    graphNodeId         INTEGER,
    sharedMemoryLimitConfig INTEGER
);
