package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.server.EnsembleTestLimits;
import dev.warden.server.FreePorts;
import dev.warden.server.WardenServer;
import dev.warden.server.config.MultiAddressSettings;
import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.state.common.Clock;
import dev.warden.storage.TxnLogOptions;
import dev.warden.testsupport.FaultProxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Members on two networks (multiAddress.enabled): each member's line lists an address on network
 * 1 (127.0.0.1) and one on network 2 (127.0.0.2), and each listens on both. The others reach a
 * member's network-1 ports through {@link FaultProxy}s (a relay, as a member's own line keeps its
 * own addresses while the others' lines say how to reach it), so cutting every proxy is network 1
 * failing: open connections reset, new ones closed at once. The ensemble must keep a leader and
 * take writes over network 2, and elect a new leader there when its leader stops.
 */
class MultiAddressEnsembleTest {
    private static final long SERVING_TIMEOUT_MS = 30_000;
    private static final String NETWORK_1 = "127.0.0.1";
    private static final String NETWORK_2 = "127.0.0.2";

    @TempDir
    Path dir;

    private final Map<Long, WardenServer> servers = new HashMap<>();
    private final Map<Long, ServerConfig> configs = new HashMap<>();
    private final List<FaultProxy> network1 = new ArrayList<>();

    @AfterEach
    void tearDown() {
        servers.values().forEach(WardenServer::close);
        network1.forEach(FaultProxy::close);
    }

    @ParameterizedTest(name = "reachabilityCheckEnabled={0}")
    @ValueSource(booleans = {true, false})
    void theEnsembleKeepsALeaderAndTakesWritesWhenOneNetworkFails(boolean reachabilityCheck) throws Exception {
        Map<Long, QuorumMember> own = new TreeMap<>();
        Map<Long, QuorumMember> seenByOthers = new TreeMap<>();
        for (long id = 1; id <= 3; id++) {
            int peer1 = FreePorts.pick();
            int election1 = FreePorts.pick();
            QuorumMember.PeerAddress second = new QuorumMember.PeerAddress(NETWORK_2, FreePorts.pick(),
                    FreePorts.pick());
            own.put(id, new QuorumMember(id, NETWORK_1, peer1, election1, false, null, 0, List.of(second)));
            FaultProxy peerRelay = new FaultProxy(NETWORK_1, peer1);
            FaultProxy electionRelay = new FaultProxy(NETWORK_1, election1);
            network1.add(peerRelay);
            network1.add(electionRelay);
            seenByOthers.put(id, new QuorumMember(id, NETWORK_1, peerRelay.port(), electionRelay.port(), false, null,
                    0, List.of(second)));
        }
        for (long id = 1; id <= 3; id++) {
            Map<Long, QuorumMember> lines = new TreeMap<>(seenByOthers);
            lines.put(id, own.get(id));
            configs.put(id, ServerConfig.builder().dataDir(dir.resolve("m" + id)).clientPort(FreePorts.pick())
                    .clientPortAddress("127.0.0.1").tickTimeMs(TestEnsemble.TICK_MS).serverId((int) id)
                    .initLimitTicks(EnsembleTestLimits.LIMIT_TICKS).syncLimitTicks(EnsembleTestLimits.LIMIT_TICKS)
                    .members(lines).multiAddress(new MultiAddressSettings(true, reachabilityCheck, 500)).build());
            servers.put(id, WardenServer.start(configs.get(id), Clock.SYSTEM, TxnLogOptions.defaults().channels(),
                    ZabConsensus::new));
        }
        long leader = awaitOneLeader(-1);
        write(leader, "/before");
        int viaNetwork1 = network1.stream().mapToInt(FaultProxy::acceptedConnections).sum();
        // each member dials the first address of every other member's line first: 3 x 2 x 2 links
        assertTrue(viaNetwork1 >= 12, "only " + viaNetwork1 + " connections were relayed over network 1");

        network1.forEach(FaultProxy::cut);
        long afterCut = awaitOneLeader(-1);
        write(afterCut, "/after-network-1-failed");
        for (long id : servers.keySet()) {
            awaitNode(id, "/after-network-1-failed");
        }

        servers.remove(afterCut).close();
        long next = awaitOneLeader(afterCut);
        write(next, "/new-leader-over-network-2");
        for (long id : servers.keySet()) {
            awaitNode(id, "/before");
        }
    }

    /** Waits until every running member serves under one leader other than {@code not}. */
    private long awaitOneLeader(long not) throws InterruptedException {
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            boolean allServing = true;
            List<Long> leaders = new ArrayList<>();
            for (Map.Entry<Long, WardenServer> e : servers.entrySet()) {
                boolean serving = e.getValue().member().isServing();
                allServing &= serving;
                if (serving && e.getValue().member().role() == Role.LEADING) {
                    leaders.add(e.getKey());
                }
            }
            if (allServing && leaders.size() == 1 && leaders.get(0) != not) {
                return leaders.get(0);
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the members " + servers.keySet() + " do not serve under one leader within "
                + SERVING_TIMEOUT_MS + " ms");
    }

    /** Creates {@code path} through member {@code id}, retrying while the ensemble settles. */
    private void write(long id, String path) throws Exception {
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        try (ZooKeeper zk = new ZooKeeper("127.0.0.1:" + configs.get(id).clientPort(), 30_000, event -> { })) {
            while (true) {
                try {
                    zk.create(path, path.getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                            CreateMode.PERSISTENT);
                    return;
                } catch (KeeperException.NodeExistsException createdByALostAttempt) {
                    return;
                } catch (KeeperException.ConnectionLossException settling) {
                    if (System.currentTimeMillis() > deadline) {
                        throw settling;
                    }
                    Thread.sleep(50);
                }
            }
        }
    }

    private void awaitNode(long id, String path) throws Exception {
        long deadline = System.currentTimeMillis() + SERVING_TIMEOUT_MS;
        try (ZooKeeper zk = new ZooKeeper("127.0.0.1:" + configs.get(id).clientPort(), 30_000, event -> { })) {
            while (true) {
                try {
                    zk.sync(path);
                    if (zk.exists(path, false) != null) {
                        return;
                    }
                } catch (KeeperException.ConnectionLossException settling) {
                    // retried below
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new AssertionError("member " + id + " does not have " + path);
                }
                Thread.sleep(50);
            }
        }
    }
}
