package dev.warden.state.tree;

/**
 * The tree's encoding of a node's owner in one long (as ZooKeeper stores it, so snapshots stay
 * compact): 0 = persistent, a session id = ephemeral, Long.MIN_VALUE = container, and
 * 0xFF in the top byte with the TTL in the low 40 bits = TTL node. Session ids carry the server
 * id in the top byte, which is why server ids must stay below 255.
 */
public final class NodeOwner {
    public static final long PERSISTENT = 0;
    public static final long CONTAINER = Long.MIN_VALUE;
    private static final long TTL_MARK = 0xFF00000000000000L;
    public static final long MAX_TTL_MS = 0xFF_FFFF_FFFFL;

    private NodeOwner() {
    }

    public static long ttl(long ttlMs) {
        return TTL_MARK | ttlMs;
    }

    public static boolean isContainer(long owner) {
        return owner == CONTAINER;
    }

    public static boolean isTtl(long owner) {
        return owner != CONTAINER && (owner & TTL_MARK) == TTL_MARK;
    }

    public static long ttlMs(long owner) {
        return owner & MAX_TTL_MS;
    }

    /** True for session-owned (ephemeral) nodes. */
    public static boolean isEphemeral(long owner) {
        return owner != PERSISTENT && !isContainer(owner) && !isTtl(owner);
    }

    /** What Stat.ephemeralOwner reports: the session only for real ephemerals. */
    public static long reported(long owner) {
        return isEphemeral(owner) ? owner : 0;
    }
}
