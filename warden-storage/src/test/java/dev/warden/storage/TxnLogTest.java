package dev.warden.storage;

import static dev.warden.storage.LogFixtures.after;
import static dev.warden.storage.LogFixtures.appendAll;
import static dev.warden.storage.LogFixtures.assertRecords;
import static dev.warden.storage.LogFixtures.payload;
import static dev.warden.storage.LogFixtures.readAll;
import static dev.warden.storage.LogFixtures.reopenAndReadAll;
import static dev.warden.storage.LogFixtures.smallSegments;
import static dev.warden.storage.LogFixtures.zxids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TxnLogTest {

    @TempDir
    Path dir;

    @Test
    void roundTripAcrossSeveralSegments() throws IOException {
        List<LogRecord> written;
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            written = appendAll(log, zxids(1, 200, 1), 40, 7);
            assertTrue(log.segmentFiles().size() >= 4, "segments: " + log.segmentFiles());
            assertRecords(written, readAll(log, 0));
            assertEquals(200, log.lastDurableZxid());
        }
        assertRecords(written, reopenAndReadAll(dir, smallSegments()));
    }

    @Test
    void segmentFilesAreNamedByTheirFirstZxid() throws IOException {
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            appendAll(log, zxids(0x100000005L, 60, 3), 40, 10);
            for (Path file : log.segmentFiles()) {
                long firstZxid = SegmentFormat.firstZxidOf(file).orElseThrow();
                try (LogIterator records = log.readAfter(firstZxid - 1)) {
                    assertEquals(firstZxid, records.next().zxid(), file.toString());
                }
            }
            assertEquals("log.0000000100000005", log.segmentFiles().get(0).getFileName().toString());
        }
    }

    @Test
    void readAfterReturnsExactlyTheLaterRecordsFromAnyZxid() throws IOException {
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            List<LogRecord> written = appendAll(log, zxids(10, 90, 3), 30, 4);
            long last = written.get(written.size() - 1).zxid();
            for (long zxid = 0; zxid <= last + 2; zxid++) {
                assertRecords(after(written, zxid), readAll(log, zxid));
            }
        }
    }

    @Test
    void reopenContinuesWhereTheLogEnded() throws IOException {
        List<LogRecord> written = new ArrayList<>();
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            written.addAll(appendAll(log, zxids(1, 30, 1), 50, 5));
        }
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            assertEquals(30, log.lastAppendedZxid());
            assertEquals(30, log.lastDurableZxid());
            assertThrows(IllegalArgumentException.class, () -> log.append(30, new byte[1]));
            written.addAll(appendAll(log, zxids(31, 30, 1), 50, 5));
        }
        assertRecords(written, reopenAndReadAll(dir, smallSegments()));
    }

    @Test
    void emptyDirectoryOpensAsEmptyLog() throws IOException {
        Path fresh = dir.resolve("a/b");
        try (TxnLog log = TxnLog.open(fresh, smallSegments())) {
            assertEquals(0, log.lastAppendedZxid());
            assertFalse(log.readAfter(0).hasNext());
            assertTrue(log.segmentFiles().isEmpty());
        }
    }

    @Test
    void appendRejectsZxidsThatDoNotIncrease() throws IOException {
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            log.append(5, new byte[3]);
            assertThrows(IllegalArgumentException.class, () -> log.append(5, new byte[3]));
            assertThrows(IllegalArgumentException.class, () -> log.append(4, new byte[3]));
            log.append(6, new byte[0]);
            log.flush();
            assertEquals(List.of(5L, 6L), readAll(log, 0).stream().map(LogRecord::zxid).toList());
        }
    }

    @Test
    void emptyPayloadRoundTrips() throws IOException {
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            log.append(1, new byte[0]);
        }
        assertRecords(List.of(new LogRecord(1, new byte[0])), reopenAndReadAll(dir, smallSegments()));
    }

    @Test
    void unflushedRecordsAreInvisibleAndLostInACrash() throws IOException {
        TxnLog crashed = TxnLog.open(dir, smallSegments());
        List<LogRecord> durable = appendAll(crashed, zxids(1, 5, 1), 20, 5);
        crashed.append(6, payload(6, 20));
        assertEquals(6, crashed.lastAppendedZxid());
        assertEquals(5, crashed.lastDurableZxid());
        assertRecords(durable, readAll(crashed, 0));
        // Never closed: a second instance sees what a restart after a crash would see.
        assertRecords(durable, reopenAndReadAll(dir, smallSegments()));
    }

    @Test
    void flushIsOneWriteAndOneForcePerBatch() throws IOException {
        FaultInjectingChannels channels = new FaultInjectingChannels();
        TxnLogOptions options = TxnLogOptions.defaults().withPreallocateBytes(1 << 20).withChannels(channels);
        try (TxnLog log = TxnLog.open(dir, options)) {
            appendAll(log, zxids(1, 1, 1), 10, 1); // creates and preallocates the segment
            long forcesBefore = channels.forceCount();
            long writesBefore = channels.writeCallCount();
            appendAll(log, zxids(2, 100, 1), 100, 100);
            assertEquals(1, channels.forceCount() - forcesBefore);
            assertEquals(1, channels.writeCallCount() - writesBefore);
        }
    }

    @Test
    void zeroFilledPreallocatedTailIsTheNormalEnd() throws IOException {
        TxnLogOptions options = smallSegments().withPreallocateBytes(1 << 20).withSegmentMaxBytes(1 << 22);
        List<LogRecord> written;
        try (TxnLog log = TxnLog.open(dir, options)) {
            written = appendAll(log, zxids(1, 20, 1), 30, 3);
            assertEquals(1, log.segmentFiles().size());
        }
        Path segment = dir.resolve(SegmentFormat.fileName(1));
        assertEquals(1 << 20, Files.size(segment), "preallocated, data is far shorter");
        assertRecords(written, reopenAndReadAll(dir, options));
        assertEquals(1 << 20, Files.size(segment), "a clean zero tail is left alone");
    }

    @Test
    void rollSegmentStartsTheNextFlushInANewFile() throws IOException {
        try (TxnLog log = TxnLog.open(dir, TxnLogOptions.defaults().withPreallocateBytes(1 << 16))) {
            appendAll(log, zxids(1, 10, 1), 10, 10);
            log.rollSegment();
            log.append(11, payload(11, 10));
            log.flush();
            assertEquals(List.of(dir.resolve(SegmentFormat.fileName(1)), dir.resolve(SegmentFormat.fileName(11))),
                    log.segmentFiles());
            assertEquals(11, readAll(log, 0).size());
        }
        Path retired = dir.resolve(SegmentFormat.fileName(1));
        assertTrue(Files.size(retired) < 1 << 16, "a retired segment gives back its preallocation");
    }

    @Test
    void truncateAfterInsideTheBufferDropsOnlyBufferedRecords() throws IOException {
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            appendAll(log, zxids(1, 5, 1), 10, 5);
            for (long zxid = 6; zxid <= 9; zxid++) {
                log.append(zxid, payload(zxid, 10));
            }
            log.truncateAfter(7);
            assertEquals(7, log.lastAppendedZxid());
            log.append(8, payload(80, 3));
            log.flush();
            List<LogRecord> read = readAll(log, 0);
            assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L), read.stream().map(LogRecord::zxid).toList());
            assertEquals(new LogRecord(8, payload(80, 3)), read.get(7));
        }
    }

    @Test
    void truncateAfterAcrossSegmentsThenAppendAgain() throws IOException {
        List<LogRecord> written;
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            written = appendAll(log, zxids(1, 150, 1), 40, 6);
            int segmentsBefore = log.segmentFiles().size();
            log.truncateAfter(37);
            assertTrue(log.segmentFiles().size() < segmentsBefore);
            assertEquals(37, log.lastAppendedZxid());
            assertEquals(37, log.lastDurableZxid());
            assertRecords(written.subList(0, 37), readAll(log, 0));
        }
        List<LogRecord> expected = new ArrayList<>(written.subList(0, 37));
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            assertRecords(expected, readAll(log, 0));
            expected.addAll(appendAll(log, zxids(1000, 20, 1), 40, 6));
        }
        assertRecords(expected, reopenAndReadAll(dir, smallSegments()));
    }

    @Test
    void truncateAfterBetweenZxidsKeepsTheLowerOne() throws IOException {
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            appendAll(log, zxids(10, 50, 10), 40, 6);
            log.truncateAfter(255);
            assertEquals(250, log.lastAppendedZxid());
            log.truncateAfter(5);
            assertEquals(0, log.lastAppendedZxid());
            assertTrue(log.segmentFiles().isEmpty());
            appendAll(log, zxids(1, 3, 1), 40, 6);
        }
        assertEquals(3, reopenAndReadAll(dir, smallSegments()).size());
    }

    @Test
    void purgeUpToKeepsWhatReplayFromTheSnapshotNeeds() throws IOException {
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            List<LogRecord> written = appendAll(log, zxids(1, 200, 1), 40, 5);
            List<Path> before = log.segmentFiles();
            long snapshotZxid = 120;
            log.purgeUpTo(snapshotZxid);
            List<Path> after = log.segmentFiles();
            assertTrue(after.size() < before.size(), "something was purged");
            for (Path gone : before.subList(0, before.size() - after.size())) {
                assertFalse(Files.exists(gone));
            }
            long firstKept = SegmentFormat.firstZxidOf(after.get(0)).orElseThrow();
            assertTrue(firstKept <= snapshotZxid, "the segment holding the snapshot zxid stays");
            assertRecords(after(written, snapshotZxid), readAll(log, snapshotZxid));
            log.purgeUpTo(Long.MAX_VALUE);
            assertEquals(1, log.segmentFiles().size(), "the newest segment is never purged");
        }
    }
}
