package dev.warden.state.watch;

import dev.warden.protocol.Acl;
import dev.warden.protocol.EventType;
import dev.warden.storage.ValueSummary;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The server's watch registry (WIRE-PROTOCOL.md §5.5, §5.6, §6). Pure in-memory logic: no I/O,
 * no threads. Thread-safe: registrations arrive from network threads, triggers from the applier
 * thread, removals from wherever a connection closes. One lock guards all state; notifications
 * are delivered after it is released, so a {@link WatchRecipient} may call back into the manager and
 * no connection lock is ever taken while holding ours. With triggers coming from one applier
 * thread (as designed), notifications leave in trigger order.
 *
 * <p>Counting: each kind (data, child, persistent, recursive) a watcher holds on a path is one
 * registration; a persistent watch counts once even though ZooKeeper files it in both tables.
 */
public final class WatchManager {
    private final int maxWatchesPerWatcher;
    private final Object lock = new Object();
    /** Watches fired per event, by event type (1..4); ZooKeeper's node_*_watch_count summaries. */
    private final ValueSummary[] firedPerEvent = {new ValueSummary(), new ValueSummary(), new ValueSummary(),
            new ValueSummary(), new ValueSummary()};

    private final PathTable byPath = new PathTable();
    /** Reverse index so closing a connection touches only its own paths. */
    private final Map<WatchRecipient, WatcherPaths> byWatcher = new IdentityHashMap<>();
    private int totalWatchCount;
    private int dataTableWatchCount;
    /** When 0, triggers skip the ancestor walk entirely. */
    private int recursiveWatchCount;

    public WatchManager(int maxWatchesPerWatcher) {
        if (maxWatchesPerWatcher < 1) {
            throw new IllegalArgumentException("maxWatchesPerWatcher must be >= 1: " + maxWatchesPerWatcher);
        }
        this.maxWatchesPerWatcher = maxWatchesPerWatcher;
    }

    /**
     * One-shot data-table watch (getData, exists). Returns false when the watcher's limit is
     * reached (nothing registered). Registering the same (path, watcher, kind) twice is one watch.
     */
    public boolean addDataWatch(String path, WatchRecipient w) {
        return add(path, w, WatchKinds.DATA);
    }

    /** One-shot child-table watch (getChildren). */
    public boolean addChildWatch(String path, WatchRecipient w) {
        return add(path, w, WatchKinds.CHILD);
    }

    /** addWatch mode 0. */
    public boolean addPersistentWatch(String path, WatchRecipient w) {
        return add(path, w, WatchKinds.PERSISTENT);
    }

    /** addWatch mode 1. */
    public boolean addPersistentRecursiveWatch(String path, WatchRecipient w) {
        return add(path, w, WatchKinds.RECURSIVE);
    }

    /**
     * Fires the watches an event of {@code eventType} on {@code path} triggers (§5.6): the
     * path's watches of the kinds the event fires, plus recursive watches of every ancestor
     * unless the event is NODE_CHILDREN_CHANGED. Fired one-shot watches are removed. Each
     * watcher gets at most one call per trigger. Returns how many process() calls were made.
     */
    public int trigger(String path, int eventType, long zxid, List<Acl> aclForReadCheck) {
        int firedBits = WatchKinds.firedOnPath(eventType);
        List<WatchRecipient> targets = new ArrayList<>();
        synchronized (lock) {
            PathWatchers own = byPath.get(path);
            if (own != null) {
                own.collect(firedBits, targets);
                int consumed = firedBits & WatchKinds.ONE_SHOT;
                for (WatchRecipient w : targets) {
                    int mode = own.modeOf(w);
                    if ((mode & consumed) != 0) {
                        changeMode(own, w, mode, mode & ~consumed);
                    }
                }
            }
            if (recursiveWatchCount > 0 && WatchKinds.firesAncestors(eventType)) {
                addRecursiveWatchersOfAncestors(path, targets);
            }
        }
        for (WatchRecipient w : targets) {
            w.process(eventType, path, zxid, aclForReadCheck);
        }
        if (!targets.isEmpty() && eventType >= EventType.NODE_CREATED && eventType <= EventType.NODE_CHILDREN_CHANGED) {
            firedPerEvent[eventType].record(targets.size());
        }
        return targets.size();
    }

    /**
     * How many watches each event of {@code eventType} fired (NODE_CREATED to
     * NODE_CHILDREN_CHANGED), counting events that fired at least one, as ZooKeeper counts them.
     */
    public ValueSummary firedPerEvent(int eventType) {
        return firedPerEvent[eventType];
    }

    /**
     * checkWatches ({@code remove} false) / removeWatches ({@code remove} true) for a
     * {@link dev.warden.protocol.WatcherType} value. Returns whether the watcher held a match.
     */
    public boolean removeWatches(String path, int watcherType, WatchRecipient w, boolean remove) {
        int bits = WatchKinds.forWatcherType(watcherType);
        synchronized (lock) {
            PathWatchers entry = byPath.get(path);
            int mode = entry == null ? WatchKinds.NONE : entry.modeOf(w);
            if ((mode & bits) == 0) {
                return false;
            }
            if (remove) {
                changeMode(entry, w, mode, mode & ~bits);
            }
            return true;
        }
    }

    /** The watcher's connection closed: drops all its watches. */
    public void removeWatcher(WatchRecipient w) {
        synchronized (lock) {
            WatcherPaths own = byWatcher.remove(w);
            if (own == null) {
                return;
            }
            own.paths.forEach(entry -> {
                int mode = entry.modeOf(w);
                entry.setMode(w, WatchKinds.NONE);
                countChange(mode, WatchKinds.NONE);
                if (entry.size() == 0) {
                    byPath.remove(entry);
                }
            });
        }
    }

    public boolean hasWatch(String path, int watcherType, WatchRecipient w) {
        return removeWatches(path, watcherType, w, false);
    }

    /** All registrations. */
    public int watchCount() {
        synchronized (lock) {
            return totalWatchCount;
        }
    }

    public int watchCount(WatchRecipient w) {
        synchronized (lock) {
            WatcherPaths own = byWatcher.get(w);
            return own == null ? 0 : own.watchCount;
        }
    }

    /** (path, watcher) pairs in ZooKeeper's data table: data, persistent or recursive (`wchs`). */
    public int dataWatchCount() {
        synchronized (lock) {
            return dataTableWatchCount;
        }
    }

    /**
     * The `wchs` figures. Walks every watch under the lock (linear in their number), which is
     * acceptable for an operator command but not for a hot path.
     */
    public DataTableSummary dataTableSummary() {
        Set<WatchRecipient> watchers = Collections.newSetFromMap(new IdentityHashMap<>());
        int[] paths = {0};
        synchronized (lock) {
            byPath.forEach(entry -> {
                boolean[] any = {false};
                entry.forEach((w, mode) -> {
                    if (WatchKinds.inDataTable(mode)) {
                        watchers.add(w);
                        any[0] = true;
                    }
                });
                paths[0] += any[0] ? 1 : 0;
            });
            return new DataTableSummary(watchers.size(), paths[0], dataTableWatchCount);
        }
    }

    /** Distinct watched paths. */
    public int pathCount() {
        synchronized (lock) {
            return byPath.size();
        }
    }

    /** Distinct watchers holding at least one watch. */
    public int watcherCount() {
        synchronized (lock) {
            return byWatcher.size();
        }
    }

    /** Snapshot for `wchc`: each watcher (by identity) with its watched paths, sorted. */
    public Map<WatchRecipient, List<String>> pathsByWatcher() {
        Map<WatchRecipient, List<String>> result = new IdentityHashMap<>();
        synchronized (lock) {
            byWatcher.forEach((w, own) -> {
                List<String> paths = new ArrayList<>(own.paths.size());
                own.paths.forEach(entry -> paths.add(entry.path));
                Collections.sort(paths);
                result.put(w, paths);
            });
        }
        return result;
    }

    /**
     * For wchc, as ZooKeeper's: each watcher with the paths it holds a data-table watch on
     * (exists, getData, persistent), in path order; child watches are not listed.
     */
    public Map<WatchRecipient, List<String>> dataWatchPathsByWatcher() {
        Map<WatchRecipient, List<String>> result = new IdentityHashMap<>();
        synchronized (lock) {
            byPath.forEach(entry -> entry.forEach((w, mode) -> {
                if (WatchKinds.inDataTable(mode)) {
                    result.computeIfAbsent(w, k -> new ArrayList<>()).add(entry.path);
                }
            }));
        }
        result.values().forEach(Collections::sort);
        return result;
    }

    /** For wchp, as ZooKeeper's: each path with a data-table watch, in path order, with its watchers. */
    public Map<String, List<WatchRecipient>> dataWatchersByPath() {
        Map<String, List<WatchRecipient>> result = new TreeMap<>();
        synchronized (lock) {
            byPath.forEach(entry -> entry.forEach((w, mode) -> {
                if (WatchKinds.inDataTable(mode)) {
                    result.computeIfAbsent(entry.path, k -> new ArrayList<>()).add(w);
                }
            }));
        }
        return result;
    }

    /** Snapshot for `wchp`: each watched path, in path order, with its watchers. */
    public Map<String, List<WatchRecipient>> watchersByPath() {
        Map<String, List<WatchRecipient>> result = new TreeMap<>();
        synchronized (lock) {
            byPath.forEach(entry -> {
                List<WatchRecipient> watchers = new ArrayList<>(entry.size());
                entry.forEach((w, mode) -> watchers.add(w));
                result.put(entry.path, watchers);
            });
        }
        return result;
    }

    private boolean add(String path, WatchRecipient w, int kind) {
        if (path == null || w == null) {
            throw new IllegalArgumentException("path and watcher are required");
        }
        synchronized (lock) {
            PathWatchers entry = byPath.get(path);
            int mode = entry == null ? WatchKinds.NONE : entry.modeOf(w);
            if ((mode & kind) != 0) {
                return true;
            }
            WatcherPaths own = byWatcher.get(w);
            if (own != null && own.watchCount >= maxWatchesPerWatcher) {
                return false;
            }
            if (entry == null) {
                entry = new PathWatchers(path);
                byPath.add(entry);
            }
            changeMode(entry, w, mode, mode | kind);
            return true;
        }
    }

    /** The one place a (path, watcher) mode changes, keeping both indexes and counters in step. */
    private void changeMode(PathWatchers entry, WatchRecipient w, int oldMode, int newMode) {
        entry.setMode(w, newMode);
        countChange(oldMode, newMode);
        WatcherPaths own = byWatcher.get(w);
        if (own == null) {
            own = new WatcherPaths();
            byWatcher.put(w, own);
        }
        own.watchCount += WatchKinds.registrations(newMode) - WatchKinds.registrations(oldMode);
        if (oldMode == WatchKinds.NONE && newMode != WatchKinds.NONE) {
            own.paths.add(entry);
        } else if (oldMode != WatchKinds.NONE && newMode == WatchKinds.NONE) {
            own.paths.remove(entry);
            if (own.paths.size() == 0) {
                byWatcher.remove(w);
            }
        }
        if (entry.size() == 0) {
            byPath.remove(entry);
        }
    }

    private void countChange(int oldMode, int newMode) {
        totalWatchCount += WatchKinds.registrations(newMode) - WatchKinds.registrations(oldMode);
        dataTableWatchCount += (WatchKinds.inDataTable(newMode) ? 1 : 0) - (WatchKinds.inDataTable(oldMode) ? 1 : 0);
        recursiveWatchCount += ((newMode & WatchKinds.RECURSIVE) != 0 ? 1 : 0) - ((oldMode & WatchKinds.RECURSIVE) != 0 ? 1 : 0);
    }

    /** Appends recursive watchers of every proper ancestor of {@code path} not already present. */
    private void addRecursiveWatchersOfAncestors(String path, List<WatchRecipient> targets) {
        Set<WatchRecipient> already = null;
        List<WatchRecipient> found = new ArrayList<>();
        for (String ancestor = parentOf(path); ancestor != null; ancestor = parentOf(ancestor)) {
            PathWatchers entry = byPath.get(ancestor);
            if (entry == null) {
                continue;
            }
            found.clear();
            entry.collect(WatchKinds.RECURSIVE, found);
            for (WatchRecipient w : found) {
                if (already == null) {
                    already = Collections.newSetFromMap(new IdentityHashMap<>());
                    already.addAll(targets);
                }
                if (already.add(w)) {
                    targets.add(w);
                }
            }
        }
    }

    /** "/a/b" → "/a", "/a" → "/", "/" (or anything without a slash) → null. */
    static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        if (slash < 0 || path.length() == 1) {
            return null;
        }
        return slash == 0 ? "/" : path.substring(0, slash);
    }

    /** Recomputes every counter from the indexes and throws if any disagrees (for tests). */
    void checkInvariants() {
        synchronized (lock) {
            new InvariantCheck(byPath, byWatcher).verify(totalWatchCount, dataTableWatchCount,
                    recursiveWatchCount, maxWatchesPerWatcher);
        }
    }

    /** One watcher's reverse index: the paths it watches and how many registrations it holds. */
    static final class WatcherPaths {
        final PathTable paths = new PathTable();
        int watchCount;
    }
}
