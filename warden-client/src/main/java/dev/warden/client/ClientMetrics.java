package dev.warden.client;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;

/**
 * What a client can tell about itself, for dashboards and alerts: its connection state and how
 * often it changed, how many requests wait for an answer, and how long answers take. Read it
 * from any thread ({@link WardenClient#metrics()}); the client updates it on its I/O thread.
 *
 * <p>Latency is measured per request from the call to the arrival of its reply (queueing in the
 * client, the network, the server; retries after a reconnect included), so it is what the
 * caller waited. Percentiles come from a histogram with eight buckets per power of two and are
 * exact to within 12.5%.
 */
public final class ClientMetrics {
    private static final int SUB_BUCKETS = 8;
    private static final int SUB_BUCKET_BITS = 3;
    private static final int BUCKETS = 64 * SUB_BUCKETS;

    private final IntSupplier outstanding;
    private final AtomicReference<ConnectionState> state = new AtomicReference<>();
    private final Map<ConnectionState, AtomicLong> stateChanges = new EnumMap<>(ConnectionState.class);
    private final AtomicLongArray latencyBuckets = new AtomicLongArray(BUCKETS);
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong totalMicros = new AtomicLong();
    private final AtomicLong maxMicros = new AtomicLong();

    ClientMetrics(IntSupplier outstanding) {
        this.outstanding = outstanding;
        for (ConnectionState each : ConnectionState.values()) {
            stateChanges.put(each, new AtomicLong());
        }
    }

    /** Latency of the requests answered since the client started or {@link #resetLatency()}. */
    public record LatencySummary(long requests, double meanMs, double p50Ms, double p99Ms, double maxMs) {
    }

    void stateChanged(ConnectionState newState) {
        state.set(newState);
        stateChanges.get(newState).incrementAndGet();
    }

    void requestCompleted(long elapsedNanos) {
        long micros = Math.max(0, TimeUnit.NANOSECONDS.toMicros(elapsedNanos));
        latencyBuckets.incrementAndGet(bucketOf(micros));
        completed.incrementAndGet();
        totalMicros.addAndGet(micros);
        maxMicros.accumulateAndGet(micros, Math::max);
    }

    /** The last state the client reported, or null before its first connection. */
    public ConnectionState connectionState() {
        return state.get();
    }

    /** How many times the client entered {@code state} (e.g. SUSPENDED: how often it lost its server). */
    public long stateChanges(ConnectionState entered) {
        return stateChanges.get(entered).get();
    }

    /** Requests made and not yet answered or failed: queued in the client plus on the wire. */
    public int outstandingRequests() {
        return outstanding.getAsInt();
    }

    public LatencySummary latency() {
        long[] counts = new long[BUCKETS];
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            counts[i] = latencyBuckets.get(i);
            total += counts[i];
        }
        if (total == 0) {
            return new LatencySummary(0, 0, 0, 0, 0);
        }
        double mean = totalMicros.get() / 1000.0 / Math.max(1, completed.get());
        return new LatencySummary(total, mean, percentileMs(counts, total, 0.50), percentileMs(counts, total, 0.99),
                maxMicros.get() / 1000.0);
    }

    /** Forgets the latencies measured so far (state changes are kept). */
    public void resetLatency() {
        for (int i = 0; i < BUCKETS; i++) {
            latencyBuckets.set(i, 0);
        }
        completed.set(0);
        totalMicros.set(0);
        maxMicros.set(0);
    }

    private static double percentileMs(long[] counts, long total, double fraction) {
        long rank = (long) Math.ceil(total * fraction);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return upperBoundMicros(i) / 1000.0;
            }
        }
        return upperBoundMicros(BUCKETS - 1) / 1000.0;
    }

    /** Values below 8 µs get their own bucket; above, each power of two is split in eight. */
    static int bucketOf(long micros) {
        if (micros < SUB_BUCKETS) {
            return (int) micros;
        }
        int octave = 63 - Long.numberOfLeadingZeros(micros);
        int sub = (int) ((micros >>> (octave - SUB_BUCKET_BITS)) & (SUB_BUCKETS - 1));
        return (octave - SUB_BUCKET_BITS + 1) * SUB_BUCKETS + sub;
    }

    /** The largest value that falls in {@code bucket}. */
    static long upperBoundMicros(int bucket) {
        if (bucket < SUB_BUCKETS) {
            return bucket;
        }
        int octave = bucket / SUB_BUCKETS + SUB_BUCKET_BITS - 1;
        int sub = bucket % SUB_BUCKETS;
        return ((SUB_BUCKETS + sub + 1L) << (octave - SUB_BUCKET_BITS)) - 1;
    }
}
