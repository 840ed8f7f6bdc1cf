package dev.warden.consensus;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides how a leader brings one follower from its last zxid to the leader's history: DIFF when
 * the follower's tail is in the leader's log, TRUNC to the last shared zxid when the leader holds
 * an earlier entry of the follower's last epoch, SNAP otherwise. A DIFF or TRUNC whose entries
 * would exceed the diff budget becomes a SNAP too: a follower far behind (down for a while under
 * heavy writes) is cheaper to send the tree than the log, and the leader must not read, hold and
 * queue everything it missed. A member with no history gets a DIFF only while it is no larger
 * than a snapshot would be. Returns the sync messages up to (not including) NEWLEADER.
 */
final class SyncPlanner {
    enum Kind { DIFF, TRUNC, SNAP }

    record Plan(Kind kind, List<ZabMessage> messages) { }

    /** Below this a diff is always sent, however small the tree: a few entries beat any snapshot. */
    static final long ALWAYS_DIFF_BYTES = 1 << 20;

    private final PeerState state;

    SyncPlanner(PeerState state) {
        this.state = state;
    }

    /**
     * @param followerLastZxid the follower's last logged zxid
     * @param upToZxid         send entries up to here (the leader's tail, or its committed zxid for observers)
     * @param unpersisted      entries this leader logged that the log view may not show yet
     */
    Plan plan(long followerLastZxid, long upToZxid, EntryRun unpersisted) {
        Plan fromLog = planFromLog(followerLastZxid, upToZxid, unpersisted);
        return fromLog != null ? fromLog : planSnapshot(state.snapshots.take(), upToZxid, unpersisted);
    }

    /** Payload bytes a DIFF or TRUNC may carry: a third of the tree's size, within the configured cap. */
    long diffBudgetBytes() {
        long third = state.snapshots.estimatedBytes() / 3;
        return Math.min(state.config.maxSyncDiffBytes(), Math.max(ALWAYS_DIFF_BYTES, third));
    }

    /**
     * Payload bytes a DIFF to a member with no history at all may carry: no more than a snapshot
     * would. Such a member (a joiner, a member whose data was wiped) takes either one whole, so
     * the smaller is sent; a small tree written often (the log of a busy ensemble's first minutes)
     * is a few KiB as a snapshot against up to {@link #ALWAYS_DIFF_BYTES} as a diff, which the
     * leader's driver thread reads from its log and the member writes and syncs to its own.
     */
    long emptyFollowerBudgetBytes() {
        return Math.min(diffBudgetBytes(), state.snapshots.estimatedBytes());
    }

    /** DIFF or TRUNC with the entries the follower lacks; null if the log cannot serve them within budget (a SNAP then). */
    Plan planFromLog(long followerLastZxid, long upToZxid, EntryRun unpersisted) {
        Kind kind;
        long from;
        ZabMessage head;
        if (followerLastZxid == upToZxid || shares(followerLastZxid, unpersisted)) {
            if (followerLastZxid > upToZxid) {
                // the follower is ahead of what we send (an observer past our committed point): cut it back
                kind = Kind.TRUNC;
                from = upToZxid;
                head = new ZabMessage.Trunc(upToZxid);
            } else {
                kind = Kind.DIFF;
                from = followerLastZxid;
                head = new ZabMessage.Diff(upToZxid);
            }
        } else {
            long common = commonPoint(followerLastZxid, unpersisted);
            if (followerLastZxid < state.log.firstReadableZxid() || common < 0) {
                return null;
            }
            kind = Kind.TRUNC;
            from = common;
            head = new ZabMessage.Trunc(common);
        }
        List<ZabMessage> messages = new ArrayList<>();
        messages.add(head);
        long budgetBytes = followerLastZxid == 0 ? emptyFollowerBudgetBytes() : diffBudgetBytes();
        if (!addEntries(messages, from, upToZxid, unpersisted, budgetBytes)) {
            return null;
        }
        return new Plan(kind, messages);
    }

    /**
     * True if {@code snapshot} can still start a SNAP: the log holds every entry after it. A
     * snapshot taken in the background may be answered after writes moved on; the log keeps what
     * the newest snapshots on disk need, which reaches further back than any snapshot just taken.
     */
    boolean canFollow(SnapshotData snapshot) {
        return snapshot.zxid() >= state.log.firstReadableZxid();
    }

    /** SNAP with {@code snapshot}, then the entries after it up to {@code upToZxid}. */
    Plan planSnapshot(SnapshotData snapshot, long upToZxid, EntryRun unpersisted) {
        List<ZabMessage> messages = new ArrayList<>();
        messages.add(new ZabMessage.Snap(snapshot.zxid(), snapshot.bytes()));
        // the entries after the snapshot are the few not yet applied when it was taken
        addEntries(messages, snapshot.zxid(), upToZxid, unpersisted, Long.MAX_VALUE);
        return new Plan(Kind.SNAP, messages);
    }

    private boolean shares(long zxid, EntryRun unpersisted) {
        return unpersisted.contains(zxid) || state.log.contains(zxid)
                || zxid == state.log.firstReadableZxid() && zxid == 0;
    }

    /**
     * The last zxid both histories hold, or -1 if the log cannot tell. Only an entry of the
     * follower's last epoch is safe: entries of one epoch come from one leader in one order, so
     * sharing one means sharing everything before it. An older entry below the follower's tail may
     * be one the follower never had (it followed another leader then).
     */
    private long commonPoint(long followerLastZxid, EntryRun unpersisted) {
        long common = Math.max(unpersisted.floorZxid(followerLastZxid), state.log.floor(followerLastZxid));
        if (common == 0) {
            return 0; // nothing shared: truncate everything (only reachable when our log starts at zero)
        }
        boolean held = common > 0 && (unpersisted.contains(common) || state.log.contains(common));
        if (held && Zxid.epoch(common) == Zxid.epoch(followerLastZxid)) {
            return common;
        }
        return -1;
    }

    /**
     * Adds the entries after {@code afterZxid} up to {@code upToZxid} as Propose batches. Returns
     * false, having read no more than about the budget, once their payloads exceed {@code budgetBytes}.
     */
    private boolean addEntries(List<ZabMessage> messages, long afterZxid, long upToZxid,
                               EntryRun unpersisted, long budgetBytes) {
        Batcher batcher = new Batcher(messages, state.config.maxEntriesPerMessage(), budgetBytes, afterZxid);
        long logLast = Math.min(state.log.lastZxid(), upToZxid);
        // one pass over the log: the leader's driver thread waits for it, and every write with it
        state.log.scan(afterZxid, logLast, batcher::add);
        if (batcher.overBudget) {
            return false;
        }
        Invariants.check(batcher.lastZxid >= logLast, "log has no entries after " + Zxid.hex(batcher.lastZxid)
                + " up to " + Zxid.hex(logLast));
        for (Entry entry : unpersisted.between(batcher.lastZxid, upToZxid)) {
            if (!batcher.add(entry)) {
                return false;
            }
        }
        batcher.finish();
        return true;
    }

    /** Gathers entries into Propose batches of at most {@code max} while their payloads stay within a budget. */
    private static final class Batcher {
        private final List<ZabMessage> messages;
        private final int max;
        private final long budgetBytes;
        private List<Entry> batch = new ArrayList<>();
        private long bytes;
        long lastZxid;
        boolean overBudget;

        Batcher(List<ZabMessage> messages, int max, long budgetBytes, long afterZxid) {
            this.messages = messages;
            this.max = max;
            this.budgetBytes = budgetBytes;
            this.lastZxid = afterZxid;
        }

        /** Adds the entry; false (and nothing added) once the payloads would exceed the budget. */
        boolean add(Entry entry) {
            bytes += entry.payload().length;
            if (bytes > budgetBytes) {
                overBudget = true;
                return false;
            }
            batch = SyncPlanner.add(messages, batch, entry, max);
            lastZxid = entry.zxid();
            return true;
        }

        void finish() {
            if (!batch.isEmpty()) {
                messages.add(new ZabMessage.Propose(List.copyOf(batch)));
            }
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
