package dev.warden.server.quorum;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Configurations;
import dev.warden.consensus.Entry;
import dev.warden.consensus.EpochState;
import dev.warden.consensus.RoleChange;
import dev.warden.consensus.SnapshotData;
import dev.warden.server.config.QuorumMember;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * What the {@link MemberLoop} asks of the rest of the member while it performs a Ready batch.
 * Every method runs on the loop's thread, in the order the batch prescribes, except
 * {@link #persist}, which the server's log thread calls; the storage methods return only once
 * their work is durable.
 */
public interface DriverEffects {
    /** The core's role changed; {@code nextZxid} is the first zxid to propose when leading. */
    void roleChanged(RoleChange change, long nextZxid);

    void saveEpochs(EpochState epochs) throws IOException;

    /** Drops logged entries after {@code zxid} and rebuilds the state machine to exactly it. */
    void truncateAfter(long zxid) throws IOException;

    /** Replaces the state with the snapshot and restarts the log after its zxid, durably. */
    void installSnapshot(SnapshotData snapshot) throws IOException;

    /**
     * Makes the resync marker durable, then empties the state and sets the whole log and every
     * snapshot aside: the log starts again at zero.
     */
    void abandonHistory() throws IOException;

    /** The member holds a leader's history again and serves: its resync marker goes. */
    void resynced() throws IOException;

    /**
     * Appends the entries and forces them to disk with one fsync. Runs on the driver's log thread
     * while the driver goes on, so it may touch nothing but the log itself.
     */
    void persist(List<Entry> entries) throws IOException;

    /** On the driver thread, after {@link #persist} of these entries returned: they are now part of the log's view. */
    default void logged(List<Entry> entries) {
    }

    /** Entries now committed, in order, for the apply thread. */
    void committed(CommittedEntries entries);

    /**
     * Member traffic for the rest of the member (a refusal from the leader's prep, session
     * activity, digests): everything but forwarded requests and session moves, which the loop's
     * prep takes.
     */
    void memberMessage(long from, AppMessage message);

    void syncsDone(List<Long> tokens);

    /** The core would not take a sync (not serving): its client cannot be answered. */
    void syncRefused(long token);

    /**
     * {@code configuration} is the newest the member knows committed: record it (a server writes
     * its dynamic configuration file) so a restart comes back with it. A committed fact: losing it
     * in a crash is safe, the member then counts with the older one and what its log holds.
     */
    void configurationCommitted(Configuration configuration) throws IOException;

    /**
     * What the member knows of its configurations changed (a change logged, committed, cut by a
     * TRUNC, or learnt at synchronization): the member keeps links to every member of all of them.
     */
    void configurationsChanged(Configurations configurations);

    /**
     * The leader dials {@code joiners} (members a waiting {@code reconfig} adds, in none of its
     * configurations) besides the members of its configurations; an empty map stops that.
     */
    default void reachJoiners(Map<Long, QuorumMember> joiners) {
    }

    /** The driver stopped because it could not persist; the member must stop serving. */
    void failed(String reason, Throwable cause);
}
