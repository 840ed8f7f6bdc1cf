package dev.warden.state.watch;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Recomputes the manager's counters from its two indexes and checks they agree with each other
 * and with the maintained totals. Linear in the number of watches: for tests and debugging.
 */
final class InvariantCheck {
    private final PathTable byPath;
    private final Map<WatchRecipient, WatchManager.WatcherPaths> byWatcher;

    InvariantCheck(PathTable byPath, Map<WatchRecipient, WatchManager.WatcherPaths> byWatcher) {
        this.byPath = byPath;
        this.byWatcher = byWatcher;
    }

    void verify(int totalWatchCount, int dataTableWatchCount, int recursiveWatchCount, int maxWatchesPerWatcher) {
        int[] totals = new int[3];
        Map<WatchRecipient, int[]> perWatcher = new IdentityHashMap<>();
        byPath.forEach(entry -> {
            require(entry.size() > 0, "empty entry kept for " + entry.path);
            require(byPath.get(entry.path) == entry, "path index cannot find " + entry.path);
            int[] seen = {0};
            entry.forEach((w, mode) -> {
                seen[0]++;
                require(mode != WatchKinds.NONE && (mode & ~WatchKinds.ALL) == 0, "bad mode " + mode);
                WatchManager.WatcherPaths own = byWatcher.get(w);
                require(own != null && own.paths.get(entry.path) == entry,
                        "reverse index misses " + entry.path);
                totals[0] += WatchKinds.registrations(mode);
                totals[1] += WatchKinds.inDataTable(mode) ? 1 : 0;
                totals[2] += (mode & WatchKinds.RECURSIVE) != 0 ? 1 : 0;
                int[] counts = perWatcher.computeIfAbsent(w, k -> new int[2]);
                counts[0] += WatchKinds.registrations(mode);
                counts[1]++;
            });
            require(seen[0] == entry.size(), "size " + entry.size() + " but " + seen[0] + " stored");
        });
        require(totals[0] == totalWatchCount, "total " + totalWatchCount + " but counted " + totals[0]);
        require(totals[1] == dataTableWatchCount, "data " + dataTableWatchCount + " but counted " + totals[1]);
        require(totals[2] == recursiveWatchCount, "recursive " + recursiveWatchCount + " but counted " + totals[2]);
        require(perWatcher.size() == byWatcher.size(), "watchers " + byWatcher.size() + " vs " + perWatcher.size());
        byWatcher.forEach((w, own) -> {
            int[] counts = perWatcher.get(w);
            require(counts != null, "watcher indexed without watches");
            require(counts[0] == own.watchCount, "watcher count " + own.watchCount + " vs " + counts[0]);
            require(counts[1] == own.paths.size(), "watcher paths " + own.paths.size() + " vs " + counts[1]);
            require(own.watchCount <= maxWatchesPerWatcher, "limit exceeded: " + own.watchCount);
        });
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException("watch manager invariant violated: " + message);
        }
    }
}
