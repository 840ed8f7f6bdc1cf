package dev.warden.server.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Drives one path's watcher slots through inline, linear and hashed layouts and back. */
class PathWatchersTest {

    @Test
    void growsThroughEveryLayoutAndShrinksBackWithoutLosingAWatcher() {
        PathWatchers entry = new PathWatchers("/p");
        List<Watcher> watchers = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            watchers.add(new RecordingWatcher("w" + i));
        }
        Map<Watcher, Integer> expected = new IdentityHashMap<>();
        for (int i = 0; i < watchers.size(); i++) {
            int mode = 1 + i % WatchMode.ALL;
            entry.setMode(watchers.get(i), mode);
            expected.put(watchers.get(i), mode);
            if (i < 40 || i % 97 == 0) {
                assertMatches(expected, watchers, entry);
            }
        }
        assertMatches(expected, watchers, entry);
        // Remove in a scrambled order so backward-shift deletion meets every chain shape.
        List<Watcher> order = new ArrayList<>(watchers);
        java.util.Collections.shuffle(order, new Random(42));
        for (int i = 0; i < order.size(); i++) {
            entry.setMode(order.get(i), WatchMode.NONE);
            expected.remove(order.get(i));
            if (order.size() - i < 40 || i % 89 == 0) {
                assertMatches(expected, watchers, entry);
            }
        }
        assertEquals(0, entry.size());
    }

    @Test
    void changingAModeInPlaceKeepsTheSize() {
        PathWatchers entry = new PathWatchers("/p");
        Watcher a = new RecordingWatcher("a");
        Watcher b = new RecordingWatcher("b");
        entry.setMode(a, WatchMode.DATA);
        entry.setMode(a, WatchMode.DATA | WatchMode.CHILD);
        assertEquals(1, entry.size());
        entry.setMode(b, WatchMode.RECURSIVE);
        entry.setMode(b, WatchMode.PERSISTENT);
        assertEquals(2, entry.size());
        assertEquals(WatchMode.DATA | WatchMode.CHILD, entry.modeOf(a));
        assertEquals(WatchMode.PERSISTENT, entry.modeOf(b));
        entry.setMode(a, WatchMode.NONE);
        assertEquals(1, entry.size());
        assertEquals(WatchMode.NONE, entry.modeOf(a));
        assertEquals(WatchMode.PERSISTENT, entry.modeOf(b));
        entry.setMode(a, WatchMode.NONE);
        assertEquals(1, entry.size());
    }

    private static void assertMatches(Map<Watcher, Integer> expected, List<Watcher> all, PathWatchers entry) {
        assertEquals(expected.size(), entry.size());
        for (Watcher w : all) {
            assertEquals(expected.getOrDefault(w, 0), entry.modeOf(w));
        }
        Map<Watcher, Integer> visited = new IdentityHashMap<>();
        entry.forEach((w, mode) -> visited.put(w, mode));
        assertEquals(expected, visited);
        List<Watcher> recursive = new ArrayList<>();
        entry.collect(WatchMode.RECURSIVE, recursive);
        assertEquals(expected.values().stream().filter(m -> (m & WatchMode.RECURSIVE) != 0).count(), recursive.size());
    }
}
