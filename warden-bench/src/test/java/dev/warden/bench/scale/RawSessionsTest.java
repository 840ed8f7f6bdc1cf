package dev.warden.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.bench.support.InProcessServers;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Raw sessions against both in-process servers: each watch fires once per setData, twice in two rounds. */
class RawSessionsTest {
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.bench.support.InProcessServers#both")
    void everySessionsWatchFiresOnceARound(String name, Supplier<InProcessServers.Server> servers) throws Exception {
        try (InProcessServers.Server server = servers.get()) {
            String connect = server.connectString();
            createNode(connect, "/watched");
            int port = Integer.parseInt(connect.substring(connect.lastIndexOf(':') + 1));
            try (RawSessions sessions = RawSessions.open("127.0.0.1", port, 20, 30_000)) {
                assertEquals(20, sessions.size());
                for (int round = 0; round < 2; round++) {
                    sessions.armExistsWatches("/watched", 10_000);
                    long sentNs = sessions.setData("/watched", new byte[] {(byte) round});
                    long lastNs = sessions.awaitNotifications(20, 10_000);
                    assertTrue(lastNs >= sentNs, "the last notification came after the setData");
                }
                assertEquals(0, sessions.failedReplies());
            }
        }
    }

    private static void createNode(String connect, String path) throws Exception {
        CompletableFuture<Void> connected = new CompletableFuture<>();
        ZooKeeper zk = new ZooKeeper(connect, 30_000, event -> {
            if (event.getState() == org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected) {
                connected.complete(null);
            }
        });
        try {
            connected.get(30, TimeUnit.SECONDS);
            zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        } finally {
            zk.close();
        }
    }
}
