package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who diverged is decided by a quorum of voters, the leader's own digest counting as one. */
class DigestVoteTest {
    private static final Set<Long> VOTERS = Set.of(1L, 2L, 3L);

    @Test
    void aFollowerThatDiffersFromTheLeaderAndAnotherFollowerDiverged() {
        DigestVote vote = new DigestVote(1, VOTERS);
        assertTrue(vote.published(10, 0xAA).isEmpty());
        assertEquals(List.of(new DigestVote.Diverged(3, 10, 0xBB, 0xAA)),
                after(vote.report(3, 10, 0xBB), vote.report(2, 10, 0xAA)));
    }

    @Test
    void aLeaderOutvotedByAQuorumOfTheOthersDivergedItself() {
        DigestVote vote = new DigestVote(1, VOTERS);
        vote.published(10, 0xAA);
        assertTrue(vote.report(2, 10, 0xCC).isEmpty());
        assertEquals(List.of(new DigestVote.Diverged(1, 10, 0xAA, 0xCC)), vote.report(3, 10, 0xCC));
    }

    @Test
    void withoutAQuorumAgreeingNobodyIsTold() {
        DigestVote vote = new DigestVote(1, VOTERS);
        vote.published(10, 0xAA);
        assertTrue(vote.report(2, 10, 0xBB).isEmpty());
        assertTrue(vote.report(3, 10, 0xCC).isEmpty());
    }

    @Test
    void anObserverIsJudgedButDoesNotVote() {
        DigestVote vote = new DigestVote(1, VOTERS);
        vote.published(10, 0xAA);
        assertTrue(vote.report(4, 10, 0xBB).isEmpty(), "an observer's report counts toward no quorum");
        assertEquals(List.of(new DigestVote.Diverged(4, 10, 0xBB, 0xAA)), vote.report(2, 10, 0xAA));
        // later reports are judged against what the quorum agreed
        assertTrue(vote.report(3, 10, 0xAA).isEmpty());
    }

    @Test
    void reportsForUnpublishedOrForgottenZxidsAreIgnored() {
        DigestVote vote = new DigestVote(1, VOTERS);
        assertTrue(vote.report(2, 10, 0xBB).isEmpty());
        for (long zxid = 1; zxid <= DigestVote.OPEN_ROUNDS + 1; zxid++) {
            vote.published(zxid, zxid);
        }
        assertTrue(vote.report(2, 1, 0xBB).isEmpty(), "round 1 is forgotten");
        assertTrue(vote.report(2, 2, 2).isEmpty(), "the leader and member 2 agree");
        assertEquals(1, vote.report(3, 2, 0xBB).size());
        vote.clear();
        assertTrue(vote.report(3, 3, 0xBB).isEmpty());
    }

    private static List<DigestVote.Diverged> after(List<DigestVote.Diverged> first, List<DigestVote.Diverged> then) {
        assertTrue(first.isEmpty(), "undecided after one report: " + first);
        return then;
    }

    @Test
    void ownDigestsAreFoundForRecentZxidsAndAwaitedForLaterOnes() {
        DigestCheck check = new DigestCheck();
        for (long zxid = 1; zxid <= 100; zxid++) {
            assertTrue(check.applied(zxid, zxid * 7).isEmpty());
        }
        assertEquals(new DigestCheck.Sample(50, 350, 350), check.leaderDigest(50, 350, 100));
        assertEquals(new DigestCheck.Sample(60, 420, 1), check.leaderDigest(60, 1, 100));
        assertNull(check.leaderDigest(105, 9, 100), "not applied yet: it waits");
        assertTrue(check.applied(101, 707).isEmpty());
        assertEquals(List.of(new DigestCheck.Sample(105, 735, 9)), check.applied(105, 735));
        // older than the ring holds: uncomparable
        for (long zxid = 106; zxid < 106 + DigestCheck.RECENT_ZXIDS; zxid++) {
            check.applied(zxid, zxid);
        }
        assertNull(check.leaderDigest(50, 350, 106 + DigestCheck.RECENT_ZXIDS));
        assertEquals(1, check.uncomparableCount());
        check.reset();
        assertNull(check.leaderDigest(200, 200, 300));
    }
}
