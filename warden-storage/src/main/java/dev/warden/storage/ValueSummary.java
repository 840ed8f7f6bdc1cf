package dev.warden.storage;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Count, total, smallest and largest of a stream of whole numbers (records per log flush, watches
 * fired per event), as ZooKeeper's summaries report them (avg, min, max, cnt, sum). Recorded from
 * any thread; read by monitoring without waiting for writers.
 */
public final class ValueSummary {
    private final LongAdder count = new LongAdder();
    private final LongAdder total = new LongAdder();
    private final LongAccumulator min = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator max = new LongAccumulator(Math::max, Long.MIN_VALUE);

    public void record(long value) {
        count.increment();
        total.add(value);
        min.accumulate(value);
        max.accumulate(value);
    }

    public long count() {
        return count.sum();
    }

    public long total() {
        return total.sum();
    }

    /** 0 while nothing was recorded, as ZooKeeper reports an empty summary. */
    public long min() {
        long m = min.get();
        return m == Long.MAX_VALUE ? 0 : m;
    }

    public long max() {
        long m = max.get();
        return m == Long.MIN_VALUE ? 0 : m;
    }

    public double avg() {
        long n = count.sum();
        return n == 0 ? 0 : (double) total.sum() / n;
    }

    public void reset() {
        count.reset();
        total.reset();
        min.reset();
        max.reset();
    }
}
