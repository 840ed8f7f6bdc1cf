package dev.warden.server.net;

import dev.warden.protocol.EventType;
import dev.warden.server.common.WardenVersion;
import dev.warden.storage.DurationSummary;
import dev.warden.storage.FsyncStats;
import dev.warden.storage.ValueSummary;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The mntr word: every figure of ZooKeeper 3.9's mntr that Warden measures the same thing for,
 * under ZooKeeper's key and in its format ("key\tvalue" lines; a summary as avg, min, max, cnt
 * and sum, a latency summary with p50, p95, p99 and p999). Figures of parts Warden does not
 * have (ZooKeeper's commit processor, throttler, TLS, ...) are left out rather than shown as 0.
 * One key is Warden's own: {@code zk_tree_digest}.
 */
public final class Monitor {
    private Monitor() {
    }

    static String mntr(ServerContext server, String mode) {
        StringBuilder out = new StringBuilder();
        figures(server, mode).forEach((key, value) -> out.append("zk_").append(key).append('\t').append(value)
                .append('\n'));
        return out.toString();
    }

    /**
     * mntr's figures by key without the "zk_" prefix, in mntr's order: whole numbers as Long or
     * Integer, averages as Double, the rest as strings (the AdminServer's monitor command).
     */
    public static Map<String, Object> figures(ServerContext server, String mode) {
        ServerStats stats = server.stats();
        var tree = server.state();
        Map<String, Object> out = new LinkedHashMap<>();
        line(out, "zk_version", WardenVersion.DESCRIPTION);
        line(out, "zk_server_state", mode);
        line(out, "zk_avg_latency", average(stats.latency().avgMs()));
        line(out, "zk_max_latency", stats.latency().maxMs());
        line(out, "zk_min_latency", stats.latency().minMs());
        line(out, "zk_packets_received", stats.packetsReceived());
        line(out, "zk_packets_sent", stats.packetsSent());
        line(out, "zk_num_alive_connections", server.registry().size());
        line(out, "zk_outstanding_requests", server.pipeline().outstanding());
        line(out, "zk_uptime", server.clock().wallTimeMs() - stats.startedAtMs());
        line(out, "zk_znode_count", tree.nodeCount());
        line(out, "zk_watch_count", server.watches().watchCount());
        line(out, "zk_ephemerals_count", tree.ephemeralCount());
        line(out, "zk_approximate_data_size", tree.approximateDataBytes());
        line(out, "zk_tree_digest", String.format("%016x", tree.digest()));
        line(out, "zk_digest_mismatches_count", server.memberStatus().digestMismatches());
        line(out, "zk_looking_count", server.memberStatus().lookingCount());
        line(out, "zk_diff_count", server.memberStatus().diffSyncs());
        line(out, "zk_snap_count", server.memberStatus().snapSyncs());
        MemberStatus.TransactionCounts transactions = server.memberStatus().transactionCounts();
        line(out, "zk_proposal_count", transactions.proposals());
        line(out, "zk_commit_count", transactions.commits());
        line(out, "zk_learner_proposal_received_count", transactions.learnerProposals());
        line(out, "zk_learner_commit_received_count", transactions.learnerCommits());
        line(out, "zk_global_sessions", server.stateMachine().sessions().size());
        line(out, "zk_local_sessions", server.stateMachine().sessions().localCount());
        line(out, "zk_last_client_response_size", stats.lastResponseBytes());
        line(out, "zk_max_client_response_size", stats.maxResponseBytes());
        line(out, "zk_min_client_response_size", stats.minResponseBytes());
        line(out, "zk_bytes_received_count", stats.bytesReceived());
        line(out, "zk_connection_request_count", stats.connectionRequests());
        line(out, "zk_connection_rejected", stats.connectionsRejected());
        line(out, "zk_sessionless_connections_expired", stats.sessionlessConnectionsExpired());
        line(out, "zk_auth_failed_count", stats.authFailures());
        fsyncLines(out, stats.fsyncs());
        summary(out, "sync_processor_batch_size", stats.logBatchRecords());
        durations(out, "snapshottime", stats.snapshotWrites());
        summary(out, "dbinittime", 1, stats.dbInitMs(), stats.dbInitMs(), stats.dbInitMs());
        ServerStats.Startup startup = stats.startup();
        summary(out, "startup_snap_load_time", 1, startup.snapshotLoadMs(), startup.snapshotLoadMs(),
                startup.snapshotLoadMs());
        summary(out, "startup_txns_load_time", 1, startup.txnsLoadMs(), startup.txnsLoadMs(), startup.txnsLoadMs());
        summary(out, "startup_txns_loaded", 1, startup.txnsLoaded(), startup.txnsLoaded(), startup.txnsLoaded());
        latencies(out, "readlatency", stats.readLatency());
        latencies(out, "updatelatency", stats.updateLatency());
        summary(out, "node_created_watch_count", server.watches().firedPerEvent(EventType.NODE_CREATED));
        summary(out, "node_deleted_watch_count", server.watches().firedPerEvent(EventType.NODE_DELETED));
        summary(out, "node_changed_watch_count", server.watches().firedPerEvent(EventType.NODE_DATA_CHANGED));
        summary(out, "node_children_watch_count", server.watches().firedPerEvent(EventType.NODE_CHILDREN_CHANGED));
        leaderLines(out, server.memberStatus(), server.clock().wallTimeMs());
        observerMasterLines(out, server.memberStatus());
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            line(out, "zk_open_file_descriptor_count", unix.getOpenFileDescriptorCount());
            line(out, "zk_max_file_descriptor_count", unix.getMaxFileDescriptorCount());
        }
        return out;
    }

    /** The log's fsync times in ms, under ZooKeeper's names (a summary called fsynctime, and the threshold count). */
    static void fsyncLines(Map<String, Object> out, FsyncStats fsyncs) {
        line(out, "zk_fsync_threshold_exceed_count", fsyncs.slowCount());
        durations(out, "fsynctime", fsyncs.times());
    }

    /** mntr's leader-only keys, as ZooKeeper names them; {@code nowMs} is wall-clock time. */
    static void leaderLines(Map<String, Object> out, MemberStatus status, long nowMs) {
        status.leaderFigures().ifPresent(figures -> {
            // ZooKeeper's leader_uptime: ms since this member took the lead (its election ended here)
            status.reign().ifPresent(reign -> line(out, "zk_leader_uptime", Math.max(0, nowMs - reign.electedAtMs())));
            line(out, "zk_learners", figures.learners());
            line(out, "zk_synced_followers", figures.syncedFollowers());
            line(out, "zk_synced_non_voting_followers", 0);
            line(out, "zk_synced_observers", figures.syncedObservers());
            line(out, "zk_pending_syncs", figures.pendingSyncs());
            line(out, "zk_quorum_size", figures.quorumSize());
        });
    }

    /**
     * A follower serving observers (observerMasterPort set) counts them under the leader's name
     * for its own, zk_synced_observers; an observer names the member it syncs from.
     */
    static void observerMasterLines(Map<String, Object> out, MemberStatus status) {
        status.observersServed().ifPresent(count -> line(out, "zk_synced_observers", count));
        status.observerMasterId().ifPresent(id -> line(out, "zk_observer_master_id", id));
    }

    /** An average as ZooKeeper gives one: rounded half-up to 4 decimals (printed as a Java double: "17.25", "0.0"). */
    static double average(double value) {
        return BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_UP).doubleValue();
    }

    private static void durations(Map<String, Object> out, String name, DurationSummary times) {
        line(out, "zk_avg_" + name, average(times.avgMs()));
        line(out, "zk_min_" + name, times.minMs());
        line(out, "zk_max_" + name, times.maxMs());
        line(out, "zk_cnt_" + name, times.count());
        line(out, "zk_sum_" + name, times.totalMs());
    }

    private static void summary(Map<String, Object> out, String name, ValueSummary values) {
        summary(out, name, values.count(), values.total(), values.min(), values.max());
    }

    private static void summary(Map<String, Object> out, String name, long count, long sum, long min, long max) {
        line(out, "zk_avg_" + name, average(count == 0 ? 0 : (double) sum / count));
        line(out, "zk_min_" + name, min);
        line(out, "zk_max_" + name, max);
        line(out, "zk_cnt_" + name, count);
        line(out, "zk_sum_" + name, sum);
    }

    private static void latencies(Map<String, Object> out, String name, PercentileSummary values) {
        summary(out, name, values.count(), values.sumMs(), values.minMs(), values.maxMs());
        line(out, "zk_p50_" + name, values.percentile(0.5));
        line(out, "zk_p95_" + name, values.percentile(0.95));
        line(out, "zk_p99_" + name, values.percentile(0.99));
        line(out, "zk_p999_" + name, values.percentile(0.999));
    }

    /** {@code key} is written as mntr writes it; the map keeps it without "zk_". */
    static void line(Map<String, Object> out, String key, Object value) {
        out.put(key.substring("zk_".length()), value);
    }
}
