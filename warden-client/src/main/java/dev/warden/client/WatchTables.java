package dev.warden.client;

import dev.warden.protocol.SetWatches2;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The client's watch tables, keyed by client path. Registrations happen on the I/O thread when
 * a reply arrives and lookups when an event arrives, so both follow wire order; removals can
 * come from user threads, hence the lock.
 */
final class WatchTables {
    /**
     * CONFIG holds the watches of {@link WardenClient#getConfig}: they are on the server path
     * /zookeeper/config whatever the chroot, and are re-registered as data watches.
     */
    enum Table { DATA, EXIST, CHILD, PERSISTENT, RECURSIVE, CONFIG }

    /** The server path of the configuration node, outside any chroot. */
    static final String CONFIG_NODE = "/zookeeper/config";

    /** A watcher and the event to hand it. */
    record Delivery(Watcher watcher, WatchEvent event) {
    }

    private final Map<Table, Map<String, Set<Watcher>>> tables = new HashMap<>();

    WatchTables() {
        for (Table table : Table.values()) {
            tables.put(table, new LinkedHashMap<>());
        }
    }

    synchronized void add(Table table, String path, Watcher watcher) {
        tables.get(table).computeIfAbsent(path, p -> new LinkedHashSet<>()).add(watcher);
    }

    /**
     * Removes one persistent watcher; returns true when it was the last one of its table at
     * that path, i.e. the server-side watch should go too.
     */
    synchronized boolean removeOne(Table table, String path, Watcher watcher) {
        Set<Watcher> watchers = tables.get(table).get(path);
        if (watchers == null || !watchers.remove(watcher)) {
            return false;
        }
        if (watchers.isEmpty()) {
            tables.get(table).remove(path);
            return true;
        }
        return false;
    }

    synchronized boolean hasAny(Table table, String path) {
        return tables.get(table).containsKey(path);
    }

    /** The tables a {@link WatchKind} covers. */
    private static List<Table> tablesOf(WatchKind kind) {
        return switch (kind) {
            case DATA -> List.of(Table.DATA, Table.EXIST);
            case CHILDREN -> List.of(Table.CHILD);
            case PERSISTENT -> List.of(Table.PERSISTENT);
            case PERSISTENT_RECURSIVE -> List.of(Table.RECURSIVE);
            case ANY -> List.of(Table.DATA, Table.EXIST, Table.CHILD, Table.PERSISTENT, Table.RECURSIVE);
        };
    }

    private static WatchEvent.Kind removedKind(Table table) {
        return switch (table) {
            case DATA, EXIST, CONFIG -> WatchEvent.Kind.DATA_WATCH_REMOVED;
            case CHILD -> WatchEvent.Kind.CHILD_WATCH_REMOVED;
            case PERSISTENT, RECURSIVE -> WatchEvent.Kind.PERSISTENT_WATCH_REMOVED;
        };
    }

    /** Whether {@code watcher} (or, if null, any watcher) is registered at path for that kind. */
    synchronized boolean has(String path, Watcher watcher, WatchKind kind) {
        for (Table table : tablesOf(kind)) {
            Set<Watcher> watchers = tables.get(table).get(path);
            if (watchers != null && (watcher == null || watchers.contains(watcher))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a watcher other than {@code watcher} stays registered at path in a table of
     * that kind, i.e. whether the server's watch is still wanted after removing it.
     */
    synchronized boolean othersRemain(String path, Watcher watcher, WatchKind kind) {
        for (Table table : tablesOf(kind)) {
            Set<Watcher> watchers = tables.get(table).get(path);
            if (watchers != null && (watchers.size() > 1 || !watchers.contains(watcher))) {
                return true;
            }
        }
        return false;
    }

    /** Removes one watcher from the tables of a kind at a path; one "removed" event per table it left. */
    synchronized List<Delivery> removeWatcher(String path, Watcher watcher, WatchKind kind) {
        List<Delivery> out = new ArrayList<>();
        java.util.EnumSet<WatchEvent.Kind> delivered = java.util.EnumSet.noneOf(WatchEvent.Kind.class);
        for (Table table : tablesOf(kind)) {
            Set<Watcher> watchers = tables.get(table).get(path);
            if (watchers != null && watchers.remove(watcher)) {
                if (watchers.isEmpty()) {
                    tables.get(table).remove(path);
                }
                if (delivered.add(removedKind(table))) {
                    out.add(new Delivery(watcher, new WatchEvent(removedKind(table), path, -1)));
                }
            }
        }
        return out;
    }

    /** Removes every watcher of a kind at a path and returns the "removed" events to deliver. */
    synchronized List<Delivery> removeAll(String path, WatchKind kind) {
        List<Delivery> out = new ArrayList<>();
        if (kind == WatchKind.DATA || kind == WatchKind.ANY) {
            drop(Table.DATA, path, WatchEvent.Kind.DATA_WATCH_REMOVED, out);
            drop(Table.EXIST, path, WatchEvent.Kind.DATA_WATCH_REMOVED, out);
        }
        if (kind == WatchKind.CHILDREN || kind == WatchKind.ANY) {
            drop(Table.CHILD, path, WatchEvent.Kind.CHILD_WATCH_REMOVED, out);
        }
        if (kind == WatchKind.PERSISTENT || kind == WatchKind.ANY) {
            drop(Table.PERSISTENT, path, WatchEvent.Kind.PERSISTENT_WATCH_REMOVED, out);
        }
        if (kind == WatchKind.PERSISTENT_RECURSIVE || kind == WatchKind.ANY) {
            drop(Table.RECURSIVE, path, WatchEvent.Kind.PERSISTENT_WATCH_REMOVED, out);
        }
        return out;
    }

    private void drop(Table table, String path, WatchEvent.Kind kind, List<Delivery> out) {
        Set<Watcher> watchers = tables.get(table).remove(path);
        if (watchers != null) {
            for (Watcher watcher : watchers) {
                out.add(new Delivery(watcher, new WatchEvent(kind, path, -1)));
            }
        }
    }

    /**
     * The watchers a server event reaches: one-shot watchers are consumed; each watcher is
     * called at most once per event even if several of its registrations match.
     */
    synchronized List<Delivery> trigger(WatchEvent event) {
        Set<Watcher> hit = new LinkedHashSet<>();
        String path = event.path();
        switch (event.kind()) {
            case NODE_CREATED, NODE_DATA_CHANGED -> {
                take(Table.DATA, path, hit);
                take(Table.EXIST, path, hit);
            }
            case NODE_CHILDREN_CHANGED -> take(Table.CHILD, path, hit);
            case NODE_DELETED -> {
                take(Table.DATA, path, hit);
                take(Table.EXIST, path, hit);
                take(Table.CHILD, path, hit);
            }
            default -> {
                return List.of();
            }
        }
        Set<Watcher> persistent = tables.get(Table.PERSISTENT).get(path);
        if (persistent != null) {
            hit.addAll(persistent);
        }
        if (event.kind() != WatchEvent.Kind.NODE_CHILDREN_CHANGED) {
            Map<String, Set<Watcher>> recursive = tables.get(Table.RECURSIVE);
            if (!recursive.isEmpty()) {
                String ancestor = path;
                while (true) {
                    Set<Watcher> watchers = recursive.get(ancestor);
                    if (watchers != null) {
                        hit.addAll(watchers);
                    }
                    if (ancestor.equals("/")) {
                        break;
                    }
                    ancestor = Paths.parent(ancestor);
                }
            }
        }
        List<Delivery> out = new ArrayList<>(hit.size());
        for (Watcher watcher : hit) {
            out.add(new Delivery(watcher, event));
        }
        return out;
    }

    /** The config watchers a change of /zookeeper/config reaches (they are one-shot, like data watches). */
    synchronized List<Delivery> triggerConfig(WatchEvent event) {
        Set<Watcher> hit = new LinkedHashSet<>();
        if (event.kind() == WatchEvent.Kind.NODE_DATA_CHANGED || event.kind() == WatchEvent.Kind.NODE_DELETED
                || event.kind() == WatchEvent.Kind.NODE_CREATED) {
            take(Table.CONFIG, CONFIG_NODE, hit);
        }
        List<Delivery> out = new ArrayList<>(hit.size());
        for (Watcher watcher : hit) {
            out.add(new Delivery(watcher, event));
        }
        return out;
    }

    private void take(Table table, String path, Set<Watcher> into) {
        Set<Watcher> watchers = tables.get(table).remove(path);
        if (watchers != null) {
            into.addAll(watchers);
        }
    }

    synchronized boolean isEmpty() {
        for (Map<String, Set<Watcher>> table : tables.values()) {
            if (!table.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The setWatches2 records that re-register every watch after a reconnect, split so that
     * each one's path bytes stay under {@code maxChunkBytes}.
     */
    synchronized List<SetWatches2> setWatchesChunks(long relativeZxid, UnaryOperator<String> toServer, int maxChunkBytes) {
        List<SetWatches2> chunks = new ArrayList<>();
        List<List<String>> lists = newLists();
        int chunkBytes = 0;
        Table[] order = Table.values();
        for (int t = 0; t < order.length; t++) {
            for (String path : tables.get(order[t]).keySet()) {
                boolean config = order[t] == Table.CONFIG;
                String serverPath = config ? path : toServer.apply(path);
                // Each string costs its bytes plus a 4-byte length on the wire.
                int cost = serverPath.length() * 3 + 4;
                if (chunkBytes > 0 && chunkBytes + cost > maxChunkBytes) {
                    chunks.add(toRecord(relativeZxid, lists));
                    lists = newLists();
                    chunkBytes = 0;
                }
                lists.get(config ? Table.DATA.ordinal() : t).add(serverPath);
                chunkBytes += cost;
            }
        }
        if (chunkBytes > 0) {
            chunks.add(toRecord(relativeZxid, lists));
        }
        return chunks;
    }

    private static List<List<String>> newLists() {
        List<List<String>> lists = new ArrayList<>();
        for (int i = 0; i < Table.values().length; i++) {
            lists.add(new ArrayList<>());
        }
        return lists;
    }

    private static SetWatches2 toRecord(long relativeZxid, List<List<String>> lists) {
        return new SetWatches2(relativeZxid, lists.get(0), lists.get(1), lists.get(2), lists.get(3), lists.get(4));
    }
}
