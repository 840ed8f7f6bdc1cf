package dev.warden.storage;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prints how many 1 KiB records per second this disk takes with a flush (write + fsync) every
 * 100 records. A measurement, not an assertion: the figure depends on the machine.
 */
class LogThroughputTest {

    private static final int PAYLOAD_BYTES = 1024;
    private static final int BATCH_RECORDS = 100;
    private static final long MEASURE_NANOS = 3_000_000_000L;
    private static final int MAX_RECORDS = 100_000;

    @TempDir
    Path dir;

    @Test
    void recordsPerSecondWithForceSyncAndBatchesOf100() throws IOException {
        byte[] payload = LogFixtures.payload(1, PAYLOAD_BYTES);
        try (TxnLog log = TxnLog.open(dir, TxnLogOptions.defaults())) {
            long zxid = 0;
            long startNanos = System.nanoTime();
            long elapsedNanos = 0;
            while (elapsedNanos < MEASURE_NANOS && zxid < MAX_RECORDS) {
                for (int i = 0; i < BATCH_RECORDS; i++) {
                    log.append(++zxid, payload);
                }
                log.flush();
                elapsedNanos = System.nanoTime() - startNanos;
            }
            double seconds = elapsedNanos / 1e9;
            System.out.printf("TxnLog throughput: %d records of %d B, flush+fsync every %d: %.0f records/s, "
                            + "%.0f flushes/s, %.1f MiB/s%n",
                    zxid, PAYLOAD_BYTES, BATCH_RECORDS, zxid / seconds, zxid / BATCH_RECORDS / seconds,
                    zxid * (PAYLOAD_BYTES + 16.0) / seconds / (1 << 20));
        }
    }
}
