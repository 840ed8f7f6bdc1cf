package dev.warden.consensus;

import java.util.List;

/**
 * Every message members exchange. Messages between two members travel over one ordered,
 * reliable-while-connected channel; a channel may break (the driver then calls
 * {@code peerDisconnected}) and messages may be lost with it. The simulator also loses,
 * duplicates, delays and reorders them, so the core must tolerate that.
 */
public sealed interface ZabMessage {
    // --- election (fast leader election style) ---
    /**
     * My current vote; {@code round} is the sender's election round, {@code senderRole} its role,
     * {@code configVersion} the version of the newest configuration it knows committed (a member
     * that hears a leader with a newer one follows it to learn it).
     */
    record Vote(long leaderId, long leaderZxid, long leaderEpoch, long round, Role senderRole, long configVersion)
            implements ZabMessage {
        public Vote(long leaderId, long leaderZxid, long leaderEpoch, long round, Role senderRole) {
            this(leaderId, leaderZxid, leaderEpoch, round, senderRole, -1);
        }
    }

    // --- discovery ---
    /**
     * A member asks to follow. {@code resyncing}: it set aside a history it could not vouch for
     * and holds none, so its epoch promise and its (empty) history must not count toward the
     * leader's discovery quorum; it counts again once synchronized.
     */
    record FollowerInfo(long acceptedEpoch, long lastZxid, boolean observer, boolean resyncing) implements ZabMessage {
        public FollowerInfo(long acceptedEpoch, long lastZxid, boolean observer) {
            this(acceptedEpoch, lastZxid, observer, false);
        }
    }
    record LeaderInfo(long newEpoch) implements ZabMessage { }
    record AckEpoch(long currentEpoch, long lastZxid) implements ZabMessage { }

    // --- synchronization ---
    /** Entries follow (in Propose messages) up to {@code leaderLastZxid}; nothing to undo. */
    record Diff(long leaderLastZxid) implements ZabMessage { }
    /** Drop every logged entry after {@code toZxid}, then entries follow as for Diff. */
    record Trunc(long toZxid) implements ZabMessage { }
    /** Replace all state with this snapshot, then entries after its zxid follow. */
    record Snap(long zxid, byte[] snapshot) implements ZabMessage { }
    /**
     * The sync stream is complete up to {@code lastZxid}; {@code configurations} is the leader's
     * committed configuration and the configuration entries up to there it does not know
     * committed: the follower counts with them from now on.
     */
    record NewLeader(long epoch, long lastZxid, Configurations configurations) implements ZabMessage {
        public NewLeader {
            if (configurations == null) {
                throw new IllegalArgumentException("NewLeader without configurations");
            }
        }
    }
    record AckNewLeader(long epoch) implements ZabMessage { }
    /** The follower may serve clients: everything it was sent during sync is committed. */
    record UpToDate(long committedZxid) implements ZabMessage { }

    // --- broadcast ---
    record Propose(List<Entry> entries) implements ZabMessage { }
    /** Cumulative: every proposal up to and including {@code zxid} is on the sender's disk. */
    record Ack(long zxid) implements ZabMessage { }
    /** Cumulative: everything up to and including {@code zxid} is committed. */
    record Commit(long zxid) implements ZabMessage { }
    /**
     * Leader to followers, cumulative: every proposal up to and including {@code zxid} is on the
     * leader's disk. Sent only where two voters are a quorum (two or three voters): a follower
     * with the same proposals on its own disk then knows them committed without waiting for the
     * COMMIT, which needs one more round trip through the leader.
     */
    record LeaderDurable(long zxid) implements ZabMessage { }
    /** To observers: committed entries. */
    record Inform(List<Entry> entries) implements ZabMessage { }
    record Ping(long round, long committedZxid) implements ZabMessage { }
    record PingAck(long round) implements ZabMessage { }
    /** Counter exhaustion: move to {@code newEpoch} without an election. */
    record EpochBump(long newEpoch) implements ZabMessage { }
    record EpochBumpAck(long newEpoch) implements ZabMessage { }

    // --- linearizable sync ---
    record SyncRequest(long token) implements ZabMessage { }
    /** The sender was still leader (confirmed by a quorum) with {@code zxid} committed. */
    record SyncReply(long token, long zxid) implements ZabMessage { }

    // --- the application's own traffic (forwarded requests, session activity, replies) ---
    record AppData(byte[] payload) implements ZabMessage { }
    /**
     * Application data of an observer that follows an observer master (a follower) instead of the
     * leader: from the master up to the leader, {@code memberId} is the observer that sent it;
     * from the leader down to the master, the observer it is for.
     */
    record Relay(long memberId, byte[] payload) implements ZabMessage { }
}
