package dev.warden.sim;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Entry;
import dev.warden.consensus.EpochState;
import dev.warden.consensus.LogView;
import dev.warden.consensus.SnapshotData;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * One member's data directory: the epoch file, snapshot files, the log ({@link SimLog}, segments
 * linked as the server links them) and the resync marker. Writes show at once (as in the page
 * cache) but become durable only on {@link #fsync}; a crash undoes what was not synced, except
 * that a torn tail may keep a prefix of the last unsynced appends. Files can also be damaged or
 * lost at rest (a member that is down), which only recovery notices. Also the member's
 * {@link LogView}.
 */
public final class SimDisk implements LogView {
    /** What the directory holds. */
    private static final class Contents {
        EpochState epochs = EpochState.INITIAL;
        /** Snapshot files by zxid (the zxid names the file, so a second one at a zxid replaces the first). */
        final TreeMap<Long, SnapshotFile> snapshots;
        final SimLog log;
        boolean resyncMarker;
        /** The dynamic configuration file: the newest configuration the member recorded committed (null: its start file's). */
        Configuration committedConfiguration;

        Contents() {
            this(new TreeMap<>(), new SimLog());
        }

        private Contents(TreeMap<Long, SnapshotFile> snapshots, SimLog log) {
            this.snapshots = snapshots;
            this.log = log;
        }

        Contents copy() {
            Contents copy = new Contents(new TreeMap<>(snapshots), log.copy());
            copy.epochs = epochs;
            copy.resyncMarker = resyncMarker;
            copy.committedConfiguration = committedConfiguration;
            return copy;
        }
    }

    /** A write not yet synced: it is applied to what is durable at the next fsync, or lost in a crash. */
    private record Write(Consumer<Contents> change, boolean append) { }

    /** What the member sees (the page cache). */
    private Contents current = new Contents();
    /** What survives a crash. */
    private Contents durable = new Contents();
    private final List<Write> unsynced = new ArrayList<>();
    private long lostWrites;
    private long tornTails;

    // --- reads ---

    public EpochState epochs() {
        return current.epochs;
    }

    /** Every snapshot file, oldest first. */
    public List<SnapshotFile> snapshots() {
        return List.copyOf(current.snapshots.values());
    }

    /** The newest snapshot file, or null. */
    SnapshotFile newestSnapshot() {
        var newest = current.snapshots.lastEntry();
        return newest == null ? null : newest.getValue();
    }

    /** The log's segments, oldest first. */
    List<SimLog.Segment> segments() {
        return current.log.segments();
    }

    long lastZxidOfSegment(int index) {
        return current.log.lastZxidOf(index);
    }

    /** Where the log starts while it holds no segment: its base file, or 0. */
    long emptyLogStart() {
        return current.log.emptyLogStart();
    }

    /** Every logged entry after {@code afterZxid}, in order. */
    List<Entry> entriesAfter(long afterZxid) {
        return current.log.entriesAfter(afterZxid);
    }

    /** The configuration the member last recorded committed, or null if it never recorded one. */
    public Configuration committedConfiguration() {
        return current.committedConfiguration;
    }

    /** True while the resync marker is in the directory. */
    public boolean hasResyncMarker() {
        return current.resyncMarker;
    }

    // --- writes, durable at the next fsync ---

    private void write(Consumer<Contents> change, boolean append) {
        change.accept(current);
        unsynced.add(new Write(change, append));
    }

    public void writeEpochs(EpochState state) {
        write(c -> c.epochs = state, false);
    }

    public void append(Entry entry) {
        if (entry.zxid() <= lastZxid()) {
            throw new IllegalStateException("append out of order: " + entry.zxid() + " after " + lastZxid());
        }
        write(c -> c.log.append(entry), true);
    }

    /** As the server's TRUNC: records after {@code zxid} go; a log left empty keeps a base. */
    public void truncateAfter(long zxid) {
        write(c -> c.log.truncateAfter(zxid), false);
    }

    /** A SNAP from the leader: its snapshot file is written, then the log restarts after its zxid. */
    public void installSnapshot(SnapshotData data) {
        SnapshotFile file = SnapshotFile.of(data);
        write(c -> {
            c.snapshots.put(file.zxid(), file);
            c.log.restartAfter(file.zxid());
        }, false);
    }

    /** A local snapshot, as the server takes one: the log rolls, then the snapshot file is written. */
    void takeSnapshot(SnapshotData data) {
        SnapshotFile file = SnapshotFile.of(data);
        write(c -> {
            c.log.roll();
            c.snapshots.put(file.zxid(), file);
        }, false);
    }

    /**
     * The server's autopurge: keeps the newest {@code retainCount} valid snapshots and deletes every
     * snapshot older than the oldest of them (nothing while fewer are valid), then the log
     * segments no longer needed to replay from the oldest snapshot left.
     */
    void autopurge(int retainCount) {
        write(c -> {
            int valid = 0;
            Long deleteBelowZxid = null;
            for (SnapshotFile file : c.snapshots.descendingMap().values()) {
                if (!file.damaged() && ++valid == retainCount) {
                    deleteBelowZxid = file.zxid();
                    break;
                }
            }
            if (deleteBelowZxid != null) {
                c.snapshots.headMap(deleteBelowZxid, false).clear();
            }
            if (!c.snapshots.isEmpty()) {
                c.log.purgeUpTo(c.snapshots.firstKey());
            }
        }, false);
    }

    /** The member records the newest configuration it knows committed (the server's dynamic configuration file). */
    void writeCommittedConfiguration(Configuration configuration) {
        write(c -> c.committedConfiguration = configuration, false);
    }

    /** The member must take a copy of a leader's history before it counts toward any quorum. */
    void writeResyncMarker() {
        write(c -> c.resyncMarker = true, false);
    }

    void removeResyncMarker() {
        write(c -> c.resyncMarker = false, false);
    }

    /**
     * Sets the whole history aside, as an ensemble member does whose data proves no state (or whose
     * core abandoned its history): the marker first, then the log (it starts again at 0) and every
     * snapshot. One crash-atomic unit here: unsynced, all of it is undone together.
     */
    void setAsideHistory() {
        writeResyncMarker();
        write(c -> {
            c.log.restartAfter(0);
            c.snapshots.clear();
        }, false);
    }

    /** Moves segments (by their first zxid) and snapshot files (by zxid) out of the directory, as recovery does. */
    void setAside(Collection<Long> segmentFirstZxids, Collection<Long> snapshotZxids) {
        List<Long> segments = List.copyOf(segmentFirstZxids);
        List<Long> snapshots = List.copyOf(snapshotZxids);
        write(c -> {
            for (long first : segments) {
                List<SimLog.Segment> all = c.log.segments();
                for (int i = 0; i < all.size(); i++) {
                    if (all.get(i).firstZxid() == first) {
                        c.log.removeSegment(i);
                        break;
                    }
                }
            }
            snapshots.forEach(c.snapshots::remove);
        }, false);
    }

    public void fsync() {
        for (Write write : unsynced) {
            write.change().accept(durable);
        }
        unsynced.clear();
    }

    public boolean hasUnsynced() {
        return !unsynced.isEmpty();
    }

    /** A crash: unsynced writes are lost; if only appends were pending, a random prefix of them may survive. */
    public void crash(RandomGenerator random) {
        crash(random, true);
    }

    /** A crash; without {@code tornTail} every unsynced write is lost. */
    public void crash(RandomGenerator random, boolean tornTail) {
        boolean onlyAppends = tornTail && unsynced.stream().allMatch(Write::append);
        int survivors = onlyAppends && !unsynced.isEmpty() ? random.nextInt(unsynced.size() + 1) : 0;
        for (Write write : unsynced.subList(0, survivors)) {
            write.change().accept(durable);
        }
        lostWrites += unsynced.size() - survivors;
        if (survivors > 0 && survivors < unsynced.size()) {
            tornTails++;
        }
        unsynced.clear();
        current = durable.copy();
    }

    // --- damage at rest: files of a member that is down change under it ---

    private void atRest(Consumer<Contents> change) {
        if (!unsynced.isEmpty()) {
            throw new IllegalStateException("damage at rest with unsynced writes: crash the member first");
        }
        change.accept(durable);
        current = durable.copy();
    }

    /** The snapshot file at {@code zxid} no longer verifies. */
    void damageSnapshot(long zxid) {
        atRest(c -> c.snapshots.computeIfPresent(zxid, (z, file) -> file.damage()));
    }

    /** Segment {@code index} is gone (deleted by a purge or an operator, or lost); never the newest. */
    void loseSegment(int index) {
        if (index < 0 || index >= segments().size() - 1) {
            throw new IllegalArgumentException("segment " + index + " of " + segments().size()
                    + ": only a segment before the newest can be lost here");
        }
        atRest(c -> c.log.removeSegment(index));
    }

    /** Unsynced writes undone by crashes so far. */
    public long lostWriteCount() {
        return lostWrites;
    }

    /** Crashes that kept some but not all of the unsynced appends. */
    public long tornTailCount() {
        return tornTails;
    }

    // --- LogView ---

    @Override
    public long lastZxid() {
        return current.log.lastZxid();
    }

    /** The log's start: it holds every entry after it (recovery leaves one unbroken run). */
    @Override
    public long firstReadableZxid() {
        return current.log.startZxid();
    }

    @Override
    public long floor(long zxid) {
        return current.log.floor(zxid);
    }

    @Override
    public boolean contains(long zxid) {
        return current.log.contains(zxid);
    }

    @Override
    public List<Entry> read(long afterZxid, long upToZxid, int maxEntries) {
        return current.log.read(afterZxid, upToZxid, maxEntries);
    }
}
