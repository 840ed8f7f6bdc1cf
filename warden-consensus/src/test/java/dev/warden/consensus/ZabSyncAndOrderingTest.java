package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Sync decisions, persist-before-ack ordering, quorum commits, epoch bump and sync tokens. */
class ZabSyncAndOrderingTest {
    private static final Set<Long> THREE = Set.of(1L, 2L, 3L);

    private static TestCluster cluster(MemoryLog log1, MemoryLog log2, MemoryLog log3, EpochState epochs) {
        TestCluster cluster = new TestCluster(THREE, Set.of());
        cluster.add(1, log1, epochs);
        cluster.add(2, log2, epochs);
        cluster.add(3, log3, epochs);
        return cluster;
    }

    private static ZabMessage firstSyncMessageTo(TestCluster cluster, long to) {
        return cluster.delivered.stream()
                .filter(m -> m.to() == to && (m.message() instanceof ZabMessage.Diff
                        || m.message() instanceof ZabMessage.Trunc || m.message() instanceof ZabMessage.Snap))
                .findFirst().orElseThrow().message();
    }

    @Test
    void leaderChoosesDiffTruncOrSnapPerFollower() {
        long a = Zxid.of(1, 1);
        long b = Zxid.of(1, 2);
        long c = Zxid.of(2, 1);
        long d = Zxid.of(2, 2);
        long stale = Zxid.of(1, 3);
        // member 3 leads (newest epoch); member 1 diverged after b in epoch 1; member 2 is a prefix
        MemoryLog log1 = MemoryLog.of(a, b, stale);
        MemoryLog log2 = MemoryLog.of(a, b, c);
        MemoryLog log3 = MemoryLog.of(a, b, c, d);
        TestCluster cluster = new TestCluster(THREE, Set.of());
        cluster.add(1, log1, new EpochState(1, 1));
        cluster.add(2, log2, new EpochState(2, 2));
        cluster.add(3, log3, new EpochState(2, 2));
        cluster.runUntil(TestCluster::allServing, 5_000);

        assertEquals(3, cluster.leader().id);
        assertEquals(new ZabMessage.Trunc(b), firstSyncMessageTo(cluster, 1));
        assertEquals(new ZabMessage.Diff(d), firstSyncMessageTo(cluster, 2));
        for (long id : THREE) {
            assertEquals(List.of(a, b, c, d), List.copyOf(cluster.member(id).log.applied.keySet()), "member " + id);
        }
    }

    @Test
    void followerBehindThePurgedLogGetsASnapshot() {
        long a = Zxid.of(1, 1);
        long b = Zxid.of(1, 2);
        long c = Zxid.of(1, 3);
        MemoryLog leaderLog = MemoryLog.of(a, b, c);
        leaderLog.purgeUpTo(b);
        MemoryLog peerLog = MemoryLog.of(a, b, c);
        TestCluster cluster = cluster(new MemoryLog(), leaderLog, peerLog, new EpochState(1, 1));
        cluster.runUntil(TestCluster::allServing, 5_000);
        assertEquals(3, cluster.leader().id, "ties on history go to the higher id");
        // member 1 is empty: member 3's log still has everything, so a DIFF from zero works there
        assertTrue(firstSyncMessageTo(cluster, 1) instanceof ZabMessage.Diff);

        TestCluster purged = new TestCluster(THREE, Set.of());
        MemoryLog purgedLeader = MemoryLog.of(a, b, c);
        purgedLeader.purgeUpTo(b);
        purged.add(1, new MemoryLog(), new EpochState(1, 1));
        purged.add(2, MemoryLog.of(a), new EpochState(1, 1));
        purged.add(3, purgedLeader, new EpochState(1, 1));
        purged.runUntil(TestCluster::allServing, 5_000);
        assertEquals(3, purged.leader().id);
        ZabMessage sync = firstSyncMessageTo(purged, 1);
        assertTrue(sync instanceof ZabMessage.Snap, "got " + sync);
        assertEquals(List.of(a, b, c), List.copyOf(purged.member(1).log.applied.keySet()));
        assertTrue(firstSyncMessageTo(purged, 2) instanceof ZabMessage.Snap);
        assertEquals(List.of(a, b, c), List.copyOf(purged.member(2).log.applied.keySet()));
    }

    /**
     * A snapshot taken in the background: the member that needs it waits while the leader goes
     * on committing with the others, then gets the snapshot, the entries logged since it was
     * taken, and every later proposal, and ends with the leader's history. A second member that
     * needs one meanwhile is served by the same snapshot.
     */
    @Test
    void aSnapshotTakenInTheBackgroundLetsTheLeaderCommitMeanwhile() {
        TestCluster cluster = new TestCluster(Set.of(1L, 2L, 3L, 4L, 5L), Set.of());
        cluster.snapshotsInBackground = true;
        for (long id = 1; id <= 5; id++) {
            cluster.add(id, new MemoryLog(), new EpochState(0, 0));
        }
        cluster.runUntil(TestCluster::allServing, 5_000);
        TestCluster.Member leader = cluster.leader();
        List<Long> others = cluster.members.keySet().stream().filter(id -> id != leader.id).toList();
        long first = others.get(0);
        long second = others.get(1);
        cluster.crash(first);
        cluster.crash(second);
        for (int i = 0; i < 5; i++) {
            cluster.propose("before-" + i);
        }
        cluster.deliverAll();
        long purgedTo = leader.log.applied.lastKey();
        leader.log.purgeUpTo(purgedTo); // the two crashed members can only be brought back by SNAP
        cluster.member(first).log.forgetEverything();
        cluster.restart(first);
        cluster.runUntil(c -> !leader.snapshotsAsked.isEmpty(), 5_000);

        long during = cluster.propose("while-the-snapshot-is-taken");
        cluster.member(second).log.forgetEverything();
        int deliveredBefore = cluster.delivered.size();
        cluster.restart(second);
        // its epoch acknowledged, the second one waits for a snapshot too
        cluster.runUntil(c -> c.leader().log.applied.containsKey(during) && c.delivered.subList(deliveredBefore,
                c.delivered.size()).stream().anyMatch(m -> m.from() == second && m.message() instanceof ZabMessage.AckEpoch),
                5_000);
        assertFalse(cluster.member(first).peer.isServing(), "member " + first + " waits for the snapshot");
        assertEquals(1, leader.snapshotsAsked.size(), "one snapshot serves every member that waits");
        assertTrue(cluster.deliveredOfType(ZabMessage.Snap.class).isEmpty());

        leader.answerSnapshots();
        long after = cluster.propose("after");
        cluster.runUntil(c -> c.allServing() && c.members.values().stream().allMatch(m -> m.log.applied.containsKey(after)),
                5_000);
        assertEquals(2, cluster.deliveredOfType(ZabMessage.Snap.class).size());
        for (long id : List.of(first, second)) {
            assertEquals(leader.log.applied.tailMap(purgedTo, true).keySet(),
                    cluster.member(id).log.applied.tailMap(purgedTo, true).keySet(), "member " + id);
            assertTrue(cluster.member(id).log.applied.containsKey(during), "member " + id);
        }
    }

    @Test
    void followerFurtherBehindThanTheDiffBudgetGetsASnapshotAndOneWithinItADiff() {
        long[] zxids = {Zxid.of(1, 1), Zxid.of(1, 2), Zxid.of(1, 3), Zxid.of(1, 4), Zxid.of(1, 5)};
        TestCluster cluster = new TestCluster(THREE, Set.of());
        // each entry's payload is 12 bytes: one entry fits the budget, four do not
        cluster.syncDiffBytes = 30;
        cluster.add(1, MemoryLog.of(zxids[0]), new EpochState(1, 1));
        cluster.add(2, MemoryLog.of(zxids[0], zxids[1], zxids[2], zxids[3]), new EpochState(1, 1));
        cluster.add(3, MemoryLog.of(zxids), new EpochState(1, 1));
        cluster.runUntil(TestCluster::allServing, 5_000);

        assertEquals(3, cluster.leader().id);
        ZabMessage farBehind = firstSyncMessageTo(cluster, 1);
        assertTrue(farBehind instanceof ZabMessage.Snap, "got " + farBehind);
        assertEquals(new ZabMessage.Diff(zxids[4]), firstSyncMessageTo(cluster, 2));
        for (long id : THREE) {
            assertEquals(List.of(zxids[0], zxids[1], zxids[2], zxids[3], zxids[4]),
                    List.copyOf(cluster.member(id).log.applied.keySet()), "member " + id);
        }
    }

    @Test
    void anEmptyFollowerGetsASnapshotWhenItIsSmallerThanTheDiff() {
        long[] zxids = {Zxid.of(1, 1), Zxid.of(1, 2), Zxid.of(1, 3), Zxid.of(1, 4), Zxid.of(1, 5)};
        TestCluster cluster = new TestCluster(THREE, Set.of());
        // five entries of 12 bytes each (60) against a snapshot estimated at 30
        cluster.snapshotEstimateBytes = 30;
        cluster.add(1, new MemoryLog(), new EpochState(1, 1));
        cluster.add(2, MemoryLog.of(zxids[0]), new EpochState(1, 1));
        cluster.add(3, MemoryLog.of(zxids), new EpochState(1, 1));
        cluster.runUntil(TestCluster::allServing, 5_000);

        assertEquals(3, cluster.leader().id);
        ZabMessage empty = firstSyncMessageTo(cluster, 1);
        assertTrue(empty instanceof ZabMessage.Snap, "got " + empty);
        assertEquals(new ZabMessage.Diff(zxids[4]), firstSyncMessageTo(cluster, 2),
                "a member with history gets the diff, under the usual budget");
        for (long id : THREE) {
            assertEquals(List.of(zxids[0], zxids[1], zxids[2], zxids[3], zxids[4]),
                    List.copyOf(cluster.member(id).log.applied.keySet()), "member " + id);
        }
    }

    @Test
    void anEmptyFollowerGetsTheDiffWhenItIsSmallerThanASnapshot() {
        long[] zxids = {Zxid.of(1, 1), Zxid.of(1, 2), Zxid.of(1, 3)};
        TestCluster cluster = new TestCluster(THREE, Set.of());
        cluster.snapshotEstimateBytes = 100;
        cluster.add(1, new MemoryLog(), new EpochState(1, 1));
        cluster.add(2, MemoryLog.of(zxids), new EpochState(1, 1));
        cluster.add(3, MemoryLog.of(zxids), new EpochState(1, 1));
        cluster.runUntil(TestCluster::allServing, 5_000);

        assertEquals(3, cluster.leader().id);
        assertEquals(new ZabMessage.Diff(zxids[2]), firstSyncMessageTo(cluster, 1));
    }

    @Test
    void acknowledgementsLeaveOnlyAfterWhatTheyPromiseIsPersisted() {
        TestCluster cluster = cluster(new MemoryLog(), new MemoryLog(), new MemoryLog(), EpochState.INITIAL);
        cluster.runUntil(TestCluster::allServing, 5_000);
        cluster.propose("p");
        cluster.deliverAll();
        for (TestCluster.Member member : cluster.members.values()) {
            for (Ready ready : member.readies) {
                for (Outbound out : ready.sendImmediately()) {
                    ZabMessage m = out.message();
                    assertFalse(m instanceof ZabMessage.AckEpoch || m instanceof ZabMessage.AckNewLeader
                            || m instanceof ZabMessage.Ack || m instanceof ZabMessage.LeaderInfo,
                            "sent before persisting: " + m);
                }
                for (Outbound out : ready.sendAfterPersist()) {
                    if (out.message() instanceof ZabMessage.AckEpoch) {
                        assertTrue(ready.epochs() != null, "AckEpoch without the accepted epoch in its batch");
                    }
                    if (out.message() instanceof ZabMessage.Ack ack && member.peer.role() == Role.FOLLOWING
                            && ack.zxid() == Zxid.of(1, 1)) {
                        assertTrue(ready.entriesToPersist().stream().anyMatch(e -> e.zxid() == ack.zxid()));
                    }
                }
            }
        }
    }

    @Test
    void nothingCommitsWithoutAQuorumOfAcks() {
        TestCluster cluster = cluster(new MemoryLog(), new MemoryLog(), new MemoryLog(), EpochState.INITIAL);
        cluster.runUntil(TestCluster::allServing, 5_000);
        TestCluster.Member leader = cluster.leader();
        long zxid = cluster.propose("needs-a-follower");
        // the proposals reach the followers, but their acks are lost on the way back
        while (cluster.deliverOne()) {
            cluster.queue.removeIf(m -> m.message() instanceof ZabMessage.Ack);
        }
        assertEquals(0, leader.peer.committedZxid(), "leader alone must not commit");
        long next = cluster.propose("second");
        cluster.deliverAll();
        assertEquals(next, leader.peer.committedZxid(), "a cumulative ack commits both");
        assertTrue(leader.log.applied.containsKey(zxid));
    }

    @Test
    void counterExhaustionMovesToTheNextEpochWithoutAnElection() {
        TestCluster cluster = cluster(new MemoryLog(), new MemoryLog(), new MemoryLog(), EpochState.INITIAL);
        cluster.runUntil(TestCluster::allServing, 5_000);
        TestCluster.Member leader = cluster.leader();
        leader.peer.limitCounterForTests(2);
        long z1 = cluster.propose("almost");
        long z2 = cluster.propose("last");
        assertEquals(Zxid.of(1, 2), z2);
        long z3 = cluster.propose("next epoch");
        assertEquals(Zxid.of(2, 1), z3);
        assertTrue(leader.readies.get(leader.readies.size() - 1).entriesToPersist().isEmpty(),
                "the new epoch's entry waits for the bump");
        cluster.runUntil(c -> c.members.values().stream().allMatch(m -> m.log.applied.containsKey(z3)), 5_000);
        assertEquals(leader.id, cluster.leader().id);
        for (TestCluster.Member member : cluster.members.values()) {
            assertEquals(new EpochState(2, 2), member.durableEpochs, "member " + member.id);
            assertEquals(List.of(z1, z2, z3), List.copyOf(member.log.applied.keySet()));
        }
        int bumpIndex = indexOf(cluster, ZabMessage.EpochBump.class);
        int newEpochProposal = -1;
        for (int i = 0; i < cluster.delivered.size(); i++) {
            if (cluster.delivered.get(i).message() instanceof ZabMessage.Propose p
                    && p.entries().get(0).zxid() == z3) {
                newEpochProposal = i;
                break;
            }
        }
        assertTrue(bumpIndex >= 0 && newEpochProposal > indexOf(cluster, ZabMessage.EpochBumpAck.class));
    }

    private static int indexOf(TestCluster cluster, Class<?> type) {
        for (int i = 0; i < cluster.delivered.size(); i++) {
            if (type.isInstance(cluster.delivered.get(i).message())) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void syncTokenCompletesOnlyAfterAQuorumPingRound() {
        TestCluster cluster = cluster(new MemoryLog(), new MemoryLog(), new MemoryLog(), EpochState.INITIAL);
        cluster.runUntil(TestCluster::allServing, 5_000);
        TestCluster.Member leader = cluster.leader();
        TestCluster.Member follower = cluster.members.values().stream().filter(m -> m != leader).findFirst().get();
        cluster.propose("before-sync");
        cluster.deliverAll();
        assertTrue(follower.peer.sync(42));
        follower.drive();
        // deliver everything except ping acks: the leader cannot confirm it is still leader
        while (cluster.deliverOne()) {
            cluster.queue.removeIf(m -> m.message() instanceof ZabMessage.PingAck);
        }
        assertTrue(follower.syncsDone.isEmpty(), "sync done without a quorum round");
        assertTrue(leader.peer.sync(7));
        leader.drive();
        cluster.deliverAll();
        assertEquals(List.of(42L), follower.syncsDone);
        assertEquals(List.of(7L), leader.syncsDone);
    }
}
