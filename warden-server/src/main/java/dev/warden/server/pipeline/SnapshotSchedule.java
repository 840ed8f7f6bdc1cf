package dev.warden.server.pipeline;

import java.util.random.RandomGenerator;

/**
 * When the next snapshot is due: after a count of transactions drawn anew each time from
 * [snapCount/2, snapCount], as ZooKeeper does, so the members of an ensemble do not all write
 * their snapshots at the same moment.
 */
public final class SnapshotSchedule {
    private final long snapCount;
    private final RandomGenerator random;
    private long sinceLast;
    private long dueAfter;

    public SnapshotSchedule(int snapCount, RandomGenerator random) {
        this.snapCount = Math.max(2, snapCount);
        this.random = random;
        this.dueAfter = draw();
    }

    /** Counts {@code transactions} more; true when a snapshot is due (the count starts again). */
    public boolean counted(long transactions) {
        sinceLast += transactions;
        if (sinceLast < dueAfter) {
            return false;
        }
        sinceLast = 0;
        dueAfter = draw();
        return true;
    }

    private long draw() {
        return snapCount / 2 + random.nextLong(snapCount / 2 + 1);
    }
}
