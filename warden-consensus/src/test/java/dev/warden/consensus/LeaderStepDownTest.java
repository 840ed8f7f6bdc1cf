package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A leader steps down once it has not heard from a quorum of voters, itself included, for
 * syncLimit, counted from when each voter was last heard: not from when its link was dropped,
 * which would add a second syncLimit. The cluster ticks every 10 ms when idle; tick 100 ms,
 * syncLimit 5 ticks.
 */
class LeaderStepDownTest {
    private static final long TICK_MS = 100;
    private static final long SYNC_LIMIT_MS = 5 * TICK_MS;
    private static final Set<Long> THREE = Set.of(1L, 2L, 3L);

    private static TestCluster serving(Set<Long> voters, Set<Long> observers) {
        TestCluster cluster = new TestCluster(voters, observers);
        for (long id : voters) {
            cluster.add(id, new MemoryLog(), EpochState.INITIAL);
        }
        for (long id : observers) {
            cluster.add(id, new MemoryLog(), EpochState.INITIAL);
        }
        cluster.runUntil(TestCluster::allServing, 5_000);
        cluster.deliverAll();
        return cluster;
    }

    private static List<Long> votersBut(TestCluster cluster, long leader) {
        return cluster.voters.stream().filter(id -> id != leader).sorted().toList();
    }

    /** Runs until {@code member} no longer leads; returns the time it stepped down. */
    private static long runUntilNotLeading(TestCluster cluster, TestCluster.Member member, long maxMs) {
        cluster.runUntil(c -> member.peer.role() != Role.LEADING, maxMs);
        return cluster.nowMs;
    }

    /** The connection between a and b breaks: both are told, as a TCP reset tells them. */
    private static void breakLink(TestCluster cluster, long a, long b) {
        cluster.member(a).peer.peerDisconnected(b);
        cluster.member(a).drive();
        cluster.member(b).peer.peerDisconnected(a);
        cluster.member(b).drive();
    }

    /** Delivers messages and moves time for {@code ms}, checking {@code invariant} after each step. */
    private static void runFor(TestCluster cluster, long ms, Runnable invariant) {
        long untilMs = cluster.nowMs + ms;
        while (cluster.nowMs < untilMs) {
            if (!cluster.deliverOne()) {
                cluster.advanceTime(10);
            }
            invariant.run();
        }
    }

    @Test
    void aLeaderCutOffFromBothFollowersStepsDownWithinSyncLimit() {
        TestCluster cluster = serving(THREE, Set.of());
        TestCluster.Member leader = cluster.leader();
        long cutAtMs = cluster.nowMs;
        for (long follower : votersBut(cluster, leader.id)) {
            cluster.cut(leader.id, follower);
        }

        long silentForMs = runUntilNotLeading(cluster, leader, 10 * SYNC_LIMIT_MS) - cutAtMs;

        // heartbeats go out every half tick, so the last answer came at most that long before the cut
        assertTrue(silentForMs <= SYNC_LIMIT_MS + TICK_MS, "stepped down " + silentForMs + " ms after the cut");
        assertTrue(silentForMs > SYNC_LIMIT_MS - TICK_MS, "stepped down too soon: " + silentForMs + " ms after the cut");
        assertFalse(leader.peer.isServing());
        assertEquals(-1, leader.peer.nextZxid(), "a member that stepped down proposes nothing");
    }

    @Test
    void theOthersElectANewLeaderWhileTheOldOneIsStillCutOff() {
        TestCluster cluster = serving(THREE, Set.of());
        TestCluster.Member old = cluster.leader();
        long cutAtMs = cluster.nowMs;
        for (long follower : votersBut(cluster, old.id)) {
            cluster.cut(old.id, follower);
        }

        cluster.runUntil(c -> c.leader() != null && c.leader() != old, 10 * SYNC_LIMIT_MS);

        long electedAfterMs = cluster.nowMs - cutAtMs;
        assertTrue(electedAfterMs > SYNC_LIMIT_MS - TICK_MS, "followers gave up after " + electedAfterMs + " ms");
        assertFalse(old.peer.isServing(), "the old leader no longer serves");
        TestCluster.Member fresh = cluster.leader();
        assertNotEquals(old.id, fresh.id);
        assertEquals(2, fresh.peer.epochs().currentEpoch());
        long zxid = cluster.propose("after the cut");
        cluster.runUntil(c -> fresh.peer.committedZxid() == zxid, 1_000);
    }

    @Test
    void aLinkDroppedAndMadeAgainDoesNotDeposeALeaderThatHearsAQuorum() {
        TestCluster cluster = serving(THREE, Set.of());
        TestCluster.Member leader = cluster.leader();
        List<Long> followers = votersBut(cluster, leader.id);
        long reconnecting = followers.get(0);
        long epoch = leader.peer.epochs().currentEpoch();

        breakLink(cluster, leader.id, reconnecting);
        runFor(cluster, 3 * SYNC_LIMIT_MS, () -> assertTrue(leader.peer.isServing()
                && leader.peer.role() == Role.LEADING, "the leader stepped down at " + cluster.nowMs + " ms"));

        assertTrue(cluster.allServing(), "the member whose link broke follows again");
        assertEquals(leader.id, cluster.member(reconnecting).peer.leaderId());
        assertEquals(epoch, leader.peer.epochs().currentEpoch(), "no election");
    }

    @Test
    void aLeaderHearingOneRejoinedFollowerKeepsLeadingWhileTheOtherIsSilent() {
        TestCluster cluster = serving(THREE, Set.of());
        TestCluster.Member leader = cluster.leader();
        List<Long> followers = votersBut(cluster, leader.id);
        long reconnecting = followers.get(0);
        long silent = followers.get(1);

        cluster.cut(leader.id, silent);
        cluster.cut(reconnecting, silent);
        runFor(cluster, SYNC_LIMIT_MS / 2, () -> { });
        breakLink(cluster, leader.id, reconnecting);
        runFor(cluster, 3 * SYNC_LIMIT_MS, () -> assertEquals(Role.LEADING, leader.peer.role(),
                "the leader stepped down at " + cluster.nowMs + " ms"));

        assertTrue(leader.peer.isServing());
        assertTrue(cluster.member(reconnecting).peer.isServing());
        assertEquals(leader.id, cluster.member(reconnecting).peer.leaderId());
    }

    @Test
    void aLeaderResumedAfterAPauseLongerThanSyncLimitStepsDownAtItsFirstTick() {
        TestCluster cluster = serving(THREE, Set.of());
        TestCluster.Member leader = cluster.leader();
        long zxid = cluster.propose("acknowledged while the leader sleeps");
        long committedBefore = leader.peer.committedZxid();

        // The leader stands still (SIGSTOP): its followers' acknowledgements wait in the queue.
        cluster.nowMs += SYNC_LIMIT_MS + TICK_MS;
        leader.peer.tick(cluster.nowMs);

        assertEquals(Role.LOOKING, leader.peer.role(), "stepped down at the first tick after the pause");
        assertFalse(leader.peer.isServing());
        assertFalse(leader.peer.propose(Zxid.of(1, 2), "late".getBytes()), "proposes nothing more");
        Ready first = leader.peer.ready();
        assertNotNull(first.roleChange());
        assertFalse(first.roleChange().serving());
        assertTrue(first.sendImmediately().stream().noneMatch(o -> o.message() instanceof ZabMessage.Propose
                || o.message() instanceof ZabMessage.Commit), "nothing sent as leader");
        leader.peer.advance(first);
        leader.drive();

        // what queued up meanwhile arrives only now, and does not make it leader again
        cluster.deliverAll();
        assertNotEquals(Role.LEADING, leader.peer.role());
        assertTrue(zxid > committedBefore, "proposed, not yet committed, when the pause began");
        assertEquals(committedBefore, leader.peer.committedZxid(), "the queued acknowledgements committed nothing");
    }

    @Test
    void observersDoNotCountTowardTheQuorumHeard() {
        TestCluster cluster = serving(THREE, Set.of(4L));
        TestCluster.Member leader = cluster.leader();
        TestCluster.Member observer = cluster.member(4);
        assertEquals(Role.OBSERVING, observer.peer.role());
        long cutAtMs = cluster.nowMs;
        for (long follower : votersBut(cluster, leader.id)) {
            cluster.cut(leader.id, follower);
        }

        long silentForMs = runUntilNotLeading(cluster, leader, 10 * SYNC_LIMIT_MS) - cutAtMs;

        assertTrue(silentForMs <= SYNC_LIMIT_MS + TICK_MS,
                "stepped down " + silentForMs + " ms after the cut though the observer still answers");
        assertFalse(leader.peer.isServing());
        assertEquals(Role.OBSERVING, observer.peer.role(), "the observer had not given up on it");
    }
}
