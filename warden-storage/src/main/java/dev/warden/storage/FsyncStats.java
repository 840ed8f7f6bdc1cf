package dev.warden.storage;

import java.util.concurrent.atomic.LongAdder;

/**
 * How long the log's group-commit fsyncs take: count, total, shortest, longest, and how many
 * took at least the warning threshold. Written by the flushing thread, read by monitoring
 * (mntr) from any thread without waiting for a flush in progress.
 */
public final class FsyncStats {
    private final DurationSummary times = new DurationSummary();
    private final LongAdder slowCount = new LongAdder();

    void record(long nanos, boolean slow) {
        times.record(nanos);
        if (slow) {
            slowCount.increment();
        }
    }

    /** How long the fsyncs took: ZooKeeper's fsynctime summary. */
    public DurationSummary times() {
        return times;
    }

    /** Fsyncs that took at least the warning threshold (ZooKeeper's fsync_threshold_exceed_count). */
    public long slowCount() {
        return slowCount.sum();
    }

    /** Starts {@link #slowCount()} again from 0 (the four-letter word srst). */
    public void resetSlowCount() {
        slowCount.reset();
    }
}
