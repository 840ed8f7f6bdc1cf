package dev.warden.server.net;

import dev.warden.server.common.WardenVersion;
import dev.warden.server.recovery.DataLayout;
import dev.warden.state.tree.DigestHistory;
import dev.warden.state.watch.WatchRecipient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of the four-letter words as the AdminServer's commands give them: maps under
 * ZooKeeper's JSON field names, read from the same sources as the words.
 */
public final class AdminFigures {
    private AdminFigures() {
    }

    /** cons and stat: each connection; {@code brief} gives only the address, interest and packet fields, as stat does. */
    public static List<Map<String, Object>> connections(ServerContext server, boolean brief) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (ClientConnection connection : server.registry().connections()) {
            ConnectionStats stats = connection.connectionStats();
            Map<String, Object> c = new LinkedHashMap<>();
            String remote = connection.remoteAddress();
            c.put("remote_socket_address", remote.startsWith("/") ? remote.substring(1) : remote);
            c.put("interest_ops", connection.reading() ? 1 : 0);
            c.put("outstanding_requests", (long) connection.inFlight());
            c.put("packets_received", stats.packetsReceived());
            c.put("packets_sent", stats.packetsSent());
            if (!brief && connection.sessionId() != 0) {
                c.put("session_id", connection.sessionId());
                c.put("last_operation", stats.lastOperation());
                c.put("established", stats.establishedAtMs());
                c.put("session_timeout", connection.sessionTimeoutMs());
                c.put("last_cxid", stats.lastCxid());
                c.put("last_zxid", stats.lastZxid());
                c.put("last_response_time", stats.lastResponseMs());
                c.put("last_latency", stats.lastLatencyMs());
                c.put("min_latency", stats.minLatencyMs());
                c.put("avg_latency", stats.avgLatencyMs());
                c.put("max_latency", stats.maxLatencyMs());
            }
            list.add(c);
        }
        return list;
    }

    /** crst. */
    public static void resetConnections(ServerContext server) {
        server.registry().connections().forEach(connection -> connection.connectionStats().reset());
    }

    /** srvr and stat: the server's figures, under ZooKeeper's server_stats fields. */
    public static Map<String, Object> serverStats(ServerContext server, String mode) {
        ServerStats stats = server.stats();
        DataLayout layout = layout(server);
        Map<String, Object> responses = new LinkedHashMap<>();
        responses.put("last_buffer_size", stats.lastResponseBytes());
        responses.put("min_buffer_size", stats.minResponseBytes());
        responses.put("max_buffer_size", stats.maxResponseBytes());
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("packets_sent", stats.packetsSent());
        s.put("packets_received", stats.packetsReceived());
        s.put("fsync_threshold_exceed_count", stats.fsyncs().slowCount());
        s.put("client_response_stats", responses);
        s.put("data_dir_size", DirectorySize.bytesOf(layout.snapshotsDir()));
        s.put("log_dir_size", DirectorySize.bytesOf(layout.logDir()));
        s.put("last_processed_zxid", server.state().lastAppliedZxid());
        s.put("outstanding_requests", (long) server.pipeline().outstanding());
        s.put("server_state", mode);
        s.put("avg_latency", Monitor.average(stats.latency().avgMs()));
        s.put("max_latency", stats.latency().maxMs());
        s.put("min_latency", stats.latency().minMs());
        s.put("num_alive_client_connections", server.registry().size());
        s.put("auth_failed_count", stats.authFailures());
        s.put("uptime", server.clock().wallTimeMs() - stats.startedAtMs());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("version", WardenVersion.DESCRIPTION);
        out.put("read_only", MemberStatus.READ_ONLY_MODE.equals(mode));
        out.put("server_stats", s);
        out.put("client_response", responses);
        out.put("node_count", server.state().nodeCount());
        return out;
    }

    /** dirs. */
    public static Map<String, Object> dirs(ServerContext server) {
        DataLayout layout = layout(server);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("datadir_size", DirectorySize.bytesOf(layout.snapshotsDir()));
        out.put("logdir_size", DirectorySize.bytesOf(layout.logDir()));
        return out;
    }

    /** dump: session ids by expiry time (the tracker's monotonic ms, as ZooKeeper's), ephemeral paths by session. */
    public static Map<String, Object> dump(ServerContext server) {
        Map<String, Object> expiry = new LinkedHashMap<>();
        server.stateMachine().sessions().expiryBuckets().forEach((time, ids) -> expiry.put(Long.toString(time),
                new ArrayList<>(ids)));
        Map<String, Object> ephemerals = new LinkedHashMap<>();
        server.state().ephemeralsBySession().forEach((id, paths) -> ephemerals.put(Long.toString(id),
                paths));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("expiry_time_to_session_ids", expiry);
        out.put("session_id_to_ephemeral_paths", ephemerals);
        return out;
    }

    /** wchc: the data watches by session. */
    public static Map<String, Object> watchesBySession(ServerContext server) {
        Map<String, Object> out = new TreeMap<>();
        server.watches().dataWatchPathsByWatcher().forEach((watcher, paths) -> out.put(Long.toString(sessionOf(watcher)),
                paths));
        return out;
    }

    /** wchp: the data watches by path. */
    public static Map<String, Object> watchesByPath(ServerContext server) {
        Map<String, Object> out = new LinkedHashMap<>();
        server.watches().dataWatchersByPath().forEach((path, watchers) -> out.put(path,
                watchers.stream().map(AdminFigures::sessionOf).toList()));
        return out;
    }

    /** wchs. */
    public static Map<String, Object> watchSummary(ServerContext server) {
        var summary = server.watches().dataTableSummary();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("num_connections", summary.watchers());
        out.put("num_paths", summary.paths());
        out.put("num_total_watches", summary.watches());
        return out;
    }

    /** hash: the digest history, newest first. */
    public static List<Map<String, Object>> digests(ServerContext server) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (DigestHistory.ZxidDigest entry : server.state().recentDigests()) {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("zxid", entry.zxid());
            d.put("digest", entry.digest());
            list.add(d);
        }
        return list;
    }

    private static long sessionOf(WatchRecipient watcher) {
        return watcher instanceof ClientConnection c ? c.sessionId() : 0;
    }

    private static DataLayout layout(ServerContext server) {
        return new DataLayout(server.config().dataDir(), server.config().dataLogDir());
    }
}
