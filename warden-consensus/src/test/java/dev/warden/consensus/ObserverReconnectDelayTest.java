package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * ZooKeeper's observer.reconnectDelayMs: an observer that lost its leader (or its master) and
 * found it again waits a time drawn from its seeded random, below the delay, before it asks
 * (FollowerInfo); with observer masters only when it starts its rotation over. A zero delay asks
 * at once, as without the setting.
 */
class ObserverReconnectDelayTest {
    private static final long OBSERVER = 4;
    private static final long DELAY_MS = 1_000;
    /** The cluster moves time 10 ms at a time when idle. */
    private static final long TICK_MS = 10;

    private static TestCluster ensemble(boolean observerMasters, long reconnectDelayMs) {
        TestCluster cluster = new TestCluster(Set.of(1L, 2L, 3L), Set.of(OBSERVER));
        cluster.observerMasters = observerMasters;
        cluster.observerReconnectDelayMs = reconnectDelayMs;
        for (long id = 1; id <= 4; id++) {
            cluster.add(id, new MemoryLog(), new EpochState(0, 0));
        }
        cluster.runUntil(TestCluster::allServing, 30_000);
        return cluster;
    }

    private static long followerInfosFromObserver(TestCluster cluster) {
        return cluster.deliveredOfType(ZabMessage.FollowerInfo.class).stream()
                .filter(m -> m.from() == OBSERVER).count();
    }

    /**
     * The observer's link to the member it syncs from breaks, {@code rounds} times: for each, how
     * long it waited between deciding whom to follow and asking it, and whom it asked.
     */
    private static List<long[]> waitsAfterLosingUpstream(TestCluster cluster, int rounds) {
        List<long[]> waits = new ArrayList<>();
        TestCluster.Member observer = cluster.member(OBSERVER);
        for (int round = 0; round < rounds; round++) {
            observer.peer.peerDisconnected(observer.peer.learnerMasterId());
            observer.drive();
            assertEquals(Role.LOOKING, observer.peer.role());
            long asked = followerInfosFromObserver(cluster);
            cluster.runUntil(c -> observer.peer.role() == Role.OBSERVING, 10_000);
            long decidedMs = cluster.nowMs;
            cluster.runUntil(c -> followerInfosFromObserver(c) > asked, 10_000);
            waits.add(new long[]{cluster.nowMs - decidedMs, observer.peer.learnerMasterId()});
            cluster.runUntil(c -> observer.peer.isServing(), 10_000);
        }
        return waits;
    }

    @Test
    void withoutObserverMastersTheObserverWaitsBelowTheDelayBeforeEachAttemptAtTheLeader() {
        TestCluster cluster = ensemble(false, DELAY_MS);
        List<long[]> waits = waitsAfterLosingUpstream(cluster, 6);
        long longest = 0;
        for (long[] wait : waits) {
            assertTrue(wait[0] < DELAY_MS + TICK_MS, "waited " + wait[0] + " ms, the delay is " + DELAY_MS);
            assertEquals(cluster.leader().id, wait[1]);
            longest = Math.max(longest, wait[0]);
        }
        // drawn from the seeded random, so this replays: the waits are spread over the delay
        assertTrue(longest > DELAY_MS / 4, "the longest wait was " + longest + " ms");
        assertTrue(waits.stream().mapToLong(w -> w[0]).distinct().count() > 1, "every wait was the same");
    }

    @Test
    void withObserverMastersTheObserverWaitsOnlyWhenItStartsItsRotationOver() {
        TestCluster cluster = ensemble(true, DELAY_MS);
        long leaderId = cluster.leader().id;
        // the rotation: the two followers, then the leader, then the followers again (started over)
        List<long[]> waits = waitsAfterLosingUpstream(cluster, 6);
        int startedOver = 0;
        for (int i = 0; i < waits.size(); i++) {
            long[] wait = waits.get(i);
            boolean afterLeader = i > 0 && waits.get(i - 1)[1] == leaderId;
            if (afterLeader) {
                startedOver++;
                assertTrue(wait[0] > 0 && wait[0] < DELAY_MS + TICK_MS, "attempt " + i + " waited " + wait[0]);
            } else {
                assertEquals(0, wait[0], "attempt " + i + " (to " + wait[1] + ") waited");
            }
        }
        assertTrue(startedOver >= 1, "the rotation never started over");
    }

    @Test
    void aZeroDelayAsksAtOnce() {
        for (boolean observerMasters : new boolean[]{false, true}) {
            TestCluster cluster = ensemble(observerMasters, 0);
            for (long[] wait : waitsAfterLosingUpstream(cluster, 6)) {
                assertEquals(0, wait[0], "observer masters " + observerMasters + ": asked " + wait[1] + " late");
            }
        }
    }
}
