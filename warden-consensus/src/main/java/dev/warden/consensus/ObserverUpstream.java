package dev.warden.consensus;

/**
 * Whom an observer syncs from once the election named its leader, and how long it waits before it
 * asks. Without observer masters it asks the leader; with them, the next member of its
 * {@link MasterRotation}. ZooKeeper's observer.reconnectDelayMs spreads the observers of a fleet
 * that lost their leader over time, so they do not all come back at once: an observer waits a
 * time drawn from its seeded random, from 0 up to (not including) the delay, before each attempt
 * at the leader, or, with observer masters, only before it starts the rotation over, every member
 * having been tried (a master that failed is left for the next one at once). A zero delay draws
 * nothing, so a seed replays as without it.
 */
final class ObserverUpstream {
    /** The member to sync from, and how long to wait before asking it. */
    record Choice(long upstreamId, long waitMs) { }

    private final PeerState state;
    private final MasterRotation masters;
    /** The member an operator asked this observer to sync from next (ZooKeeper's setLearnerMaster), or -1. */
    private long requestedId = -1;

    ObserverUpstream(PeerState state) {
        this.state = state;
        this.masters = new MasterRotation(state);
    }

    /** Where an observer goes now that {@code leaderId} leads. */
    Choice choose(long leaderId) {
        if (!state.config.observerMasters()) {
            return new Choice(leaderId, reconnectWaitMs());
        }
        long requested = requestedId;
        requestedId = -1;
        if (requested >= 0 && mayBeMaster(requested)) {
            // asked for by name: no wait, and the rotation goes on where it was, as in ZooKeeper
            return new Choice(requested, 0);
        }
        long master = masters.next(leaderId);
        return new Choice(master, masters.startedOver() ? reconnectWaitMs() : 0);
    }

    /**
     * Remembers {@code masterId} as the member to sync from at the next attempt; false, and
     * nothing remembered, if it cannot be one: observer masters are off, this member is not an
     * observer, or {@code masterId} is not a voter of the committed configuration (the leader is one).
     */
    boolean request(long masterId) {
        if (!mayBeMaster(masterId)) {
            return false;
        }
        requestedId = masterId;
        return true;
    }

    boolean mayBeMaster(long id) {
        long me = state.config.myId();
        return state.config.observerMasters() && state.membership.isObserver(me) && id != me
                && state.membership.isVoter(id);
    }

    private long reconnectWaitMs() {
        long delayMs = state.config.observerReconnectDelayMs();
        return delayMs > 0 ? state.random.nextLong(delayMs) : 0;
    }
}
