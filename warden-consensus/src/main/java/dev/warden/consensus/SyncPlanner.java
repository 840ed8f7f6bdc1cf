package dev.warden.consensus;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;

/**
 * Decides how a leader brings one follower from its last zxid to the leader's history: DIFF when
 * the follower's tail is in the leader's log, TRUNC to the last shared zxid when the leader holds
 * an earlier entry of the follower's last epoch, SNAP otherwise. Returns the sync messages up to (not including) NEWLEADER.
 */
final class SyncPlanner {
    enum Kind { DIFF, TRUNC, SNAP }

    record Plan(Kind kind, List<ZabMessage> messages) { }

    private final PeerState state;

    SyncPlanner(PeerState state) {
        this.state = state;
    }

    /**
     * @param followerLastZxid the follower's last logged zxid
     * @param upToZxid         send entries up to here (the leader's tail, or its committed zxid for observers)
     * @param unpersisted      entries this leader logged that the log view may not show yet
     */
    Plan plan(long followerLastZxid, long upToZxid, NavigableMap<Long, Entry> unpersisted) {
        LogView log = state.log;
        List<ZabMessage> messages = new ArrayList<>();
        long from;
        Kind kind;
        if (followerLastZxid == upToZxid || shares(followerLastZxid, unpersisted)) {
            kind = Kind.DIFF;
            from = followerLastZxid;
            messages.add(new ZabMessage.Diff(upToZxid));
        } else {
            long common = commonPoint(followerLastZxid, unpersisted);
            if (followerLastZxid >= log.firstReadableZxid() && common >= 0) {
                kind = Kind.TRUNC;
                from = common;
                messages.add(new ZabMessage.Trunc(common));
            } else {
                SnapshotData snapshot = state.snapshots.take();
                kind = Kind.SNAP;
                from = snapshot.zxid();
                messages.add(new ZabMessage.Snap(snapshot.zxid(), snapshot.bytes()));
            }
        }
        if (from > upToZxid && kind == Kind.DIFF) {
            // the follower is ahead of what we send (an observer past our committed point): cut it back
            kind = Kind.TRUNC;
            from = upToZxid;
            messages.set(0, new ZabMessage.Trunc(upToZxid));
        }
        addEntries(messages, from, upToZxid, unpersisted);
        return new Plan(kind, messages);
    }

    private boolean shares(long zxid, NavigableMap<Long, Entry> unpersisted) {
        return unpersisted.containsKey(zxid) || state.log.contains(zxid)
                || zxid == state.log.firstReadableZxid() && zxid == 0;
    }

    /**
     * The last zxid both histories hold, or -1 if the log cannot tell. Only an entry of the
     * follower's last epoch is safe: entries of one epoch come from one leader in one order, so
     * sharing one means sharing everything before it. An older entry below the follower's tail may
     * be one the follower never had (it followed another leader then).
     */
    private long commonPoint(long followerLastZxid, NavigableMap<Long, Entry> unpersisted) {
        Long fromMemory = unpersisted.floorKey(followerLastZxid);
        long fromLog = state.log.floor(followerLastZxid);
        long common = Math.max(fromMemory == null ? -1 : fromMemory, fromLog);
        if (common == 0) {
            return 0; // nothing shared: truncate everything (only reachable when our log starts at zero)
        }
        boolean held = common > 0 && (unpersisted.containsKey(common) || state.log.contains(common));
        if (held && Zxid.epoch(common) == Zxid.epoch(followerLastZxid)) {
            return common;
        }
        return -1;
    }

    private void addEntries(List<ZabMessage> messages, long afterZxid, long upToZxid,
                            NavigableMap<Long, Entry> unpersisted) {
        int max = state.config.maxEntriesPerMessage();
        List<Entry> batch = new ArrayList<>();
        long logLast = Math.min(state.log.lastZxid(), upToZxid);
        long cursor = afterZxid;
        while (cursor < logLast) {
            List<Entry> read = state.log.read(cursor, logLast, max);
            Invariants.check(!read.isEmpty(), "log has no entries after " + Zxid.hex(cursor) + " up to "
                    + Zxid.hex(logLast));
            for (Entry entry : read) {
                batch = add(messages, batch, entry, max);
                cursor = entry.zxid();
            }
        }
        for (Entry entry : unpersisted.subMap(cursor, false, upToZxid, true).values()) {
            batch = add(messages, batch, entry, max);
        }
        if (!batch.isEmpty()) {
            messages.add(new ZabMessage.Propose(List.copyOf(batch)));
        }
    }

    private static List<Entry> add(List<ZabMessage> messages, List<Entry> batch, Entry entry, int max) {
        batch.add(entry);
        if (batch.size() >= max) {
            messages.add(new ZabMessage.Propose(List.copyOf(batch)));
            return new ArrayList<>();
        }
        return batch;
    }
}
