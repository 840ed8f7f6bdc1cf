package dev.warden.server.admin;

import dev.warden.server.config.QuorumMember;
import dev.warden.server.config.ServerConfig;
import dev.warden.server.net.AdminFigures;
import dev.warden.server.net.Environment;
import dev.warden.server.net.Monitor;
import dev.warden.server.net.ServerContext;
import dev.warden.storage.SnapshotStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * ZooKeeper 3.9's AdminServer commands, under its names and aliases and with its JSON fields,
 * answered from the same figures as the four-letter words. {@code snapshot} and {@code restore}
 * are handled by the HTTP layer (they stream) and listed here for lookup and authentication.
 */
final class AdminCommands {
    static final String NOT_SERVING = "This ZooKeeper instance is not currently serving requests";

    private final ServerContext server;
    private final SnapshotStore snapshots;
    private final Map<String, AdminCommand> byName = new TreeMap<>();
    private final Map<String, AdminCommand> primary = new TreeMap<>();

    AdminCommands(ServerContext server, SnapshotStore snapshots) {
        this.server = server;
        this.snapshots = snapshots;
        add("configuration", List.of("conf", "config"), serving(this::configuration));
        add("connection_stat_reset", List.of("crst"), serving(r -> AdminFigures.resetConnections(server)));
        add("connections", List.of("cons"), serving(r -> {
            r.put("connections", AdminFigures.connections(server, false));
            r.put("secure_connections", List.of());
        }));
        add("dirs", List.of(), serving(r -> r.putAll(AdminFigures.dirs(server))));
        add("dump", List.of(), serving(r -> r.putAll(AdminFigures.dump(server))));
        add("environment", List.of("env", "envi"), (p, r) -> {
            r.putAll(Environment.list());
            return null;
        });
        add("get_trace_mask", List.of("gtmk"), (p, r) -> {
            r.put("tracemask", server.traceMask().get());
            return null;
        });
        add("hash", List.of(), serving(r -> r.put("digests", AdminFigures.digests(server))));
        add("initial_configuration", List.of("icfg"), (p, r) -> {
            r.put("initial_configuration", initialConfiguration(server.config()));
            return null;
        });
        add("is_read_only", List.of("isro"), serving(r -> r.put("read_only", server.memberStatus().readOnly())));
        add("last_snapshot", List.of("lsnp"), serving(this::lastSnapshot));
        add("leader", List.of("lead"), serving(this::leader));
        add("monitor", List.of("mntr"), (p, r) -> {
            Optional<String> mode = server.memberStatus().servingMode();
            if (mode.isEmpty()) {
                return NOT_SERVING;
            }
            r.putAll(Monitor.figures(server, mode.get()));
            return null;
        });
        add("observer_connection_stat_reset", List.of("orst"), serving(r -> {
            // observers keep no per-connection figures on a Warden leader, so there is nothing to reset
        }));
        add("observers", List.of("obsr"), serving(r -> {
            r.put("synced_observers", server.memberStatus().leaderFigures().map(f -> f.syncedObservers())
                    .orElse(server.memberStatus().observersServed().orElse(0)));
            r.put("observers", List.of());
        }));
        add("ruok", List.of(), (p, r) -> null);
        add("server_stats", List.of("srvr"), (p, r) -> {
            Optional<String> mode = server.memberStatus().servingMode();
            if (mode.isEmpty()) {
                return NOT_SERVING;
            }
            r.putAll(AdminFigures.serverStats(server, mode.get()));
            return null;
        });
        add("set_trace_mask", List.of("stmk"), (p, r) -> {
            String mask = p.get("traceMask");
            if (mask == null) {
                return "Missing traceMask";
            }
            try {
                server.traceMask().set(Long.parseLong(mask));
            } catch (NumberFormatException e) {
                return "Invalid traceMask: " + mask;
            }
            r.put("tracemask", server.traceMask().get());
            return null;
        });
        add("stat_reset", List.of("srst"), serving(r -> server.stats().reset()));
        add("stats", List.of("stat"), (p, r) -> {
            Optional<String> mode = server.memberStatus().servingMode();
            if (mode.isEmpty()) {
                return NOT_SERVING;
            }
            r.putAll(AdminFigures.serverStats(server, mode.get()));
            r.put("connections", AdminFigures.connections(server, true));
            r.put("secure_connections", List.of());
            return null;
        });
        add("system_properties", List.of("sysp"), (p, r) -> {
            System.getProperties().stringPropertyNames().stream().sorted()
                    .forEach(key -> r.put(key, System.getProperty(key)));
            return null;
        });
        add("voting_view", List.of(), serving(r -> r.put("current_config",
                votingView(server.memberStatus().configuration().orElse(server.config().ensembleConfig())))));
        add("watch_summary", List.of("wchs"), serving(r -> r.putAll(AdminFigures.watchSummary(server))));
        add("watches", List.of("wchc"), serving(r -> r.put("session_id_to_watched_paths",
                AdminFigures.watchesBySession(server))));
        add("watches_by_path", List.of("wchp"), serving(r -> r.put("path_to_session_ids",
                AdminFigures.watchesByPath(server))));
        add("zabstate", List.of(), (p, r) -> {
            Optional<String> state = server.memberStatus().zabState();
            r.put("voting", server.config().isEnsemble() && !server.config().self().observer());
            r.put("zabstate", state.orElse(""));
            return null;
        });
        register(new AdminCommand("snapshot", List.of("snap"), true, (p, r) -> null));
        register(new AdminCommand("restore", List.of("rest"), true, (p, r) -> null));
    }

    Optional<AdminCommand> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Primary names, in order, for the command list page. */
    List<String> names() {
        return List.copyOf(primary.keySet());
    }

    private interface Filler {
        void fill(Map<String, Object> response) throws Exception;
    }

    /** A command that needs a serving server, as ZooKeeper's do. */
    private AdminCommand.Body serving(Filler filler) {
        return (parameters, response) -> {
            if (server.memberStatus().servingMode().isEmpty()) {
                return NOT_SERVING;
            }
            filler.fill(response);
            return null;
        };
    }

    private void add(String name, List<String> aliases, AdminCommand.Body body) {
        register(AdminCommand.of(name, aliases, body));
    }

    private void register(AdminCommand command) {
        primary.put(command.name(), command);
        byName.put(command.name(), command);
        command.aliases().forEach(alias -> byName.put(alias, command));
    }

    private void configuration(Map<String, Object> r) {
        ServerConfig config = server.config();
        r.put("client_port", config.clientPort());
        r.put("data_dir", config.dataDir().toAbsolutePath().resolve("snapshots").toString());
        r.put("data_log_dir", config.dataLogDir().toAbsolutePath().resolve("log").toString());
        r.put("tick_time", config.tickTimeMs());
        r.put("max_client_cnxns", config.maxClientCnxns());
        r.put("min_session_timeout", config.minSessionTimeoutMs());
        r.put("max_session_timeout", config.maxSessionTimeoutMs());
        r.put("server_id", config.serverId());
        r.put("client_port_listen_backlog", -1);
    }

    /** The newest snapshot file's zxid (hexadecimal) and time (seconds), as ZooKeeper's last_snapshot. */
    private void lastSnapshot(Map<String, Object> r) {
        OptionalLong zxid = snapshots.newestZxid();
        long seconds = server.stats().startedAtMs() / 1000;
        if (zxid.isPresent()) {
            try {
                var files = snapshots.snapshotFiles();
                FileTime modified = Files.getLastModifiedTime(files.get(files.size() - 1));
                seconds = modified.toMillis() / 1000;
            } catch (IOException | RuntimeException gone) {
                // purged since it was listed: keep the start time
            }
        }
        r.put("zxid", Long.toHexString(zxid.orElse(0)));
        r.put("timestamp", seconds);
    }

    private void leader(Map<String, Object> r) {
        ServerConfig config = server.config();
        OptionalLong leaderId = server.memberStatus().leaderId();
        if (!config.isEnsemble() || leaderId.isEmpty()) {
            throw new CommandError("server is not initialized");
        }
        r.put("is_leader", leaderId.getAsLong() == config.serverId());
        r.put("leader_id", leaderId.getAsLong());
        QuorumMember leader = server.memberStatus().configuration().orElse(config.ensembleConfig()).members()
                .get(leaderId.getAsLong());
        r.put("leader_ip", leader == null ? null : leader.host());
    }

    /** The voters of the configuration the member knows committed (it follows reconfig), as ZooKeeper lists them. */
    private static Map<String, Object> votingView(dev.warden.server.config.EnsembleConfig configuration) {
        Map<String, Object> view = new LinkedHashMap<>();
        configuration.members().forEach((id, member) -> {
            if (!member.observer()) {
                view.put(Long.toString(id), member.toSpec());
            }
        });
        return view;
    }

    /** The configuration the server runs with, as zoo.cfg lines (the effective settings, not the file's text). */
    private static String initialConfiguration(ServerConfig config) {
        StringBuilder text = new StringBuilder();
        var properties = config.toProperties();
        new TreeMap<Object, Object>(properties).forEach((key, value) -> {
            String shown = key.equals("superDigest") ? "<hidden>" : String.valueOf(value);
            text.append(key).append('=').append(shown).append('\n');
        });
        return text.toString();
    }

    /** A command's refusal with ZooKeeper's wording, turned into the response's "error". */
    static final class CommandError extends RuntimeException {
        CommandError(String message) {
            super(message, null, false, false);
        }
    }
}
