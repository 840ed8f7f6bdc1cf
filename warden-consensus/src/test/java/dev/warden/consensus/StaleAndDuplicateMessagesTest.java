package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Old, duplicated and foreign messages must never corrupt what members have committed. */
class StaleAndDuplicateMessagesTest {

    private static TestCluster runThroughTwoEpochs() {
        TestCluster cluster = new TestCluster(Set.of(1L, 2L, 3L), Set.of());
        for (long id = 1; id <= 3; id++) {
            cluster.add(id, new MemoryLog(), EpochState.INITIAL);
        }
        cluster.runUntil(TestCluster::allServing, 5_000);
        for (int i = 0; i < 5; i++) {
            cluster.propose("first-" + i);
        }
        cluster.deliverAll();
        long firstLeader = cluster.leader().id;
        cluster.crash(firstLeader);
        cluster.runUntil(c -> c.leader() != null && c.leader().id != firstLeader, 10_000);
        cluster.restart(firstLeader);
        cluster.runUntil(TestCluster::allServing, 10_000);
        for (int i = 0; i < 5; i++) {
            cluster.propose("second-" + i);
        }
        cluster.deliverAll();
        return cluster;
    }

    private static void assertPrefixesAgree(TestCluster cluster) {
        List<Map.Entry<Long, Entry>> longest = List.of();
        for (TestCluster.Member member : cluster.members.values()) {
            List<Map.Entry<Long, Entry>> applied = new ArrayList<>(member.log.applied.entrySet());
            if (applied.size() > longest.size()) {
                longest = applied;
            }
        }
        for (TestCluster.Member member : cluster.members.values()) {
            List<Map.Entry<Long, Entry>> applied = new ArrayList<>(member.log.applied.entrySet());
            for (int i = 0; i < applied.size(); i++) {
                assertEquals(longest.get(i).getKey(), applied.get(i).getKey(), "member " + member.id + " at " + i);
                assertEquals(new String(longest.get(i).getValue().payload()),
                        new String(applied.get(i).getValue().payload()));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void replayingOldTrafficInRandomOrderChangesNoCommittedState(long seed) {
        TestCluster cluster = runThroughTwoEpochs();
        List<TestCluster.InFlight> history = List.copyOf(cluster.delivered);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 2_000; i++) {
            TestCluster.InFlight old = history.get(random.nextInt(history.size()));
            cluster.queue.add(old);
            if (random.nextInt(50) == 0) {
                cluster.deliverAll();
                cluster.advanceTime(random.nextInt(300));
            }
        }
        cluster.deliverAll();
        assertPrefixesAgree(cluster);
        cluster.runUntil(TestCluster::allServing, 20_000);
        long zxid = cluster.propose("after-chaos");
        cluster.runUntil(c -> c.members.values().stream().allMatch(m -> m.log.applied.containsKey(zxid)), 20_000);
        assertPrefixesAgree(cluster);
    }

    @Test
    void messagesFromStrangersAndSelfAreIgnored() {
        TestCluster cluster = runThroughTwoEpochs();
        TestCluster.Member leader = cluster.leader();
        long committed = leader.peer.committedZxid();
        leader.peer.receive(99, new ZabMessage.Ack(Long.MAX_VALUE));
        leader.peer.receive(leader.id, new ZabMessage.FollowerInfo(1_000, 0, false));
        leader.peer.receive(99, new ZabMessage.Vote(99, Long.MAX_VALUE, 1_000, 1_000, Role.LOOKING));
        leader.drive();
        assertTrue(!leader.peer.hasReady());
        assertEquals(committed, leader.peer.committedZxid());
        assertEquals(Role.LEADING, leader.peer.role());
    }

    @Test
    void aFollowerThatMissesAProposalNoticesTheHoleAndResyncs() {
        TestCluster cluster = runThroughTwoEpochs();
        TestCluster.Member leader = cluster.leader();
        TestCluster.Member follower = cluster.members.values().stream().filter(m -> m != leader).findFirst().get();
        long rejoinsBefore = cluster.deliveredOfType(ZabMessage.FollowerInfo.class).stream()
                .filter(m -> m.from() == follower.id).count();
        long lost = cluster.propose("lost-on-the-way");
        assertTrue(cluster.queue.removeIf(m -> m.to() == follower.id && m.message() instanceof ZabMessage.Propose));
        long next = cluster.propose("after-the-hole");
        cluster.deliverAll();
        long rejoins = cluster.deliveredOfType(ZabMessage.FollowerInfo.class).stream()
                .filter(m -> m.from() == follower.id).count();
        assertEquals(rejoinsBefore + 1, rejoins, "the hole made the follower leave and rejoin its leader");
        cluster.runUntil(c -> c.allServing() && follower.log.applied.containsKey(next), 10_000);
        assertTrue(follower.log.applied.containsKey(lost));
        assertPrefixesAgree(cluster);
    }
}
