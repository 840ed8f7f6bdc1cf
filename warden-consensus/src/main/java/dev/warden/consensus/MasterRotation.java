package dev.warden.consensus;

import java.util.ArrayList;
import java.util.List;

/**
 * Which member an observer follows when observer masters are on (ZooKeeper's observerMasterPort):
 * the voters other than the leader, in an order shuffled with the peer's seeded random, one after
 * the other at each new attempt, so an observer whose master failed (or was no master: not
 * serving, or without observer masters) moves on to the next. After every voter was tried once,
 * one attempt goes to the leader itself, so an observer is never left without a source while
 * the leader serves (a one-voter ensemble, or every follower down). The attempt after that one
 * starts the rotation over, which is when ZooKeeper's reconnect delay applies ({@link #startedOver}).
 */
final class MasterRotation {
    private final PeerState state;
    private List<Long> order = List.of();
    private int next;
    /** The last attempt went to the leader: every member was tried, the next attempt starts over. */
    private boolean leaderTried;
    private boolean startedOver;

    MasterRotation(PeerState state) {
        this.state = state;
    }

    /** The member to sync from and follow, now that {@code leaderId} leads. */
    long next(long leaderId) {
        List<Long> candidates = candidates(leaderId);
        startedOver = leaderTried;
        leaderTried = false;
        if (!sameMembers(candidates)) {
            // other members: a new rotation, not one started over (ZooKeeper's list is rebuilt then too)
            order = shuffled(candidates);
            next = 0;
            startedOver = false;
        }
        if (next >= order.size()) {
            next = 0;
            order = shuffled(candidates);
            leaderTried = true;
            return leaderId;
        }
        return order.get(next++);
    }

    /** True if the last {@link #next} started the rotation over: every member had been tried since the one before. */
    boolean startedOver() {
        return startedOver;
    }

    /** Voters of the committed configuration, but the leader and this member, sorted (for a seed to replay). */
    private List<Long> candidates(long leaderId) {
        List<Long> voters = new ArrayList<>();
        for (long id : state.membership.othersThan(state.config.myId())) {
            if (id != leaderId && state.membership.isVoter(id)) {
                voters.add(id);
            }
        }
        return voters;
    }

    private boolean sameMembers(List<Long> candidates) {
        return order.size() == candidates.size() && order.containsAll(candidates);
    }

    private List<Long> shuffled(List<Long> candidates) {
        List<Long> shuffled = new ArrayList<>(candidates);
        for (int i = shuffled.size() - 1; i > 0; i--) {
            int j = state.random.nextInt(i + 1);
            shuffled.set(j, shuffled.set(i, shuffled.get(j)));
        }
        return shuffled;
    }
}
