package dev.warden.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Shared helpers for the log tests. */
final class LogFixtures {

    private LogFixtures() {
    }

    static TxnLogOptions smallSegments() {
        return TxnLogOptions.defaults().withPreallocateBytes(4096).withSegmentMaxBytes(2048);
    }

    /** A payload whose bytes depend on the zxid, so a record read back under the wrong zxid shows. */
    static byte[] payload(long zxid, int sizeBytes) {
        byte[] payload = new byte[sizeBytes];
        for (int i = 0; i < sizeBytes; i++) {
            payload[i] = (byte) (zxid * 31 + i * 7 + 1);
        }
        return payload;
    }

    /** Appends records for the given zxids, flushing every {@code batch} records and at the end. */
    static List<LogRecord> appendAll(TxnLog log, List<Long> zxids, int payloadBytes, int batch) throws IOException {
        List<LogRecord> written = new ArrayList<>();
        int inBatch = 0;
        for (long zxid : zxids) {
            LogRecord record = new LogRecord(zxid, payload(zxid, payloadBytes + (int) (zxid % 5)));
            log.append(record.zxid(), record.payload());
            written.add(record);
            if (++inBatch == batch) {
                log.flush();
                inBatch = 0;
            }
        }
        log.flush();
        return written;
    }

    static List<Long> zxids(long first, int count, long step) {
        List<Long> zxids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            zxids.add(first + i * step);
        }
        return zxids;
    }

    static List<LogRecord> readAll(TxnLog log, long afterZxid) throws IOException {
        List<LogRecord> read = new ArrayList<>();
        try (LogIterator records = log.readAfter(afterZxid)) {
            records.forEachRemaining(read::add);
        }
        return read;
    }

    static List<LogRecord> reopenAndReadAll(Path dir, TxnLogOptions options) throws IOException {
        try (TxnLog log = TxnLog.open(dir, options)) {
            return readAll(log, 0);
        }
    }

    static List<LogRecord> after(List<LogRecord> records, long zxid) {
        return records.stream().filter(record -> record.zxid() > zxid).toList();
    }

    static void assertRecords(List<LogRecord> expected, List<LogRecord> actual) {
        assertEquals(expected.size(), actual.size(), "record count");
        assertEquals(expected, actual);
    }
}
