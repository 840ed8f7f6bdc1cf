package dev.warden.state.tree;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The tree's replicated digest after every 128th zxid, the newest {@value #KEPT} kept, as
 * ZooKeeper keeps its digest log for the {@code hash} word and the AdminServer's {@code hash}
 * command: members that applied the same history show the same digest at the same zxid.
 * Recorded under the tree's write lock, read from any thread.
 */
public final class DigestHistory {
    /** A digest is recorded when the zxid's counter is a multiple of this. */
    public static final int INTERVAL = 128;
    public static final int KEPT = 1024;

    /** One entry: the tree's replicated digest right after {@code zxid} was applied. */
    public record ZxidDigest(long zxid, long digest) {
    }

    private final ArrayDeque<ZxidDigest> entries = new ArrayDeque<>();

    synchronized void maybeRecord(long zxid, long digest) {
        if ((zxid & 0xffffffffL) % INTERVAL != 0) {
            return;
        }
        if (entries.size() == KEPT) {
            entries.removeFirst();
        }
        entries.addLast(new ZxidDigest(zxid, digest));
    }

    /** Newest first, as ZooKeeper lists them. */
    public synchronized List<ZxidDigest> newestFirst() {
        List<ZxidDigest> list = new ArrayList<>(entries);
        java.util.Collections.reverse(list);
        return list;
    }

    synchronized void clear() {
        entries.clear();
    }
}
