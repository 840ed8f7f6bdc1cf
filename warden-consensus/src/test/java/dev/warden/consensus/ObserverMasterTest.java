package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Observers that follow a follower (an observer master) instead of the leader: they sync from it,
 * receive only committed entries, reach the leader through it, and move on when it fails.
 */
class ObserverMasterTest {
    private static final Set<Long> VOTERS = Set.of(1L, 2L, 3L);
    private static final long OBSERVER = 4;

    private static TestCluster ensemble(boolean observerMasters) {
        return ensemble(observerMasters, 0);
    }

    /** @param counterLimit if positive, every epoch ends after this many proposals (epoch bumps) */
    private static TestCluster ensemble(boolean observerMasters, long counterLimit) {
        TestCluster cluster = new TestCluster(VOTERS, Set.of(OBSERVER));
        cluster.observerMasters = observerMasters;
        cluster.counterLimit = counterLimit;
        EpochState epochs = new EpochState(0, 0);
        for (long id = 1; id <= 4; id++) {
            cluster.add(id, new MemoryLog(), epochs);
        }
        cluster.runUntil(TestCluster::allServing, 10_000);
        return cluster;
    }

    private static long masterOf(TestCluster cluster) {
        return cluster.member(OBSERVER).peer.learnerMasterId();
    }

    /** Fails if the observer applied anything the leader has not committed (applied) yet. */
    private static void assertObserverAppliesOnlyCommitted(TestCluster cluster) {
        TestCluster.Member leader = cluster.leader();
        if (leader == null) {
            return;
        }
        for (long zxid : cluster.member(OBSERVER).log.applied.keySet()) {
            assertTrue(leader.log.applied.containsKey(zxid), "observer applied " + Zxid.hex(zxid)
                    + " before the leader committed it");
        }
    }

    private static void assertSameHistory(TestCluster cluster) {
        List<Long> leaderHistory = List.copyOf(cluster.leader().log.applied.keySet());
        assertEquals(leaderHistory, List.copyOf(cluster.member(OBSERVER).log.applied.keySet()));
    }

    @Test
    void observerSyncsFromAFollowerAndHearsNothingFromTheLeader() {
        TestCluster cluster = ensemble(true);
        long leaderId = cluster.leader().id;
        long master = masterOf(cluster);
        assertNotEquals(leaderId, master, "the observer follows a follower");
        assertTrue(VOTERS.contains(master));
        assertEquals(leaderId, cluster.member(OBSERVER).peer.leaderId(), "it still knows who leads");
        assertEquals(1, cluster.member(master).peer.observersServed());

        List<Long> zxids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            zxids.add(cluster.propose("w" + i));
        }
        cluster.runUntil(c -> c.member(OBSERVER).log.applied.keySet().containsAll(zxids), 5_000);
        assertSameHistory(cluster);
        assertTrue(cluster.delivered.stream().noneMatch(m -> m.to() == OBSERVER && m.from() == leaderId
                        && !(m.message() instanceof ZabMessage.Vote)),
                "the leader sent the observer nothing but votes");
        assertTrue(cluster.deliveredOfType(ZabMessage.Inform.class).stream().allMatch(m -> m.from() == master));
    }

    @Test
    void observerNeverAppliesWhatItsMasterHasOnlyLogged() {
        TestCluster cluster = ensemble(true);
        long leaderId = cluster.leader().id;
        long master = masterOf(cluster);
        // the third voter is gone: every commit now waits for the master's own acknowledgement,
        // so the master holds each proposal logged and uncommitted for a while
        long other = VOTERS.stream().filter(id -> id != leaderId && id != master).findFirst().orElseThrow();
        cluster.crash(other);
        List<Long> zxids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            zxids.add(cluster.propose("w" + i));
            for (int step = 0; step < 3 && cluster.deliverOne(); step++) {
                assertObserverAppliesOnlyCommitted(cluster);
            }
        }
        while (cluster.deliverOne()) {
            assertObserverAppliesOnlyCommitted(cluster);
        }
        assertTrue(cluster.member(OBSERVER).log.applied.keySet().containsAll(zxids));
        assertSameHistory(cluster);
    }

    @Test
    void observerMovesOnWhenItsMasterFailsAndCatchesUp() {
        TestCluster cluster = ensemble(true);
        long firstMaster = masterOf(cluster);
        cluster.propose("before");
        cluster.deliverAll();
        cluster.crash(firstMaster);
        // the observer hears nothing from its master: after syncLimit it looks again
        cluster.runUntil(c -> c.member(OBSERVER).peer.isServing() && masterOf(c) != firstMaster
                && c.leader() != null, 10_000);
        long leaderId = cluster.leader().id;
        List<Long> zxids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            zxids.add(cluster.propose("after" + i));
        }
        cluster.runUntil(c -> c.member(OBSERVER).log.applied.keySet().containsAll(zxids), 5_000);
        assertSameHistory(cluster);
        assertNotEquals(firstMaster, masterOf(cluster));
        // with one voter down, the remaining follower or, failing that, the leader itself
        assertTrue(masterOf(cluster) == leaderId || VOTERS.contains(masterOf(cluster)));
    }

    @Test
    void aBrokenLinkToTheLeaderLeavesAnObserverOnItsMaster() {
        TestCluster cluster = ensemble(true);
        long master = masterOf(cluster);
        TestCluster.Member observer = cluster.member(OBSERVER);
        observer.peer.peerDisconnected(cluster.leader().id);
        observer.drive();
        assertTrue(observer.peer.isServing());
        assertEquals(master, masterOf(cluster));
        observer.peer.peerDisconnected(master);
        observer.drive();
        assertTrue(!observer.peer.isServing(), "a broken link to its master sends it looking");
    }

    @Test
    void observerLooksAgainWhenItsMasterBecomesLeader() {
        TestCluster cluster = ensemble(true);
        long master = masterOf(cluster);
        long oldLeader = cluster.leader().id;
        cluster.crash(oldLeader);
        cluster.runUntil(c -> c.leader() != null && c.member(OBSERVER).peer.isServing()
                && c.member(OBSERVER).peer.leaderId() == c.leader().id, 10_000);
        long newLeader = cluster.leader().id;
        assertNotEquals(oldLeader, newLeader);
        if (newLeader == master) {
            assertNotEquals(master, masterOf(cluster), "a master that leads now is followed no more as a master");
        }
        long zxid = cluster.propose("new leader");
        cluster.runUntil(c -> c.member(OBSERVER).log.applied.containsKey(zxid), 5_000);
        assertSameHistory(cluster);
    }

    @Test
    void observerTrafficAndSyncsReachTheLeaderThroughTheMaster() {
        TestCluster cluster = ensemble(true);
        TestCluster.Member leader = cluster.leader();
        TestCluster.Member observer = cluster.member(OBSERVER);
        assertTrue(observer.peer.sendToLeader("request".getBytes()));
        observer.drive();
        cluster.runUntil(c -> leader.received.stream().anyMatch(r -> r.from() == OBSERVER), 5_000);

        // the leader answers the observer: down through the master it came through
        assertTrue(leader.peer.sendTo(OBSERVER, "reply".getBytes()));
        leader.drive();
        cluster.runUntil(c -> observer.received.stream().anyMatch(r -> new String(r.payload()).equals("reply")),
                5_000);
        assertTrue(cluster.deliveredOfType(ZabMessage.Relay.class).stream()
                .allMatch(m -> m.from() == masterOf(cluster) || m.to() == masterOf(cluster)));

        long zxid = cluster.propose("seen by the sync");
        assertTrue(observer.peer.sync(77));
        observer.drive();
        cluster.runUntil(c -> observer.syncsDone.contains(77L), 5_000);
        assertTrue(observer.log.applied.containsKey(zxid), "a sync completes only after what the leader committed");
    }

    @Test
    void epochBumpsReachTheObserverThroughItsMaster() {
        TestCluster cluster = ensemble(true, 3);
        long master = masterOf(cluster);
        long leaderId = cluster.leader().id;
        List<Long> zxids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            zxids.add(cluster.propose("w" + i));
            cluster.deliverAll();
        }
        cluster.runUntil(c -> c.member(OBSERVER).log.applied.keySet().containsAll(zxids), 5_000);
        assertTrue(Zxid.epoch(zxids.get(9)) > Zxid.epoch(zxids.get(0)), "the epoch moved on");
        assertSameHistory(cluster);
        assertEquals(master, masterOf(cluster), "the observer kept its master across the bumps");
        assertEquals(leaderId, cluster.leader().id);
        assertTrue(cluster.deliveredOfType(ZabMessage.EpochBump.class).stream()
                .anyMatch(m -> m.from() == master && m.to() == OBSERVER));
    }

    @Test
    void withoutObserverMastersTheObserverFollowsTheLeader() {
        TestCluster cluster = ensemble(false);
        assertEquals(cluster.leader().id, masterOf(cluster));
        assertEquals(0, cluster.member(1).peer.observersServed() + cluster.member(2).peer.observersServed()
                + cluster.member(3).peer.observersServed());
        assertTrue(cluster.deliveredOfType(ZabMessage.Relay.class).isEmpty());
    }
}
