package dev.warden.client;

import dev.warden.protocol.EventType;

/**
 * One watch notification.
 *
 * @param kind what happened
 * @param path the node it happened to, relative to the client's chroot
 * @param zxid the transaction that fired it, or -1 when unknown (events synthesized on reconnect,
 *             and the local "watch removed" events)
 */
public record WatchEvent(Kind kind, String path, long zxid) {

    /** Event kinds; the first four come from the server, the rest are produced locally. */
    public enum Kind {
        NODE_CREATED(EventType.NODE_CREATED),
        NODE_DELETED(EventType.NODE_DELETED),
        NODE_DATA_CHANGED(EventType.NODE_DATA_CHANGED),
        NODE_CHILDREN_CHANGED(EventType.NODE_CHILDREN_CHANGED),
        DATA_WATCH_REMOVED(EventType.DATA_WATCH_REMOVED),
        CHILD_WATCH_REMOVED(EventType.CHILD_WATCH_REMOVED),
        PERSISTENT_WATCH_REMOVED(EventType.PERSISTENT_WATCH_REMOVED);

        private final int wireType;

        Kind(int wireType) {
            this.wireType = wireType;
        }

        public int wireType() {
            return wireType;
        }

        /** The kind for a WatcherEvent.type value, or null if unknown. */
        public static Kind ofWire(int type) {
            for (Kind kind : values()) {
                if (kind.wireType == type) {
                    return kind;
                }
            }
            return null;
        }
    }
}
