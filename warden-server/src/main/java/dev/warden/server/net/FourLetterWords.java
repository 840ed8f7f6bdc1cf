package dev.warden.server.net;

import dev.warden.server.common.WardenVersion;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.recovery.DataLayout;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DigestHistory;
import dev.warden.state.watch.WatchRecipient;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The plain-text admin commands answered on the client port (WIRE-PROTOCOL.md §8): all eighteen
 * of ZooKeeper 3.9's, with its output shapes, so scripts and monitoring that parse them keep
 * working. Words that need a serving server answer ZooKeeper's "not currently serving" line
 * while the member cannot serve clients.
 */
final class FourLetterWords {
    /** ZooKeeper's answer to srvr, stat and mntr while the member cannot serve. */
    static final String NOT_SERVING = "This ZooKeeper instance is not currently serving requests\n";

    private FourLetterWords() {
    }

    static String respond(String word, ServerContext server) {
        return respond(new FrameDecoder.FourLetterWord(word, 0), server);
    }

    static String respond(FrameDecoder.FourLetterWord request, ServerContext server) {
        String word = request.word();
        if (!isEnabled(word, server.config())) {
            return word + " is not executed because it is not in the whitelist.\n";
        }
        Optional<String> mode = server.memberStatus().servingMode();
        switch (word) {
            case "ruok":
                return "imok";
            case "envi":
                return envi();
            case "gtmk":
                return Long.toString(server.traceMask().get());
            case "stmk":
                server.traceMask().set(request.argument());
                return Long.toString(server.traceMask().get());
            case "isro":
                // as ZooKeeper answers: "ro" in read-only mode, "null" from a member that serves no one
                return mode.map(m -> m.equals(MemberStatus.READ_ONLY_MODE) ? "ro" : "rw").orElse("null");
            default:
                break;
        }
        if (mode.isEmpty()) {
            return word.equals("hash") ? NOT_SERVING.strip() : NOT_SERVING;
        }
        return switch (word) {
            case "srvr" -> srvr(server, mode.get(), false);
            case "stat" -> srvr(server, mode.get(), true);
            case "mntr" -> Monitor.mntr(server, mode.get());
            case "cons" -> cons(server);
            case "conf" -> conf(server);
            case "wchs" -> wchs(server);
            case "wchc" -> wchc(server);
            case "wchp" -> wchp(server);
            case "dump" -> dump(server);
            case "dirs" -> dirs(server);
            case "hash" -> hash(server);
            case "srst" -> {
                server.stats().reset();
                yield "Server stats reset.\n";
            }
            case "crst" -> {
                server.registry().connections().forEach(connection -> connection.connectionStats().reset());
                yield "Connection stats reset.\n";
            }
            default -> word + " is not supported by this server.\n";
        };
    }

    private static boolean isEnabled(String word, ServerConfig config) {
        Set<String> whitelist = config.fourLetterWordWhitelist();
        // read-only clients look for a read-write member with isro, so read-only mode allows it, as in ZooKeeper
        return word.equals("srvr") || whitelist.contains("*") || whitelist.contains(word)
                || (word.equals("isro") && config.readOnlyModeEnabled());
    }

    private static String srvr(ServerContext server, String mode, boolean withClients) {
        StringBuilder out = new StringBuilder();
        out.append("Zookeeper version: ").append(WardenVersion.DESCRIPTION).append('\n');
        if (withClients) {
            out.append("Clients:\n");
            for (ClientConnection connection : server.registry().connections()) {
                out.append(' ').append(connectionLine(connection, true)).append('\n');
            }
            out.append('\n');
        }
        ServerStats stats = server.stats();
        out.append("Latency min/avg/max: ").append(stats.latency().minMs()).append('/')
                .append(Monitor.average(stats.latency().avgMs())).append('/').append(stats.latency().maxMs())
                .append('\n');
        out.append("Received: ").append(stats.packetsReceived()).append('\n');
        out.append("Sent: ").append(stats.packetsSent()).append('\n');
        out.append("Connections: ").append(server.registry().size()).append('\n');
        out.append("Outstanding: ").append(server.pipeline().outstanding()).append('\n');
        out.append("Zxid: 0x").append(Long.toHexString(server.state().lastAppliedZxid())).append('\n');
        out.append("Mode: ").append(mode).append('\n');
        out.append("Node count: ").append(server.state().nodeCount()).append('\n');
        return out.toString();
    }

    /**
     * One connection as ZooKeeper's cons and stat print it: address, interest ops (1 while it is
     * read from) and, unless {@code brief}, the session and its request figures.
     */
    static String connectionLine(ClientConnection connection, boolean brief) {
        ConnectionStats stats = connection.connectionStats();
        StringBuilder out = new StringBuilder();
        out.append(connection.remoteAddress()).append('[').append(connection.reading() ? 1 : 0)
                .append("](queued=").append(connection.inFlight())
                .append(",recved=").append(stats.packetsReceived())
                .append(",sent=").append(stats.packetsSent());
        if (!brief && connection.sessionId() != 0) {
            out.append(",sid=0x").append(Long.toHexString(connection.sessionId()))
                    .append(",lop=").append(stats.lastOperation())
                    .append(",est=").append(stats.establishedAtMs())
                    .append(",to=").append(connection.sessionTimeoutMs());
            if (stats.lastCxid() >= 0) {
                out.append(",lcxid=0x").append(Long.toHexString(stats.lastCxid()));
            }
            out.append(",lzxid=0x").append(Long.toHexString(stats.lastZxid()))
                    .append(",lresp=").append(stats.lastResponseMs())
                    .append(",llat=").append(stats.lastLatencyMs())
                    .append(",minlat=").append(stats.minLatencyMs())
                    .append(",avglat=").append(stats.avgLatencyMs())
                    .append(",maxlat=").append(stats.maxLatencyMs());
        }
        return out.append(')').toString();
    }

    private static String cons(ServerContext server) {
        StringBuilder out = new StringBuilder();
        for (ClientConnection connection : server.registry().connections()) {
            out.append(' ').append(connectionLine(connection, false)).append('\n');
        }
        return out.append('\n').toString();
    }

    private static String envi() {
        StringBuilder out = new StringBuilder("Environment:\n");
        Environment.list().forEach((key, value) -> out.append(key).append('=').append(value).append('\n'));
        return out.toString();
    }

    /**
     * Every setting (ServerConfig.describe), with the lines ZooKeeper's conf adds where it puts
     * them: no secure client port (-1), the data directories' sizes, the operating system's listen
     * backlog (-1).
     */
    private static String conf(ServerContext server) {
        DataLayout layout = new DataLayout(server.config().dataDir(), server.config().dataLogDir());
        StringBuilder out = new StringBuilder();
        for (String line : server.config().describe().split("\n")) {
            out.append(line).append('\n');
            String key = line.substring(0, Math.max(0, line.indexOf('=')));
            switch (key) {
                case "clientPort" -> out.append("secureClientPort=-1\n");
                case "dataDir" -> out.append("dataDirSize=").append(DirectorySize.bytesOf(layout.snapshotsDir()))
                        .append('\n');
                case "dataLogDir" -> out.append("dataLogSize=").append(DirectorySize.bytesOf(layout.logDir()))
                        .append('\n');
                case "maxSessionTimeout" -> out.append("clientPortListenBacklog=-1\n");
                default -> {
                }
            }
        }
        return out.toString();
    }

    /** Bytes of the snapshot files and of the log segments, as ZooKeeper's dirs word gives them. */
    private static String dirs(ServerContext server) {
        DataLayout layout = new DataLayout(server.config().dataDir(), server.config().dataLogDir());
        return "datadir_size: " + DirectorySize.bytesOf(layout.snapshotsDir()) + "\n"
                + "logdir_size: " + DirectorySize.bytesOf(layout.logDir()) + "\n";
    }

    /** The digest history: one "zxid-in-hex: digest" line per entry, newest first, as ZooKeeper's hash. */
    private static String hash(ServerContext server) {
        StringBuilder out = new StringBuilder();
        for (DigestHistory.ZxidDigest entry : server.state().recentDigests()) {
            out.append(Long.toHexString(entry.zxid())).append(": ").append(entry.digest()).append('\n');
        }
        return out.toString();
    }

    private static String wchs(ServerContext server) {
        // As in ZooKeeper, wchs counts the data-watch table only.
        var summary = server.watches().dataTableSummary();
        return summary.watchers() + " connections watching " + summary.paths() + " paths\nTotal watches:"
                + summary.watches() + "\n";
    }

    private static String wchc(ServerContext server) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<WatchRecipient, List<String>> entry : server.watches().dataWatchPathsByWatcher().entrySet()) {
            long session = entry.getKey() instanceof ClientConnection c ? c.sessionId() : 0;
            out.append("0x").append(Long.toHexString(session)).append('\n');
            for (String path : entry.getValue()) {
                out.append('\t').append(path).append('\n');
            }
        }
        return out.append('\n').toString(); // ZooKeeper ends the list with an empty line
    }

    private static String wchp(ServerContext server) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, List<WatchRecipient>> entry : server.watches().dataWatchersByPath().entrySet()) {
            out.append(entry.getKey()).append('\n');
            for (WatchRecipient watcher : entry.getValue()) {
                long session = watcher instanceof ClientConnection c ? c.sessionId() : 0;
                out.append("\t0x").append(Long.toHexString(session)).append('\n');
            }
        }
        return out.append('\n').toString(); // ZooKeeper ends the list with an empty line
    }

    private static String dump(ServerContext server) {
        StringBuilder out = new StringBuilder("SessionTracker dump:\n");
        SessionTracker sessions = server.stateMachine().sessions();
        // expiry times are monotonic; shown as wall-clock dates, as ZooKeeper shows them
        long nowWallMs = server.clock().wallTimeMs();
        long nowMonoMs = server.clock().monotonicMs();
        out.append("Session Sets (").append(sessions.expiryBuckets().size()).append(")/(").append(sessions.size())
                .append("):\n");
        sessions.expiryBuckets().forEach((expiry, ids) -> {
            out.append(ids.size()).append(" expire at ").append(new Date(nowWallMs + expiry - nowMonoMs)).append(":\n");
            ids.forEach(id -> out.append("\t0x").append(Long.toHexString(id)).append('\n'));
        });
        out.append("ephemeral nodes dump:\n");
        Map<Long, List<String>> ephemerals = server.state().ephemeralsBySession();
        out.append("Sessions with Ephemerals (").append(ephemerals.size()).append("):\n");
        ephemerals.forEach((id, paths) -> {
            out.append("0x").append(Long.toHexString(id)).append(":\n");
            paths.forEach(path -> out.append('\t').append(path).append('\n'));
        });
        out.append("Connections dump:\n");
        for (ClientConnection connection : server.registry().connections()) {
            out.append(' ').append(connectionLine(connection, true)).append('\n');
        }
        return out.toString();
    }
}
