package dev.warden.recipes.cache;

import dev.warden.protocol.Stat;

/**
 * One node as the cache last read it.
 *
 * @param path its path (client view, relative to the chroot)
 * @param data its data (a copy is handed out; do not rely on sharing)
 * @param stat its Stat from the same read
 */
public record CachedNode(String path, byte[] data, Stat stat) {
    @Override
    public byte[] data() {
        return data.clone();
    }

    /** Same node state: the same creation and the same modification. */
    boolean sameAs(CachedNode other) {
        return other != null && stat.czxid() == other.stat.czxid() && stat.mzxid() == other.stat.mzxid();
    }
}
