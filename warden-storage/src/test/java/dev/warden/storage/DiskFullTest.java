package dev.warden.storage;

import static dev.warden.storage.LogFixtures.appendAll;
import static dev.warden.storage.LogFixtures.assertRecords;
import static dev.warden.storage.LogFixtures.payload;
import static dev.warden.storage.LogFixtures.readAll;
import static dev.warden.storage.LogFixtures.reopenAndReadAll;
import static dev.warden.storage.LogFixtures.zxids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A full disk loses only what was never durable, and the log carries on once space returns. */
class DiskFullTest {

    @TempDir
    Path dir;

    private final FaultInjectingChannels disk = new FaultInjectingChannels();

    @ParameterizedTest(name = "budget={0}")
    @ValueSource(longs = {0, 1, 100, 1000})
    void diskFillingMidFlushLeavesExactlyTheDurableRecords(long budgetBytes) throws IOException {
        for (long preallocateBytes : new long[] {0, 1 << 16}) {
            Path logDir = dir.resolve("prealloc-" + preallocateBytes);
            TxnLogOptions options = TxnLogOptions.defaults().withPreallocateBytes(preallocateBytes).withChannels(disk);
            List<LogRecord> durable = new ArrayList<>();
            try (TxnLog log = TxnLog.open(logDir, options)) {
                durable.addAll(appendAll(log, zxids(1, 20, 1), 60, 20));
                disk.limitWritesTo(budgetBytes);
                for (long zxid = 21; zxid <= 40; zxid++) {
                    log.append(zxid, payload(zxid, 60));
                }
                // With preallocation a small batch may fit in space already taken; make it big.
                for (long zxid = 41; zxid <= 2000; zxid++) {
                    log.append(zxid, payload(zxid, 60));
                }
                IOException full = assertThrows(IOException.class, log::flush);
                assertEquals("No space left on device", full.getMessage());
                assertThrows(IllegalStateException.class, () -> log.append(5000, new byte[1]));
                assertThrows(IllegalStateException.class, log::flush);

                log.rollbackToDurable(); // the disk is still full
                assertEquals(20, log.lastAppendedZxid());
                assertEquals(20, log.lastDurableZxid());
                assertRecords(durable, readAll(log, 0));
            }
            assertRecords(durable, reopenAndReadAll(logDir, options));

            disk.allowWrites();
            try (TxnLog log = TxnLog.open(logDir, options)) {
                durable.addAll(appendAll(log, zxids(21, 50, 1), 60, 7));
            }
            assertRecords(durable, reopenAndReadAll(logDir, options));
        }
    }

    @ParameterizedTest(name = "budget={0}")
    @ValueSource(longs = {0, 5, 16, 40})
    void diskFillingWhileStartingASegmentRemovesTheNewFile(long budgetBytes) throws IOException {
        TxnLogOptions options = TxnLogOptions.defaults().withPreallocateBytes(0).withChannels(disk);
        List<LogRecord> durable;
        try (TxnLog log = TxnLog.open(dir, options)) {
            durable = appendAll(log, zxids(1, 5, 1), 60, 5);
            log.rollSegment();
            disk.limitWritesTo(budgetBytes);
            log.append(6, payload(6, 60));
            assertThrows(IOException.class, log::flush);
            log.rollbackToDurable();
            assertEquals(List.of(dir.resolve(SegmentFormat.fileName(1))), log.segmentFiles());
            assertFalse(Files.exists(dir.resolve(SegmentFormat.fileName(6))));
            disk.allowWrites();
            log.append(6, payload(6, 60));
            log.flush();
            durable = new ArrayList<>(durable);
            durable.add(new LogRecord(6, payload(6, 60)));
        }
        assertRecords(durable, reopenAndReadAll(dir, options));
    }

    @Test
    void rollbackWithoutAFailureIsHarmless() throws IOException {
        TxnLogOptions options = TxnLogOptions.defaults().withPreallocateBytes(4096).withChannels(disk);
        try (TxnLog log = TxnLog.open(dir, options)) {
            List<LogRecord> durable = appendAll(log, zxids(1, 3, 1), 10, 3);
            log.append(4, payload(4, 10));
            log.rollbackToDurable();
            assertEquals(3, log.lastAppendedZxid());
            assertRecords(durable, readAll(log, 0));
        }
    }
}
