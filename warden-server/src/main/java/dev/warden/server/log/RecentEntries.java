package dev.warden.server.log;

import dev.warden.consensus.Entry;
import dev.warden.consensus.EntryRun;
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
    private final EntryRun entries = new EntryRun();
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
        entries.append(entry);
        bytes += entry.payload().length;
        while (entries.size() > maxEntries || (bytes > maxBytes && !entries.isEmpty())) {
            Entry evicted = entries.pollFirst();
            bytes -= evicted.payload().length;
            floorZxid = evicted.zxid();
        }
    }

    /** Forgets entries above {@code zxid}: they were truncated from the log. */
    void truncateAfter(long zxid) {
        for (Entry dropped : entries.takeAfter(zxid)) {
            bytes -= dropped.payload().length;
        }
        floorZxid = Math.min(floorZxid, zxid);
    }

    void restartAfter(long zxid) {
        entries.clear();
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
        return entries.contains(zxid);
    }

    /** The largest cached zxid at or below {@code zxid}, or the floor if none. */
    long floor(long zxid) {
        long cached = entries.floorZxid(zxid);
        return cached >= 0 ? cached : floorZxid;
    }

    /** Entries with afterZxid &lt; zxid &lt;= upToZxid, at most {@code max}. */
    List<Entry> read(long afterZxid, long upToZxid, int max) {
        List<Entry> between = entries.between(afterZxid, upToZxid);
        return new ArrayList<>(between.subList(0, Math.min(max, between.size())));
    }
}
