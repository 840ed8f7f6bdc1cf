package dev.warden.storage;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Count, total, shortest and longest of a stream of durations, kept in nanoseconds and read in
 * milliseconds, as ZooKeeper's admin words report them. Recorded from any thread; read by
 * monitoring without waiting for writers. Used for the log's fsyncs and the server's requests.
 */
public final class DurationSummary {
    private final LongAdder count = new LongAdder();
    private final LongAdder totalNanos = new LongAdder();
    private final LongAccumulator minNanos = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);

    public void record(long nanos) {
        count.increment();
        totalNanos.add(nanos);
        minNanos.accumulate(nanos);
        maxNanos.accumulate(nanos);
    }

    public long count() {
        return count.sum();
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

    /** Exact to the nanosecond, so an average of sub-millisecond durations is not 0. */
    public double avgMs() {
        long n = count.sum();
        return n == 0 ? 0 : totalNanos.sum() / 1e6 / n;
    }

    public void reset() {
        count.reset();
        totalNanos.reset();
        minNanos.reset();
        maxNanos.reset();
    }
}
