package dev.warden.storage;

import static dev.warden.storage.LogFixtures.appendAll;
import static dev.warden.storage.LogFixtures.assertRecords;
import static dev.warden.storage.LogFixtures.payload;
import static dev.warden.storage.LogFixtures.reopenAndReadAll;
import static dev.warden.storage.LogFixtures.zxids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damage before the tail must stop the log from opening, naming the file and the offset. */
class CorruptionTest {

    private static final TxnLogOptions OPTIONS = TxnLogOptions.defaults().withPreallocateBytes(4096);

    @TempDir
    Path dir;

    @Test
    void flippedByteMidLogIsReportedWithFileAndOffset() throws IOException {
        List<LogRecord> written = writeOneSegment(10);
        Path segment = dir.resolve(SegmentFormat.fileName(1));
        for (int victim : new int[] {0, 4, 8}) {
            long offset = offsetOf(written, victim);
            for (long flipAt : new long[] {offset + 5, offset + 12, offset + 20}) {
                flip(segment, flipAt);
                CorruptLogException e = assertThrows(CorruptLogException.class, () -> TxnLog.open(dir, OPTIONS));
                assertEquals(segment, e.file());
                assertEquals(offset, e.offset(), "byte flipped at " + flipAt);
                assertTrue(e.getMessage().contains("offset " + offset), e.getMessage());
                flip(segment, flipAt);
            }
        }
        assertRecords(written, reopenAndReadAll(dir, OPTIONS));
    }

    @Test
    void damagedLengthFieldMidLogIsCorruption() throws IOException {
        List<LogRecord> written = writeOneSegment(6);
        Path segment = dir.resolve(SegmentFormat.fileName(1));
        long offset = offsetOf(written, 2);
        for (int length : new int[] {0, 3, -1, Integer.MAX_VALUE, 1000}) {
            byte[] bytes = Files.readAllBytes(segment);
            ByteBuffer.wrap(bytes).putInt((int) offset, length);
            Files.write(segment, bytes);
            CorruptLogException e = assertThrows(CorruptLogException.class, () -> TxnLog.open(dir, OPTIONS),
                    "length " + length);
            assertEquals(offset, e.offset());
        }
    }

    @Test
    void badRecordAtTheEndOfAnOlderSegmentIsCorruption() throws IOException {
        List<LogRecord> first;
        try (TxnLog log = TxnLog.open(dir, OPTIONS)) {
            first = appendAll(log, zxids(1, 5, 1), 30, 5);
            log.rollSegment();
            appendAll(log, zxids(6, 5, 1), 30, 5);
        }
        Path older = dir.resolve(SegmentFormat.fileName(1));
        long lastOffset = offsetOf(first, 4);
        flip(older, lastOffset + 20);
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> TxnLog.open(dir, OPTIONS));
        assertEquals(older, e.file());
        assertEquals(lastOffset, e.offset());
    }

    @Test
    void badLastRecordOfTheNewestSegmentIsATornTail() throws IOException {
        List<LogRecord> written = writeOneSegment(5);
        flip(dir.resolve(SegmentFormat.fileName(1)), offsetOf(written, 4) + 20);
        assertRecords(written.subList(0, 4), reopenAndReadAll(dir, OPTIONS));
    }

    @Test
    void zxidThatDoesNotIncreaseIsCorruption() throws IOException {
        BatchBuffer records = new BatchBuffer();
        for (long zxid : new long[] {1, 2, 2, 3}) {
            records.add(zxid, payload(zxid, 10));
        }
        Path segment = dir.resolve(SegmentFormat.fileName(1));
        ByteBuffer contents = records.contents();
        byte[] bytes = new byte[SegmentFormat.HEADER_BYTES + contents.remaining()];
        SegmentFormat.header(1, 0).get(bytes, 0, SegmentFormat.HEADER_BYTES);
        contents.get(bytes, SegmentFormat.HEADER_BYTES, contents.remaining());
        Files.write(segment, bytes);
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> TxnLog.open(dir, OPTIONS));
        assertEquals(SegmentFormat.HEADER_BYTES + 2 * SegmentFormat.recordBytes(10), e.offset());
        assertTrue(e.getMessage().contains("does not follow"), e.getMessage());
    }

    @Test
    void foreignFileUnderASegmentNameIsCorruption() throws IOException {
        writeOneSegment(3);
        Files.write(dir.resolve(SegmentFormat.fileName(100)), "not a log segment at all".getBytes());
        CorruptLogException e = assertThrows(CorruptLogException.class, () -> TxnLog.open(dir, OPTIONS));
        assertEquals(0, e.offset());
    }

    @Test
    void readerReportsDamageThatAppearsAfterOpen() throws IOException {
        try (TxnLog log = TxnLog.open(dir, OPTIONS)) {
            List<LogRecord> written = appendAll(log, zxids(1, 6, 1), 30, 6);
            flip(dir.resolve(SegmentFormat.fileName(1)), offsetOf(written, 3) + 18);
            try (LogIterator records = log.readAfter(0)) {
                UncheckedIOException e = assertThrows(UncheckedIOException.class,
                        () -> records.forEachRemaining(record -> { }));
                CorruptLogException cause = (CorruptLogException) e.getCause();
                assertEquals(offsetOf(written, 3), cause.offset());
            }
        }
    }

    private List<LogRecord> writeOneSegment(int count) throws IOException {
        try (TxnLog log = TxnLog.open(dir, OPTIONS)) {
            return appendAll(log, zxids(1, count, 1), 30, 3);
        }
    }

    private static long offsetOf(List<LogRecord> records, int index) {
        long offset = SegmentFormat.HEADER_BYTES;
        for (int i = 0; i < index; i++) {
            offset += SegmentFormat.recordBytes(records.get(i).payload().length);
        }
        return offset;
    }

    private static void flip(Path file, long offset) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) offset] ^= 0x40;
        Files.write(file, bytes);
    }
}
