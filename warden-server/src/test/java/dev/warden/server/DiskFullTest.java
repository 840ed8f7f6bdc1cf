package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.warden.server.config.ServerConfig;
import dev.warden.state.common.Clock;
import dev.warden.storage.FaultInjectingChannels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk fails writes with SYSTEMERROR and nothing else: reads and sessions go on, no
 * failed write is applied or survives a restart, and writes work again once space returns.
 */
class DiskFullTest {
    @TempDir
    Path dataDir;

    @Test
    void fullDiskFailsWritesKeepsReadsAndRecoversWhenSpaceReturns() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0).tickTimeMs(200).build();
        FaultInjectingChannels disk = new FaultInjectingChannels();
        int port;
        try (WardenServer server = WardenServer.start(config, Clock.SYSTEM, disk)) {
            port = server.clientPort();
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                zk.create("/a", bytes("before"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);

                disk.limitWritesTo(0);
                assertThrows(KeeperException.SystemErrorException.class, () -> zk.setData("/a", bytes("lost"), -1));
                assertThrows(KeeperException.SystemErrorException.class,
                        () -> zk.create("/failed", bytes("x"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
                // Reads are served from memory, and a failed write changed nothing there.
                Stat stat = new Stat();
                assertArrayEquals(bytes("before"), zk.getData("/a", false, stat));
                assertEquals(0, stat.getVersion());
                assertNull(zk.exists("/failed", false));
                // A failed write did not leave prepared state behind: the same create still fails the same way.
                assertThrows(KeeperException.SystemErrorException.class,
                        () -> zk.create("/failed", bytes("x"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));

                disk.allowWrites();
                Stat after = zk.setData("/a", bytes("after"), 0);
                assertEquals(1, after.getVersion());
                zk.create("/b", bytes("b"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } finally {
                zk.close();
            }
        }
        try (WardenServer restarted = WardenServer.start(config.toBuilder().clientPort(port).build())) {
            ZooKeeper zk = ApacheClients.connect(restarted.connectString());
            try {
                Stat stat = new Stat();
                assertArrayEquals(bytes("after"), zk.getData("/a", false, stat));
                assertEquals(1, stat.getVersion());
                assertArrayEquals(bytes("b"), zk.getData("/b", false, null));
                assertNull(zk.exists("/failed", false));
            } finally {
                zk.close();
            }
        }
    }


    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
