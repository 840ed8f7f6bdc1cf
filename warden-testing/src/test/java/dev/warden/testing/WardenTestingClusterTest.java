package dev.warden.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

class WardenTestingClusterTest {

    @Test
    void survivesItsLeaderAndARestartedMemberCatchesUp() throws Exception {
        Path dir;
        try (WardenTestingCluster cluster = WardenTestingCluster.start(3)) {
            dir = cluster.dataDirectory(1).getParent();
            Map<Long, String> roles = cluster.roles();
            assertEquals(1, roles.values().stream().filter("leader"::equals).count(), roles.toString());
            assertEquals(2, roles.values().stream().filter("follower"::equals).count(), roles.toString());

            ZooKeeper zk = Zk.connect(cluster.connectString());
            zk.create("/before", "1".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.close();

            long killed = cluster.killLeader();
            assertFalse(cluster.isRunning(killed));
            long newLeader = cluster.leader().orElseThrow();
            assertNotEquals(killed, newLeader);
            zk = Zk.connect(cluster.connectString(newLeader));
            zk.create("/after", "2".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.close();

            cluster.restart(killed);
            ZooKeeper onRestarted = Zk.connect(cluster.connectString(killed));
            onRestarted.sync("/", (rc, path, ctx) -> { }, null);
            assertArrayEquals("1".getBytes(), onRestarted.getData("/before", false, null));
            assertArrayEquals("2".getBytes(), onRestarted.getData("/after", false, null));
            onRestarted.close();
            assertThrows(IllegalArgumentException.class, () -> cluster.kill(4));
        }
        assertFalse(dir.getFileSystem().isOpen(), "close must free the members' in-memory file system");
    }

    @Test
    void aLoneMemberIsRefusedWithTheWayOut() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> WardenTestingCluster.start(1));
        assertTrue(refused.getMessage().contains("WardenTestingServer"), refused.getMessage());
    }
}
