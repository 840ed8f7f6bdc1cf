package dev.warden.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.warden.server.config.ServerConfig;
import java.nio.file.Path;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** skipACL=yes: every client may read, change and delete every node, as in ZooKeeper. */
class SkipAclTest {
    private static final List<ACL> ONLY_BOB = new java.util.ArrayList<>(List.of(new ACL(ZooDefs.Perms.ALL,
            new Id("digest", "bob:Fz5KVcgYpYR0v9DXi5YJvc5Zy5Q="))));

    @TempDir
    Path dataDir;

    @Test
    void aStrangerUsesANodeOnlyBobMayUse() throws Exception {
        try (WardenServer server = WardenServer.start(ServerConfig.builder().dataDir(dataDir).clientPort(0)
                .skipAcl(true).build())) {
            ZooKeeper stranger = ApacheClients.connect(server.connectString());
            try {
                stranger.create("/bobs", "secret".getBytes(), ONLY_BOB, CreateMode.PERSISTENT);
                assertArrayEquals("secret".getBytes(), stranger.getData("/bobs", false, null));
                stranger.setData("/bobs", "mine".getBytes(), -1);
                stranger.create("/bobs/child", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                stranger.delete("/bobs/child", -1);
                stranger.delete("/bobs", -1);
            } finally {
                stranger.close();
            }
        }
    }

    @Test
    void withoutItTheSameStrangerIsRefused() throws Exception {
        try (WardenServer server = WardenServer.start(ServerConfig.builder().dataDir(dataDir).clientPort(0).build())) {
            ZooKeeper stranger = ApacheClients.connect(server.connectString());
            try {
                stranger.create("/bobs", "secret".getBytes(), ONLY_BOB, CreateMode.PERSISTENT);
                assertThrows(KeeperException.NoAuthException.class, () -> stranger.getData("/bobs", false, null));
            } finally {
                stranger.close();
            }
        }
    }
}
