package dev.warden.sim;

import dev.warden.consensus.SnapshotData;
import java.util.HashMap;
import java.util.Map;

/**
 * Remembers, for each snapshot a member took, the applied history behind it. The snapshot bytes
 * are the production format (sessions and tree) and hold no history; the checkers need it to
 * compare a restored member's prefix with everyone else's. Keyed by the snapshot itself: a
 * {@link SnapshotData} record compares its byte array by identity, and the bytes travel through
 * the core, the network and the disk as the same array.
 */
final class SnapshotLedger {
    private final Map<SnapshotData, AppliedHistory> histories = new HashMap<>();

    void remember(SnapshotData snapshot, AppliedHistory history) {
        histories.put(snapshot, history.copy());
    }

    /** The history behind the snapshot; an error for a snapshot the simulation never took. */
    AppliedHistory historyOf(SnapshotData snapshot) {
        AppliedHistory history = histories.get(snapshot);
        if (history == null) {
            throw new IllegalStateException("no history recorded for the snapshot at " + Long.toHexString(snapshot.zxid()));
        }
        return history.copy();
    }
}
