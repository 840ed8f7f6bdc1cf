package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.warden.server.ApacheClients;
import dev.warden.testsupport.FaultProxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A leader that has not heard from a quorum of voters within a tick proposes no session expiry
 * and no container reaping: it lacks its followers' activity reports, and cut off it could not
 * commit them. Member 1 leads an {@link InOrderBus}; the bus makes its core say it is cut off
 * while everything else keeps working, so only the member's own decision is tested.
 */
class LeaderOutOfTouchTest {
    private static final int SESSION_TIMEOUT_MS = 1_000;
    /** Well past the session timeout plus a tick, and several container checks (every 500 ms). */
    private static final long OUT_OF_TOUCH_MS = 2_500;

    @TempDir
    Path baseDir;
    private TestEnsemble ensemble;
    private InOrderBus bus;
    private final List<ZooKeeper> clients = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        bus = new InOrderBus(1);
        ensemble = new TestEnsemble(baseDir, List.of(1L, 2L, 3L), List.of(), bus.provider());
        ensemble.startAll();
        ensemble.awaitAllServing(5_000);
    }

    @AfterEach
    void stop() throws Exception {
        for (ZooKeeper zk : clients) {
            zk.close();
        }
        ensemble.close();
    }

    private ZooKeeper connect() throws Exception {
        ZooKeeper zk = ApacheClients.connect(ensemble.connectString(1));
        clients.add(zk);
        return zk;
    }

    @Test
    void aLeaderOutOfTouchWithAQuorumExpiresNoSession() throws Exception {
        ZooKeeper reader = connect();
        try (FaultProxy proxy = FaultProxy.start(ensemble.connectString(1))) {
            ZooKeeper doomed = new ZooKeeper(proxy.address(), SESSION_TIMEOUT_MS, event -> { });
            clients.add(doomed);
            long deadline = System.currentTimeMillis() + 10_000;
            while (doomed.getState() != ZooKeeper.States.CONNECTED && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            doomed.create("/eph", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            long lastProposed = bus.lastDurableZxid(1);

            bus.cutLeaderOff();
            proxy.pause();
            Thread.sleep(OUT_OF_TOUCH_MS);

            assertNotNull(reader.exists("/eph", false), "a session expired while the leader heard no quorum");
            assertEquals(lastProposed, bus.lastDurableZxid(1), "the leader proposed nothing while out of touch");
            bus.reconnectLeader();
            MemberPipelineTest.awaitGone(reader, "/eph");
            proxy.resume();
        }
    }

    @Test
    void aLeaderOutOfTouchWithAQuorumReapsNoContainer() throws Exception {
        ZooKeeper zk = connect();
        zk.create("/box", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.CONTAINER);
        zk.create("/box/item", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);

        bus.cutLeaderOff();
        // A client's write is still proposed: it commits if contact returns in time.
        zk.delete("/box/item", -1);
        long lastProposed = bus.lastDurableZxid(1);
        Thread.sleep(OUT_OF_TOUCH_MS);

        assertNotNull(zk.exists("/box", false), "an empty container was reaped while the leader heard no quorum");
        assertEquals(lastProposed, bus.lastDurableZxid(1), "the leader proposed nothing while out of touch");
        bus.reconnectLeader();
        MemberPipelineTest.awaitGone(zk, "/box");
    }
}
