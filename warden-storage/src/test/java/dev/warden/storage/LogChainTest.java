package dev.warden.storage;

import static dev.warden.storage.LogFixtures.appendAll;
import static dev.warden.storage.LogFixtures.assertRecords;
import static dev.warden.storage.LogFixtures.readAll;
import static dev.warden.storage.LogFixtures.zxids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each segment names the zxid its first record follows, and an emptied log says where it
 * starts, so a scan can tell a log that continues from one whose earlier part is missing. Damage
 * is reported by the scan, and only opening a log that still holds it fails.
 */
class LogChainTest {

    private static final TxnLogOptions SMALL = LogFixtures.smallSegments();

    @TempDir
    Path dir;

    @Test
    void everySegmentFollowsTheLastRecordOfTheOneBefore() throws IOException {
        List<LogRecord> written;
        try (TxnLog log = TxnLog.open(dir, SMALL)) {
            written = appendAll(log, zxids(1, 200, 1), 40, 7);
            log.rollSegment();
            written = new java.util.ArrayList<>(written);
            written.addAll(appendAll(log, zxids(1L << 32 | 1, 5, 1), 40, 5));
        }
        LogScan scan = LogScan.of(dir, SMALL);
        List<LogScan.SegmentReport> segments = scan.segments();
        assertTrue(segments.size() > 3, "the test needs several segments: " + segments.size());
        assertEquals(0, segments.get(0).previousZxid());
        for (int i = 1; i < segments.size(); i++) {
            assertEquals(segments.get(i - 1).lastZxid(), segments.get(i).previousZxid(), segments.get(i).describe());
            assertTrue(segments.get(i).isSound());
        }
        // the new epoch's segment follows the old epoch's last record
        assertEquals(200, segments.get(segments.size() - 1).previousZxid());
        assertEquals(0, scan.startZxid());
        assertEquals(OptionalLong.empty(), scan.baseZxid());
        try (TxnLog log = TxnLog.open(scan)) {
            assertRecords(written, readAll(log, 0));
        }
    }

    @Test
    void purgeMovesTheStartToWhatTheFirstKeptSegmentFollows() throws IOException {
        try (TxnLog log = TxnLog.open(dir, SMALL)) {
            appendAll(log, zxids(1, 200, 1), 40, 7);
            log.purgeUpTo(120);
            long start = log.startZxid();
            assertTrue(start > 0 && start <= 120, "start " + start);
            LogScan scan = LogScan.of(dir, SMALL);
            assertEquals(start, scan.startZxid());
            assertEquals(start + 1, scan.segments().get(0).firstZxid());
        }
    }

    @Test
    void aRestartedLogSaysWhereItStartsUntilItHoldsASegmentAgain() throws IOException {
        try (TxnLog log = TxnLog.open(dir, SMALL)) {
            appendAll(log, zxids(1, 50, 1), 40, 7);
            log.restartAfter(1L << 32 | 7);
            assertEquals(1L << 32 | 7, log.startZxid());
        }
        LogScan empty = LogScan.of(dir, SMALL);
        assertTrue(empty.segments().isEmpty());
        assertEquals(OptionalLong.of(1L << 32 | 7), empty.baseZxid());
        assertEquals(1L << 32 | 7, empty.startZxid());
        try (TxnLog log = TxnLog.open(empty)) {
            assertEquals(1L << 32 | 7, log.lastDurableZxid());
            appendAll(log, zxids(1L << 32 | 8, 3, 1), 40, 3);
        }
        LogScan again = LogScan.of(dir, SMALL);
        assertEquals(1, again.segments().size());
        assertEquals(1L << 32 | 7, again.segments().get(0).previousZxid());
        assertEquals(OptionalLong.empty(), again.baseZxid(), "a segment says it now");
        assertFalse(Files.exists(dir.resolve(LogBase.FILE_NAME)));
    }

    @Test
    void aTruncationThatEmptiesTheLogKeepsItsStart() throws IOException {
        try (TxnLog log = TxnLog.open(dir, SMALL)) {
            appendAll(log, zxids(1, 100, 1), 40, 7);
            log.purgeUpTo(60);
            long start = log.startZxid();
            log.truncateAfter(start);
            assertTrue(log.segmentFiles().isEmpty());
            assertEquals(start, log.lastDurableZxid());
            assertEquals(start, log.startZxid());
        }
        LogScan scan = LogScan.of(dir, SMALL);
        assertTrue(scan.segments().isEmpty());
        assertEquals(OptionalLong.of(scan.startZxid()), scan.baseZxid());
        try (TxnLog log = TxnLog.open(scan)) {
            long start = log.startZxid();
            appendAll(log, zxids(start + 1, 2, 1), 40, 2);
            assertEquals(start, LogScan.of(dir, SMALL).segments().get(0).previousZxid());
        }
    }

    @Test
    void damageInAnOlderSegmentIsReportedByTheScanAndStopsOnlyTheOpen() throws IOException {
        try (TxnLog log = TxnLog.open(dir, SMALL)) {
            appendAll(log, zxids(1, 200, 1), 40, 7);
        }
        LogScan scan = LogScan.of(dir, SMALL);
        LogScan.SegmentReport second = scan.segments().get(1);
        flip(second.file(), SegmentFormat.HEADER_BYTES + 20);

        LogScan damaged = LogScan.of(dir, SMALL);
        LogScan.SegmentReport report = damaged.segments().get(1);
        assertFalse(report.isSound());
        assertEquals(SegmentFormat.HEADER_BYTES, report.damage().offsetBytes());
        assertTrue(report.describe().contains("damaged at byte offset " + SegmentFormat.HEADER_BYTES),
                report.describe());
        CorruptLogException thrown = assertThrows(CorruptLogException.class, () -> TxnLog.open(dir, SMALL));
        assertEquals(second.file(), thrown.file());
        assertEquals(second.file(), damaged.firstDamage().file());

        Path aside = dir.resolveSibling("aside");
        LogScan kept = damaged.moveAside(List.of(damaged.segments().get(0), report), aside);
        assertTrue(Files.exists(aside.resolve(second.file().getFileName())));
        assertNull(kept.firstDamage());
        assertEquals(damaged.segments().get(2).previousZxid(), kept.startZxid());
        try (TxnLog log = TxnLog.open(kept)) {
            assertEquals(200, log.lastDurableZxid());
            assertEquals(kept.segments().get(0).firstZxid(), readAll(log, 0).get(0).zxid());
        }
    }

    @Test
    void holdsRecordLooksForTheExactZxid() throws IOException {
        try (TxnLog log = TxnLog.open(dir, SMALL)) {
            appendAll(log, zxids(2, 120, 2), 40, 7); // even zxids 2..240
        }
        LogScan scan = LogScan.of(dir, SMALL);
        assertTrue(scan.holdsRecord(2));
        assertTrue(scan.holdsRecord(100));
        assertTrue(scan.holdsRecord(240));
        LogScan.SegmentReport middle = scan.segments().get(1);
        assertTrue(scan.holdsRecord(middle.firstZxid()));
        assertTrue(scan.holdsRecord(middle.lastZxid()));
        assertFalse(scan.holdsRecord(101));
        assertFalse(scan.holdsRecord(0));
        assertFalse(scan.holdsRecord(242));
    }

    @Test
    void aSegmentOfAnotherFormatVersionIsDamage() throws IOException {
        try (TxnLog log = TxnLog.open(dir, SMALL)) {
            appendAll(log, zxids(1, 5, 1), 40, 5);
        }
        Path segment = dir.resolve(SegmentFormat.fileName(1));
        byte[] bytes = Files.readAllBytes(segment);
        ByteBuffer.wrap(bytes).putInt(4, 1);
        Files.write(segment, bytes);
        LogScan.SegmentReport report = LogScan.of(dir, SMALL).segments().get(0);
        assertEquals(4, report.damage().offsetBytes());
        assertTrue(report.damage().reason().contains("format version 1"), report.damage().reason());
    }

    @Test
    void aHeaderWhosePreviousZxidIsNotBelowItsFirstIsDamage() throws IOException {
        try (TxnLog log = TxnLog.open(dir, SMALL)) {
            appendAll(log, zxids(1, 5, 1), 40, 5);
        }
        Path segment = dir.resolve(SegmentFormat.fileName(1));
        byte[] bytes = Files.readAllBytes(segment);
        ByteBuffer.wrap(bytes).putLong(16, 1);
        Files.write(segment, bytes);
        assertEquals(16, LogScan.of(dir, SMALL).segments().get(0).damage().offsetBytes());
    }

    @Test
    void aBaseFileThatIsNotAZxidIsCorruption() throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(LogBase.FILE_NAME), "twelve\n");
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> LogScan.of(dir, SMALL));
        assertEquals(dir.resolve(LogBase.FILE_NAME), e.file());
    }

    private static void flip(Path file, long offset) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) offset] ^= 0x40;
        Files.write(file, bytes);
    }
}
