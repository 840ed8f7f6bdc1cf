package dev.warden.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log times its group-commit fsyncs and counts those at or above the warning threshold. */
class SlowFsyncTest {

    @TempDir
    Path dir;

    @Test
    void anFsyncAtOrAboveTheThresholdIsCountedAndTheOthersAreNot() throws IOException {
        FaultInjectingChannels disk = new FaultInjectingChannels();
        TxnLogOptions options = TxnLogOptions.defaults().withChannels(disk).withSlowFsyncWarningMs(500);
        try (TxnLog log = TxnLog.open(dir, options)) {
            log.append(1, new byte[100]);
            log.flush();
            disk.delayForcesBy(600); // far above a real fsync, even on a loaded CI host
            log.append(2, new byte[100]);
            log.flush();
            disk.delayForcesBy(0);
            log.append(3, new byte[100]);
            log.flush();

            FsyncStats fsyncs = log.fsyncStats();
            DurationSummary stats = fsyncs.times();
            assertEquals(3, stats.count());
            assertEquals(1, fsyncs.slowCount(), "only the delayed fsync reaches 500 ms");
            assertTrue(stats.maxMs() >= 600, "max " + stats.maxMs());
            assertTrue(stats.minMs() < 500, "min " + stats.minMs());
            assertTrue(stats.totalMs() >= 600 && stats.avgMs() > 0, "total " + stats.totalMs());
            assertEquals(3, log.lastDurableZxid(), "a slow fsync is still a successful one");
        }
    }

    @Test
    void aThresholdOfZeroNeverCountsAndNoFsyncMeansNoFigures() throws IOException {
        FaultInjectingChannels disk = new FaultInjectingChannels();
        disk.delayForcesBy(20);
        try (TxnLog log = TxnLog.open(dir.resolve("a"), TxnLogOptions.defaults().withChannels(disk).withSlowFsyncWarningMs(0))) {
            log.append(1, new byte[10]);
            log.flush();
            assertEquals(1, log.fsyncStats().times().count());
            assertEquals(0, log.fsyncStats().slowCount());
        }
        try (TxnLog log = TxnLog.open(dir.resolve("b"), TxnLogOptions.defaults().withChannels(disk).withForceSync(false))) {
            log.append(1, new byte[10]);
            log.flush();
            assertEquals(0, log.fsyncStats().times().count());
            assertEquals(0, log.fsyncStats().times().maxMs());
        }
    }
}
