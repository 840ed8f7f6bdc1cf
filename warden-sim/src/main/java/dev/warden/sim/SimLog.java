package dev.warden.sim;

import dev.warden.consensus.Entry;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A model of the server's transaction log (docs/STORAGE.md, {@code TxnLog}): segments that each
 * record the zxid their first record follows, and a base that says where a log holding no
 * segment starts. A segment exists once it holds a record; a roll makes the next append start a
 * new one; {@link #truncateAfter} and {@link #restartAfter} keep the base as the server's do, so
 * recovery can tell a log that continues from one whose earlier part is missing. Holds no notion
 * of durability: {@link SimDisk} decides what survives a crash.
 */
final class SimLog {
    /** One segment file: the zxid its first record follows and its first zxid; its records are in {@link #entries}. */
    record Segment(long previousZxid, long firstZxid) {
        String name() {
            return String.format("log.%016x", firstZxid);
        }
    }

    /** Every record of every segment, by zxid; segment {@code i} holds those from its first zxid up to the next one's. */
    private final TreeMap<Long, Entry> entries;
    private final List<Segment> segments;
    /** The base file: where the log starts while it holds no segment (absent: a new log, starting at 0). */
    private long baseZxid;
    private boolean basePresent;
    /** The current segment was rolled: the next append starts a new one. */
    private boolean rolled;

    SimLog() {
        this(new TreeMap<>(), new ArrayList<>(), 0, false, false);
    }

    private SimLog(TreeMap<Long, Entry> entries, List<Segment> segments, long baseZxid, boolean basePresent,
                   boolean rolled) {
        this.entries = entries;
        this.segments = segments;
        this.baseZxid = baseZxid;
        this.basePresent = basePresent;
        this.rolled = rolled;
    }

    SimLog copy() {
        return new SimLog(new TreeMap<>(entries), new ArrayList<>(segments), baseZxid, basePresent, rolled);
    }

    // --- writes, as TxnLog performs them ---

    void append(Entry entry) {
        if (entry.zxid() <= lastZxid()) {
            throw new IllegalStateException("append out of order: " + Long.toHexString(entry.zxid()) + " after "
                    + Long.toHexString(lastZxid()));
        }
        if (segments.isEmpty() || rolled) {
            // a new segment follows the last record before it; once it exists the base is stale
            segments.add(new Segment(lastZxid(), entry.zxid()));
            rolled = false;
            basePresent = false;
        }
        entries.put(entry.zxid(), entry);
    }

    /** The snapshot's roll: the next append starts a new segment. */
    void roll() {
        rolled = !segments.isEmpty();
    }

    /**
     * Removes every record above {@code zxid}: later segments go, the one holding {@code zxid}
     * is cut and appended to again. A log left with no segment keeps a base saying where it
     * started, as {@code TxnLog.truncateAfter} writes it.
     */
    void truncateAfter(long zxid) {
        if (zxid >= lastZxid()) {
            return;
        }
        long start = startZxid();
        if (!segments.isEmpty() && segments.get(0).firstZxid() > zxid) {
            baseZxid = start;
            basePresent = true;
        }
        while (!segments.isEmpty() && segments.get(segments.size() - 1).firstZxid() > zxid) {
            segments.remove(segments.size() - 1);
        }
        entries.tailMap(zxid, false).clear();
        rolled = false;
    }

    /** Drops every segment: the log continues from a snapshot at {@code zxid} (its base says so). */
    void restartAfter(long zxid) {
        entries.clear();
        segments.clear();
        baseZxid = zxid;
        basePresent = true;
        rolled = false;
    }

    /**
     * The autopurge's log part, as {@code TxnLog.purgeUpTo}: deletes whole segments oldest first
     * while the next one starts at or below {@code zxid}, so replay from a snapshot at
     * {@code zxid} stays possible; never the newest segment.
     */
    void purgeUpTo(long zxid) {
        while (segments.size() > 1 && segments.get(1).firstZxid() <= zxid) {
            removeSegment(0);
        }
    }

    /** The segment's file is gone (purged, lost, or set aside), with its records. */
    void removeSegment(int index) {
        Segment segment = segments.remove(index);
        long end = index < segments.size() ? segments.get(index).firstZxid() : Long.MAX_VALUE;
        entries.subMap(segment.firstZxid(), true, end, false).clear();
        if (segments.isEmpty()) {
            rolled = false;
        }
    }

    // --- what recovery and the core read ---

    List<Segment> segments() {
        return List.copyOf(segments);
    }

    /** The last zxid of segment {@code index}. */
    long lastZxidOf(int index) {
        return index + 1 < segments.size() ? entries.lowerKey(segments.get(index + 1).firstZxid()) : entries.lastKey();
    }

    /** Where a log holding no segment starts: its base, or 0 for a new log. */
    long emptyLogStart() {
        return basePresent ? baseZxid : 0;
    }

    /** The zxid the log's records follow: the first segment's previous zxid, or the base. */
    long startZxid() {
        return segments.isEmpty() ? emptyLogStart() : segments.get(0).previousZxid();
    }

    long lastZxid() {
        return entries.isEmpty() ? startZxid() : entries.lastKey();
    }

    boolean contains(long zxid) {
        return entries.containsKey(zxid);
    }

    /** The largest logged zxid at or below {@code zxid}, or the log's start if none. */
    long floor(long zxid) {
        Long key = entries.floorKey(zxid);
        return key == null ? startZxid() : key;
    }

    List<Entry> read(long afterZxid, long upToZxid, int maxEntries) {
        List<Entry> out = new ArrayList<>();
        if (upToZxid <= afterZxid) {
            return out;
        }
        for (Entry entry : entries.subMap(afterZxid, false, upToZxid, true).values()) {
            if (out.size() >= maxEntries) {
                break;
            }
            out.add(entry);
        }
        return out;
    }

    /** Every record after {@code afterZxid}, in order. */
    List<Entry> entriesAfter(long afterZxid) {
        return List.copyOf(entries.tailMap(afterZxid, false).values());
    }
}
