package dev.warden.server.net;

import dev.warden.storage.FsyncStats;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

/** Counters for the four-letter words: packets, request latency (ms) and the log's fsyncs. */
public final class ServerStats {
    private final AtomicLong packetsReceived = new AtomicLong();
    private final AtomicLong packetsSent = new AtomicLong();
    private final AtomicLong latencyTotalMs = new AtomicLong();
    private final AtomicLong latencyCount = new AtomicLong();
    private final LongAccumulator latencyMinMs = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator latencyMaxMs = new LongAccumulator(Math::max, 0);
    private final long startedAtMs;
    private final FsyncStats fsyncs;

    public ServerStats(long startedAtMs, FsyncStats fsyncs) {
        this.startedAtMs = startedAtMs;
        this.fsyncs = fsyncs;
    }

    /** The transaction log's fsync times. */
    public FsyncStats fsyncs() {
        return fsyncs;
    }

    void received() {
        packetsReceived.incrementAndGet();
    }

    void sent() {
        packetsSent.incrementAndGet();
    }

    void latency(long ms) {
        latencyTotalMs.addAndGet(ms);
        latencyCount.incrementAndGet();
        latencyMinMs.accumulate(ms);
        latencyMaxMs.accumulate(ms);
    }

    public long packetsReceived() {
        return packetsReceived.get();
    }

    public long packetsSent() {
        return packetsSent.get();
    }

    public long minLatencyMs() {
        long min = latencyMinMs.get();
        return min == Long.MAX_VALUE ? 0 : min;
    }

    public long maxLatencyMs() {
        return latencyMaxMs.get();
    }

    public double avgLatencyMs() {
        long count = latencyCount.get();
        return count == 0 ? 0 : (double) latencyTotalMs.get() / count;
    }

    public long startedAtMs() {
        return startedAtMs;
    }

    public void reset() {
        packetsReceived.set(0);
        packetsSent.set(0);
        latencyTotalMs.set(0);
        latencyCount.set(0);
        latencyMinMs.reset();
        latencyMaxMs.reset();
    }
}
