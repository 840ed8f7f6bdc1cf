package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A member that set aside a history it could not vouch for may have acknowledged writes it no
 * longer holds: its support must never let a member missing those committed writes lead. It still
 * counts toward a quorum when the others of that quorum hold every committed entry between them
 * (they meet every quorum), so an ensemble whose other members are such a set is not stuck.
 */
class ResyncTest {
    private static final long E1 = 1;

    private static long z(long counter) {
        return Zxid.of(E1, counter);
    }

    /** Member 1 holds five writes committed with member 2's acknowledgement; member 3 saw three. */
    private static TestCluster amnesiaSetUp(boolean member2Resyncing) {
        TestCluster cluster = new TestCluster(Set.of(1L, 2L, 3L), Set.of());
        cluster.add(1, MemoryLog.of(z(1), z(2), z(3), z(4), z(5)), new EpochState(1, 1));
        // member 2 acknowledged z(4) and z(5), then lost its history (damaged at rest) and set it aside
        cluster.add(2, member2Resyncing ? new MemoryLog() : MemoryLog.of(), new EpochState(1, 1), member2Resyncing);
        cluster.add(3, MemoryLog.of(z(1), z(2), z(3)), new EpochState(1, 1));
        return cluster;
    }

    @Test
    void withoutTheMarkerTheAmnesiacHelpsElectAMemberMissingCommittedWrites() {
        // what the marker prevents: 2 votes with its empty history, 3 leads and z(4), z(5) are gone
        TestCluster cluster = amnesiaSetUp(false);
        cluster.crash(1);
        cluster.runUntil(c -> c.leader() != null, 10_000);
        assertEquals(3, cluster.leader().id);
        assertFalse(cluster.member(2).log.entries.containsKey(z(5)));
    }

    @Test
    void aResyncingMembersSupportElectsNoLeaderMissingCommittedWrites() {
        TestCluster cluster = amnesiaSetUp(true);
        cluster.crash(1);
        for (int i = 0; i < 200; i++) {
            cluster.deliverAll();
            cluster.advanceTime(50);
            assertNull(cluster.leader(), "no quorum without member 1: 2 must not count");
        }
        assertTrue(cluster.member(2).peer.isResyncRequired());
        assertTrue(cluster.deliveredOfType(ZabMessage.Vote.class).stream().filter(m -> m.from() == 2)
                .allMatch(m -> ((ZabMessage.Vote) m.message()).leaderId() != 2), "2 is no candidate");
        assertTrue(cluster.deliveredOfType(ZabMessage.LeaderInfo.class).isEmpty(),
                "3 never chooses an epoch: with 2's promise alone beside its own, z(4) and z(5) could be lost");

        cluster.restart(1);
        cluster.runUntil(c -> c.leader() != null && c.member(2).peer.isServing(), 10_000);
        assertEquals(1, cluster.leader().id, "the member holding the committed writes leads");
        cluster.runUntil(c -> c.allServing() && c.member(2).log.lastZxid() == c.member(1).log.lastZxid(), 10_000);
        assertTrue(cluster.member(2).log.appliedView().containsKey(z(5)));
        assertFalse(cluster.member(2).peer.isResyncRequired());
        assertFalse(cluster.member(2).resyncMarker, "the marker goes once it serves");
        assertTrue(cluster.member(2).readies.stream().anyMatch(Ready::resynced));
    }

    @Test
    void aResyncingMembersPromiseDoesNotCompleteALeadersDiscovery() {
        TestCluster cluster = amnesiaSetUp(true);
        cluster.crash(3);
        // 1 may be voted for by no one but itself: 2 does not vote, 3 is down
        for (int i = 0; i < 200; i++) {
            cluster.deliverAll();
            cluster.advanceTime(50);
            assertNull(cluster.leader());
        }
        cluster.restart(3);
        cluster.runUntil(c -> c.allServing(), 10_000);
        assertEquals(1, cluster.leader().id);
    }

    /**
     * Two voters, one of them resyncing: every quorum holds member 1, so whatever was committed
     * member 1 holds, and its own promise beside 2's proves it. 2 takes a copy; without its
     * support neither could ever lead again.
     */
    @Test
    void aResyncingMemberHelpsElectTheMemberThatHoldsEveryCommittedEntry() {
        TestCluster cluster = new TestCluster(Set.of(1L, 2L), Set.of());
        cluster.add(1, MemoryLog.of(z(1), z(2), z(3), z(4), z(5)), new EpochState(1, 1));
        cluster.add(2, new MemoryLog(), new EpochState(1, 1), true);
        cluster.runUntil(c -> c.allServing() && c.member(2).log.lastZxid() == c.member(1).log.lastZxid(), 10_000);
        assertEquals(1, cluster.leader().id);
        assertTrue(cluster.member(2).log.appliedView().containsKey(z(5)));
        assertFalse(cluster.member(2).peer.isResyncRequired());
        assertFalse(cluster.member(2).resyncMarker);
    }

    /**
     * Five voters, two resyncing: the three others are a quorum of their own, and so meet every
     * quorum, but two of them with the resyncing pair are a quorum whose kept history may miss
     * what the third acknowledged; the leader waits for the third's promise.
     */
    @Test
    void aLeaderCountsResyncingPromisesOnlyBesideMembersThatMeetEveryQuorum() {
        TestCluster cluster = new TestCluster(Set.of(1L, 2L, 3L, 4L, 5L), Set.of());
        cluster.add(1, MemoryLog.of(z(1), z(2), z(3)), new EpochState(1, 1));
        cluster.add(2, MemoryLog.of(z(1), z(2), z(3), z(4), z(5)), new EpochState(1, 1));
        cluster.add(3, MemoryLog.of(z(1), z(2), z(3)), new EpochState(1, 1));
        cluster.add(4, new MemoryLog(), new EpochState(1, 1), true);
        cluster.add(5, new MemoryLog(), new EpochState(1, 1), true);
        cluster.crash(2);
        for (int i = 0; i < 200; i++) {
            cluster.deliverAll();
            cluster.advanceTime(50);
            assertNull(cluster.leader(), "1, 3, 4 and 5 are a quorum, but z(4) and z(5) may be committed with 2, 4, 5");
        }
        cluster.restart(2);
        cluster.runUntil(c -> c.allServing() && c.member(5).log.lastZxid() == c.member(2).log.lastZxid(), 10_000);
        assertEquals(2, cluster.leader().id);
        assertTrue(cluster.member(4).log.appliedView().containsKey(z(5)));
    }

    @Test
    void aServingFollowerThatAbandonsItsHistoryTakesACopyAndCountsAgain() {
        TestCluster cluster = new TestCluster(Set.of(1L, 2L, 3L), Set.of());
        for (long id = 1; id <= 3; id++) {
            cluster.add(id, new MemoryLog(), EpochState.INITIAL);
        }
        cluster.runUntil(TestCluster::allServing, 10_000);
        for (int i = 0; i < 10; i++) {
            cluster.propose("w" + i);
        }
        cluster.deliverAll();
        TestCluster.Member leader = cluster.leader();
        TestCluster.Member follower = cluster.members.values().stream().filter(m -> m != leader).findFirst()
                .orElseThrow();
        follower.peer.abandonHistory();
        follower.drive();
        Ready abandoned = follower.readies.stream().filter(Ready::abandonHistory).findFirst().orElse(null);
        assertNotNull(abandoned);
        assertEquals(Role.LOOKING, abandoned.roleChange().role());
        assertTrue(follower.resyncMarker);
        assertEquals(0, follower.log.lastZxid());

        cluster.runUntil(c -> c.allServing() && follower.log.lastZxid() == leader.log.lastZxid(), 10_000);
        assertEquals(leader.log.appliedView(), follower.log.appliedView());
        assertFalse(follower.resyncMarker);
        cluster.propose("after");
        cluster.deliverAll();
        assertEquals(leader.log.lastZxid(), follower.log.lastZxid());
    }

    /**
     * A follower whose batch already holds a proposal to log and a commit to apply when it gives
     * up its history: the driver empties the state first, so the batch must not still ask it to
     * log, acknowledge or apply anything of the history it gave up.
     */
    @Test
    void abandoningDropsTheBatchsWritesAcknowledgementsAndCommits() {
        TestCluster cluster = new TestCluster(Set.of(1L, 2L, 3L), Set.of());
        for (long id = 1; id <= 3; id++) {
            cluster.add(id, new MemoryLog(), EpochState.INITIAL);
        }
        cluster.runUntil(TestCluster::allServing, 10_000);
        TestCluster.Member leader = cluster.leader();
        TestCluster.Member follower = cluster.members.values().stream().filter(m -> m != leader).findFirst()
                .orElseThrow();
        cluster.propose("first");
        cluster.deliverAll();
        long logged = follower.log.lastZxid();

        // the next write reaches the follower, then its commit, before the follower runs a batch
        List<TestCluster.InFlight> toFollower = new ArrayList<>();
        cluster.propose("second");
        while (!cluster.queue.isEmpty()) {
            TestCluster.InFlight next = cluster.queue.peek();
            if (next.to() == follower.id) {
                toFollower.add(cluster.queue.poll());
            } else {
                cluster.deliverOne();
            }
        }
        assertTrue(toFollower.stream().anyMatch(m -> m.message() instanceof ZabMessage.Propose));
        for (TestCluster.InFlight message : toFollower) {
            follower.peer.receive(message.from(), message.message());
        }
        follower.peer.abandonHistory();
        Ready abandoned = follower.peer.ready();
        assertTrue(abandoned.abandonHistory());
        assertTrue(abandoned.entriesToPersist().isEmpty(), "nothing of the old history is logged");
        assertTrue(abandoned.sendAfterPersist().isEmpty(), "nor acknowledged");
        assertTrue(abandoned.committed().isEmpty(), "nor applied to the emptied state");
        assertTrue(logged > 0);
        follower.peer.advance(abandoned);
        follower.readies.add(abandoned);
        follower.resyncMarker = true;
        follower.log.forgetEverything();

        cluster.runUntil(c -> c.allServing() && follower.log.lastZxid() == leader.log.lastZxid(), 10_000);
        assertEquals(leader.log.appliedView(), follower.log.appliedView());
    }

    @Test
    void aMemberThatMustResynchronizeStartsWithAnEmptyLog() {
        TestCluster cluster = new TestCluster(Set.of(1L, 2L, 3L), Set.of());
        assertThrows(IllegalArgumentException.class,
                () -> cluster.add(1, MemoryLog.of(z(1)), new EpochState(1, 1), true));
    }
}
