package dev.warden.consensus;

import java.util.List;

/**
 * A batch of work the core asks of its driver, in the style of etcd raft's Ready. The driver
 * must do it in this order, then call {@code advance(ready)}:
 * <ol>
 *   <li>send {@code sendImmediately} (messages that promise nothing, e.g. a leader's proposals);</li>
 *   <li>if {@code abandonHistory}: make the member's resync marker durable, then empty the state
 *       machine and set the whole log and every snapshot aside, so the log starts again at zero
 *       (the member takes a copy of a leader's history and vouches for no history until then);</li>
 *   <li>persist {@code epochs} if not null (fsync);</li>
 *   <li>if {@code truncateAfterZxid} &gt;= 0: drop logged entries after it and rebuild the state
 *       machine to exactly that zxid;</li>
 *   <li>if {@code snapshot} is not null: replace the state machine with it and restart the log
 *       after its zxid, durably;</li>
 *   <li>append {@code entriesToPersist} to the log and fsync (one fsync for the batch);</li>
 *   <li>send {@code sendAfterPersist} (acknowledgements: they promise what was just persisted);</li>
 *   <li>apply {@code committed} to the state machine in order;</li>
 *   <li>deliver {@code received} to the application, then report {@code syncsDone};</li>
 *   <li>if {@code resynced}: the member holds a leader's whole history again and serves; remove
 *       its resync marker;</li>
 *   <li>if {@code configurationCommitted} is not null: it is the newest configuration this member
 *       knows committed; record it (a server writes its dynamic configuration file) so the member
 *       restarts with it. It is a committed fact, so recording it late (or losing it in a crash)
 *       is safe: the member then counts with the older one and the configuration entries its log
 *       holds, which is stricter.</li>
 * </ol>
 * {@code roleChange}, if not null, is reported before any of this.
 */
public record Ready(RoleChange roleChange, List<Outbound> sendImmediately, EpochState epochs, long truncateAfterZxid,
                    SnapshotData snapshot, List<Entry> entriesToPersist, List<Outbound> sendAfterPersist,
                    List<Entry> committed, List<Received> received, List<Long> syncsDone, boolean abandonHistory,
                    boolean resynced, Configuration configurationCommitted) {
    /** A batch without history changes (most batches). */
    public Ready(RoleChange roleChange, List<Outbound> sendImmediately, EpochState epochs, long truncateAfterZxid,
                 SnapshotData snapshot, List<Entry> entriesToPersist, List<Outbound> sendAfterPersist,
                 List<Entry> committed, List<Received> received, List<Long> syncsDone) {
        this(roleChange, sendImmediately, epochs, truncateAfterZxid, snapshot, entriesToPersist, sendAfterPersist,
                committed, received, syncsDone, false, false, null);
    }

    /**
     * True if the batch changes the role, the epochs or where the log starts (truncation,
     * snapshot, an abandoned history). A driver that keeps log writes in flight while it goes on
     * must let every one of them finish before it performs such a batch.
     */
    public boolean resetsState() {
        return roleChange != null || epochs != null || truncateAfterZxid >= 0 || snapshot != null || abandonHistory;
    }

    public boolean isEmpty() {
        return roleChange == null && sendImmediately.isEmpty() && epochs == null && truncateAfterZxid < 0
                && snapshot == null && entriesToPersist.isEmpty() && sendAfterPersist.isEmpty() && committed.isEmpty()
                && received.isEmpty() && syncsDone.isEmpty() && !abandonHistory && !resynced
                && configurationCommitted == null;
    }
}
