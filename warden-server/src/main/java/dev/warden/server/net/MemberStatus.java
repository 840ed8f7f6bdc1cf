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

    /**
     * The mode while the member serves, empty while it cannot; one reading, so the two never
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

    /** Figures only a leader has; empty on every other member. */
    /** A serving leader's followers (by id) and how many transactions each is behind; empty elsewhere. */
    default java.util.Map<Long, Long> followerLag() {
        return java.util.Map.of();
    }

    default Optional<LeaderFigures> leaderFigures() {
        return Optional.empty();
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
