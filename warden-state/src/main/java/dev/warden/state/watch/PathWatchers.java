package dev.warden.state.watch;

import java.util.List;

/**
 * The watchers of one path, each with its {@link WatchKinds} bits. Three layouts, chosen by size,
 * because most paths carry one watcher while a few popular ones carry thousands:
 * <ul>
 *   <li>one watcher: stored inline, no array at all;</li>
 *   <li>up to {@value #LINEAR_CAPACITY_MAX}: packed arrays scanned linearly;</li>
 *   <li>more: open-addressed identity hash table (linear probing), so registering on a path
 *       with n watchers stays O(1) instead of O(n).</li>
 * </ul>
 * Not thread-safe; the manager locks.
 */
final class PathWatchers {
    private static final int LINEAR_CAPACITY_MAX = 8;

    final String path;
    /** null when empty, the watcher itself when size is 1, else a WatchRecipient[]. */
    private Object watchers;
    /** Parallel to the WatchRecipient[]; unused while the watcher is stored inline. */
    private byte[] modes;
    private byte singleMode;
    private int size;

    PathWatchers(String path) {
        this.path = path;
    }

    int size() {
        return size;
    }

    /** The mode bits this watcher holds here, 0 if none. */
    int modeOf(WatchRecipient w) {
        if (watchers instanceof WatchRecipient[] array) {
            int slot = slotOf(array, w);
            return slot < 0 ? WatchKinds.NONE : modes[slot];
        }
        return watchers == w ? singleMode : WatchKinds.NONE;
    }

    /** Sets this watcher's mode bits; 0 removes the watcher. */
    void setMode(WatchRecipient w, int mode) {
        if (watchers instanceof WatchRecipient[] array) {
            int slot = slotOf(array, w);
            if (slot >= 0 && mode != WatchKinds.NONE) {
                modes[slot] = (byte) mode;
            } else if (slot >= 0) {
                removeAt(array, slot);
            } else if (mode != WatchKinds.NONE) {
                addToArray(array, w, mode);
            }
        } else if (watchers == w) {
            if (mode == WatchKinds.NONE) {
                watchers = null;
                size = 0;
            }
            singleMode = (byte) mode;
        } else if (mode != WatchKinds.NONE) {
            if (watchers == null) {
                watchers = w;
                singleMode = (byte) mode;
                size = 1;
            } else {
                WatchRecipient[] array = new WatchRecipient[2];
                modes = new byte[2];
                array[0] = (WatchRecipient) watchers;
                modes[0] = singleMode;
                array[1] = w;
                modes[1] = (byte) mode;
                watchers = array;
                size = 2;
            }
        }
    }

    /** Appends to {@code out} every watcher holding any of {@code bits}. */
    void collect(int bits, List<WatchRecipient> out) {
        if (watchers instanceof WatchRecipient[] array) {
            for (int i = 0; i < array.length; i++) {
                if (array[i] != null && (modes[i] & bits) != 0) {
                    out.add(array[i]);
                }
            }
        } else if (watchers != null && (singleMode & bits) != 0) {
            out.add((WatchRecipient) watchers);
        }
    }

    /** Calls the visitor once per watcher with its mode. The visitor must not mutate this. */
    void forEach(ModeVisitor visitor) {
        if (watchers instanceof WatchRecipient[] array) {
            for (int i = 0; i < array.length; i++) {
                if (array[i] != null) {
                    visitor.visit(array[i], modes[i]);
                }
            }
        } else if (watchers != null) {
            visitor.visit((WatchRecipient) watchers, singleMode);
        }
    }

    interface ModeVisitor {
        void visit(WatchRecipient w, int mode);
    }

    private boolean isHashed(WatchRecipient[] array) {
        return array.length > LINEAR_CAPACITY_MAX;
    }

    private int slotOf(WatchRecipient[] array, WatchRecipient w) {
        if (!isHashed(array)) {
            for (int i = 0; i < size; i++) {
                if (array[i] == w) {
                    return i;
                }
            }
            return -1;
        }
        int mask = array.length - 1;
        for (int i = home(w, mask); ; i = (i + 1) & mask) {
            if (array[i] == null) {
                return -1;
            }
            if (array[i] == w) {
                return i;
            }
        }
    }

    private void addToArray(WatchRecipient[] array, WatchRecipient w, int mode) {
        boolean hashed = isHashed(array);
        if (!hashed && size < array.length) {
            array[size] = w;
            modes[size] = (byte) mode;
        } else if (!hashed || (size + 1) * 4 > array.length * 3) {
            // A full linear array doubles (becoming hashed past the linear maximum); a hashed
            // one doubles at 3/4 load because linear probing degrades quickly beyond that.
            rebuild(array.length * 2);
            addToArray((WatchRecipient[]) watchers, w, mode);
            return;
        } else {
            insertHashed(array, modes, w, mode);
        }
        size++;
    }

    private void removeAt(WatchRecipient[] array, int slot) {
        size--;
        if (isHashed(array)) {
            deleteHashed(array, slot);
            if (size * 8 < array.length) {
                rebuild(size <= LINEAR_CAPACITY_MAX ? LINEAR_CAPACITY_MAX : array.length / 2);
            }
        } else {
            // Keep the linear layout packed: move the last entry into the hole.
            array[slot] = array[size];
            modes[slot] = modes[size];
            array[size] = null;
            modes[size] = 0;
        }
        if (size == 1) {
            inlineTheLastOne();
        }
    }

    private void inlineTheLastOne() {
        WatchRecipient[] array = (WatchRecipient[]) watchers;
        for (int i = 0; i < array.length; i++) {
            if (array[i] != null) {
                watchers = array[i];
                singleMode = modes[i];
                modes = null;
                return;
            }
        }
        throw new IllegalStateException("size 1 but no watcher stored for " + path);
    }

    /** Re-lays all entries into arrays of the given capacity (linear or hashed by capacity). */
    private void rebuild(int capacity) {
        WatchRecipient[] old = (WatchRecipient[]) watchers;
        byte[] oldModes = modes;
        WatchRecipient[] array = new WatchRecipient[capacity];
        byte[] fresh = new byte[capacity];
        boolean hashed = capacity > LINEAR_CAPACITY_MAX;
        int next = 0;
        for (int i = 0; i < old.length; i++) {
            if (old[i] == null) {
                continue;
            }
            if (hashed) {
                insertHashed(array, fresh, old[i], oldModes[i]);
            } else {
                array[next] = old[i];
                fresh[next] = oldModes[i];
                next++;
            }
        }
        watchers = array;
        modes = fresh;
    }

    private static void insertHashed(WatchRecipient[] array, byte[] modes, WatchRecipient w, int mode) {
        int mask = array.length - 1;
        int i = home(w, mask);
        while (array[i] != null) {
            i = (i + 1) & mask;
        }
        array[i] = w;
        modes[i] = (byte) mode;
    }

    /** Backward-shift deletion, as in {@link PathTable}: no tombstones, chains stay intact. */
    private void deleteHashed(WatchRecipient[] array, int slot) {
        int mask = array.length - 1;
        int hole = slot;
        for (int j = (slot + 1) & mask; array[j] != null; j = (j + 1) & mask) {
            int homeOfJ = home(array[j], mask);
            if (((j - homeOfJ) & mask) >= ((j - hole) & mask)) {
                array[hole] = array[j];
                modes[hole] = modes[j];
                hole = j;
            }
        }
        array[hole] = null;
        modes[hole] = 0;
    }

    private static int home(WatchRecipient w, int mask) {
        int h = System.identityHashCode(w) * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }
}
