package dev.warden.state.pipeline;

import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Stat;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.tree.DigestHistory;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** Applies committed transactions to the tree and the session table; the same code serves
 *  recovery (log replay) and live traffic, so both always agree. */
public final class StateMachine implements ServedState {
    private final DataTree tree;
    private final SessionTracker sessions;
    /**
     * From this zxid on, the state is exactly the history's state at each zxid it has applied.
     * Before it, a fuzzy snapshot the state was loaded from may hold effects of later
     * transactions (replaying them makes it exact), so digests are only comparable from here.
     */
    private volatile long exactFromZxid;

    public StateMachine(DataTree tree, SessionTracker sessions) {
        this.tree = tree;
        this.sessions = sessions;
    }

    public DataTree tree() {
        return tree;
    }

    public SessionTracker sessions() {
        return sessions;
    }

    @Override
    public long lastAppliedZxid() {
        return tree.lastAppliedZxid();
    }

    @Override
    public int nodeCount() {
        return tree.nodeCount();
    }

    @Override
    public int ephemeralCount() {
        return tree.ephemeralCount();
    }

    @Override
    public long approximateDataBytes() {
        return tree.approximateDataBytes();
    }

    @Override
    public long digest() {
        return tree.digest();
    }

    @Override
    public List<DigestHistory.ZxidDigest> recentDigests() {
        return tree.digestHistory().newestFirst();
    }

    @Override
    public Map<Long, List<String>> ephemeralsBySession() {
        return tree.ephemeralsBySession();
    }

    @Override
    public void answerRead(Request request, BooleanSupplier sessionActive, ReadProcessor reads, ReadAnswer answer) {
        // under the read lock: transactions are applied under the write lock, and the watch
        // events they fire are queued there, so none can overtake this reply
        var readLock = tree.readLock();
        readLock.lock();
        try {
            Reply reply = sessionActive.getAsBoolean() ? reads.process(request) : Reply.error(ErrorCode.SESSION_EXPIRED);
            answer.send(reply, tree.lastAppliedZxid());
        } finally {
            readLock.unlock();
        }
    }

    /** See {@link #exactFromZxid}: 0 for a state built by applying transactions from the empty tree. */
    public long exactFromZxid() {
        return exactFromZxid;
    }

    /** A fuzzy snapshot loaded into this state had reached {@code zxid} when it was finished. */
    public void loadedSnapshotReaching(long zxid) {
        exactFromZxid = Math.max(exactFromZxid, zxid);
    }

    /** Empties the tree and the session table: the state of zxid 0. */
    public void clear() {
        tree.clear();
        sessions.clear();
        exactFromZxid = 0;
    }

    public List<Stat> apply(Txn txn) {
        if (txn.body() instanceof TxnBody.Restore) {
            return SnapshotRestore.apply(this, txn);
        }
        List<Stat> stats = tree.apply(txn);
        if (txn.body() instanceof TxnBody.CreateSession create) {
            sessions.add(txn.sessionId(), create.timeoutMs(), create.password());
        } else if (txn.body() instanceof TxnBody.CloseSession) {
            sessions.remove(txn.sessionId());
        }
        return stats;
    }
}
