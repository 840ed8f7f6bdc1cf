package dev.warden.server.net;

import dev.warden.storage.DurationSummary;
import dev.warden.storage.FsyncStats;
import dev.warden.storage.ValueSummary;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's figures for the admin words and metrics: packets, request latency (all requests,
 * and reads and writes apart), reply sizes, bytes and connections received, and the log's
 * fsyncs, batch sizes and snapshot and start-up times. Each is named after the ZooKeeper figure
 * it gives (mntr's keys).
 */
public final class ServerStats {
    private final AtomicLong packetsReceived = new AtomicLong();
    private final AtomicLong packetsSent = new AtomicLong();
    private final DurationSummary latency = new DurationSummary();
    private final PercentileSummary readLatency = new PercentileSummary();
    private final PercentileSummary updateLatency = new PercentileSummary();
    private final AtomicLong lastResponseBytes = new AtomicLong();
    private final LongAccumulator minResponseBytes = new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final LongAccumulator maxResponseBytes = new LongAccumulator(Math::max, 0);
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder connectionRequests = new LongAdder();
    private final LongAdder connectionsRejected = new LongAdder();
    private final LongAdder sessionlessConnectionsExpired = new LongAdder();
    private final LongAdder authFailures = new LongAdder();
    private final long startedAtMs;
    private final FsyncStats fsyncs;
    private final ValueSummary logBatchRecords;
    private final DurationSummary snapshotWrites;
    private final long dbInitMs;

    /** A server whose log, snapshots and start-up are not measured (tests of the network layer). */
    public ServerStats(long startedAtMs, FsyncStats fsyncs) {
        this(startedAtMs, fsyncs, new ValueSummary(), new DurationSummary(), 0);
    }

    /**
     * @param logBatchRecords records per log flush
     * @param snapshotWrites  how long writing each snapshot took
     * @param dbInitMs        how long recovering the data directory took at start-up
     */
    public ServerStats(long startedAtMs, FsyncStats fsyncs, ValueSummary logBatchRecords,
                       DurationSummary snapshotWrites, long dbInitMs) {
        this.startedAtMs = startedAtMs;
        this.fsyncs = fsyncs;
        this.logBatchRecords = logBatchRecords;
        this.snapshotWrites = snapshotWrites;
        this.dbInitMs = dbInitMs;
    }

    /** The transaction log's fsync times. */
    public FsyncStats fsyncs() {
        return fsyncs;
    }

    /** Records per log flush (ZooKeeper's sync_processor_batch_size). */
    public ValueSummary logBatchRecords() {
        return logBatchRecords;
    }

    /** Snapshot write times (ZooKeeper's snapshottime). */
    public DurationSummary snapshotWrites() {
        return snapshotWrites;
    }

    /** Time to recover the data directory at start-up, in ms (ZooKeeper's dbinittime). */
    public long dbInitMs() {
        return dbInitMs;
    }

    void received(int bytes) {
        packetsReceived.incrementAndGet();
        bytesReceived.add(bytes);
    }

    void sent() {
        packetsSent.incrementAndGet();
    }

    /** One reply or event of {@code bytes} (without its length prefix) queued for a client. */
    void responseSize(int bytes) {
        lastResponseBytes.set(bytes);
        minResponseBytes.accumulate(bytes);
        maxResponseBytes.accumulate(bytes);
    }

    /** One request answered {@code nanos} after it was decoded; {@code write} for a transaction. */
    void latency(long nanos, boolean write, boolean ping) {
        latency.record(nanos);
        if (!ping) {
            (write ? updateLatency : readLatency).record(nanos / 1_000_000);
        }
    }

    void connectionRequest() {
        connectionRequests.increment();
    }

    void connectionRejected() {
        connectionsRejected.increment();
    }

    void sessionlessConnectionExpired() {
        sessionlessConnectionsExpired.increment();
    }

    void authFailed() {
        authFailures.increment();
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

    PercentileSummary readLatency() {
        return readLatency;
    }

    PercentileSummary updateLatency() {
        return updateLatency;
    }

    /** A request latency percentile in ms: of the writes, or of the reads (pings excluded). */
    public long latencyPercentileMs(boolean writes, double fraction) {
        return (writes ? updateLatency : readLatency).percentile(fraction);
    }

    public long lastResponseBytes() {
        return lastResponseBytes.get();
    }

    public long minResponseBytes() {
        long m = minResponseBytes.get();
        return m == Long.MAX_VALUE ? 0 : m;
    }

    public long maxResponseBytes() {
        return maxResponseBytes.get();
    }

    public long bytesReceived() {
        return bytesReceived.sum();
    }

    public long connectionRequests() {
        return connectionRequests.sum();
    }

    public long connectionsRejected() {
        return connectionsRejected.sum();
    }

    public long sessionlessConnectionsExpired() {
        return sessionlessConnectionsExpired.sum();
    }

    public long authFailures() {
        return authFailures.sum();
    }

    public long startedAtMs() {
        return startedAtMs;
    }

    /** srst, as ZooKeeper's: packets, request latency, reply sizes and the slow-fsync count. */
    public void reset() {
        packetsReceived.set(0);
        packetsSent.set(0);
        latency.reset();
        lastResponseBytes.set(0);
        minResponseBytes.reset();
        maxResponseBytes.reset();
        // As ZooKeeper's srst: the slow-fsync count restarts, the fsync time summary does not.
        fsyncs.resetSlowCount();
    }
}
