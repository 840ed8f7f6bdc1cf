package dev.warden.consensus;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Fast-leader-election style voting. Votes are ordered by (epoch, last zxid, id); a member adopts
 * any better vote it hears in its round and decides once a quorum of voters agrees with its own
 * vote. Members already following or leading answer with their leader, so a member that restarts
 * into a working ensemble joins it instead of starting a contest.
 */
final class Election {
    /** What this member decided; the peer then starts discovery in that role. */
    record Decision(Role role, long leaderId) { }

    private record Candidate(long id, long zxid, long epoch) implements Comparable<Candidate> {
        @Override
        public int compareTo(Candidate other) {
            int byEpoch = Long.compare(epoch, other.epoch);
            if (byEpoch != 0) {
                return byEpoch;
            }
            int byZxid = Long.compare(zxid, other.zxid);
            return byZxid != 0 ? byZxid : Long.compare(id, other.id);
        }
    }

    private final PeerState state;
    private long round;
    private Candidate myVote;
    private final Map<Long, ZabMessage.Vote> lookingVotes = new HashMap<>();
    private final Map<Long, ZabMessage.Vote> settledVotes = new HashMap<>();
    private long resendAtMs;
    /**
     * When a quorum backs our vote but not every voter does, we decide only at this time (-1: no
     * decision pending), in case a better vote is still on its way: deciding at once lets a
     * member follow a candidate that the others have already passed over, and it then waits out
     * initLimit for a leader that never leads.
     */
    private long decideAtMs = -1;
    /** The election round the leader we settled on was in when we joined it; -1 before any decision. */
    private long leaderRound = -1;

    Election(PeerState state) {
        this.state = state;
    }

    long round() {
        return round;
    }

    /** The leader's round when we settled on it: a LOOKING vote from it in a later round means it gave up. */
    long leaderRound() {
        return leaderRound;
    }

    /** Starts a new round voting for this member (observers vote for nobody but still ask). */
    void start() {
        round++;
        decideAtMs = -1;
        lookingVotes.clear();
        settledVotes.clear();
        myVote = ownCandidacy();
        broadcast();
    }

    /**
     * Whom this member votes for when a round starts: itself if it may lead. Observers, members
     * outside the committed configuration and voters of weight 0 start with no vote and take up
     * the best candidate they hear of: their support counts only with members whose
     * configurations make them voters (a member joining under a configuration change that is
     * logged but not committed, say, which a leader needs alongside the old quorum). A member that
     * must resynchronize is no candidate either (its history is empty) and likewise takes up the
     * best candidate it hears of: its support helps make up a quorum, but a leader counts its
     * promise only beside others that hold every committed entry between them
     * ({@link Membership#vouchesForHistory}).
     */
    private Candidate ownCandidacy() {
        return !state.resyncRequired && state.membership.mayLead(state.config.myId()) ? self() : null;
    }

    private Candidate self() {
        return new Candidate(state.config.myId(), state.lastLoggedZxid, state.epochs.currentEpoch());
    }

    private ZabMessage.Vote myVoteMessage() {
        long configVersion = state.membership.committed().version();
        if (myVote == null) {
            return new ZabMessage.Vote(-1, 0, -1, round, Role.LOOKING, configVersion);
        }
        return new ZabMessage.Vote(myVote.id, myVote.zxid, myVote.epoch, round, Role.LOOKING, configVersion);
    }

    private void broadcast() {
        ZabMessage.Vote vote = myVoteMessage();
        for (long id : state.others()) {
            state.out.send(id, vote);
        }
        scheduleResend();
    }

    private void scheduleResend() {
        long jitterMs = state.random.nextLong(state.config.electionTimeoutMs() / 2 + 1);
        resendAtMs = state.nowMs + state.config.electionTimeoutMs() + jitterMs;
    }

    /**
     * How long a quorum must back our vote, without a better one arriving, before we decide: a
     * twentieth of the election timeout (200 ms with ZooKeeper's default tick of 2 s).
     */
    long finalizeWaitMs() {
        return Math.max(1, state.config.electionTimeoutMs() / 20);
    }

    /** While looking: re-send votes now and then, since they may have been lost; decide once the wait is over. */
    Decision tick() {
        if (state.nowMs >= resendAtMs) {
            broadcast();
        }
        if (decideAtMs >= 0) {
            return state.nowMs >= decideAtMs ? decide() : null;
        }
        // a configuration of one voter needs nobody's vote: it decides on its own at the next tick
        return myVote != null && state.membership.allVoters().size() == 1 ? decide() : null;
    }

    /** A settled member answers a looking member with its current leader. */
    void answerWhileSettled(long from, ZabMessage.Vote vote, long leaderEpoch) {
        if (vote.senderRole() == Role.LOOKING) {
            state.out.send(from, settledVoteMessage(leaderEpoch));
        }
    }

    /** Tells {@code to} whom this settled member follows or leads, unasked. */
    void announceTo(long to, long leaderEpoch) {
        state.out.send(to, settledVoteMessage(leaderEpoch));
    }

    /** What a following or leading member says of itself: its leader, in its role. */
    private ZabMessage.Vote settledVoteMessage(long leaderEpoch) {
        return new ZabMessage.Vote(state.leaderId, state.lastLoggedZxid, leaderEpoch, round, state.role,
                state.membership.committed().version());
    }

    /**
     * A member took us for its leader (it sent FollowerInfo) while we do not lead: tell it whom
     * we back, so it looks again instead of waiting out initLimit.
     */
    void answerNotLeading(long from, long leaderEpoch) {
        state.out.send(from, state.role == Role.LOOKING ? myVoteMessage() : settledVoteMessage(leaderEpoch));
    }

    /** Handles a vote while looking; returns a decision or null. */
    Decision onVote(long from, ZabMessage.Vote vote) {
        if (newerConfiguration(vote) && state.learnCommittedConfiguration(vote.configVersion())) {
            // The change we logged committed while we missed its COMMIT. Left unlearned, a
            // member the change made the only voter waits for the vote of one it removed, which
            // votes for no one (it may not lead under the change, nor may we under our older
            // configuration), and neither ever leads. We may be a candidate now.
            if (myVote == null) {
                myVote = ownCandidacy();
            }
            decideAtMs = -1;
            broadcast();
        }
        if (vote.senderRole() != Role.LOOKING) {
            lookingVotes.remove(from);
            settledVotes.put(from, vote);
            Decision joined = joinSettled();
            return joined != null ? joined : decide();
        }
        settledVotes.remove(from);
        if (!votesSomewhere(from)) {
            // a looking observer only needs to hear our vote; one that knows a newer configuration
            // may name a candidate ours does not know of, which we take up (its vote counts for nothing here)
            if (newerConfiguration(vote) && vote.round() >= round && adopt(vote)) {
                decideAtMs = -1;
                broadcast();
                Decision decided = decide();
                return decided == null || decided.role() == Role.LEADING ? decided
                        : new Decision(roleUnderNewerConfiguration(), decided.leaderId());
            }
            // Not to one in a later round than ours: it ignores our older vote and answers it
            // with its own, which we would answer again, for as long as both look (an observer
            // that tried several observer masters has started more rounds than the voters).
            if (vote.round() <= round) {
                state.out.send(from, myVoteMessage());
            }
            return null;
        }
        if (vote.round() < round) {
            state.out.send(from, myVoteMessage());
            return null;
        }
        if (vote.round() > round) {
            round = vote.round();
            lookingVotes.clear();
            myVote = ownCandidacy();
            decideAtMs = -1;
            adopt(vote);
            broadcast();
        } else if (adopt(vote)) {
            decideAtMs = -1;
            broadcast();
        } else if (myVote != null && vote.leaderId() != myVote.id) {
            // Theirs is worse: tell them ours now. They may have missed it (it came while they
            // still followed the old leader, which drops looking votes), and would otherwise
            // wait for our next resend, a whole election timeout away.
            state.out.send(from, myVoteMessage());
        }
        lookingVotes.put(from, vote);
        return decide();
    }

    /**
     * True if the vote comes from a member that knows a newer committed configuration than ours:
     * ours is stale (we missed changes while down or cut off), and its candidate may be one ours
     * does not know may lead. Who counts toward a quorum is still decided by our configurations
     * and, once someone leads, by the leader's; we learn the newer one when it synchronizes us.
     */
    private boolean newerConfiguration(ZabMessage.Vote vote) {
        return vote.configVersion() > state.membership.committed().version();
    }

    /**
     * The role to join a leader in when it knows a newer configuration than ours: a follower,
     * whatever ours says. Ours may be stale in making us an observer while the leader's makes us
     * a voter it needs; joined as an observer we would wait for it to be established and it for
     * us, for good. As a follower we are synchronized during its establishment and learn our role
     * at NEWLEADER (joining again as an observer if that is what we are); what our promises and
     * acknowledgements count for is decided by the leader's configurations, not by our word.
     */
    private static Role roleUnderNewerConfiguration() {
        return Role.FOLLOWING;
    }

    /** The role our committed configuration gives us as a learner. */
    private Role roleUnderOurConfiguration() {
        return state.membership.isObserver(state.config.myId()) ? Role.OBSERVING : Role.FOLLOWING;
    }

    private boolean adopt(ZabMessage.Vote vote) {
        if (vote.leaderId() < 0 || !state.membership.mayLead(vote.leaderId()) && !newerConfiguration(vote)) {
            return false;
        }
        if (state.resyncRequired && vote.leaderId() == state.config.myId()) {
            // votes for us from before we gave our history up name a history we no longer hold
            return false;
        }
        Candidate theirs = new Candidate(vote.leaderId(), vote.leaderZxid(), vote.leaderEpoch());
        if (myVote == null || theirs.compareTo(myVote) > 0) {
            myVote = theirs;
            return true;
        }
        return false;
    }

    /** True if {@code id} votes in any configuration we know: its vote may count toward one of their quorums. */
    private boolean votesSomewhere(long id) {
        return state.membership.allVoters().contains(id);
    }

    private Decision decide() {
        if (myVote == null) {
            return null;
        }
        Set<Long> agreeing = new HashSet<>();
        agreeing.add(state.config.myId());
        for (Map.Entry<Long, ZabMessage.Vote> entry : lookingVotes.entrySet()) {
            ZabMessage.Vote v = entry.getValue();
            if (v.round() == round && v.leaderId() == myVote.id && v.leaderZxid() == myVote.zxid
                    && v.leaderEpoch() == myVote.epoch) {
                agreeing.add(entry.getKey());
            }
        }
        for (Map.Entry<Long, ZabMessage.Vote> entry : settledVotes.entrySet()) {
            ZabMessage.Vote v = entry.getValue();
            // a member that already decided for our candidate in this round backs it too
            if (!lookingVotes.containsKey(entry.getKey()) && v.round() == round && v.leaderId() == myVote.id) {
                agreeing.add(entry.getKey());
            }
        }
        if (!state.isQuorum(agreeing)) {
            decideAtMs = -1;
            return null;
        }
        if (!agreeing.containsAll(state.membership.allVoters())) {
            // a quorum but not everyone: a better vote may still come; decide when the wait is over
            if (decideAtMs < 0) {
                decideAtMs = state.nowMs + finalizeWaitMs();
            }
            if (state.nowMs < decideAtMs) {
                return null;
            }
        }
        decideAtMs = -1;
        leaderRound = round;
        return myVote.id == state.config.myId() ? new Decision(Role.LEADING, myVote.id)
                : new Decision(roleUnderOurConfiguration(), myVote.id);
    }

    /**
     * Joins a leader that is already established: it says so itself and a quorum follows it. A
     * member that votes for nobody (an observer, a member outside the configuration, a voter of
     * weight 0) joins on the leader's word alone, and any member joins the leader of a member that
     * knows a newer committed configuration than ours: it learns it when the leader synchronizes it.
     */
    private Decision joinSettled() {
        long me = state.config.myId();
        for (ZabMessage.Vote v : settledVotes.values()) {
            long leader = v.leaderId();
            if (leader != me && leader >= 0 && newerConfiguration(v)) {
                // A member settled under a configuration newer than ours: ours is stale, and its
                // leader may be one we do not know of, nor hear from. We follow it to learn the
                // configuration at NEWLEADER; if it does not lead after all, it answers with its
                // vote and we look again.
                leaderRound = v.round();
                return new Decision(roleUnderNewerConfiguration(), leader);
            }
            ZabMessage.Vote leaderOwn = settledVotes.get(leader);
            if (leader == me || leaderOwn == null || leaderOwn.senderRole() != Role.LEADING
                    || leaderOwn.leaderId() != leader) {
                continue;
            }
            boolean newerConfiguration = leaderOwn.configVersion() > state.membership.committed().version();
            if (!state.membership.isVoter(me) || newerConfiguration) {
                leaderRound = leaderOwn.round();
                Role role = newerConfiguration ? roleUnderNewerConfiguration() : roleUnderOurConfiguration();
                return new Decision(role, leader);
            }
            Set<Long> backing = new HashSet<>();
            for (Map.Entry<Long, ZabMessage.Vote> entry : settledVotes.entrySet()) {
                if (entry.getValue().leaderId() == leader
                        && entry.getValue().leaderEpoch() == leaderOwn.leaderEpoch()) {
                    backing.add(entry.getKey());
                }
            }
            backing.add(me);
            if (state.isQuorum(backing)) {
                round = Math.max(round, v.round());
                leaderRound = leaderOwn.round();
                return new Decision(roleUnderOurConfiguration(), leader);
            }
        }
        return null;
    }
}
