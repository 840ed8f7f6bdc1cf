package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Two voters and an observer following the follower: the follower commits by its own rule (both
 * disks hold the entry) before its acknowledgement reaches the leader, and the observer applies
 * the entry. Moved to the leader then, the observer holds an entry the leader has logged and not
 * yet counted as committed: the leader must not cut it back (TRUNC would undo an applied entry),
 * and syncs it once it has committed that far. Found by sim seed 9016 (observer masters with
 * reconfigurations).
 */
class ObserverAheadOfLeaderCommitTest {
    private static final long OBSERVER = 3;

    @Test
    void theLeaderSyncsAnObserverAheadOfItsCommitOnlyOnceItCommittedThatFar() {
        TestCluster cluster = new TestCluster(Set.of(1L, 2L), Set.of(OBSERVER));
        cluster.observerMasters = true;
        for (long id = 1; id <= 3; id++) {
            cluster.add(id, new MemoryLog(), new EpochState(0, 0));
        }
        cluster.runUntil(c -> c.allServing() && c.member(OBSERVER).peer.learnerMasterId() != c.leader().id, 30_000);
        long leader = cluster.leader().id;
        long follower = cluster.member(OBSERVER).peer.learnerMasterId();
        ZabPeer observer = cluster.member(OBSERVER).peer;

        // everything the follower sends the leader is held back, in order, as on a slow link
        Deque<TestCluster.InFlight> held = new ArrayDeque<>();
        long zxid = cluster.propose("ahead");
        deliverHolding(cluster, held, follower, leader, () -> cluster.member(OBSERVER).log.applied.containsKey(zxid));
        assertTrue(cluster.leader().peer.committedZxid() < zxid, "the leader has not counted it committed");

        assertTrue(observer.requestLearnerMaster(leader));
        cluster.member(OBSERVER).drive();
        int truncsBefore = truncsToObserver(cluster);
        deliverHolding(cluster, held, follower, leader, () -> false);
        assertFalse(observer.isServing(), "the observer waits for the leader to commit that far");
        assertEquals(truncsBefore, truncsToObserver(cluster), "no TRUNC of what the observer applied");

        // the follower's acknowledgement arrives: the leader commits and syncs the observer
        while (!held.isEmpty()) {
            cluster.queue.addFirst(held.removeLast());
        }
        cluster.runUntil(c -> observer.isServing() && observer.learnerMasterId() == leader, 10_000);
        assertEquals(truncsBefore, truncsToObserver(cluster));
        assertEquals(List.copyOf(cluster.leader().log.applied.keySet()),
                List.copyOf(cluster.member(OBSERVER).log.applied.keySet()));
    }

    /** Delivers what is in flight (time standing still), holding back {@code from}'s messages to {@code to}. */
    private static void deliverHolding(TestCluster cluster, Deque<TestCluster.InFlight> held, long from, long to,
                                       java.util.function.BooleanSupplier done) {
        while (!done.getAsBoolean()) {
            cluster.queue.removeIf(m -> m.from() == from && m.to() == to && held.add(m));
            if (!cluster.deliverOne()) {
                return;
            }
        }
    }

    private static int truncsToObserver(TestCluster cluster) {
        return (int) cluster.deliveredOfType(ZabMessage.Trunc.class).stream().filter(m -> m.to() == OBSERVER).count();
    }
}
