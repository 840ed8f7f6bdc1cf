package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.warden.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Quota stats survive a restart (snapshot plus log replay) exact, and enforcement with them. */
class QuotaRecoveryTest {
    @TempDir
    Path dataDir;

    @Test
    void statsAreExactAfterASnapshotAndALogReplay() throws Exception {
        ServerConfig config = ServerConfig.builder().dataDir(dataDir).clientPort(0).enforceQuota(true).build();
        try (WardenServer server = WardenServer.start(config)) {
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                zk.create("/q", new byte[2], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zk.create("/zookeeper/quota/q", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zk.create("/zookeeper/quota/q/zookeeper_limits", "count=-1,bytes=-1=;countHardLimit=5".getBytes(),
                        ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zk.create("/zookeeper/quota/q/zookeeper_stats", "count=0,bytes=0".getBytes(),
                        ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zk.create("/q/a", new byte[3], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                server.snapshotNow();
                zk.create("/q/b", new byte[4], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zk.delete("/q/a", -1);
                zk.create("/q/c", new byte[5], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            } finally {
                zk.close();
            }
        }
        try (WardenServer server = WardenServer.start(config)) {
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                assertEquals("count=3,bytes=11", new String(zk.getData("/zookeeper/quota/q/zookeeper_stats", false,
                        null), StandardCharsets.UTF_8));
                zk.create("/q/d", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                zk.create("/q/e", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                assertThrows(KeeperException.QuotaExceededException.class,
                        () -> zk.create("/q/f", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
            } finally {
                zk.close();
            }
        }
    }
}
