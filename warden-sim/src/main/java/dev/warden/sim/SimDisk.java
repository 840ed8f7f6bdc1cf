package dev.warden.sim;

import dev.warden.consensus.Entry;
import dev.warden.consensus.EpochState;
import dev.warden.consensus.LogView;
import dev.warden.consensus.SnapshotData;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * One member's disk: a log, a snapshot and the epoch file. Writes show at once (as in the page
 * cache) but become durable only on {@link #fsync}; a crash undoes what was not synced, except that
 * a torn tail may keep a prefix of the last unsynced appends. Also the member's {@link LogView}.
 */
public final class SimDisk implements LogView {
    private sealed interface Undo permits UndoEpochs, UndoAppend, UndoTruncate, UndoSnapshot { }
    private record UndoEpochs(EpochState previous) implements Undo { }
    private record UndoAppend(long zxid) implements Undo { }
    private record UndoTruncate(NavigableMap<Long, Entry> removed) implements Undo { }
    private record UndoSnapshot(SnapshotData previous, TreeMap<Long, Entry> previousLog) implements Undo { }

    private EpochState epochs = EpochState.INITIAL;
    /** The snapshot the log continues from; zxid 0 with empty bytes means "none". */
    private SnapshotData snapshot = new SnapshotData(0, new byte[0]);
    private TreeMap<Long, Entry> log = new TreeMap<>();
    private final Deque<Undo> unsynced = new ArrayDeque<>();
    private long lostWrites;
    private long tornTails;

    public EpochState epochs() {
        return epochs;
    }

    public SnapshotData snapshot() {
        return snapshot;
    }

    public List<Entry> entries() {
        return List.copyOf(log.values());
    }

    public void writeEpochs(EpochState state) {
        unsynced.push(new UndoEpochs(epochs));
        epochs = state;
    }

    public void append(Entry entry) {
        if (entry.zxid() <= lastZxid()) {
            throw new IllegalStateException("append out of order: " + entry.zxid() + " after " + lastZxid());
        }
        unsynced.push(new UndoAppend(entry.zxid()));
        log.put(entry.zxid(), entry);
    }

    public void truncateAfter(long zxid) {
        if (zxid < snapshot.zxid()) {
            throw new IllegalStateException("truncate to " + zxid + " below the snapshot at " + snapshot.zxid());
        }
        NavigableMap<Long, Entry> removed = new TreeMap<>(log.tailMap(zxid, false));
        log.tailMap(zxid, false).clear();
        unsynced.push(new UndoTruncate(removed));
    }

    /** Replaces everything with a snapshot; the log restarts after its zxid. */
    public void installSnapshot(SnapshotData data) {
        unsynced.push(new UndoSnapshot(snapshot, log));
        snapshot = data;
        log = new TreeMap<>();
    }

    /** A local snapshot of committed state: older log entries may be dropped (purge). */
    public void purgeTo(SnapshotData data) {
        if (!unsynced.isEmpty()) {
            throw new IllegalStateException("purge with unsynced writes");
        }
        snapshot = data;
        log.headMap(data.zxid(), true).clear();
    }

    public void fsync() {
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
        boolean onlyAppends = tornTail && unsynced.stream().allMatch(u -> u instanceof UndoAppend);
        int survivors = onlyAppends && !unsynced.isEmpty() ? random.nextInt(unsynced.size() + 1) : 0;
        List<Undo> newestFirst = new ArrayList<>(unsynced);
        for (int i = 0; i < newestFirst.size() - survivors; i++) {
            undo(newestFirst.get(i));
        }
        lostWrites += newestFirst.size() - survivors;
        if (survivors > 0 && survivors < newestFirst.size()) {
            tornTails++;
        }
        unsynced.clear();
    }

    private void undo(Undo undo) {
        if (undo instanceof UndoEpochs u) {
            epochs = u.previous();
        } else if (undo instanceof UndoAppend u) {
            log.remove(u.zxid());
        } else if (undo instanceof UndoTruncate u) {
            log.putAll(u.removed());
        } else if (undo instanceof UndoSnapshot u) {
            snapshot = u.previous();
            log = u.previousLog();
        }
    }

    /** Unsynced writes undone by crashes so far. */
    public long lostWriteCount() {
        return lostWrites;
    }

    /** Crashes that kept some but not all of the unsynced appends. */
    public long tornTailCount() {
        return tornTails;
    }

    @Override
    public long lastZxid() {
        return log.isEmpty() ? snapshot.zxid() : log.lastKey();
    }

    @Override
    public long firstReadableZxid() {
        return snapshot.zxid();
    }

    @Override
    public long floor(long zxid) {
        Long key = log.floorKey(zxid);
        return key == null ? snapshot.zxid() : key;
    }

    @Override
    public boolean contains(long zxid) {
        return log.containsKey(zxid);
    }

    @Override
    public List<Entry> read(long afterZxid, long upToZxid, int maxEntries) {
        List<Entry> out = new ArrayList<>();
        for (Entry entry : log.subMap(afterZxid, false, upToZxid, true).values()) {
            if (out.size() >= maxEntries) {
                break;
            }
            out.add(entry);
        }
        return out;
    }
}
