package dev.warden.server.log;

import dev.warden.consensus.Entry;
import dev.warden.consensus.LogView;
import dev.warden.storage.LogIterator;
import dev.warden.storage.LogRecord;
import dev.warden.storage.TxnLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The Zab core's view of this member's log, and the driver's way to change it. Reads are served
 * from an in-memory cache of the newest entries when possible; otherwise the per-segment zxid
 * ranges the log keeps in memory pick the one segment to scan, so no query reads more than one
 * segment before its answer (and {@link #read} then streams forward from there).
 *
 * <p>{@code baseZxid} is the zxid of the snapshot the state machine was rebuilt from (0 for
 * none): recovery guarantees that every entry after it is in the log, so it is where DIFFs can
 * start until a purge or a SNAP install moves that point.
 *
 * <p>All methods run on the driver's single consensus thread, except {@link #appendDurably},
 * which the driver's log thread calls while the driver goes on: it touches only the
 * (synchronized) {@link TxnLog}. The core sees appended entries only once the driver has
 * {@link #published} them, so its view of the log changes only on its own thread. Disk errors
 * during reads surface as {@link UncheckedIOException}, since {@link LogView} has no checked
 * exceptions.
 */
public final class TxnLogView implements LogView {
    /*
     * Small on purpose: the cache's entries are young objects that are alive at every young
     * collection under write load, so each collection copies all of them. With 10,000 entries
     * (about 11 MB at 1 KiB values) G1's young pauses on a busy 3-member ensemble reached
     * 100-160 ms; with 1,000 they stayed under 90 ms and the live heap after a collection fell to
     * 9 MB (docs/PERFORMANCE.md). Followers further behind are served from the log file.
     */
    public static final int DEFAULT_CACHE_ENTRIES = 1_000;
    public static final long DEFAULT_CACHE_BYTES = 4L << 20;

    private final TxnLog log;
    private final RecentEntries recent;
    /** Every logged entry above this zxid is present. */
    private long readableFromZxid;
    /** The last entry the core may see: durable and {@link #published}. */
    private long visibleZxid;

    public TxnLogView(TxnLog log, long baseZxid) {
        this(log, baseZxid, DEFAULT_CACHE_ENTRIES, DEFAULT_CACHE_BYTES);
    }

    public TxnLogView(TxnLog log, long baseZxid, int cacheMaxEntries, long cacheMaxBytes) {
        if (baseZxid < 0 || cacheMaxEntries < 0 || cacheMaxBytes < 0) {
            throw new IllegalArgumentException("negative base zxid or cache size");
        }
        this.log = log;
        List<TxnLog.SegmentRange> ranges = log.segmentRanges();
        this.readableFromZxid = ranges.isEmpty() ? baseZxid : Math.min(baseZxid, ranges.get(0).firstZxid());
        this.visibleZxid = log.lastDurableZxid();
        this.recent = new RecentEntries(cacheMaxEntries, cacheMaxBytes, lastZxid());
    }

    @Override
    public long lastZxid() {
        return Math.max(visibleZxid, readableFromZxid);
    }

    @Override
    public long firstReadableZxid() {
        return readableFromZxid;
    }

    @Override
    public long floor(long zxid) {
        if (zxid <= readableFromZxid) {
            return readableFromZxid;
        }
        long last = lastZxid();
        if (zxid >= last) {
            return last;
        }
        if (recent.covers(zxid)) {
            return Math.max(recent.floor(zxid), readableFromZxid);
        }
        TxnLog.SegmentRange segment = segmentAtOrBelow(zxid);
        if (segment == null) {
            return readableFromZxid;
        }
        if (zxid >= segment.lastZxid()) {
            return segment.lastZxid();
        }
        long floor = readableFromZxid;
        try (LogIterator records = log.readAfter(segment.firstZxid() - 1)) {
            while (records.hasNext()) {
                long next = records.next().zxid();
                if (next > zxid) {
                    break;
                }
                floor = next;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Math.max(floor, readableFromZxid);
    }

    /** True only for an entry physically in the log at or after {@link #firstReadableZxid()}. */
    @Override
    public boolean contains(long zxid) {
        if (zxid <= 0 || zxid < readableFromZxid || zxid > visibleZxid) {
            return false;
        }
        if (zxid > recent.floorZxid()) {
            return recent.contains(zxid);
        }
        TxnLog.SegmentRange segment = segmentAtOrBelow(zxid);
        if (segment == null || zxid > segment.lastZxid()) {
            return false;
        }
        if (zxid == segment.firstZxid() || zxid == segment.lastZxid()) {
            return true;
        }
        return floor(zxid) == zxid;
    }

    @Override
    public List<Entry> read(long afterZxid, long upToZxid, int maxEntries) {
        if (maxEntries <= 0 || upToZxid <= afterZxid) {
            return List.of();
        }
        if (afterZxid < readableFromZxid) {
            throw new IllegalArgumentException("entries after 0x" + Long.toHexString(afterZxid)
                    + " are no longer all in the log; it is readable from 0x" + Long.toHexString(readableFromZxid));
        }
        if (recent.covers(afterZxid)) {
            return recent.read(afterZxid, upToZxid, maxEntries);
        }
        List<Entry> out = new ArrayList<>();
        try (LogIterator records = log.readAfter(afterZxid)) {
            while (records.hasNext() && out.size() < maxEntries) {
                LogRecord record = records.next();
                if (record.zxid() > upToZxid) {
                    break;
                }
                out.add(new Entry(record.zxid(), record.payload()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /**
     * One pass: from the cache when it holds the start, otherwise one iterator over the segments
     * from {@code afterZxid} on. A {@link #read} per batch would scan the segment from its first
     * record each time; bringing a new member up to date from an empty log read its segment
     * about as many times as there were batches, on the leader's driver thread, which held every
     * write for up to a second on a busy machine.
     */
    @Override
    public void scan(long afterZxid, long upToZxid, Predicate<Entry> visitor) {
        if (upToZxid <= afterZxid) {
            return;
        }
        if (afterZxid < readableFromZxid || recent.covers(afterZxid)) {
            LogView.super.scan(afterZxid, upToZxid, visitor); // read's refusal, or the cache
            return;
        }
        try (LogIterator records = log.readAfter(afterZxid)) {
            while (records.hasNext()) {
                LogRecord record = records.next();
                if (record.zxid() > upToZxid || !visitor.test(new Entry(record.zxid(), record.payload()))) {
                    return;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Appends the entries and fsyncs once (Ready's entriesToPersist), then publishes them. */
    public void persist(List<Entry> entries) throws IOException {
        appendDurably(entries);
        published(entries);
    }

    /**
     * Appends the entries and fsyncs once; any thread. They stay out of the core's view until
     * {@link #published}.
     */
    public void appendDurably(List<Entry> entries) throws IOException {
        if (entries.isEmpty()) {
            return;
        }
        try {
            for (Entry entry : entries) {
                log.append(entry.zxid(), entry.payload());
            }
            log.flush();
        } catch (IOException | RuntimeException e) {
            // Nothing of a failed batch may count as logged; the caller decides whether to go on.
            try {
                log.rollbackToDurable();
            } catch (IOException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        }
    }

    /** Entries {@link #appendDurably} wrote, in order, become visible to the core (driver thread). */
    public void published(List<Entry> entries) {
        for (Entry entry : entries) {
            recent.add(entry);
        }
        if (!entries.isEmpty()) {
            visibleZxid = Math.max(visibleZxid, entries.get(entries.size() - 1).zxid());
        }
    }

    /** Drops every entry after {@code zxid}, durably (Ready's truncateAfterZxid). */
    public void truncateAfter(long zxid) throws IOException {
        log.truncateAfter(zxid);
        visibleZxid = log.lastDurableZxid();
        // The last entry kept, not zxid itself: zxid may fall between entries.
        recent.truncateAfter(visibleZxid);
        readableFromZxid = Math.min(readableFromZxid, zxid);
    }

    /**
     * Empties the log for a SNAP install at {@code snapshotZxid}; the snapshot must already be
     * durable in the snapshot store, since after this the log alone cannot rebuild the state.
     */
    public void restartAfter(long snapshotZxid) throws IOException {
        restartAfter(snapshotZxid, null);
    }

    /** As {@link #restartAfter(long)}, moving the segments into {@code setAsideInto} instead of deleting them. */
    public void restartAfter(long snapshotZxid, java.nio.file.Path setAsideInto) throws IOException {
        log.restartAfter(snapshotZxid, setAsideInto);
        visibleZxid = log.lastDurableZxid();
        recent.restartAfter(snapshotZxid);
        readableFromZxid = snapshotZxid;
    }

    /** Deletes segments no longer needed after a snapshot at {@code snapshotZxid}; see {@link TxnLog#purgeUpTo}. */
    public void purgeUpTo(long snapshotZxid) throws IOException {
        log.purgeUpTo(snapshotZxid);
        List<TxnLog.SegmentRange> ranges = log.segmentRanges();
        if (!ranges.isEmpty()) {
            // Entries before the first kept segment are gone; its first entry is known present.
            readableFromZxid = Math.max(readableFromZxid, Math.min(ranges.get(0).firstZxid(), snapshotZxid));
        }
    }

    private TxnLog.SegmentRange segmentAtOrBelow(long zxid) {
        List<TxnLog.SegmentRange> ranges = log.segmentRanges();
        int low = 0;
        int high = ranges.size() - 1;
        TxnLog.SegmentRange found = null;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (ranges.get(mid).firstZxid() <= zxid) {
                found = ranges.get(mid);
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return found;
    }
}
