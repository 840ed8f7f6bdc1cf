package dev.warden.server.net;

import dev.warden.server.ServerConfig;
import dev.warden.server.WardenVersion;
import dev.warden.server.session.SessionTracker;
import dev.warden.server.watch.Watcher;
import dev.warden.storage.DurationSummary;
import dev.warden.storage.FsyncStats;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The plain-text admin commands answered on the client port (WIRE-PROTOCOL.md §8). */
final class FourLetterWords {
    /** ZooKeeper's answer to srvr, stat and mntr while the member cannot serve. */
    static final String NOT_SERVING = "This ZooKeeper instance is not currently serving requests\n";

    private FourLetterWords() {
    }

    private static String stateWord(String word, ServerContext server, String mode) {
        return switch (word) {
            case "srvr" -> srvr(server, mode, false);
            case "stat" -> srvr(server, mode, true);
            default -> mntr(server, mode);
        };
    }

    static String respond(String word, ServerContext server) {
        if (!isEnabled(word, server.config())) {
            return word + " is not executed because it is not in the whitelist.\n";
        }
        return switch (word) {
            case "ruok" -> "imok";
            case "isro" -> "rw";
            case "srvr", "stat", "mntr" -> server.memberStatus().servingMode()
                    .map(mode -> stateWord(word, server, mode)).orElse(NOT_SERVING);
            case "cons" -> cons(server);
            case "conf" -> server.config().describe();
            case "envi" -> envi();
            case "wchs" -> wchs(server);
            case "wchc" -> wchc(server);
            case "wchp" -> wchp(server);
            case "dump" -> dump(server);
            case "srst" -> {
                server.stats().reset();
                yield "Server stats reset.\n";
            }
            // Connections keep no figures of their own here, so there is nothing to reset.
            case "crst" -> "Connection stats reset.\n";
            default -> word + " is not supported by this server.\n";
        };
    }

    private static boolean isEnabled(String word, ServerConfig config) {
        Set<String> whitelist = config.fourLetterWordWhitelist();
        return word.equals("srvr") || whitelist.contains("*") || whitelist.contains(word);
    }

    private static String srvr(ServerContext server, String mode, boolean withClients) {
        StringBuilder out = new StringBuilder();
        out.append("Zookeeper version: ").append(WardenVersion.DESCRIPTION).append('\n');
        if (withClients) {
            out.append("Clients:\n");
            for (ClientConnection connection : server.registry().connections()) {
                out.append(' ').append(brief(connection)).append('\n');
            }
            out.append('\n');
        }
        ServerStats stats = server.stats();
        out.append("Latency min/avg/max: ").append(stats.latency().minMs()).append('/')
                .append(String.format(Locale.ROOT, "%.4f", stats.latency().avgMs())).append('/').append(stats.latency().maxMs()).append('\n');
        out.append("Received: ").append(stats.packetsReceived()).append('\n');
        out.append("Sent: ").append(stats.packetsSent()).append('\n');
        out.append("Connections: ").append(server.registry().size()).append('\n');
        out.append("Outstanding: ").append(server.pipeline().outstanding()).append('\n');
        out.append("Zxid: 0x").append(Long.toHexString(server.stateMachine().tree().lastAppliedZxid())).append('\n');
        out.append("Mode: ").append(mode).append('\n');
        out.append("Node count: ").append(server.stateMachine().tree().nodeCount()).append('\n');
        return out.toString();
    }

    private static String brief(ClientConnection connection) {
        StringBuilder out = new StringBuilder();
        out.append(connection.remoteAddress()).append("[1](queued=").append(connection.inFlight());
        if (connection.sessionId() != 0) {
            out.append(",sid=0x").append(Long.toHexString(connection.sessionId()))
                    .append(",to=").append(connection.sessionTimeoutMs())
                    .append(",lzxid=0x").append(Long.toHexString(connection.lastZxidSent()));
        }
        return out.append(')').toString();
    }

    private static String cons(ServerContext server) {
        StringBuilder out = new StringBuilder();
        for (ClientConnection connection : server.registry().connections()) {
            out.append(' ').append(brief(connection)).append('\n');
        }
        return out.append('\n').toString();
    }

    private static String envi() {
        // The JVM's own view of its environment; this is reporting, not configuration.
        Map<String, String> properties = ManagementFactory.getRuntimeMXBean().getSystemProperties();
        StringBuilder out = new StringBuilder("Environment:\n");
        out.append("zookeeper.version=").append(WardenVersion.DESCRIPTION).append('\n');
        for (String key : List.of("java.version", "java.vendor", "java.home", "java.class.path", "java.io.tmpdir",
                "os.name", "os.arch", "os.version", "user.name", "user.home", "user.dir")) {
            out.append(key).append("=").append(properties.get(key)).append("\n");
        }
        Runtime runtime = Runtime.getRuntime();
        out.append("os.memory.free=").append(runtime.freeMemory() / (1024 * 1024)).append("MB\n");
        out.append("os.memory.max=").append(runtime.maxMemory() / (1024 * 1024)).append("MB\n");
        out.append("os.memory.total=").append(runtime.totalMemory() / (1024 * 1024)).append("MB\n");
        return out.toString();
    }

    private static String mntr(ServerContext server, String mode) {
        ServerStats stats = server.stats();
        StringBuilder out = new StringBuilder();
        line(out, "zk_version", WardenVersion.DESCRIPTION);
        line(out, "zk_server_state", mode);
        line(out, "zk_avg_latency", String.format(Locale.ROOT, "%.4f", stats.latency().avgMs()));
        line(out, "zk_max_latency", stats.latency().maxMs());
        line(out, "zk_min_latency", stats.latency().minMs());
        line(out, "zk_packets_received", stats.packetsReceived());
        line(out, "zk_packets_sent", stats.packetsSent());
        line(out, "zk_num_alive_connections", server.registry().size());
        line(out, "zk_outstanding_requests", server.pipeline().outstanding());
        line(out, "zk_uptime", server.clock().wallTimeMs() - stats.startedAtMs());
        line(out, "zk_znode_count", server.stateMachine().tree().nodeCount());
        line(out, "zk_watch_count", server.watches().watchCount());
        line(out, "zk_ephemerals_count", server.stateMachine().tree().ephemeralCount());
        line(out, "zk_approximate_data_size", server.stateMachine().tree().approximateDataBytes());
        line(out, "zk_tree_digest", String.format("%016x", server.stateMachine().tree().digest()));
        line(out, "zk_digest_mismatches_count", server.memberStatus().digestMismatches());
        line(out, "zk_global_sessions", server.stateMachine().sessions().size());
        line(out, "zk_local_sessions", 0);
        fsyncLines(out, stats.fsyncs());
        leaderLines(out, server.memberStatus());
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            line(out, "zk_open_file_descriptor_count", unix.getOpenFileDescriptorCount());
            line(out, "zk_max_file_descriptor_count", unix.getMaxFileDescriptorCount());
        }
        return out.toString();
    }

    /** The log's fsync times in ms, under ZooKeeper's names (a summary called fsynctime, and the threshold count). */
    static void fsyncLines(StringBuilder out, FsyncStats fsyncs) {
        DurationSummary times = fsyncs.times();
        line(out, "zk_fsync_threshold_exceed_count", fsyncs.slowCount());
        line(out, "zk_avg_fsynctime", String.format(Locale.ROOT, "%.4f", times.avgMs()));
        line(out, "zk_min_fsynctime", times.minMs());
        line(out, "zk_max_fsynctime", times.maxMs());
        line(out, "zk_cnt_fsynctime", times.count());
        line(out, "zk_sum_fsynctime", times.totalMs());
    }

    /** mntr's leader-only keys, as ZooKeeper names them. */
    static void leaderLines(StringBuilder out, MemberStatus status) {
        status.leaderFigures().ifPresent(figures -> {
            line(out, "zk_learners", figures.learners());
            line(out, "zk_synced_followers", figures.syncedFollowers());
            line(out, "zk_synced_non_voting_followers", 0);
            line(out, "zk_synced_observers", figures.syncedObservers());
            line(out, "zk_pending_syncs", figures.pendingSyncs());
            line(out, "zk_quorum_size", figures.quorumSize());
        });
    }

    private static void line(StringBuilder out, String key, Object value) {
        out.append(key).append('\t').append(value).append('\n');
    }

    private static String wchs(ServerContext server) {
        // As in ZooKeeper, wchs counts the data-watch table only.
        var summary = server.watches().dataTableSummary();
        return summary.watchers() + " connections watching " + summary.paths() + " paths\nTotal watches:"
                + summary.watches() + "\n";
    }

    private static String wchc(ServerContext server) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<Watcher, List<String>> entry : server.watches().pathsByWatcher().entrySet()) {
            long session = entry.getKey() instanceof ClientConnection c ? c.sessionId() : 0;
            out.append("0x").append(Long.toHexString(session)).append('\n');
            for (String path : entry.getValue()) {
                out.append('\t').append(path).append('\n');
            }
        }
        return out.toString();
    }

    private static String wchp(ServerContext server) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, List<Watcher>> entry : server.watches().watchersByPath().entrySet()) {
            out.append(entry.getKey()).append('\n');
            for (Watcher watcher : entry.getValue()) {
                long session = watcher instanceof ClientConnection c ? c.sessionId() : 0;
                out.append("\t0x").append(Long.toHexString(session)).append('\n');
            }
        }
        return out.toString();
    }

    private static String dump(ServerContext server) {
        StringBuilder out = new StringBuilder("SessionTracker dump:\n");
        SessionTracker sessions = server.stateMachine().sessions();
        out.append("Session Sets (").append(sessions.expiryBuckets().size()).append(")/(").append(sessions.size())
                .append("):\n");
        sessions.expiryBuckets().forEach((expiry, ids) -> {
            out.append(ids.size()).append(" expire at ").append(expiry).append(":\n");
            ids.forEach(id -> out.append("\t0x").append(Long.toHexString(id)).append('\n'));
        });
        out.append("ephemeral nodes dump:\n");
        Map<Long, List<String>> ephemerals = server.stateMachine().tree().ephemeralsBySession();
        out.append("Sessions with Ephemerals (").append(ephemerals.size()).append("):\n");
        ephemerals.forEach((id, paths) -> {
            out.append("0x").append(Long.toHexString(id)).append(":\n");
            paths.forEach(path -> out.append('\t').append(path).append('\n'));
        });
        out.append("Connections dump:\n");
        for (ClientConnection connection : server.registry().connections()) {
            out.append(' ').append(brief(connection)).append('\n');
        }
        return out.toString();
    }
}
