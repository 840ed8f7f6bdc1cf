package dev.warden.storage;

import static dev.warden.storage.LogFixtures.appendAll;
import static dev.warden.storage.LogFixtures.assertRecords;
import static dev.warden.storage.LogFixtures.readAll;
import static dev.warden.storage.LogFixtures.reopenAndReadAll;
import static dev.warden.storage.LogFixtures.smallSegments;
import static dev.warden.storage.LogFixtures.zxids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TxnLogRestartTest {
    @TempDir
    Path dir;

    @Test
    void restartAfterDropsTheWholeLogAndAcceptsAnyLaterZxid() throws IOException {
        List<LogRecord> fresh;
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            appendAll(log, zxids(1, 100, 1), 40, 7);
            log.append(101, new byte[3]); // buffered, never flushed: goes too
            log.restartAfter(5000);
            assertTrue(log.segmentFiles().isEmpty());
            assertEquals(5000, log.lastDurableZxid());
            assertEquals(5000, log.lastAppendedZxid());
            assertThrows(IllegalArgumentException.class, () -> log.append(5000, new byte[1]));
            fresh = appendAll(log, zxids(5001, 30, 1), 40, 4);
            assertRecords(fresh, readAll(log, 0));
        }
        assertRecords(fresh, reopenAndReadAll(dir, smallSegments()));
    }

    @Test
    void restartAfterClearsAFailedFlush() throws IOException {
        FaultInjectingChannels channels = new FaultInjectingChannels();
        try (TxnLog log = TxnLog.open(dir, smallSegments().withChannels(channels))) {
            appendAll(log, zxids(1, 10, 1), 40, 3);
            channels.limitWritesTo(10);
            log.append(11, new byte[100]);
            assertThrows(IOException.class, log::flush);
            channels.allowWrites();
            log.restartAfter(20);
            log.append(21, new byte[] {1});
            log.flush();
            assertEquals(List.of(21L), readAll(log, 0).stream().map(LogRecord::zxid).toList());
        }
    }

    @Test
    void truncateIntoTheFirstOfManySegmentsIsDurable() throws IOException {
        List<LogRecord> written;
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            written = appendAll(log, zxids(1, 200, 1), 40, 5);
            List<TxnLog.SegmentRange> ranges = log.segmentRanges();
            assertTrue(ranges.size() > 4, "several segments: " + ranges);
            long inFirst = (ranges.get(0).firstZxid() + ranges.get(0).lastZxid()) / 2;
            log.truncateAfter(inFirst);
            assertEquals(List.of(new TxnLog.SegmentRange(0, 1, inFirst)), log.segmentRanges());
        }
        long kept = written.stream().filter(r -> r.zxid() <= 200).count();
        List<LogRecord> expected = new ArrayList<>();
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            expected.addAll(readAll(log, 0));
            assertTrue(expected.size() < kept);
            assertEquals(expected.size(), log.lastDurableZxid());
            expected.addAll(appendAll(log, zxids(300, 50, 1), 40, 5));
        }
        assertRecords(expected, reopenAndReadAll(dir, smallSegments()));
    }

    @Test
    void segmentRangesDescribeEverySegment() throws IOException {
        try (TxnLog log = TxnLog.open(dir, smallSegments())) {
            assertEquals(List.of(), log.segmentRanges());
            appendAll(log, zxids(10, 100, 10), 40, 5);
            List<TxnLog.SegmentRange> ranges = log.segmentRanges();
            assertEquals(10, ranges.get(0).firstZxid());
            assertEquals(1000, ranges.get(ranges.size() - 1).lastZxid());
            for (int i = 1; i < ranges.size(); i++) {
                assertTrue(ranges.get(i).firstZxid() > ranges.get(i - 1).lastZxid());
            }
        }
    }
}
