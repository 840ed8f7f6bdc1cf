package dev.warden.server.log;

import dev.warden.consensus.Entry;
import java.util.ArrayList;
import java.util.List;

/**
 * The newest log entries in memory, bounded by count and bytes, so that DIFFs for followers
 * that are only a little behind, and contains/floor near the head, need no disk read.
 * Invariant: every logged entry with zxid above {@link #floorZxid()} is held here.
 */
final class RecentEntries {
    private final int maxEntries;
    private final long maxBytes;
    private final ArrayList<Entry> entries = new ArrayList<>();
    private int head;
    private long bytes;
    private long floorZxid;

    RecentEntries(int maxEntries, long maxBytes, long floorZxid) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.floorZxid = floorZxid;
    }

    long floorZxid() {
        return floorZxid;
    }

    void add(Entry entry) {
        entries.add(entry);
        bytes += entry.payload().length;
        while (size() > maxEntries || (bytes > maxBytes && size() > 0)) {
            Entry evicted = entries.set(head++, null);
            bytes -= evicted.payload().length;
            floorZxid = evicted.zxid();
        }
        if (head > 1024 && head > entries.size() / 2) {
            entries.subList(0, head).clear();
            head = 0;
        }
    }

    /** Forgets entries above {@code zxid}: they were truncated from the log. */
    void truncateAfter(long zxid) {
        while (size() > 0 && entries.get(entries.size() - 1).zxid() > zxid) {
            bytes -= entries.remove(entries.size() - 1).payload().length;
        }
        floorZxid = Math.min(floorZxid, zxid);
    }

    void restartAfter(long zxid) {
        entries.clear();
        head = 0;
        bytes = 0;
        floorZxid = zxid;
    }

    /**
     * True if reads after {@code zxid} and floors of {@code zxid} can be answered here. The floor
     * itself is an entry (or the log's start) that may no longer be cached, so asking whether
     * the log contains exactly it must go to disk.
     */
    boolean covers(long zxid) {
        return zxid >= floorZxid;
    }

    boolean contains(long zxid) {
        int at = search(zxid);
        return at >= 0;
    }

    /** The largest cached zxid at or below {@code zxid}, or the floor if none. */
    long floor(long zxid) {
        int at = search(zxid);
        if (at >= 0) {
            return zxid;
        }
        int insertion = -at - 1;
        return insertion > head ? entries.get(insertion - 1).zxid() : floorZxid;
    }

    /** Entries with afterZxid &lt; zxid &lt;= upToZxid, at most {@code max}. */
    List<Entry> read(long afterZxid, long upToZxid, int max) {
        int at = search(afterZxid);
        int from = at >= 0 ? at + 1 : -at - 1;
        List<Entry> out = new ArrayList<>(Math.min(max, Math.max(0, entries.size() - from)));
        for (int i = from; i < entries.size() && out.size() < max; i++) {
            Entry entry = entries.get(i);
            if (entry.zxid() > upToZxid) {
                break;
            }
            out.add(entry);
        }
        return out;
    }

    private int size() {
        return entries.size() - head;
    }

    /** Binary search over [head, size): index if found, else -(insertion point) - 1. */
    private int search(long zxid) {
        int low = head;
        int high = entries.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long value = entries.get(mid).zxid();
            if (value < zxid) {
                low = mid + 1;
            } else if (value > zxid) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -(low + 1);
    }
}
