package dev.warden.storage;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * How long the log's group-commit fsyncs take: count, total, shortest, longest, and how many
 * took at least the warning threshold. Written by the flushing thread, read by monitoring
 * (mntr) from any thread without waiting for a flush in progress.
 */
public final class FsyncStats {
    private final LongAdder count = new LongAdder();
    private final LongAdder totalNanos = new LongAdder();
    private final LongAccumulator minNanos = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);
    private final LongAdder slowCount = new LongAdder();

    void record(long nanos, boolean slow) {
        count.increment();
        totalNanos.add(nanos);
        minNanos.accumulate(nanos);
        maxNanos.accumulate(nanos);
        if (slow) {
            slowCount.increment();
        }
    }

    public long count() {
        return count.sum();
    }

    /** Fsyncs that took at least the warning threshold (ZooKeeper's fsync_threshold_exceed_count). */
    public long slowCount() {
        return slowCount.sum();
    }

    /** Starts {@link #slowCount()} again from 0 (the four-letter word srst). */
    public void resetSlowCount() {
        slowCount.reset();
    }

    public long totalMs() {
        return totalNanos.sum() / 1_000_000;
    }

    public long minMs() {
        long min = minNanos.get();
        return min == Long.MAX_VALUE ? 0 : min / 1_000_000;
    }

    public long maxMs() {
        return maxNanos.get() / 1_000_000;
    }

    public double avgMs() {
        long n = count.sum();
        return n == 0 ? 0 : totalNanos.sum() / 1e6 / n;
    }
}
