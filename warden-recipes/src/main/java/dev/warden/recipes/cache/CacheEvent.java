package dev.warden.recipes.cache;

/**
 * A change of a cache's view, or of its connection.
 *
 * @param type     what happened
 * @param node     the node after the change (null for REMOVED and the connection events)
 * @param previous the node before it (null for ADDED and the connection events)
 */
public record CacheEvent(Type type, CachedNode node, CachedNode previous) {
    public enum Type {
        /** A node appeared in the view. */
        ADDED,
        /** A node's data (or, after a resync, its creation) changed. */
        UPDATED,
        /** A node left the view. */
        REMOVED,
        /** The first full load is complete: the view matches the server as of then. */
        INITIALIZED,
        /** The connection dropped: the view may be stale until RESYNCED. */
        SUSPENDED,
        /** Reconnected and reloaded: changes missed while away have been delivered before this. */
        RESYNCED,
        /** The session ended or the client closed: the view is frozen and no longer followed. */
        STOPPED
    }

    static CacheEvent of(Type type) {
        return new CacheEvent(type, null, null);
    }
}
