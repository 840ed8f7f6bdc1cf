package dev.warden.server.quorum;

import dev.warden.consensus.Entry;
import dev.warden.state.pipeline.PendingNode;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.txn.Txn;
import java.util.List;

/**
 * Entries the core committed, in zxid order, for the apply thread, with what the leader's prep
 * kept for each entry it proposed itself: the transaction it built, which the leader applies as
 * it is instead of decoding its own encoding again, and the records prep holds pending until the
 * tree has that transaction. Entries prepared elsewhere (a follower's, or an earlier leader's)
 * are decoded from their payload.
 */
public final class CommittedEntries {
    /** What the leader's prep kept for one transaction it proposed. */
    record Prepared(Txn txn, List<PendingNode> records) {
    }

    private final List<Entry> entries;
    /** Aligned with {@link #entries}; null when none of them was prepared here. */
    private final Prepared[] prepared;
    private final PendingState pending;

    CommittedEntries(List<Entry> entries, Prepared[] prepared, PendingState pending) {
        this.entries = entries;
        this.prepared = prepared;
        this.pending = pending;
    }

    /** Entries none of which this member prepared. */
    public static CommittedEntries decoded(List<Entry> entries) {
        return new CommittedEntries(entries, null, null);
    }

    public List<Entry> entries() {
        return entries;
    }

    public int size() {
        return entries.size();
    }

    /** The transaction of entry {@code i}: prep's own for one this member prepared, else decoded. */
    public Txn txn(int i) {
        Prepared mine = prepared == null ? null : prepared[i];
        return mine != null ? mine.txn() : Txn.decode(entries.get(i).payload());
    }

    /** Apply thread, once entry {@code i} is in the tree: prep may forget the records it kept for it. */
    public void applied(int i) {
        Prepared mine = prepared == null ? null : prepared[i];
        if (mine != null && !mine.records().isEmpty()) {
            pending.applied(mine.records());
        }
    }
}
