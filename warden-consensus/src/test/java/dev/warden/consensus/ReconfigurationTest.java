package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Configuration changes through the log: a change and everything after it commit only with a
 * quorum of the old configuration and a quorum of the new; the new one is acted on once
 * committed; a removed leader steps down; roles change by rejoining; members learn the
 * configuration when synchronized; a member restarted with an uncommitted change in its log counts
 * with both. Members 4 and 5 start outside the configuration and follow as non-voting learners
 * until a change adds them. Tick 100 ms, syncLimit 5 ticks, initLimit 10.
 */
class ReconfigurationTest {
    private static final Set<Long> THREE = Set.of(1L, 2L, 3L);

    /** Members {@code ids} started with {@code voters} (+ {@code observers}) as their committed configuration. */
    private static TestCluster serving(Set<Long> voters, Set<Long> observers, long... ids) {
        TestCluster cluster = new TestCluster(voters, observers);
        cluster.initialConfiguration = TestConfigs.initial(voters, observers);
        for (long id : ids) {
            cluster.add(id, new MemoryLog(), EpochState.INITIAL);
        }
        cluster.runUntil(TestCluster::allServing, 5_000);
        cluster.deliverAll();
        return cluster;
    }

    private static long proposeConfiguration(TestCluster cluster, Set<Long> voters, Set<Long> observers) {
        TestCluster.Member leader = cluster.leader();
        long zxid = leader.peer.nextZxid();
        assertTrue(leader.peer.propose(zxid, TestConfigs.payload(voters, observers)));
        leader.drive();
        return zxid;
    }

    private static Configuration configurationFor(Set<Long> voters, Set<Long> observers) {
        return new Configuration(0, new MajorityQuorum(voters, observers), new byte[0]);
    }

    private static boolean committedEverywhere(TestCluster cluster, long version) {
        for (TestCluster.Member member : cluster.members.values()) {
            if (!cluster.down.contains(member.id) && member.peer.configurations().committed().version() != version) {
                return false;
            }
        }
        return true;
    }

    /** Runs for {@code ms}, delivering messages and moving time, checking {@code check} after every step. */
    private static void runFor(TestCluster cluster, long ms, Runnable check) {
        long untilMs = cluster.nowMs + ms;
        while (cluster.nowMs < untilMs) {
            if (!cluster.deliverOne()) {
                cluster.advanceTime(10);
            }
            check.run();
        }
    }

    /**
     * Safety across every member: no two members lead serving in one epoch, and the entries each
     * member applied are prefixes of one history.
     */
    private static void assertOneHistory(TestCluster cluster) {
        Map<Long, Long> leaderByEpoch = new HashMap<>();
        for (TestCluster.Member member : cluster.members.values()) {
            if (!cluster.down.contains(member.id) && member.peer.role() == Role.LEADING && member.peer.isServing()) {
                Long other = leaderByEpoch.put(member.peer.epochs().currentEpoch(), member.id);
                assertNull(other, "two leaders serve in epoch " + member.peer.epochs().currentEpoch());
            }
        }
        List<List<Long>> histories = new ArrayList<>();
        for (TestCluster.Member member : cluster.members.values()) {
            histories.add(List.copyOf(member.log.applied.keySet()));
        }
        for (List<Long> a : histories) {
            for (List<Long> b : histories) {
                List<Long> shorter = a.size() <= b.size() ? a : b;
                List<Long> longer = a.size() <= b.size() ? b : a;
                assertEquals(shorter, longer.subList(0, shorter.size()), "applied histories diverge");
            }
        }
    }

    @Test
    void growingFromThreeToFiveCommitsWithBothQuorumsAndTakesEffectEverywhere() {
        TestCluster cluster = serving(THREE, Set.of(), 1, 2, 3, 4, 5);
        TestCluster.Member leader = cluster.leader();
        Set<Long> five = Set.of(1L, 2L, 3L, 4L, 5L);
        assertEquals(ReconfigCheck.OK, leader.peer.checkReconfig(configurationFor(five, Set.of())));

        long version = proposeConfiguration(cluster, five, Set.of());
        cluster.runUntil(c -> committedEverywhere(c, version), 2_000);

        for (TestCluster.Member member : cluster.members.values()) {
            assertEquals(five, member.peer.configurations().committed().quorum().voters());
            assertEquals(version, member.committedConfiguration.version(), "recorded for the restart");
        }
        // five voters: two of them down, the other three still commit
        List<Long> followers = five.stream().filter(id -> id != leader.id).sorted().toList();
        cluster.crash(followers.get(0));
        cluster.crash(followers.get(1));
        long zxid = cluster.propose("with three of five");
        cluster.runUntil(c -> leader.peer.committedZxid() >= zxid, 1_000);
        assertOneHistory(cluster);
    }

    @Test
    void aChangeWaitsForAQuorumOfTheNewConfigurationToo() {
        TestCluster cluster = serving(THREE, Set.of(), 1, 2, 3, 4, 5);
        TestCluster.Member leader = cluster.leader();
        Set<Long> next = Set.of(leader.id, 4L, 5L);
        long version = proposeConfiguration(cluster, next, Set.of());
        cluster.crash(4);
        cluster.crash(5);

        // the old quorum acknowledges, the new one cannot: nothing commits, and the leader, which
        // hears no quorum of the new configuration, steps down; no one can be elected without 4 or 5
        runFor(cluster, 2_000, () -> {
            for (TestCluster.Member member : cluster.members.values()) {
                assertTrue(member.peer.committedZxid() < version, "committed without the new quorum");
            }
        });
        assertNull(cluster.leader(), "a leader serves on the old quorum alone");
        long acknowledged = cluster.members.values().stream()
                .filter(m -> m.id != leader.id && m.log.entries.containsKey(version)).count();
        assertEquals(2, acknowledged, "both other old members logged it");

        cluster.restart(4);
        cluster.runUntil(c -> committedEverywhere(c, version), 5_000);
        assertEquals(next, cluster.member(4).peer.configurations().committed().quorum().voters());
        assertOneHistory(cluster);
    }

    @Test
    void onceCommittedTheWholeOldConfigurationCannotElectButTheNewQuorumCan() {
        TestCluster cluster = serving(THREE, Set.of(), 1, 2, 3, 4, 5);
        TestCluster.Member leader = cluster.leader();
        Set<Long> next = Set.of(leader.id, 4L, 5L);
        long version = proposeConfiguration(cluster, next, Set.of());
        cluster.runUntil(c -> committedEverywhere(c, version), 2_000);

        // every old member, the leader included, on one side: a quorum of the old configuration,
        // but not of the new; 4 and 5 on the other: a quorum of the new one
        for (long old : THREE) {
            cluster.cut(old, 4);
            cluster.cut(old, 5);
        }
        long committedAtCut = leader.peer.committedZxid();
        long stale = leader.peer.nextZxid();
        leader.peer.propose(stale, "on the old side".getBytes());
        leader.drive();
        runFor(cluster, 3_000, () -> {
            assertOneHistory(cluster);
            for (long old : THREE) {
                assertEquals(committedAtCut, cluster.member(old).peer.committedZxid(), "the old side committed");
            }
        });
        TestCluster.Member fresh = cluster.leader();
        assertNotNull(fresh, "4 and 5 are a quorum of " + next);
        assertTrue(fresh.id == 4 || fresh.id == 5);
        for (long old : THREE) {
            TestCluster.Member member = cluster.member(old);
            assertFalse(member.peer.role() == Role.LEADING && member.peer.isServing(), "old member " + old + " leads");
        }
        long zxid = cluster.propose("on the new side");
        cluster.runUntil(c -> fresh.peer.committedZxid() >= zxid, 1_000);

        cluster.healCuts();
        cluster.runUntil(c -> cluster.member(leader.id).log.applied.containsKey(zxid), 5_000);
        assertOneHistory(cluster);
    }

    @Test
    void aRemovedLeaderHandsOverAndItsSupportNoLongerCounts() {
        TestCluster cluster = serving(THREE, Set.of(), 1, 2, 3);
        TestCluster.Member old = cluster.leader();
        Set<Long> rest = THREE.stream().filter(id -> id != old.id).collect(java.util.stream.Collectors.toSet());
        long version = proposeConfiguration(cluster, rest, Set.of());

        cluster.runUntil(c -> c.leader() != null && c.leader() != old && committedEverywhere(c, version), 5_000);
        TestCluster.Member fresh = cluster.leader();
        assertTrue(rest.contains(fresh.id));
        assertNotEquals(Role.LEADING, old.peer.role());
        long zxid = cluster.propose("under the new leader");
        cluster.runUntil(c -> old.log.applied.containsKey(zxid) && fresh.log.applied.containsKey(zxid), 2_000);

        // the removed member still follows, but with the other voter down nothing commits
        long other = rest.stream().filter(id -> id != fresh.id).findFirst().orElseThrow();
        cluster.crash(other);
        long stuck = cluster.propose("needs both remaining voters");
        runFor(cluster, 300, () -> assertTrue(fresh.peer.committedZxid() < stuck, "the removed member's ack counted"));
        assertOneHistory(cluster);
    }

    @Test
    void aVoterBecomesAnObserverAndAnObserverAVoter() {
        TestCluster cluster = serving(THREE, Set.of(4L), 1, 2, 3, 4);
        TestCluster.Member leader = cluster.leader();
        long demoted = THREE.stream().filter(id -> id != leader.id).min(Long::compare).orElseThrow();
        Set<Long> voters = new java.util.TreeSet<>(THREE);
        voters.remove(demoted);
        voters.add(4L);
        long version = proposeConfiguration(cluster, voters, Set.of(demoted));

        cluster.runUntil(c -> committedEverywhere(c, version) && c.allServing()
                && c.member(demoted).peer.role() == Role.OBSERVING
                && c.member(4).peer.role() == Role.FOLLOWING, 5_000);
        // 4's acknowledgement now counts: with the other old voter and the demoted member down, leader + 4 commit
        long third = THREE.stream().filter(id -> id != leader.id && id != demoted).findFirst().orElseThrow();
        cluster.crash(third);
        cluster.crash(demoted);
        TestCluster.Member now = cluster.leader();
        long zxid = cluster.propose("leader and the new voter");
        cluster.runUntil(c -> now.peer.committedZxid() >= zxid, 1_000);
        assertOneHistory(cluster);
    }

    @Test
    void aMemberDownDuringTheChangeLearnsItWhenSynchronized() {
        for (boolean bySnapshot : new boolean[] {false, true}) {
            TestCluster cluster = serving(THREE, Set.of(), 1, 2, 3, 4, 5);
            TestCluster.Member leader = cluster.leader();
            long away = THREE.stream().filter(id -> id != leader.id).min(Long::compare).orElseThrow();
            cluster.crash(away);
            Set<Long> five = Set.of(1L, 2L, 3L, 4L, 5L);
            long version = proposeConfiguration(cluster, five, Set.of());
            cluster.runUntil(c -> committedEverywhere(c, version), 2_000);
            if (bySnapshot) {
                for (int i = 0; i < 5; i++) {
                    cluster.propose("w" + i);
                }
                cluster.deliverAll();
                leader.log.purgeUpTo(leader.peer.committedZxid());
            }

            cluster.restart(away);
            assertEquals(0, cluster.member(away).peer.configurations().committed().version(),
                    "restarted with what it recorded");
            cluster.runUntil(c -> committedEverywhere(c, version) && c.allServing(), 3_000);
            assertEquals(five, cluster.member(away).committedConfiguration.quorum().voters());
            boolean snapped = cluster.deliveredOfType(ZabMessage.Snap.class).stream().anyMatch(m -> m.to() == away);
            assertEquals(bySnapshot, snapped);
            assertOneHistory(cluster);
        }
    }

    /**
     * A joiner cut off from the ensemble until the change naming it is logged (the members refuse
     * its links until then, so its votes went nowhere) follows the leader as soon as the change
     * commits, told so by the leader, not at its next vote, an election timeout or more away.
     */
    @Test
    void aJoinerHeardFromNobodyFollowsTheLeaderAsSoonAsTheChangeCommits() {
        TestCluster cluster = serving(THREE, Set.of(), 1, 2, 3);
        for (long id : THREE) {
            cluster.cut(4, id);
        }
        cluster.add(4, new MemoryLog(), EpochState.INITIAL);
        // the joiner votes into the void for a while, so its next vote is anywhere in its resend interval
        runFor(cluster, 1_000, () -> { });
        assertEquals(Role.LOOKING, cluster.member(4).peer.role());

        Set<Long> four = Set.of(1L, 2L, 3L, 4L);
        long version = proposeConfiguration(cluster, four, Set.of());
        cluster.healCuts(); // the members link to the joiner once the change is logged
        cluster.runUntil(c -> c.leader().peer.configurations().committed().version() == version, 1_000);
        long committedAtMs = cluster.nowMs;

        cluster.runUntil(c -> c.member(4).peer.isServing(), 2_000);
        assertTrue(cluster.nowMs - committedAtMs <= 30, "the joiner served " + (cluster.nowMs - committedAtMs)
                + " ms after the change committed");
        assertEquals(cluster.leader().id, cluster.member(4).peer.leaderId());
        assertOneHistory(cluster);
    }

    @Test
    void aChangeLoggedButNotCommittedCountsBothQuorumsAfterARestart() {
        TestCluster cluster = serving(THREE, Set.of(), 1, 2, 3, 4, 5);
        TestCluster.Member leader = cluster.leader();
        Set<Long> next = Set.of(leader.id, 4L, 5L);
        long version = proposeConfiguration(cluster, next, Set.of());
        cluster.crash(4);
        cluster.crash(5);
        cluster.deliverAll();
        for (long id : THREE) {
            cluster.crash(id);
        }
        for (long id : THREE) {
            cluster.restart(id);
            assertEquals(List.of(version), cluster.member(id).peer.configurations().logged().stream()
                    .map(Configuration::version).toList(), "member " + id + " finds the change in its log");
        }

        runFor(cluster, 3_000, () -> assertNull(cluster.leader(), "elected by the old quorum alone"));

        cluster.restart(4);
        cluster.runUntil(c -> committedEverywhere(c, version) && c.leader() != null, 5_000);
        assertTrue(next.contains(cluster.leader().id));
        assertOneHistory(cluster);
    }

    @Test
    void theLeaderRefusesChangesItCouldNotCommitAndOneAtATime() {
        TestCluster cluster = serving(THREE, Set.of(), 1, 2, 3, 4);
        TestCluster.Member leader = cluster.leader();
        TestCluster.Member follower = cluster.members.values().stream().filter(m -> m != leader).findFirst()
                .orElseThrow();
        Configuration withFive = configurationFor(Set.of(1L, 2L, 3L, 4L, 5L), Set.of());
        Configuration withFour = configurationFor(Set.of(leader.id, 4L), Set.of());

        assertEquals(ReconfigCheck.NOT_LEADER, follower.peer.checkReconfig(withFour));
        assertEquals(ReconfigCheck.NO_QUORUM, leader.peer.checkReconfig(configurationFor(Set.of(leader.id, 5L, 6L),
                Set.of())), "5 and 6 are not connected");
        assertEquals(ReconfigCheck.OK, leader.peer.checkReconfig(withFive), "four of five are synced");
        long version = proposeConfiguration(cluster, withFour.quorum().voters(), Set.of());
        assertEquals(ReconfigCheck.IN_PROGRESS, leader.peer.checkReconfig(withFive));
        long next = leader.peer.nextZxid();
        assertThrows(IllegalArgumentException.class,
                () -> leader.peer.propose(next, TestConfigs.payload(Set.of(1L, 2L, 3L), Set.of())));

        cluster.runUntil(c -> committedEverywhere(c, version), 2_000);
        assertEquals(ReconfigCheck.OK, cluster.leader().peer.checkReconfig(withFive));
    }

    @Test
    void aVoterOfWeightZeroNeverCountsAndNeverLeads() {
        TestCluster cluster = new TestCluster(THREE, Set.of());
        cluster.initialConfiguration = new Configuration(0,
                new HierarchicalQuorum(Map.of(1L, THREE), Map.of(3L, 0L), Set.of()), new byte[0]);
        for (long id : THREE) {
            cluster.add(id, new MemoryLog(), EpochState.INITIAL);
        }
        cluster.runUntil(TestCluster::allServing, 5_000);
        TestCluster.Member leader = cluster.leader();
        assertNotEquals(3L, leader.id, "weight 0 may not lead");

        cluster.crash(3);
        long zxid = cluster.propose("without the weightless member");
        cluster.runUntil(c -> leader.peer.committedZxid() >= zxid, 1_000);

        cluster.restart(3);
        cluster.runUntil(TestCluster::allServing, 5_000);
        long other = THREE.stream().filter(id -> id != leader.id && id != 3L).findFirst().orElseThrow();
        cluster.crash(other);
        long stuck = cluster.propose("the leader and the weightless member");
        runFor(cluster, 400, () -> assertTrue(leader.peer.committedZxid() < stuck, "weight 0 counted"));
        assertOneHistory(cluster);
    }

    @Test
    void aConfigurationTravelsInNewLeaderIntact() {
        Configurations configurations = new Configurations(
                new Configuration(7, new HierarchicalQuorum(Map.of(1L, Set.of(1L, 2L), 2L, Set.of(3L)),
                        Map.of(2L, 0L), Set.of(9L)), "a".getBytes()),
                List.of(new Configuration(Zxid.of(2, 5), new MajorityQuorum(Set.of(1L, 4L), Set.of()), "b".getBytes())));
        ZabMessage.NewLeader message = new ZabMessage.NewLeader(2, Zxid.of(2, 5), configurations);
        ZabMessage.NewLeader decoded = (ZabMessage.NewLeader) ZabCodec.decode(ZabCodec.encode(message));
        assertEquals(configurations, decoded.configurations());
        assertNotNull(decoded.configurations().latest());
    }
}
