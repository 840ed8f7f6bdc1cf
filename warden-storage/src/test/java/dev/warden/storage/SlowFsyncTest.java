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
        TxnLogOptions options = TxnLogOptions.defaults().withChannels(disk).withSlowFsyncWarningMs(50);
        try (TxnLog log = TxnLog.open(dir, options)) {
            log.append(1, new byte[100]);
            log.flush();
            disk.delayForcesBy(80);
            log.append(2, new byte[100]);
            log.flush();
            disk.delayForcesBy(0);
            log.append(3, new byte[100]);
            log.flush();

            FsyncStats fsyncs = log.fsyncStats();
            DurationSummary stats = fsyncs.times();
            assertEquals(3, stats.count());
            assertEquals(1, fsyncs.slowCount(), "only the delayed fsync reaches 50 ms");
            assertTrue(stats.maxMs() >= 80, "max " + stats.maxMs());
            assertTrue(stats.minMs() < 50, "min " + stats.minMs());
            assertTrue(stats.totalMs() >= 80 && stats.avgMs() > 0, "total " + stats.totalMs());
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
