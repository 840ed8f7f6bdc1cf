package dev.warden.cli.ensemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.cluster.Flavour;
import dev.warden.cli.cluster.LocalCluster;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A 3-member ensemble of separate JVMs (tickTime 500 ms, syncLimit 5): a leader that cannot hear
 * a quorum steps down within syncLimit, and one resumed from a pause longer than syncLimit stops
 * claiming leadership at once and follows the new leader. Runs once per flavour in
 * {@code -Dwarden.ensemble.flavours}; the bounds are asserted for Warden, Apache's figures printed.
 * StepDownComparison measures both with ZooKeeper's default tickTime of 2 s.
 */
class StepDownTest {
    private static final int TICK_TIME_MS = 500;
    private static final int SYNC_LIMIT_TICKS = 5;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    static List<Flavour> flavours() {
        return Ensembles.flavours();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("flavours")
    void aLeaderWhoseFollowersFreezeStepsDownWithinSyncLimit(Flavour flavour) throws Exception {
        LocalCluster cluster = Ensembles.startCluster(flavour, Ensembles.runDir("followers-frozen-" + flavour),
                TICK_TIME_MS);
        boolean passed = false;
        try {
            int leader = cluster.awaitQuorum(TIMEOUT);
            // heartbeats under way, not the sync that just made the ensemble whole
            Thread.sleep(2L * TICK_TIME_MS);
            long servedMs = StepDownProbe.leaderServesAfterFollowersPausedMs(cluster, leader, TIMEOUT);
            System.out.println(flavour + ": leader " + leader + " said leader for " + servedMs
                    + " ms after both followers froze (syncLimit " + SYNC_LIMIT_TICKS * TICK_TIME_MS + " ms)");
            if (flavour == Flavour.WARDEN) {
                // the leader checks once a tick; the probe's own polling of a process over srvr adds
                // up to another tick on a loaded machine
                assertTrue(servedMs <= (SYNC_LIMIT_TICKS + 2) * TICK_TIME_MS, "leader " + leader + " said leader for "
                        + servedMs + " ms after its followers froze; syncLimit is "
                        + SYNC_LIMIT_TICKS * TICK_TIME_MS + " ms");
            }
            cluster.awaitQuorum(TIMEOUT);
            EnsembleChecks.exactlyOneLeader(cluster);
            passed = true;
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("flavours")
    void aLeaderResumedAfterItWasReplacedStopsLeadingAtOnceAndFollows(Flavour flavour) throws Exception {
        LocalCluster cluster = Ensembles.startCluster(flavour, Ensembles.runDir("leader-resumed-" + flavour),
                TICK_TIME_MS);
        boolean passed = false;
        try {
            int leader = cluster.awaitQuorum(TIMEOUT);
            StepDownProbe.Resumed resumed = StepDownProbe.leaderResumedAfterTheOthersMovedOn(cluster, leader, TIMEOUT);
            System.out.println(flavour + ": leader " + leader + " paused " + resumed.pausedMs() + " ms, "
                    + resumed.newLeader() + " led meanwhile; after SIGCONT it last said leader at "
                    + resumed.lastLeaderAnswerMs() + " ms and followed at " + resumed.followerAfterMs() + " ms");
            if (flavour == Flavour.WARDEN) {
                assertTrue(resumed.lastLeaderAnswerMs() < TICK_TIME_MS, "the resumed leader " + leader
                        + " still said leader " + resumed.lastLeaderAnswerMs() + " ms after its SIGCONT");
            }
            assertEquals(resumed.newLeader(), cluster.awaitQuorum(TIMEOUT), "the new leader keeps leading");
            EnsembleChecks.exactlyOneLeader(cluster);
            passed = true;
        } finally {
            Ensembles.closeAndDeleteIfPassed(cluster, passed);
        }
    }
}
