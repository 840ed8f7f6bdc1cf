package dev.warden.server.net;

import dev.warden.storage.FsyncStats;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters for the four-letter words: packets, request latency and the log's fsyncs. Latency is
 * kept in microseconds so that the average of sub-millisecond requests is not rounded to 0;
 * the words report milliseconds, as ZooKeeper does.
 */
public final class ServerStats {
    private final AtomicLong packetsReceived = new AtomicLong();
    private final AtomicLong packetsSent = new AtomicLong();
    private final LongAdder latencyTotalUs = new LongAdder();
    private final LongAdder latencyCount = new LongAdder();
    private final LongAccumulator latencyMinUs = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator latencyMaxUs = new LongAccumulator(Math::max, 0);
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

    /** One request answered {@code micros} after it was decoded. */
    void latency(long micros) {
        latencyTotalUs.add(micros);
        latencyCount.increment();
        latencyMinUs.accumulate(micros);
        latencyMaxUs.accumulate(micros);
    }

    public long packetsReceived() {
        return packetsReceived.get();
    }

    public long packetsSent() {
        return packetsSent.get();
    }

    public long minLatencyMs() {
        long min = latencyMinUs.get();
        return min == Long.MAX_VALUE ? 0 : min / 1000;
    }

    public long maxLatencyMs() {
        return latencyMaxUs.get() / 1000;
    }

    public double avgLatencyMs() {
        long count = latencyCount.sum();
        return count == 0 ? 0 : latencyTotalUs.sum() / 1000.0 / count;
    }

    public long startedAtMs() {
        return startedAtMs;
    }

    public void reset() {
        packetsReceived.set(0);
        packetsSent.set(0);
        latencyTotalUs.reset();
        latencyCount.reset();
        latencyMinUs.reset();
        latencyMaxUs.reset();
        // As ZooKeeper's srst: the slow-fsync count restarts, the fsync time summary does not.
        fsyncs.resetSlowCount();
    }
}
