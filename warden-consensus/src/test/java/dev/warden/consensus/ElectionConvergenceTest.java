package dev.warden.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One member's election, driven by hand: it must not settle on a candidate the others are
 * passing over, and if it did, the candidate's answer must send it looking again at once rather
 * than after initLimit.
 */
class ElectionConvergenceTest {
    private static final long ELECTION_TIMEOUT_MS = 200;
    private static final long FINALIZE_WAIT_MS = ELECTION_TIMEOUT_MS / 20;
    private static final long TICK_MS = 100;

    private long nowMs = 1_000;
    private ZabPeer peer;
    private final List<Outbound> sent = new ArrayList<>();

    @BeforeEach
    void startMemberOne() {
        ZabConfig config = new ZabConfig(1, Set.of(1L, 2L, 3L), Set.of(), TICK_MS, 10, 5, ELECTION_TIMEOUT_MS, 3,
                Long.MAX_VALUE);
        MemoryLog log = new MemoryLog();
        peer = new ZabPeer(config, EpochState.INITIAL, log, log::snapshot, new SplittableRandom(1), nowMs);
        drain();
    }

    private void drain() {
        while (peer.hasReady()) {
            Ready ready = peer.ready();
            sent.addAll(ready.sendImmediately());
            sent.addAll(ready.sendAfterPersist());
            peer.advance(ready);
        }
    }

    private void vote(long from, long candidate, long round, Role senderRole) {
        peer.receive(from, new ZabMessage.Vote(candidate, 0, 0, round, senderRole));
        drain();
    }

    private void advance(long ms) {
        nowMs += ms;
        peer.tick(nowMs);
        drain();
    }

    private boolean sentFollowerInfoTo(long to) {
        return sent.stream().anyMatch(o -> o.to() == to && o.message() instanceof ZabMessage.FollowerInfo);
    }

    @Test
    void aQuorumThatIsNotEveryoneWaitsForABetterVoteBeforeDeciding() {
        vote(2, 2, 1, Role.LOOKING);
        assertEquals(Role.LOOKING, peer.role(), "members 1 and 2 agree on 2, but 3 has not been heard");
        vote(3, 3, 1, Role.LOOKING);
        vote(2, 3, 1, Role.LOOKING);
        assertEquals(Role.FOLLOWING, peer.role(), "all three back 3: nothing better can come, decide at once");
        assertEquals(3, peer.leaderId());
        assertTrue(sentFollowerInfoTo(3));
        assertTrue(!sentFollowerInfoTo(2), "member 2 was never taken for the leader");
    }

    @Test
    void aQuorumDecidesOnceTheWaitIsOverWithoutABetterVote() {
        vote(2, 2, 1, Role.LOOKING);
        advance(FINALIZE_WAIT_MS - 1);
        assertEquals(Role.LOOKING, peer.role());
        advance(1);
        assertEquals(Role.FOLLOWING, peer.role(), "member 3 may be down: a quorum is enough after the wait");
        assertEquals(2, peer.leaderId());
    }

    @Test
    void aFollowerWhoseCandidateSettledUnderAnotherLeaderLooksAgainAtOnce() {
        vote(2, 2, 1, Role.LOOKING);
        advance(FINALIZE_WAIT_MS);
        assertEquals(Role.FOLLOWING, peer.role());
        assertEquals(2, peer.leaderId());
        // member 2 meanwhile followed 3; it answers our FollowerInfo with its settled vote
        vote(2, 3, 1, Role.FOLLOWING);
        assertEquals(Role.LOOKING, peer.role(), "member 2 will never lead us: look again, do not wait out initLimit");
    }

    @Test
    void aFollowerWhoseCandidateVotesForAnotherInTheSameRoundLooksAgain() {
        vote(2, 2, 1, Role.LOOKING);
        advance(FINALIZE_WAIT_MS);
        assertEquals(2, peer.leaderId());
        vote(2, 3, 1, Role.LOOKING);
        assertEquals(Role.LOOKING, peer.role());
    }

    @Test
    void aStaleVoteFromAnEarlierRoundDoesNotUnsettleTheFollower() {
        vote(2, 2, 3, Role.LOOKING);
        advance(FINALIZE_WAIT_MS);
        assertEquals(Role.FOLLOWING, peer.role());
        vote(2, 3, 2, Role.FOLLOWING);
        assertEquals(Role.FOLLOWING, peer.role(), "a vote from round 2 predates our decision in round 3");
        assertEquals(2, peer.leaderId());
    }

    @Test
    void aMemberThatIsNotLeadingAnswersFollowerInfoWithWhomItBacks() {
        vote(2, 3, 1, Role.LOOKING);
        vote(3, 3, 1, Role.LOOKING);
        assertEquals(3, peer.leaderId());
        sent.clear();
        peer.receive(2, new ZabMessage.FollowerInfo(0, 0, false));
        drain();
        assertEquals(1, sent.size(), "sent " + sent);
        ZabMessage.Vote answer = (ZabMessage.Vote) sent.get(0).message();
        assertEquals(2, sent.get(0).to());
        assertEquals(3, answer.leaderId());
        assertEquals(Role.FOLLOWING, answer.senderRole());
    }

    @Test
    void followerInfoThatCameBeforeWeDecidedToLeadIsTakenUpWhenWeDo() {
        peer.receive(2, new ZabMessage.FollowerInfo(0, 0, false));
        drain();
        assertEquals(Role.LOOKING, peer.role());
        assertTrue(sent.stream().anyMatch(o -> o.to() == 2 && o.message() instanceof ZabMessage.Vote),
                "told member 2 whom we back meanwhile");
        sent.clear();
        vote(2, 1, 1, Role.LOOKING);
        vote(3, 1, 1, Role.LOOKING);
        assertEquals(Role.LEADING, peer.role());
        assertTrue(sent.stream().anyMatch(o -> o.to() == 2 && o.message() instanceof ZabMessage.LeaderInfo),
                "member 2 sent FollowerInfo once, before we led; it must not wait out initLimit: " + sent);
    }

    @Test
    void aLookingMemberAnswersAWorseVoteWithItsOwnAtOnce() {
        long logged = Zxid.of(1, 1);
        MemoryLog log = MemoryLog.of(logged);
        peer = new ZabPeer(new ZabConfig(1, Set.of(1L, 2L, 3L), Set.of(), TICK_MS, 10, 5, ELECTION_TIMEOUT_MS, 3,
                Long.MAX_VALUE), new EpochState(1, 1), log, log::snapshot, new SplittableRandom(1), nowMs);
        drain();
        sent.clear();
        // member 2 has less history; it missed our vote while it still followed the old leader
        vote(2, 2, 1, Role.LOOKING);
        assertEquals(1, sent.size(), "sent " + sent);
        assertEquals(2, sent.get(0).to());
        assertEquals(1, ((ZabMessage.Vote) sent.get(0).message()).leaderId());
        sent.clear();
        vote(2, 1, 1, Role.LOOKING);
        assertTrue(sent.stream().noneMatch(o -> o.to() == 2 && o.message() instanceof ZabMessage.Vote),
                "a vote equal to ours needs no answer: " + sent);
    }
}
