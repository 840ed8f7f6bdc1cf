package dev.warden.consensus;

/** What a leader knows about one follower or observer in the current session with it. */
final class LeaderLink {
    /** SNAPSHOT_WANTED: it needs a SNAP and waits for the snapshot the source is taking. */
    enum Stage { INFO_RECEIVED, EPOCH_SENT, EPOCH_ACKED, SNAPSHOT_WANTED, SYNC_SENT, SYNCED }

    final long id;
    final boolean observer;
    final long createdMs;
    Stage stage = Stage.INFO_RECEIVED;
    long acceptedEpoch;
    long lastZxid;
    /** It holds no history it can vouch for: its promise and history count toward no discovery quorum. */
    boolean resyncing;
    long offeredEpoch = -1;
    long lastHeardMs;
    /** Cumulative: every proposal up to here is on this follower's disk (counted for commits). */
    long ackedZxid;
    /** The leader's last zxid its sync brought this member to (NEWLEADER's), for progress figures. */
    long syncedToZxid;
    long pingRoundAcked;

    LeaderLink(long id, boolean observer, long nowMs) {
        this.id = id;
        this.observer = observer;
        this.createdMs = nowMs;
        this.lastHeardMs = nowMs;
    }

    boolean atLeast(Stage other) {
        return stage.compareTo(other) >= 0;
    }

    /** Receives broadcast traffic: its sync stream has been sent, so later messages follow it in order. */
    boolean forwarding() {
        return atLeast(Stage.SYNC_SENT);
    }
}
