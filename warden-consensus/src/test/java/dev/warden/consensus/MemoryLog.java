package dev.warden.consensus;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A log and a trivial state machine (the list of applied entries) kept in memory, for scenario tests. */
final class MemoryLog implements LogView {
    final TreeMap<Long, Entry> entries = new TreeMap<>();
    long snapshotZxid;
    /** The state machine: every entry applied, in order (snapshot contents first). */
    final TreeMap<Long, Entry> applied = new TreeMap<>();

    static MemoryLog of(long... zxids) {
        MemoryLog log = new MemoryLog();
        for (long zxid : zxids) {
            Entry entry = new Entry(zxid, ("e" + Zxid.hex(zxid)).getBytes());
            log.entries.put(zxid, entry);
            log.applied.put(zxid, entry);
        }
        return log;
    }

    @Override
    public long lastZxid() {
        return entries.isEmpty() ? snapshotZxid : entries.lastKey();
    }

    @Override
    public long firstReadableZxid() {
        return snapshotZxid;
    }

    @Override
    public long floor(long zxid) {
        Long key = entries.floorKey(zxid);
        return key == null ? snapshotZxid : Math.max(key, snapshotZxid);
    }

    @Override
    public boolean contains(long zxid) {
        return zxid > snapshotZxid && entries.containsKey(zxid);
    }

    @Override
    public List<Entry> read(long afterZxid, long upToZxid, int maxEntries) {
        List<Entry> out = new ArrayList<>();
        for (Entry entry : entries.subMap(afterZxid, false, upToZxid, true).values()) {
            if (out.size() == maxEntries) {
                break;
            }
            out.add(entry);
        }
        return out;
    }

    /** Drops entries up to {@code zxid} from the log, as a purge after a snapshot would. */
    void purgeUpTo(long zxid) {
        entries.headMap(zxid, true).clear();
        snapshotZxid = zxid;
    }

    SnapshotData snapshot() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (Entry entry : applied.values()) {
            ByteBuffer header = ByteBuffer.allocate(12).putLong(entry.zxid()).putInt(entry.payload().length);
            bytes.writeBytes(header.array());
            bytes.writeBytes(entry.payload());
        }
        return new SnapshotData(applied.isEmpty() ? 0 : applied.lastKey(), bytes.toByteArray());
    }

    void install(SnapshotData snapshot) {
        applied.clear();
        ByteBuffer in = ByteBuffer.wrap(snapshot.bytes());
        while (in.hasRemaining()) {
            long zxid = in.getLong();
            byte[] payload = new byte[in.getInt()];
            in.get(payload);
            applied.put(zxid, new Entry(zxid, payload));
        }
        entries.clear();
        snapshotZxid = snapshot.zxid();
    }

    /** Drops entries after {@code zxid} and, as the Ready contract asks, rebuilds the state to exactly it. */
    void truncateAfter(long zxid) {
        entries.tailMap(zxid, false).clear();
        replayAfterRestart();
    }

    /** A restart rebuilds the state machine: the snapshot's part, then every logged entry. */
    void replayAfterRestart() {
        applied.tailMap(snapshotZxid, false).clear();
        for (Entry entry : entries.values()) {
            applied.put(entry.zxid(), entry);
        }
    }

    /** The history set aside: an empty log and state, starting at zero. */
    void forgetEverything() {
        entries.clear();
        applied.clear();
        snapshotZxid = 0;
    }

    void append(Entry entry) {
        entries.put(entry.zxid(), entry);
    }

    void apply(Entry entry) {
        applied.put(entry.zxid(), entry);
    }

    Map<Long, Entry> appliedView() {
        return applied;
    }
}
