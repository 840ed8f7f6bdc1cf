package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Where two voters are a quorum, the leader tells its followers what is on its disk, and a
 * follower commits what is on both disks without waiting for the COMMIT. With more voters it
 * does not, since two disks are not a quorum there.
 */
class LeaderDurableCommitTest {

    private static TestCluster serving(Set<Long> voters) {
        TestCluster cluster = new TestCluster(voters, Set.of());
        for (long id : voters) {
            cluster.add(id, new MemoryLog(), EpochState.INITIAL);
        }
        cluster.runUntil(TestCluster::allServing, 5_000);
        return cluster;
    }

    private static TestCluster.Member aFollower(TestCluster cluster) {
        return cluster.member(cluster.leader().id == 1 ? 2 : 1);
    }

    /** Delivers, in order, only the leader's messages to {@code follower}; every other message stays queued. */
    private static void deliverOnlyLeaderTo(TestCluster cluster, TestCluster.Member follower) {
        long leaderId = cluster.leader().id;
        long followerId = follower.id;
        List<TestCluster.InFlight> others = new ArrayList<>();
        TestCluster.InFlight next;
        while ((next = cluster.queue.poll()) != null) {
            if (next.from() == leaderId && next.to() == followerId) {
                cluster.delivered.add(next);
                cluster.member(followerId).peer.receive(leaderId, next.message());
                cluster.member(followerId).drive();
            } else {
                others.add(next);
            }
        }
        cluster.queue.addAll(others);
    }

    @Test
    void withThreeVotersAFollowerCommitsWhatBothDisksHoldBeforeAnyCommitArrives() {
        TestCluster cluster = serving(Set.of(1L, 2L, 3L));
        TestCluster.Member follower = aFollower(cluster);
        int commitsBefore = cluster.deliveredOfType(ZabMessage.Commit.class).size();

        long zxid = cluster.propose("fast");
        deliverOnlyLeaderTo(cluster, follower);

        assertEquals(commitsBefore, cluster.deliveredOfType(ZabMessage.Commit.class).size(), "no COMMIT was delivered");
        assertTrue(cluster.deliveredOfType(ZabMessage.LeaderDurable.class).stream()
                .anyMatch(m -> m.to() == follower.id && ((ZabMessage.LeaderDurable) m.message()).zxid() == zxid));
        assertEquals(zxid, follower.peer.committedZxid());
        assertTrue(follower.log.applied.containsKey(zxid), "applied on the follower");
        assertTrue(cluster.leader().peer.committedZxid() < zxid, "the leader has no acknowledgement yet");

        cluster.deliverAll();
        for (TestCluster.Member member : cluster.members.values()) {
            assertEquals(List.of(zxid), List.copyOf(member.log.applied.keySet()), "member " + member.id);
        }
    }

    @Test
    void aFollowerThatHasNotLoggedTheProposalDoesNotCommitOnTheLeadersDisk() {
        TestCluster cluster = serving(Set.of(1L, 2L, 3L));
        TestCluster.Member follower = aFollower(cluster);

        long zxid = cluster.propose("lost on the way");
        cluster.queue.removeIf(m -> m.to() == follower.id && m.message() instanceof ZabMessage.Propose);
        deliverOnlyLeaderTo(cluster, follower);

        assertTrue(cluster.deliveredOfType(ZabMessage.LeaderDurable.class).stream().anyMatch(m -> m.to() == follower.id),
                "the leader's disk was reported");
        assertTrue(follower.peer.committedZxid() < zxid);
        assertFalse(follower.log.applied.containsKey(zxid));
    }

    @Test
    void withFiveVotersFollowersWaitForTheCommit() {
        TestCluster cluster = serving(Set.of(1L, 2L, 3L, 4L, 5L));
        TestCluster.Member follower = aFollower(cluster);

        long zxid = cluster.propose("slow");
        deliverOnlyLeaderTo(cluster, follower);
        assertFalse(follower.log.applied.containsKey(zxid), "two disks of five are no quorum");

        cluster.deliverAll();
        assertTrue(cluster.deliveredOfType(ZabMessage.LeaderDurable.class).isEmpty(), "no LeaderDurable with five voters");
        for (TestCluster.Member member : cluster.members.values()) {
            assertTrue(member.log.applied.containsKey(zxid), "member " + member.id);
        }
    }
}
