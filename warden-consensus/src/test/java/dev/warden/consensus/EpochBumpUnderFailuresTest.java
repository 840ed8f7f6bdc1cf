package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Epochs that last only three proposals, so epoch bumps happen all the time, interleaved with
 * crashes, restarts and elections: committed histories must still agree and no epoch may have two
 * established leaders.
 */
class EpochBumpUnderFailuresTest {

    private static void assertOneLeaderPerEpoch(TestCluster cluster) {
        Map<Long, Long> leaderOfEpoch = new HashMap<>();
        for (TestCluster.Member member : cluster.members.values()) {
            for (Ready ready : member.readies) {
                RoleChange change = ready.roleChange();
                if (change != null && change.role() == Role.LEADING && change.serving()) {
                    Long previous = leaderOfEpoch.putIfAbsent(change.epoch(), member.id);
                    assertTrue(previous == null || previous == member.id,
                            "epoch " + change.epoch() + " led by " + previous + " and " + member.id);
                }
            }
        }
    }

    /** What a member has applied and knows to be committed (a restart also replays uncommitted entries). */
    private static List<Entry> committedPrefix(TestCluster.Member member) {
        return new ArrayList<>(member.log.applied.headMap(member.peer.committedZxid(), true).values());
    }

    private static void assertAppliedPrefixesAgree(TestCluster cluster) {
        List<Entry> longest = List.of();
        for (TestCluster.Member member : cluster.members.values()) {
            if (!cluster.down.contains(member.id) && committedPrefix(member).size() > longest.size()) {
                longest = committedPrefix(member);
            }
        }
        for (TestCluster.Member member : cluster.members.values()) {
            if (cluster.down.contains(member.id)) {
                continue;
            }
            List<Entry> applied = committedPrefix(member);
            for (int i = 0; i < applied.size(); i++) {
                assertEquals(longest.get(i).zxid(), applied.get(i).zxid(), "member " + member.id + " position " + i
                        + ": " + applied.stream().map(e -> Zxid.hex(e.zxid())).toList() + " vs "
                        + longest.stream().map(e -> Zxid.hex(e.zxid())).toList());
                assertEquals(new String(longest.get(i).payload()), new String(applied.get(i).payload()));
            }
        }
    }

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 200);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void bumpsInterleavedWithCrashesKeepHistoriesConsistent(long seed) {
        TestCluster cluster = new TestCluster(Set.of(1L, 2L, 3L), Set.of());
        cluster.counterLimit = 3;
        for (long id = 1; id <= 3; id++) {
            cluster.add(id, new MemoryLog(), EpochState.INITIAL);
        }
        SplittableRandom random = new SplittableRandom(seed);
        int proposed = 0;
        for (int step = 0; step < 3_000; step++) {
            int roll = random.nextInt(100);
            TestCluster.Member leader = cluster.leader();
            if (roll < 40) {
                if (leader != null) {
                    cluster.propose("p" + proposed++);
                }
            } else if (roll < 41) {
                cluster.crash(1 + random.nextInt(3));
            } else if (roll < 44) {
                long id = 1 + random.nextInt(3);
                if (cluster.down.contains(id)) {
                    cluster.restart(id);
                }
            } else if (roll < 70) {
                cluster.deliverOne();
            } else {
                cluster.advanceTime(10);
            }
            if (step % 100 == 0) {
                assertAppliedPrefixesAgree(cluster);
            }
        }
        for (long id = 1; id <= 3; id++) {
            if (cluster.down.contains(id)) {
                cluster.restart(id);
            }
        }
        cluster.runUntil(c -> c.allServing() && c.leader() != null, 30_000);
        long last = cluster.propose("final");
        cluster.runUntil(c -> c.members.values().stream().allMatch(m -> m.log.applied.containsKey(last)), 30_000);
        assertAppliedPrefixesAgree(cluster);
        assertOneLeaderPerEpoch(cluster);
        assertTrue(cluster.leader().peer.epochs().currentEpoch() > 3 * 3, "epochs moved on through bumps: "
                + proposed + " proposals, now " + cluster.leader().peer.epochs());
    }
}
