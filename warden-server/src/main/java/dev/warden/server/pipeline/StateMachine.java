package dev.warden.server.pipeline;

import dev.warden.protocol.Stat;
import dev.warden.server.session.SessionTracker;
import dev.warden.server.tree.DataTree;
import dev.warden.server.txn.Txn;
import dev.warden.server.txn.TxnBody;
import java.util.List;

/** Applies committed transactions to the tree and the session table; the same code serves
 *  recovery (log replay) and live traffic, so both always agree. */
public final class StateMachine {
    private final DataTree tree;
    private final SessionTracker sessions;

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

    public List<Stat> apply(Txn txn) {
        List<Stat> stats = tree.apply(txn);
        if (txn.body() instanceof TxnBody.CreateSession create) {
            sessions.add(txn.sessionId(), create.timeoutMs(), create.password());
        } else if (txn.body() instanceof TxnBody.CloseSession) {
            sessions.remove(txn.sessionId());
        }
        return stats;
    }
}
