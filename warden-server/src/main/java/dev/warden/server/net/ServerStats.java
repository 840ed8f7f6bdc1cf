package dev.warden.server.net;

import dev.warden.storage.DurationSummary;
import dev.warden.storage.FsyncStats;
import java.util.concurrent.atomic.AtomicLong;

/** Counters for the four-letter words: packets, request latency and the log's fsyncs. */
public final class ServerStats {
    private final AtomicLong packetsReceived = new AtomicLong();
    private final AtomicLong packetsSent = new AtomicLong();
    private final DurationSummary latency = new DurationSummary();
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

    /** One request answered {@code nanos} after it was decoded. */
    void latency(long nanos) {
        latency.record(nanos);
    }

    public long packetsReceived() {
        return packetsReceived.get();
    }

    public long packetsSent() {
        return packetsSent.get();
    }

    /** Time from decoding a request to queueing its reply, for every request answered. */
    public DurationSummary latency() {
        return latency;
    }

    public long startedAtMs() {
        return startedAtMs;
    }

    public void reset() {
        packetsReceived.set(0);
        packetsSent.set(0);
        latency.reset();
        // As ZooKeeper's srst: the slow-fsync count restarts, the fsync time summary does not.
        fsyncs.resetSlowCount();
    }
}
