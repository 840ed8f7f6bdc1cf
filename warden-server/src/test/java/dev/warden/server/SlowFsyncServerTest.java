package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.config.ServerConfig;
import dev.warden.server.net.FourLetterWordClient;
import dev.warden.state.common.Clock;
import dev.warden.storage.FaultInjectingChannels;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A slow disk is visible to an operator: fsyncs at or above fsync.warningthresholdms are counted
 * in mntr (zk_fsync_threshold_exceed_count, as ZooKeeper names it) next to the fsync time
 * summary, and the writes that waited for them still succeed.
 */
class SlowFsyncServerTest {
    @TempDir
    Path dataDir;

    @Test
    void fsyncsOverTheThresholdAreCountedInMntrAndTheWritesSucceed() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0)
                .fourLetterWordWhitelist(Set.of("mntr", "srst")).fsyncWarningThresholdMs(400).build();
        FaultInjectingChannels disk = new FaultInjectingChannels();
        try (WardenServer server = WardenServer.start(config, Clock.SYSTEM, disk)) {
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                zk.create("/fast", new byte[1], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                assertEquals(0, figure(mntr(server), "zk_fsync_threshold_exceed_count"));

                disk.delayForcesBy(500); // far above a real fsync, even on a loaded CI host
                zk.create("/slow", new byte[] {7}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zk.setData("/slow", new byte[] {8}, -1);
                disk.delayForcesBy(0);

                String mntr = mntr(server);
                assertEquals(2, figure(mntr, "zk_fsync_threshold_exceed_count"), mntr);
                assertTrue(figure(mntr, "zk_cnt_fsynctime") >= 4, mntr); // session, /fast, /slow, setData
                assertTrue(figure(mntr, "zk_max_fsynctime") >= 500, mntr);
                assertTrue(figure(mntr, "zk_sum_fsynctime") >= 1000, mntr);
                // at most four decimals, as ZooKeeper rounds them (a trailing zero is not printed)
                assertTrue(Pattern.compile("(?m)^zk_avg_fsynctime\t[0-9]+\\.[0-9]{1,4}$").matcher(mntr).find(), mntr);
                // The writes that waited for the slow fsyncs show in the request latency figures.
                assertTrue(figure(mntr, "zk_max_latency") >= 500, mntr);
                assertTrue(Double.parseDouble(text(mntr, "zk_avg_latency")) > 0, mntr);
                assertArrayEquals(new byte[] {8}, zk.getData("/slow", false, null));

                assertEquals("Server stats reset.\n", FourLetterWordClient.ask(server.connectString(), "srst"));
                String afterReset = mntr(server);
                assertEquals(0, figure(afterReset, "zk_fsync_threshold_exceed_count"), afterReset);
                assertTrue(figure(afterReset, "zk_max_latency") < 500, afterReset); // the slow writes are forgotten
                assertTrue(figure(afterReset, "zk_max_fsynctime") >= 500, afterReset); // the summary is kept
            } finally {
                zk.close();
            }
        }
    }

    private static long figure(String mntr, String key) {
        Matcher m = Pattern.compile("(?m)^" + key + "\t(\\d+)$").matcher(mntr);
        assertTrue(m.find(), () -> key + " missing from\n" + mntr);
        return Long.parseLong(m.group(1));
    }

    private static String text(String mntr, String key) {
        Matcher m = Pattern.compile("(?m)^" + key + "\t(\\S+)$").matcher(mntr);
        assertTrue(m.find(), () -> key + " missing from\n" + mntr);
        return m.group(1);
    }

    private static String mntr(WardenServer server) throws IOException {
        return FourLetterWordClient.ask(server.connectString(), "mntr");
    }
}
