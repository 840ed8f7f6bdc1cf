package dev.warden.sim;

import dev.warden.consensus.Entry;
import dev.warden.consensus.SnapshotData;
import dev.warden.protocol.Stat;
import dev.warden.state.common.Clock;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.pipeline.StateSnapshots;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataNode;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * One member's replicated state: the server's own {@link StateMachine} (a {@link DataTree} and a
 * {@link SessionTracker}) applying decoded {@link Txn}s, plus the checkers' {@link AppliedHistory}.
 * As on a server, the state objects stay the same for the member's whole life (the leader's prep
 * holds them): a restart, a TRUNC or a SNAP rebuilds them in place, and only the history the
 * checkers follow is replaced. Applying also checks that each register write and sequential
 * create meets exactly the state the leader prepped it against (a prep/apply mismatch would mean
 * replicas had diverged).
 */
public final class TreeMachine {
    /** What applying one entry did: the transaction and, per op, the node's Stat after it (or null). */
    public record Applied(Txn txn, List<Stat> stats) { }

    /** A local read of the register: its data version, value and the last zxid this member applied. */
    public record RegisterRead(int version, long value, long zxid) { }

    /** Session bookkeeping ticks; the sim never expires sessions, so the value only shapes buckets. */
    private static final long SESSION_TICK_MS = 100;

    private final StateMachine state;
    private AppliedHistory history = new AppliedHistory();

    TreeMachine(Clock clock, long memberId) {
        this.state = new StateMachine(new DataTree(), new SessionTracker(clock, SESSION_TICK_MS, (int) memberId));
    }

    /** Back to the empty tree, with an empty history. */
    void clear() {
        state.clear();
        history = new AppliedHistory();
    }

    /** Replaces the state with a snapshot (null: the empty tree), in place: the production snapshot format. */
    void restore(SnapshotData snapshot, SnapshotLedger ledger) {
        clear();
        if (snapshot == null) {
            return;
        }
        history = ledger.historyOf(snapshot);
        try {
            StateSnapshots.load(snapshot, state);
        } catch (IOException e) {
            throw new UncheckedIOException("snapshot at " + Long.toHexString(snapshot.zxid()) + " does not load", e);
        }
        if (history.lastZxid() != snapshot.zxid()) {
            throw new IllegalStateException("snapshot at " + Long.toHexString(snapshot.zxid())
                    + " has a history ending at " + Long.toHexString(history.lastZxid()));
        }
    }

    /**
     * A snapshot (null: the empty tree) plus the logged entries after it up to {@code upToZxid},
     * in place: what a restart or a TRUNC rebuilds.
     */
    void rebuild(SnapshotData snapshot, List<Entry> log, long upToZxid, SnapshotLedger ledger) {
        restore(snapshot, ledger);
        for (Entry entry : log) {
            if (entry.zxid() > lastZxid() && entry.zxid() <= upToZxid) {
                replay(entry);
            }
        }
    }

    /** Takes an exact snapshot of this state (the sim is single-threaded, so nothing is fuzzy). */
    SnapshotData snapshot(SnapshotLedger ledger) {
        SnapshotData snapshot = StateSnapshots.take(state);
        ledger.remember(snapshot, history);
        return snapshot;
    }

    /**
     * Applies a committed entry as {@code txn}, checking it meets the state it was prepped
     * against: on the member that prepared it, the leader's own transaction object (as the
     * server's leader applies it), elsewhere the payload decoded.
     */
    public Applied apply(Entry entry, Txn txn) {
        checkZxid(entry, txn);
        checkPreparedAgainstThisState(txn);
        history.record(entry.zxid(), entry.payload());
        return new Applied(txn, state.apply(txn));
    }

    /**
     * Applies a logged entry while rebuilding from disk, as the server's recovery replays its
     * log: without the prep check, so a state rebuilt wrongly comes up and the history and
     * digest checkers judge it, as they would judge the server.
     */
    private void replay(Entry entry) {
        Txn txn = decode(entry);
        history.record(entry.zxid(), entry.payload());
        state.apply(txn);
    }

    private static Txn decode(Entry entry) {
        Txn txn = Txn.decode(entry.payload());
        checkZxid(entry, txn);
        return txn;
    }

    private static void checkZxid(Entry entry, Txn txn) {
        if (txn.zxid() != entry.zxid()) {
            throw new Checkers.Violation("entry " + Long.toHexString(entry.zxid()) + " carries a txn with zxid "
                    + Long.toHexString(txn.zxid()));
        }
    }

    private void checkPreparedAgainstThisState(Txn txn) {
        if (txn.body() instanceof TxnBody.SetData set) {
            DataNode node = state.tree().node(set.path());
            if (node == null || node.version() != set.version() - 1) {
                throw new Checkers.Violation("setData " + set.path() + " to version " + set.version() + " at "
                        + Long.toHexString(txn.zxid()) + " meets version "
                        + (node == null ? "none" : String.valueOf(node.version())));
            }
        } else if (txn.body() instanceof TxnBody.Create create && create.path().startsWith(SimRequest.SEQUENCE_PREFIX)) {
            DataNode parent = state.tree().node(SimRequest.SEQUENCE_PARENT);
            if (parent == null || state.tree().node(create.path()) != null
                    || parent.cversionCounter() != create.parentCversion() - 1) {
                throw new Checkers.Violation("create " + create.path() + " at " + Long.toHexString(txn.zxid())
                        + " does not follow the sequence it was prepped against");
            }
        }
    }

    StateMachine state() {
        return state;
    }

    public DataTree tree() {
        return state.tree();
    }

    /** The tree's rolling digest (docs/TREE.md): equal trees have equal digests. */
    public long digest() {
        return state.tree().digest();
    }

    /** A getData of the register from the local tree; version -1 while /reg does not exist. */
    public RegisterRead readRegister() {
        DataNode node = state.tree().node(SimRequest.REGISTER);
        if (node == null) {
            return new RegisterRead(-1, 0, lastZxid());
        }
        return new RegisterRead(node.version(), SimRequest.valueOf(node.data()), lastZxid());
    }

    public boolean hasNode(String path) {
        return state.tree().node(path) != null;
    }

    AppliedHistory history() {
        return history;
    }

    public long lastZxid() {
        return history.lastZxid();
    }

    public int countUpTo(long zxid) {
        return history.countUpTo(zxid);
    }

    public int size() {
        return history.size();
    }

    public long zxidAt(int index) {
        return history.zxidAt(index);
    }

    public int hashAt(int index) {
        return history.hashAt(index);
    }

    /** True if this member applied the entry with exactly this zxid. */
    public boolean applied(long zxid) {
        return history.contains(zxid);
    }
}
