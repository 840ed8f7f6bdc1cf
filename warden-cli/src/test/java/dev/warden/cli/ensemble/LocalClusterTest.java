package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import dev.warden.cli.cluster.MemberMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.SortedMap;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The cluster API against real members of every flavour: Warden and Apache ZooKeeper. */
class LocalClusterTest {
    @ParameterizedTest(name = "{0}")
    @EnumSource(Flavour.class)
    void ensembleHasOneLeaderAndServesWritesOnEveryMember(Flavour flavour) throws Exception {
        LocalCluster cluster = Ensembles.startCluster(flavour,
                Ensembles.runDir("ensembleHasOneLeaderAndServesWritesOnEveryMember-" + flavour), 500);
        boolean passed = false;
        try {
            SortedMap<Integer, MemberMode> modes = cluster.modes();
            assertEquals(1, cluster.leaders().size(), "modes " + modes + "; " + cluster.describe());
            assertEquals(2, cluster.followers().size(), "modes " + modes);
            byte[] data = "hello".getBytes(StandardCharsets.UTF_8);
            try (ZooKeeper writer = Ensembles.connect(cluster.connectString(1), 5000)) {
                writer.create("/greeting", data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            for (int id : cluster.ids()) {
                try (ZooKeeper reader = Ensembles.connect(cluster.connectString(id), 5000)) {
                    reader.sync("/", (rc, path, ctx) -> { }, null);
                    assertArrayEquals(data, reader.getData("/greeting", false, null), "read on member " + id);
                }
            }
            assertTrue(Files.size(cluster.member(1).stderrFile()) > 0, "member output goes to its log file");
            passed = true;
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Flavour.class)
    void stoppedPausedAndRestartedMembersLeaveAndRejoin(Flavour flavour) throws Exception {
        LocalCluster cluster = Ensembles.startCluster(flavour,
                Ensembles.runDir("stoppedPausedAndRestartedMembersLeaveAndRejoin-" + flavour), 500);
        boolean passed = false;
        try {
            int leader = cluster.leader().orElseThrow();
            int follower = cluster.followers().get(0);
            cluster.stop(follower);
            assertEquals(MemberMode.UNREACHABLE, cluster.mode(follower));
            cluster.pause(leader);
            assertEquals(MemberMode.UNREACHABLE, cluster.mode(leader));
            cluster.resume(leader);
            cluster.restart(follower);
            assertTrue(cluster.awaitServing(follower, Ensembles.QUORUM_TIMEOUT).servesInEnsemble());
            int leaderAfter = cluster.awaitQuorum(Ensembles.QUORUM_TIMEOUT);
            assertEquals(List.of(leaderAfter), cluster.leaders());
            assertEquals(3, cluster.modes().values().stream().filter(MemberMode::servesInEnsemble).count(),
                    cluster.describe());
            passed = true;
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }
}
