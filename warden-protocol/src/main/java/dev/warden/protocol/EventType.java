package dev.warden.protocol;

/** WatcherEvent.type values. */
public final class EventType {
    public static final int NONE = -1;
    public static final int NODE_CREATED = 1;
    public static final int NODE_DELETED = 2;
    public static final int NODE_DATA_CHANGED = 3;
    public static final int NODE_CHILDREN_CHANGED = 4;
    public static final int DATA_WATCH_REMOVED = 5;
    public static final int CHILD_WATCH_REMOVED = 6;
    public static final int PERSISTENT_WATCH_REMOVED = 7;

    /** WatcherEvent.state: the only state a server sends. */
    public static final int STATE_SYNC_CONNECTED = 3;

    private EventType() {
    }

    public static String name(int type) {
        return switch (type) {
            case NONE -> "None";
            case NODE_CREATED -> "NodeCreated";
            case NODE_DELETED -> "NodeDeleted";
            case NODE_DATA_CHANGED -> "NodeDataChanged";
            case NODE_CHILDREN_CHANGED -> "NodeChildrenChanged";
            case DATA_WATCH_REMOVED -> "DataWatchRemoved";
            case CHILD_WATCH_REMOVED -> "ChildWatchRemoved";
            case PERSISTENT_WATCH_REMOVED -> "PersistentWatchRemoved";
            default -> "Unknown(" + type + ")";
        };
    }
}
