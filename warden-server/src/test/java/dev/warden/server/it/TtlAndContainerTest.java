package dev.warden.server.it;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Path;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Server-side reaping of TTL nodes and containers. "Stays" claims are checked against a control
 * node that the same reaper must remove first, never against a fixed sleep.
 */
class TtlAndContainerTest {
    private static final long TTL_MS = 300;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void childlessTtlNodeDisappearsAfterItsTtl(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/parent", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_WITH_TTL, null, TTL_MS);
            zk.create("/parent/kid", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.create("/lonely", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL_WITH_TTL, null, TTL_MS);
            zk.create("/control", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_WITH_TTL, null, TTL_MS);
            EventRecorder events = new EventRecorder();
            zk.exists("/control", events);

            Await.until("childless TTL node reaped", () -> zk.exists("/control", false) == null);
            events.expect(EventType.NodeDeleted, "/control");
            Await.until("sequential TTL node reaped", () -> zk.getChildren("/", false).stream()
                .noneMatch(name -> name.startsWith("lonely")));
            assertNotNull(zk.exists("/parent", false), "a TTL node with children stays");
            zk.delete("/parent/kid", -1);
            Await.until("TTL node reaped once empty", () -> zk.exists("/parent", false) == null);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.warden.server.it.Targets#names")
    void containerGoesAfterItsLastChildButNotBefore(String target, @TempDir Path dir) throws Exception {
        try (TargetServer server = Targets.start(target, dir); Clients clients = new Clients(server.connectString())) {
            ZooKeeper zk = clients.connect().zk;
            zk.create("/never-used", null, Ids.OPEN_ACL_UNSAFE, CreateMode.CONTAINER);
            zk.create("/box", null, Ids.OPEN_ACL_UNSAFE, CreateMode.CONTAINER);
            zk.create("/box/a", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.create("/box/b", null, Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            EventRecorder events = new EventRecorder();
            zk.exists("/box", events);

            zk.delete("/box/a", -1);
            zk.create("/control", null, Ids.OPEN_ACL_UNSAFE, CreateMode.CONTAINER);
            zk.create("/control/x", null, Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.delete("/control/x", -1);
            Await.until("emptied control container reaped", () -> zk.exists("/control", false) == null);
            assertNotNull(zk.exists("/box", false), "a container with a child stays");
            zk.delete("/box/b", -1);
            events.expect(EventType.NodeDeleted, "/box");
            assertNotNull(zk.exists("/never-used", false), "a container that never had a child stays");
        }
    }
}
