package dev.warden.state.watch;

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
        List<WatchRecipient> watchers = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            watchers.add(new RecordingWatcher("w" + i));
        }
        Map<WatchRecipient, Integer> expected = new IdentityHashMap<>();
        for (int i = 0; i < watchers.size(); i++) {
            int mode = 1 + i % WatchKinds.ALL;
            entry.setMode(watchers.get(i), mode);
            expected.put(watchers.get(i), mode);
            if (i < 40 || i % 97 == 0) {
                assertMatches(expected, watchers, entry);
            }
        }
        assertMatches(expected, watchers, entry);
        // Remove in a scrambled order so backward-shift deletion meets every chain shape.
        List<WatchRecipient> order = new ArrayList<>(watchers);
        java.util.Collections.shuffle(order, new Random(42));
        for (int i = 0; i < order.size(); i++) {
            entry.setMode(order.get(i), WatchKinds.NONE);
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
        WatchRecipient a = new RecordingWatcher("a");
        WatchRecipient b = new RecordingWatcher("b");
        entry.setMode(a, WatchKinds.DATA);
        entry.setMode(a, WatchKinds.DATA | WatchKinds.CHILD);
        assertEquals(1, entry.size());
        entry.setMode(b, WatchKinds.RECURSIVE);
        entry.setMode(b, WatchKinds.PERSISTENT);
        assertEquals(2, entry.size());
        assertEquals(WatchKinds.DATA | WatchKinds.CHILD, entry.modeOf(a));
        assertEquals(WatchKinds.PERSISTENT, entry.modeOf(b));
        entry.setMode(a, WatchKinds.NONE);
        assertEquals(1, entry.size());
        assertEquals(WatchKinds.NONE, entry.modeOf(a));
        assertEquals(WatchKinds.PERSISTENT, entry.modeOf(b));
        entry.setMode(a, WatchKinds.NONE);
        assertEquals(1, entry.size());
    }

    private static void assertMatches(Map<WatchRecipient, Integer> expected, List<WatchRecipient> all, PathWatchers entry) {
        assertEquals(expected.size(), entry.size());
        for (WatchRecipient w : all) {
            assertEquals(expected.getOrDefault(w, 0), entry.modeOf(w));
        }
        Map<WatchRecipient, Integer> visited = new IdentityHashMap<>();
        entry.forEach((w, mode) -> visited.put(w, mode));
        assertEquals(expected, visited);
        List<WatchRecipient> recursive = new ArrayList<>();
        entry.collect(WatchKinds.RECURSIVE, recursive);
        assertEquals(expected.values().stream().filter(m -> (m & WatchKinds.RECURSIVE) != 0).count(), recursive.size());
    }
}
