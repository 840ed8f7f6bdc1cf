package dev.warden.consensus;

import java.util.List;

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
}
