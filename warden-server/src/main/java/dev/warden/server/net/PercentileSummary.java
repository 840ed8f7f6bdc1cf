package dev.warden.server.net;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * A summary of millisecond values with percentiles, as ZooKeeper reports its request latencies
 * (avg, min, max, cnt, sum, p50, p95, p99, p999). Values below {@value #EXACT_BELOW} ms are
 * counted exactly; larger ones in 16 buckets per power of two, so a percentile above that is
 * within 1/16 (6%) of the true value. ZooKeeper samples instead; both read the same way.
 * Recorded from any thread without locks.
 */
final class PercentileSummary {
    static final int EXACT_BELOW = 1024;
    private static final int SUB_BUCKETS = 16;
    private static final int EXACT_BITS = 10; // log2(EXACT_BELOW)

    private final LongAdder count = new LongAdder();
    private final LongAdder totalMs = new LongAdder();
    private final LongAccumulator minMs = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator maxMs = new LongAccumulator(Math::max, 0);
    private final AtomicLongArray buckets = new AtomicLongArray(EXACT_BELOW + (64 - EXACT_BITS) * SUB_BUCKETS);

    void record(long ms) {
        long value = Math.max(0, ms);
        count.increment();
        totalMs.add(value);
        minMs.accumulate(value);
        maxMs.accumulate(value);
        buckets.incrementAndGet(bucketOf(value));
    }

    long count() {
        return count.sum();
    }

    long sumMs() {
        return totalMs.sum();
    }

    long minMs() {
        long m = minMs.get();
        return m == Long.MAX_VALUE ? 0 : m;
    }

    long maxMs() {
        return maxMs.get();
    }

    double avgMs() {
        long n = count.sum();
        return n == 0 ? 0 : (double) totalMs.sum() / n;
    }

    /** The value at or below which {@code fraction} of the recorded values lie; 0 when empty. */
    long percentile(double fraction) {
        long total = 0;
        for (int i = 0; i < buckets.length(); i++) {
            total += buckets.get(i);
        }
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(fraction * total);
        long seen = 0;
        for (int i = 0; i < buckets.length(); i++) {
            seen += buckets.get(i);
            if (seen >= rank) {
                return Math.min(lowerBoundOf(i), maxMs());
            }
        }
        return maxMs();
    }

    void reset() {
        count.reset();
        totalMs.reset();
        minMs.reset();
        maxMs.reset();
        for (int i = 0; i < buckets.length(); i++) {
            buckets.set(i, 0);
        }
    }

    static int bucketOf(long value) {
        if (value < EXACT_BELOW) {
            return (int) value;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(value); // >= EXACT_BITS
        int sub = (int) ((value >>> (exponent - 4)) & (SUB_BUCKETS - 1));
        return EXACT_BELOW + (exponent - EXACT_BITS) * SUB_BUCKETS + sub;
    }

    static long lowerBoundOf(int bucket) {
        if (bucket < EXACT_BELOW) {
            return bucket;
        }
        int exponent = (bucket - EXACT_BELOW) / SUB_BUCKETS + EXACT_BITS;
        int sub = (bucket - EXACT_BELOW) % SUB_BUCKETS;
        return (1L << exponent) + ((long) sub << (exponent - 4));
    }
}
