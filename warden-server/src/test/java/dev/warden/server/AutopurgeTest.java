package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Purging keeps the newest snapshots and the log they need, and loses nothing. */
class AutopurgeTest {
    @TempDir
    Path dataDir;

    @Test
    void purgeKeepsRetainedSnapshotsAndEverySurvivingTransaction() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0).snapCount(100)
                .autopurgeSnapRetainCount(3).build();
        int nodes = 1500;
        int port;
        try (WardenServer server = WardenServer.start(config)) {
            port = server.clientPort();
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                for (int i = 0; i < nodes; i++) {
                    zk.create("/n" + i, new byte[10], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                }
            } finally {
                zk.close();
            }
            waitFor(() -> count(dataDir.resolve("snapshots")) >= 6, "snapshots to be written");
            long segmentsBefore = count(dataDir.resolve("log"));
            server.purge();
            assertEquals(3, count(dataDir.resolve("snapshots")));
            assertTrue(count(dataDir.resolve("log")) < segmentsBefore, "old log segments removed");
        }
        try (WardenServer restarted = WardenServer.start(config.toBuilder().clientPort(port).build())) {
            ZooKeeper zk = ApacheClients.connect(restarted.connectString());
            try {
                assertEquals(nodes + 1, zk.getChildren("/", false).size(), "every node plus /zookeeper");
            } finally {
                zk.close();
            }
        }
    }

    private static long count(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> !f.getFileName().toString().endsWith(".tmp")).count();
        }
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void waitFor(Check check, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!check.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

}
