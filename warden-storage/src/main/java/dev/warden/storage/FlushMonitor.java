package dev.warden.storage;

import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Counts each transaction log flush's batch size and fsync time, and warns of a slow fsync. */
final class FlushMonitor {

    // The transaction log's own logger, so its warnings keep the name operators filter on.
    private static final Logger LOG = LoggerFactory.getLogger(TxnLog.class);

    private final Path dir;
    private final long slowFsyncWarningMs;
    private final FsyncStats fsyncStats = new FsyncStats();
    private final ValueSummary batchRecords = new ValueSummary();

    FlushMonitor(Path dir, TxnLogOptions options) {
        ProcessPauses.get(); // watching for pauses from before the first fsync, to tell them from a slow disk
        this.dir = dir;
        this.slowFsyncWarningMs = options.slowFsyncWarningMs();
    }

    FsyncStats fsyncStats() {
        return fsyncStats;
    }

    ValueSummary batchRecords() {
        return batchRecords;
    }

    /** A flush is about to write {@code batch}. */
    void batchWritten(BatchBuffer batch) {
        batchRecords.record(batch.records());
    }

    /** The fsync of {@code batch} ran from {@code startNs} to {@code endNs} (System.nanoTime). */
    void fsyncDone(long startNs, long endNs, BatchBuffer batch) {
        long nanos = endNs - startNs;
        long thresholdMs = slowFsyncWarningMs;
        boolean slow = thresholdMs > 0 && nanos >= thresholdMs * 1_000_000;
        fsyncStats.record(nanos, slow);
        long pausedMs = slow ? ProcessPauses.get().pausedMillisDuring(startNs, endNs) : 0;
        if (slow && pausedMs * 2 >= nanos / 1_000_000) {
            // most of it the process was not running at all: the disk did not make it slow
            LOG.warn("fsync of the transaction log in {} took {} ms, at or above the warning threshold of {} ms"
                    + " (fsync.warningthresholdms), but the whole process was paused for about {} ms of it (SIGSTOP,"
                    + " garbage collection, a stalled host): not the disk's doing. Every write in the batch waited.",
                    dir, nanos / 1_000_000, thresholdMs, pausedMs);
        } else if (slow) {
            // Every write waits for this fsync before it is acknowledged, so clients saw it too.
            LOG.warn("fsync of the transaction log in {} took {} ms ({} bytes, zxids 0x{} to 0x{}), at or above the"
                    + " warning threshold of {} ms (fsync.warningthresholdms); every write in the batch waited"
                    + " for it. A disk shared with other I/O is the usual cause: give the log a disk of its own"
                    + " (dataLogDir).", dir, nanos / 1_000_000, batch.sizeBytes(),
                    Long.toHexString(batch.firstZxid()), Long.toHexString(batch.lastZxid()), thresholdMs);
        }
    }
}
