package dev.warden.server.console;

import dev.warden.server.net.ClientConnection;
import dev.warden.server.net.ServerContext;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.watch.WatchRecipient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sessions this server knows (with the client address of those connected to it, their
 * timeout, ephemeral nodes and watches) and the watches by path, a page at a time: at most
 * {@code limit} entries after a cursor, with how many there are and the cursor of the next page.
 */
final class ActivityApi {
    /** Paths listed per session for its ephemerals and its watches (the counts are always whole). */
    static final int PATHS_PER_SESSION = 20;
    static final int MAX_LIMIT = 1_000;

    private final ServerContext server;

    ActivityApi(ServerContext server) {
        this.server = server;
    }

    /** Sessions in id order after {@code after} (an id as the page shows it, 0x...; null for the first page). */
    Map<String, Object> sessions(String after, int limit) throws ConsoleException {
        checkLimit(limit);
        long afterId;
        try {
            afterId = after == null ? Long.MIN_VALUE : Long.parseUnsignedLong(after.replaceFirst("^0x", ""), 16);
        } catch (NumberFormatException e) {
            throw new ConsoleException(400, "BAD_REQUEST", "after must be a session id such as 0x1a2b, not '"
                    + after + "'");
        }
        Map<Long, ClientConnection> connected = new HashMap<>();
        for (ClientConnection connection : server.registry().connections()) {
            if (connection.sessionId() != 0) {
                connected.put(connection.sessionId(), connection);
            }
        }
        Map<Long, List<String>> watchedBySession = new HashMap<>();
        server.watches().pathsByWatcher().forEach((watcher, paths) -> {
            long id = sessionOf(watcher);
            if (id != 0) {
                watchedBySession.computeIfAbsent(id, k -> new ArrayList<>()).addAll(paths);
            }
        });
        Map<Long, List<String>> ephemerals = server.stateMachine().tree().ephemeralsBySession();
        List<SessionTracker.Session> all = server.stateMachine().sessions().sessions();
        all.sort(Comparator.comparingLong(SessionTracker.Session::id));
        List<SessionTracker.Session> following = after == null ? all
                : all.stream().filter(session -> session.id() > afterId).toList();
        List<SessionTracker.Session> page = following.subList(0, Math.min(limit, following.size()));
        List<Map<String, Object>> list = new ArrayList<>();
        for (SessionTracker.Session session : page) {
            ClientConnection connection = connected.get(session.id());
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("session_id", TreeApi.hex(session.id()));
            s.put("client_address", connection == null ? null : address(connection));
            s.put("timeout_ms", session.timeoutMs());
            List<String> owned = sortedCopy(ephemerals.getOrDefault(session.id(), List.of()));
            s.put("ephemeral_count", owned.size());
            s.put("ephemerals", owned.subList(0, Math.min(PATHS_PER_SESSION, owned.size())));
            List<String> watched = sortedCopy(watchedBySession.getOrDefault(session.id(), List.of()));
            s.put("watch_count", watched.size());
            s.put("watches", watched.subList(0, Math.min(PATHS_PER_SESSION, watched.size())));
            list.add(s);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("total", all.size());
        out.put("sessions", list);
        out.put("next", following.size() > page.size() ? TreeApi.hex(page.get(page.size() - 1).id()) : null);
        return out;
    }

    /** Watched paths in order after {@code after}, starting with {@code prefix}, each with the sessions watching it. */
    Map<String, Object> watches(String prefix, String after, int limit) throws ConsoleException {
        checkLimit(limit);
        TreeMap<String, List<WatchRecipient>> byPath = new TreeMap<>(server.watches().watchersByPath());
        int matching = 0;
        List<Map<String, Object>> list = new ArrayList<>();
        String next = null;
        for (var entry : (after == null ? byPath : byPath.tailMap(after, false)).entrySet()) {
            if (!entry.getKey().startsWith(prefix)) {
                continue;
            }
            if (list.size() == limit) {
                next = list.get(list.size() - 1).get("path").toString();
                break;
            }
            Map<String, Object> w = new LinkedHashMap<>();
            w.put("path", entry.getKey());
            w.put("sessions", entry.getValue().stream().map(ActivityApi::sessionOf).distinct().sorted()
                    .map(TreeApi::hex).toList());
            list.add(w);
        }
        for (String path : byPath.keySet()) {
            if (path.startsWith(prefix)) {
                matching++;
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("total", byPath.size());
        out.put("matching", matching);
        out.put("watches", list);
        out.put("next", next);
        return out;
    }

    private static void checkLimit(int limit) throws ConsoleException {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new ConsoleException(400, "BAD_REQUEST", "limit must be from 1 to " + MAX_LIMIT + ", not " + limit);
        }
    }

    private static String address(ClientConnection connection) {
        String remote = connection.remoteAddress();
        return remote.startsWith("/") ? remote.substring(1) : remote;
    }

    private static long sessionOf(WatchRecipient watcher) {
        return watcher instanceof ClientConnection c ? c.sessionId() : 0;
    }

    private static List<String> sortedCopy(List<String> paths) {
        List<String> copy = new ArrayList<>(paths);
        copy.sort(null);
        return copy;
    }
}
