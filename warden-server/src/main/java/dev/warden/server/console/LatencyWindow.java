package dev.warden.server.console;

import dev.warden.server.net.ServerStats;
import java.util.function.Supplier;

/**
 * The latency percentiles of the last interval (a second, ticked by the console), for the live
 * chart: each tick reads the server's latency histograms and keeps the percentiles of what was
 * recorded since the previous tick. mntr's percentiles cover everything since the start.
 */
final class LatencyWindow {
    /** Percentiles in ms of the requests answered in the last interval, and how many there were. */
    record Percentiles(long p50Ms, long p95Ms, long p99Ms, long count) {
        static final Percentiles NONE = new Percentiles(0, 0, 0, 0);
    }

    private final Supplier<long[]> readBuckets;
    private final Supplier<long[]> writeBuckets;
    private long[] lastReads;
    private long[] lastWrites;
    private volatile Percentiles reads = Percentiles.NONE;
    private volatile Percentiles writes = Percentiles.NONE;

    LatencyWindow(Supplier<long[]> readBuckets, Supplier<long[]> writeBuckets) {
        this.readBuckets = readBuckets;
        this.writeBuckets = writeBuckets;
    }

    static LatencyWindow of(ServerStats stats) {
        return new LatencyWindow(() -> stats.latencyBucketCounts(false), () -> stats.latencyBucketCounts(true));
    }

    /** Ends an interval. Called from one thread. */
    synchronized void tick() {
        long[] nowReads = readBuckets.get();
        long[] nowWrites = writeBuckets.get();
        reads = since(lastReads, nowReads);
        writes = since(lastWrites, nowWrites);
        lastReads = nowReads;
        lastWrites = nowWrites;
    }

    Percentiles reads() {
        return reads;
    }

    Percentiles writes() {
        return writes;
    }

    private static Percentiles since(long[] before, long[] now) {
        if (before == null) {
            return Percentiles.NONE;
        }
        long[] delta = new long[now.length];
        long count = 0;
        for (int i = 0; i < now.length; i++) {
            // a reset (srst) between two readings makes a bucket smaller: count it from zero
            delta[i] = now[i] >= before[i] ? now[i] - before[i] : now[i];
            count += delta[i];
        }
        return new Percentiles(ServerStats.percentileOfCounts(delta, 0.5), ServerStats.percentileOfCounts(delta, 0.95),
                ServerStats.percentileOfCounts(delta, 0.99), count);
    }
}
