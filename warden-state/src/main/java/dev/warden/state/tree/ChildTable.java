package dev.warden.state.tree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A node's children, keyed by name, with no object per child: up to {@link #DENSE_MAX} children
 * sit in a packed array scanned linearly; beyond that, an open-addressing table (linear
 * probing, power-of-two size, at most 3/4 full) of the child nodes themselves. Also holds the
 * parent-only Stat fields, so leaves do not carry them.
 *
 * <p>Children are listed, and written to snapshots, in slot order. Added in that order to a
 * table smaller than the one that listed them, as a table growing from empty is, they would land
 * in crowded stretches and probe runs would grow with the children (300,000 children of one node
 * took 2.2–6.9 s to restore that way); a snapshot's reader therefore sizes the table for all of
 * a node's children first ({@link #reserve}), and they go in at once. A table doubles by
 * re-adding its children in slot order, each to its old slot or the one a capacity further,
 * which keeps that pass sequential.
 */
final class ChildTable {
    private static final DataNode[] NONE = new DataNode[0];
    static final int DENSE_MAX = 8;

    long pzxid;
    int cversionCounter;
    private int size;
    /** Dense: children in [0, size). Hashed: length > DENSE_MAX, null = free slot. */
    private DataNode[] slots = NONE;

    ChildTable(long pzxid) {
        this.pzxid = pzxid;
    }

    int size() {
        return size;
    }

    private boolean hashed() {
        return slots.length > DENSE_MAX;
    }

    /** The child named path[from, to), whose {@link NodeNames} hash is given, or null. */
    DataNode get(String path, int from, int to, long nameHash64) {
        int hash = (int) nameHash64;
        if (!hashed()) {
            for (int i = 0; i < size; i++) {
                DataNode child = slots[i];
                if (child.nameHash == hash && NodeNames.matches(path, from, to, child.name)) {
                    return child;
                }
            }
            return null;
        }
        int mask = slots.length - 1;
        for (int i = home(hash, mask); ; i = (i + 1) & mask) {
            DataNode child = slots[i];
            if (child == null) {
                return null;
            }
            if (child.nameHash == hash && NodeNames.matches(path, from, to, child.name)) {
                return child;
            }
        }
    }

    /**
     * Adds a child read from a snapshot unless one of the same name is here already (a damaged
     * snapshot); false then, with the children as they were (the table may have grown). One
     * probe run serves both the check and the insert.
     */
    boolean addIfAbsent(DataNode child) {
        if (!hashed()) {
            for (int i = 0; i < size; i++) {
                if (slots[i].nameHash == child.nameHash && Arrays.equals(slots[i].name, child.name)) {
                    return false;
                }
            }
            add(child);
            return true;
        }
        if ((size + 1) * 4L > slots.length * 3L) {
            rehash(slots.length * 2);
        }
        int mask = slots.length - 1;
        int i = home(child.nameHash, mask);
        for (; slots[i] != null; i = (i + 1) & mask) {
            if (slots[i].nameHash == child.nameHash && Arrays.equals(slots[i].name, child.name)) {
                return false;
            }
        }
        slots[i] = child;
        size++;
        return true;
    }

    /**
     * Sizes an empty table for {@code children} children, as it would have grown to holding
     * them, so a snapshot's reader adds them without rehashing on the way.
     */
    void reserve(int children) {
        if (size > 0 || children <= DENSE_MAX) {
            return;
        }
        int capacity = DENSE_MAX * 4;
        while (children * 4L > capacity * 3L) {
            capacity *= 2;
        }
        slots = new DataNode[capacity];
    }

    /** Adds a child; the caller has checked that no child of that name exists. */
    void add(DataNode child) {
        if (!hashed()) {
            if (size < slots.length) {
                slots[size++] = child;
                return;
            }
            if (size < DENSE_MAX) {
                DataNode[] grown = new DataNode[Math.max(2, size * 2)];
                System.arraycopy(slots, 0, grown, 0, size);
                slots = grown;
                slots[size++] = child;
                return;
            }
            rehash(DENSE_MAX * 4);
        } else if ((size + 1) * 4L > slots.length * 3L) {
            rehash(slots.length * 2);
        }
        insertHashed(slots, child);
        size++;
    }

    /** Removes this child (by identity); false if it is not here. */
    boolean remove(DataNode child) {
        if (!hashed()) {
            for (int i = 0; i < size; i++) {
                if (slots[i] == child) {
                    slots[i] = slots[--size];
                    slots[size] = null;
                    if (size == 0) {
                        slots = NONE;
                    }
                    return true;
                }
            }
            return false;
        }
        int mask = slots.length - 1;
        int i = home(child.nameHash, mask);
        while (slots[i] != child) {
            if (slots[i] == null) {
                return false;
            }
            i = (i + 1) & mask;
        }
        slots[i] = null;
        size--;
        closeGap(i, mask);
        if (size <= DENSE_MAX / 2) {
            makeDense();
        } else if (size * 8L < slots.length && slots.length > DENSE_MAX * 4) {
            rehash(slots.length / 2);
        }
        return true;
    }

    /** Puts replacement (a child of the same name) in the place of child. */
    void replace(DataNode child, DataNode replacement) {
        if (!hashed()) {
            for (int i = 0; i < size; i++) {
                if (slots[i] == child) {
                    slots[i] = replacement;
                    return;
                }
            }
        } else {
            int mask = slots.length - 1;
            for (int i = home(child.nameHash, mask); slots[i] != null; i = (i + 1) & mask) {
                if (slots[i] == child) {
                    slots[i] = replacement;
                    return;
                }
            }
        }
        throw new IllegalStateException("replacing a node that is not a child here");
    }

    /** Moves later members of the probe run back so that no lookup stops early at the gap. */
    private void closeGap(int gap, int mask) {
        for (int i = (gap + 1) & mask; slots[i] != null; i = (i + 1) & mask) {
            int home = home(slots[i].nameHash, mask);
            // Move slots[i] into the gap unless its home lies cyclically in (gap, i].
            boolean homeAfterGap = gap <= i ? home > gap && home <= i : home > gap || home <= i;
            if (!homeAfterGap) {
                slots[gap] = slots[i];
                slots[i] = null;
                gap = i;
            }
        }
    }

    private void makeDense() {
        DataNode[] dense = new DataNode[DENSE_MAX];
        int n = 0;
        for (DataNode child : slots) {
            if (child != null) {
                dense[n++] = child;
            }
        }
        slots = dense;
    }

    private void rehash(int capacity) {
        DataNode[] table = new DataNode[capacity];
        for (DataNode child : slots) {
            if (child != null) {
                insertHashed(table, child);
            }
        }
        slots = table;
    }

    private static void insertHashed(DataNode[] table, DataNode child) {
        int mask = table.length - 1;
        int i = home(child.nameHash, mask);
        while (table[i] != null) {
            i = (i + 1) & mask;
        }
        table[i] = child;
    }

    /** The slot a name hashes to in a table of {@code mask + 1} slots. */
    private static int home(int hash, int mask) {
        return (hash ^ (hash >>> 16)) & mask;
    }

    /** The children at this moment, for walks that must not see later changes to the table. */
    DataNode[] toArray() {
        DataNode[] copy = new DataNode[size];
        int n = 0;
        for (DataNode child : slots) {
            if (child != null && n < size) {
                copy[n++] = child;
            }
        }
        return copy;
    }

    List<String> names() {
        List<String> names = new ArrayList<>(size);
        for (DataNode child : slots) {
            if (child != null) {
                names.add(NodeNames.decode(child.name));
            }
        }
        return names;
    }
}
