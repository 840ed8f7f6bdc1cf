package dev.warden.state.watch;

import dev.warden.protocol.EventType;
import dev.warden.protocol.WatcherType;

/**
 * The kinds of watch one watcher can hold on one path, as bits of a single small int. Keeping
 * all four kinds of a (path, watcher) pair in one byte is what lets the manager store a pair as
 * one slot instead of one set entry per kind and table.
 */
final class WatchKinds {
    /** One-shot watch in the data table (getData, exists). */
    static final int DATA = 1;
    /** One-shot watch in the child table (getChildren). */
    static final int CHILD = 2;
    /** addWatch mode 0: sits in both tables, fires on all four event types for its own path. */
    static final int PERSISTENT = 4;
    /** addWatch mode 1: data table only; fires for the path and every descendant. */
    static final int RECURSIVE = 8;

    static final int NONE = 0;
    static final int ALL = DATA | CHILD | PERSISTENT | RECURSIVE;
    /** Kinds removed when they fire. */
    static final int ONE_SHOT = DATA | CHILD;
    /** Kinds ZooKeeper keeps in its data-watch table (what `wchs` counts). */
    static final int DATA_TABLE = DATA | PERSISTENT | RECURSIVE;

    private WatchKinds() {
    }

    /** Bits a checkWatches/removeWatches request of this {@link WatcherType} matches. */
    static int forWatcherType(int watcherType) {
        return switch (watcherType) {
            case WatcherType.CHILDREN -> CHILD;
            case WatcherType.DATA -> DATA;
            case WatcherType.ANY -> ALL;
            case WatcherType.PERSISTENT -> PERSISTENT;
            case WatcherType.PERSISTENT_RECURSIVE -> RECURSIVE;
            default -> throw new IllegalArgumentException("not a WatcherType: " + watcherType);
        };
    }

    /** Bits on the event's own path that an event of this type fires. */
    static int firedOnPath(int eventType) {
        return switch (eventType) {
            case EventType.NODE_CREATED, EventType.NODE_DATA_CHANGED -> DATA | PERSISTENT | RECURSIVE;
            case EventType.NODE_DELETED -> ALL;
            case EventType.NODE_CHILDREN_CHANGED -> CHILD | PERSISTENT;
            default -> throw new IllegalArgumentException("not a server-side event type: " + eventType);
        };
    }

    /** Whether an event of this type also fires recursive watches of the path's ancestors. */
    static boolean firesAncestors(int eventType) {
        return eventType != EventType.NODE_CHILDREN_CHANGED;
    }

    /** How many registrations a mode stands for (each kind counts once). */
    static int registrations(int mode) {
        return Integer.bitCount(mode & ALL);
    }

    static boolean inDataTable(int mode) {
        return (mode & DATA_TABLE) != 0;
    }
}
