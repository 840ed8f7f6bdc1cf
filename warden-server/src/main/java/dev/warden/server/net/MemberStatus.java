package dev.warden.server.net;

import java.util.Optional;

/**
 * What the admin words (srvr, stat, mntr) report about this server's place in the ensemble. A
 * standalone server uses {@link #STANDALONE}; an ensemble member supplies its own, read from
 * any thread, so implementations return values they keep up to date (e.g. volatile fields).
 */
public interface MemberStatus {
    /** ZooKeeper's wording for the modes: "standalone", "leader", "follower" or "observer". */
    String mode();

    /** False while the member cannot answer clients (looking for a leader, syncing). */
    default boolean serving() {
        return true;
    }

    /** ZooKeeper's mode (srvr's Mode, mntr's zk_server_state) of a member serving read-only sessions. */
    String READ_ONLY_MODE = "read-only";

    /** True while the member, cut off from its quorum, serves read-only sessions (readonlymode.enabled). */
    default boolean readOnly() {
        return false;
    }

    /**
     * The mode while the member serves ({@link #READ_ONLY_MODE} while it serves read-only
     * sessions only), empty while it cannot; one reading, so the two never
     * come from either side of a role change.
     */
    default Optional<String> servingMode() {
        return serving() ? Optional.of(mode()) : Optional.empty();
    }

    /**
     * How many times this member's tree digest differed from another member's at the same zxid
     * (the run-time tree check, digest.enabled); always 0 for a standalone server.
     */
    default long digestMismatches() {
        return 0;
    }

    /**
     * The newest configuration this member knows committed (its members, groups and version):
     * the one it started with until a {@code reconfig} commits another; empty for a standalone server.
     */
    default Optional<dev.warden.server.config.EnsembleConfig> configuration() {
        return Optional.empty();
    }

    /** The id of the leader this member follows or is, when it knows one; empty for a standalone server. */
    default java.util.OptionalLong leaderId() {
        return java.util.OptionalLong.empty();
    }

    /**
     * ZooKeeper's name for the member's Zab phase: ELECTION while looking, SYNCHRONIZATION while
     * it has a leader but cannot serve yet, BROADCAST while serving; empty for a standalone server.
     */
    default Optional<String> zabState() {
        return Optional.empty();
    }

    /**
     * The leader this member leads or follows, its epoch and when the election that made it
     * ended here; empty while looking and for a standalone server.
     */
    default Optional<Reign> reign() {
        return Optional.empty();
    }

    /**
     * @param leaderId    the leader's server id
     * @param epoch       the leader's epoch, the member's current epoch
     * @param electedAtMs wall-clock ms when this member took its role under that leader and epoch
     */
    record Reign(long leaderId, long epoch, long electedAtMs) {
    }

    /** Figures only a leader has; empty on every other member. */
    /**
     * The depths of a member's internal queues by name (driver_inbox, log_batches_in_flight,
     * apply_queue), for metrics; empty for a standalone server.
     */
    default java.util.Map<String, Long> queueDepths() {
        return java.util.Map.of();
    }

    /** Transactions this member proposed and committed as leader, and received and committed as learner. */
    record TransactionCounts(long proposals, long commits, long learnerProposals, long learnerCommits) {
        public static final TransactionCounts NONE = new TransactionCounts(0, 0, 0, 0);
    }

    /** ZooKeeper's proposal, commit and learner counts; none for a standalone server. */
    default TransactionCounts transactionCounts() {
        return TransactionCounts.NONE;
    }

    /** Times this member started looking for a leader (ZooKeeper's looking_count); 0 standalone. */
    default long lookingCount() {
        return 0;
    }

    /** Members this one, leading, brought up to date with a diff (ZooKeeper's diff_count); 0 standalone. */
    default long diffSyncs() {
        return 0;
    }

    /** Members this one, leading, brought up to date with a snapshot (ZooKeeper's snap_count); 0 standalone. */
    default long snapSyncs() {
        return 0;
    }

    /** A serving leader's followers (by id) and how many transactions each is behind; empty elsewhere. */
    default java.util.Map<Long, Long> followerLag() {
        return java.util.Map.of();
    }

    default Optional<LeaderFigures> leaderFigures() {
        return Optional.empty();
    }

    /**
     * A serving observer: the member it syncs from and takes the committed stream from, its
     * leader or (observerMasterPort set) a follower (ZooKeeper's observer_master_id); empty on
     * other members.
     */
    default java.util.OptionalLong observerMasterId() {
        return java.util.OptionalLong.empty();
    }

    /**
     * ZooKeeper's setLearnerMaster: on an observer with observerMasterPort set, leave the member
     * it syncs from and sync from voter {@code memberId} once it has found the leader again. False,
     * and nothing done, if {@code memberId} cannot be its master (not a voter of the committed
     * configuration, itself, or this member is no such observer).
     */
    default boolean requestLearnerMaster(long memberId) {
        return false;
    }

    /**
     * A serving follower with observerMasterPort set: the observers it serves as their observer
     * master (ZooKeeper reports them as a follower's synced_observers); empty elsewhere.
     */
    default java.util.OptionalInt observersServed() {
        return java.util.OptionalInt.empty();
    }

    /**
     * The learners connected to this member as their leader, or as their observer master: for
     * each, by id, the address ({@code host:port}) its connection to this member's peer port
     * comes from (ZooKeeper's learner connections). Empty elsewhere; as of at most a tenth of a
     * second ago.
     */
    default java.util.Map<Long, String> learnerConnections() {
        return java.util.Map.of();
    }

    /**
     * Closes the connections with learner {@code memberId}, as ZooKeeper's terminateConnection
     * does: the learner looks for its leader again and rejoins. False, and nothing done, if it
     * is not one of {@link #learnerConnections()}.
     */
    default boolean terminateLearnerConnection(long memberId) {
        return false;
    }

    /**
     * A leader's view of its ensemble.
     *
     * @param learners         followers and observers connected to it
     * @param syncedFollowers  voting followers in broadcast
     * @param syncedObservers  observers in broadcast
     * @param pendingSyncs     learners still being synchronized
     * @param quorumSize       acknowledgements a proposal needs, the leader's own included
     */
    record LeaderFigures(int learners, int syncedFollowers, int syncedObservers, int pendingSyncs, int quorumSize) {
    }

    MemberStatus STANDALONE = () -> "standalone";
}
