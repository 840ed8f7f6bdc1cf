package dev.warden.state.watch;

import java.util.function.Consumer;

/**
 * A set of {@link PathWatchers} keyed by their path: open addressing with linear probing over
 * one reference array. Compared with a {@code HashMap<String, PathWatchers>} this saves the
 * 32-byte node per entry, which dominates when most paths carry a single watch. Used both as
 * the path index and as each watcher's reverse index. Not thread-safe; the manager locks.
 */
final class PathTable {
    private static final int MIN_CAPACITY = 4;

    private PathWatchers[] slots = new PathWatchers[MIN_CAPACITY];
    private int size;

    int size() {
        return size;
    }

    PathWatchers get(String path) {
        int mask = slots.length - 1;
        for (int i = home(path, mask); ; i = (i + 1) & mask) {
            PathWatchers entry = slots[i];
            if (entry == null || entry.path.equals(path)) {
                return entry;
            }
        }
    }

    /** Adds an entry whose path is not yet present. */
    void add(PathWatchers entry) {
        // Grow at 3/4 full: linear probing degrades quickly beyond that.
        if ((size + 1) * 4 > slots.length * 3) {
            rehash(slots.length * 2);
        }
        insert(slots, entry);
        size++;
    }

    /** Removes the entry with this entry's path; returns whether one was present. */
    boolean remove(PathWatchers entry) {
        int mask = slots.length - 1;
        for (int i = home(entry.path, mask); ; i = (i + 1) & mask) {
            PathWatchers current = slots[i];
            if (current == null) {
                return false;
            }
            if (current.path.equals(entry.path)) {
                deleteAt(i);
                size--;
                // Shrink so a table emptied by closed connections gives its memory back.
                if (slots.length > MIN_CAPACITY && size * 8 < slots.length) {
                    rehash(Math.max(MIN_CAPACITY, slots.length / 2));
                }
                return true;
            }
        }
    }

    void forEach(Consumer<PathWatchers> action) {
        // Iterate a snapshot of the array reference; callers must not mutate while iterating.
        for (PathWatchers entry : slots) {
            if (entry != null) {
                action.accept(entry);
            }
        }
    }

    private static int home(String path, int mask) {
        int h = path.hashCode() * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    private static void insert(PathWatchers[] table, PathWatchers entry) {
        int mask = table.length - 1;
        int i = home(entry.path, mask);
        while (table[i] != null) {
            i = (i + 1) & mask;
        }
        table[i] = entry;
    }

    /** Backward-shift deletion: keeps every probe chain unbroken without tombstones. */
    private void deleteAt(int index) {
        int mask = slots.length - 1;
        int hole = index;
        for (int j = (index + 1) & mask; slots[j] != null; j = (j + 1) & mask) {
            int homeOfJ = home(slots[j].path, mask);
            // slots[j] may fill the hole only if the hole lies on its probe path [home, j).
            if (((j - homeOfJ) & mask) >= ((j - hole) & mask)) {
                slots[hole] = slots[j];
                hole = j;
            }
        }
        slots[hole] = null;
    }

    private void rehash(int newCapacity) {
        PathWatchers[] fresh = new PathWatchers[newCapacity];
        for (PathWatchers entry : slots) {
            if (entry != null) {
                insert(fresh, entry);
            }
        }
        slots = fresh;
    }
}
