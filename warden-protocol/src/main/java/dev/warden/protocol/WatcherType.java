package dev.warden.protocol;

/** checkWatches/removeWatches type values. */
public final class WatcherType {
    public static final int CHILDREN = 1;
    public static final int DATA = 2;
    public static final int ANY = 3;
    public static final int PERSISTENT = 4;
    public static final int PERSISTENT_RECURSIVE = 5;

    /** addWatch modes. */
    public static final int ADD_WATCH_PERSISTENT = 0;
    public static final int ADD_WATCH_PERSISTENT_RECURSIVE = 1;

    private WatcherType() {
    }

    public static boolean isValid(int type) {
        return type >= CHILDREN && type <= PERSISTENT_RECURSIVE;
    }
}
