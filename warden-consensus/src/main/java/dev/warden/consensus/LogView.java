package dev.warden.consensus;

import java.util.List;
import java.util.function.Predicate;

/**
 * Read access to this member's own persisted log, supplied by the driver. Calls are synchronous
 * and happen on the core's thread. The core never writes through this interface: writes are
 * effects in {@link Ready} that the driver performs.
 */
public interface LogView {
    /** The zxid of the last entry on disk (0 for an empty log). */
    long lastZxid();

    /**
     * The oldest zxid from which {@link #read} can still serve a DIFF: entries after it are all
     * present. After a purge or a SNAP install this is the snapshot's zxid.
     */
    long firstReadableZxid();

    /** The largest logged zxid that is &lt;= {@code zxid}, or {@code firstReadableZxid()} if none. */
    long floor(long zxid);

    /** True if an entry with exactly this zxid is in the readable part of the log. */
    boolean contains(long zxid);

    /** Entries with afterZxid &lt; zxid &lt;= upToZxid, in order, at most {@code maxEntries}. */
    List<Entry> read(long afterZxid, long upToZxid, int maxEntries);

    /** Entries {@link #scan} asks {@link #read} for at a time when a view has no streaming read of its own. */
    int SCAN_CHUNK_ENTRIES = 1000;

    /**
     * Hands the entries with afterZxid &lt; zxid &lt;= upToZxid to {@code visitor} in order until it
     * returns false or they run out. A leader bringing a follower up to date reads thousands of
     * entries this way in one pass; a view backed by files overrides this so the pass reads each
     * file once, where a {@link #read} per batch would re-read its segment from the start every
     * time. The default reads in batches of {@link #SCAN_CHUNK_ENTRIES}.
     */
    default void scan(long afterZxid, long upToZxid, Predicate<Entry> visitor) {
        long cursor = afterZxid;
        while (cursor < upToZxid) {
            List<Entry> batch = read(cursor, upToZxid, SCAN_CHUNK_ENTRIES);
            if (batch.isEmpty()) {
                return;
            }
            for (Entry entry : batch) {
                if (!visitor.test(entry)) {
                    return;
                }
                cursor = entry.zxid();
            }
        }
    }
}
