package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ZabPeerScenarioTest {
    private static final Set<Long> THREE = Set.of(1L, 2L, 3L);

    private static TestCluster threeMembers(MemoryLog log1, MemoryLog log2, MemoryLog log3, long epoch) {
        TestCluster cluster = new TestCluster(THREE, Set.of());
        EpochState epochs = new EpochState(epoch, epoch);
        cluster.add(1, log1, epochs);
        cluster.add(2, log2, epochs);
        cluster.add(3, log3, epochs);
        return cluster;
    }

    /**
     * Member 3 leads; members 1 and 2 chose it first and sent FollowerInfo in {@code arrival}
     * order while it was still looking. Returns the members its LeaderInfo went to, in order.
     */
    private static List<Long> leaderInfoOrder(long... arrival) {
        ZabConfig config = new ZabConfig(3, THREE, Set.of(), 100, 10, 5, 200, 3, Long.MAX_VALUE);
        MemoryLog log = MemoryLog.of(Zxid.of(1, 1));
        ZabPeer peer = new ZabPeer(config, new EpochState(1, 1), log, log::snapshot, new SplittableRandom(3), 0);
        ZabMessage.Vote own = null;
        List<Long> leaderInfoTo = new ArrayList<>();
        for (long from : arrival) {
            peer.receive(from, new ZabMessage.FollowerInfo(1, 0, false));
        }
        for (int i = 0; i < 2; i++) {
            while (peer.hasReady()) {
                Ready ready = peer.ready();
                List<Outbound> sent = new ArrayList<>(ready.sendImmediately());
                sent.addAll(ready.sendAfterPersist());
                for (Outbound out : sent) {
                    if (out.message() instanceof ZabMessage.Vote vote && vote.leaderId() == 3) {
                        own = vote;
                    } else if (out.message() instanceof ZabMessage.LeaderInfo) {
                        leaderInfoTo.add(out.to());
                    }
                }
                peer.advance(ready);
            }
            if (i == 0) {
                assertNotNull(own);
                for (long from : arrival) {
                    peer.receive(from, own);
                }
            }
        }
        assertEquals(Role.LEADING, peer.role());
        return leaderInfoTo;
    }

    /** The leader answers members that chose it early in the order they asked, the same in every run. */
    @Test
    void earlyFollowersHearFromTheLeaderInTheOrderTheyAsked() {
        assertEquals(List.of(2L, 1L), leaderInfoOrder(2, 1));
        assertEquals(List.of(1L, 2L), leaderInfoOrder(1, 2));
    }

    @Test
    void electionPicksTheMostUpToDateMemberAndEveryoneConverges() {
        long z1 = Zxid.of(1, 1);
        long z2 = Zxid.of(1, 2);
        long z3 = Zxid.of(1, 3);
        TestCluster cluster = threeMembers(MemoryLog.of(z1), MemoryLog.of(z1, z2, z3), MemoryLog.of(z1, z2), 1);
        cluster.runUntil(TestCluster::allServing, 5_000);

        assertEquals(2, cluster.leader().id);
        assertEquals(2, cluster.member(1).peer.leaderId());
        for (TestCluster.Member member : cluster.members.values()) {
            assertEquals(List.of(z1, z2, z3), List.copyOf(member.log.applied.keySet()), "member " + member.id);
            assertEquals(new EpochState(2, 2), member.durableEpochs, "member " + member.id);
        }
    }

    @Test
    void proposalsCommitEverywhereInOrder() {
        TestCluster cluster = threeMembers(new MemoryLog(), new MemoryLog(), new MemoryLog(), 0);
        cluster.runUntil(TestCluster::allServing, 5_000);
        long first = cluster.propose("a");
        long second = cluster.propose("b");
        assertEquals(Zxid.of(1, 1), first);
        assertEquals(Zxid.of(1, 2), second);
        cluster.runUntil(c -> c.members.values().stream().allMatch(m -> m.log.applied.size() == 2), 5_000);
        for (TestCluster.Member member : cluster.members.values()) {
            assertArrayEquals("b".getBytes(), member.log.applied.get(second).payload());
            assertEquals(second, member.peer.committedZxid());
        }
    }

    @Test
    void appDataTravelsToTheLeaderAndBack() {
        TestCluster cluster = threeMembers(new MemoryLog(), new MemoryLog(), new MemoryLog(), 0);
        cluster.runUntil(TestCluster::allServing, 5_000);
        TestCluster.Member leader = cluster.leader();
        TestCluster.Member follower = cluster.members.values().stream().filter(m -> m != leader).findFirst().get();
        assertTrue(follower.peer.sendToLeader("hello".getBytes()));
        follower.drive();
        cluster.deliverAll();
        assertEquals(1, leader.received.size());
        assertEquals(follower.id, leader.received.get(0).from());
        assertTrue(leader.peer.sendTo(follower.id, "reply".getBytes()));
        leader.drive();
        cluster.deliverAll();
        assertArrayEquals("reply".getBytes(), follower.received.get(0).payload());
    }

    @Test
    void followerRestartedIntoWorkingEnsembleRejoinsTheLeader() {
        TestCluster cluster = threeMembers(new MemoryLog(), new MemoryLog(), new MemoryLog(), 0);
        cluster.runUntil(TestCluster::allServing, 5_000);
        TestCluster.Member leader = cluster.leader();
        long follower = cluster.members.keySet().stream().filter(id -> id != leader.id).findFirst().get();
        cluster.crash(follower);
        cluster.propose("while-down");
        cluster.runUntil(c -> leader.peer.committedZxid() == Zxid.of(1, 1), 5_000);
        cluster.restart(follower);
        cluster.runUntil(TestCluster::allServing, 5_000);
        assertEquals(leader.id, cluster.leader().id);
        assertEquals(1, cluster.leader().peer.epochs().currentEpoch());
        cluster.runUntil(c -> c.member(follower).log.applied.containsKey(Zxid.of(1, 1)), 5_000);
    }

    @Test
    void leaderCrashLeadsToNewElectionWithHigherEpoch() {
        TestCluster cluster = threeMembers(new MemoryLog(), new MemoryLog(), new MemoryLog(), 0);
        cluster.runUntil(TestCluster::allServing, 5_000);
        cluster.propose("x");
        cluster.deliverAll();
        long oldLeader = cluster.leader().id;
        cluster.crash(oldLeader);
        cluster.runUntil(c -> c.leader() != null && c.leader().id != oldLeader && c.allServing(), 10_000);
        assertEquals(2, cluster.leader().peer.epochs().currentEpoch());
        long next = cluster.propose("y");
        assertEquals(Zxid.of(2, 1), next);
        cluster.runUntil(c -> c.leader().peer.committedZxid() == next, 5_000);
        assertNotNull(cluster.leader().log.applied.get(Zxid.of(1, 1)));
        assertFalse(cluster.leader().log.applied.isEmpty());
    }

    @Test
    void observerLearnsTheLeaderAndReceivesOnlyCommittedEntries() {
        TestCluster cluster = new TestCluster(THREE, Set.of(4L));
        for (long id = 1; id <= 4; id++) {
            cluster.add(id, new MemoryLog(), EpochState.INITIAL);
        }
        cluster.runUntil(TestCluster::allServing, 5_000);
        TestCluster.Member observer = cluster.member(4);
        assertEquals(Role.OBSERVING, observer.peer.role());
        assertEquals(cluster.leader().id, observer.peer.leaderId());
        long zxid = cluster.propose("seen-by-observer");
        cluster.runUntil(c -> observer.log.applied.containsKey(zxid), 5_000);
        assertTrue(cluster.deliveredOfType(ZabMessage.Inform.class).stream().anyMatch(m -> m.to() == 4));
        assertTrue(cluster.deliveredOfType(ZabMessage.Propose.class).stream().noneMatch(m -> m.to() == 4),
                "observers never see uncommitted proposals");
        assertTrue(cluster.delivered.stream().noneMatch(m -> m.from() == 4 && m.message() instanceof ZabMessage.Ack));
    }
}
