package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.server.ApacheClients;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** leaderServes=no, as ZooKeeper documents it: the leader takes no client sessions; its followers do. */
class LeaderServesTest {
    private TestEnsemble ensemble;

    @AfterEach
    void stop() {
        if (ensemble != null) {
            ensemble.close();
        }
    }

    @Test
    void withLeaderServesNoOnlyTheFollowersTakeSessions(@TempDir Path dir) throws Exception {
        ensemble = new TestEnsemble(dir, List.of(1L, 2L, 3L), List.of(), ZabConsensus::new);
        ensemble.configureAll(b -> b.leaderServes(false));
        ensemble.startAll();
        ensemble.awaitAllServing(20_000);
        long leader = ensemble.servers().entrySet().stream()
                .filter(e -> e.getValue().member().role() == Role.LEADING).map(Map.Entry::getKey)
                .findFirst().orElseThrow();
        long follower = leader == 1 ? 2 : 1;

        ZooKeeper atFollower = ApacheClients.connect(ensemble.connectString(follower));
        try {
            atFollower.create("/written", new byte[1], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            assertEquals(1, atFollower.getData("/written", false, null).length);
        } finally {
            atFollower.close();
        }
        // the leader hangs up on a handshake; a follower answers the same one
        assertTrue(MemberPipelineTest.handshakeRefused(ensemble.connectString(leader), 0));
        assertFalse(MemberPipelineTest.handshakeRefused(ensemble.connectString(follower), 0));
    }
}
