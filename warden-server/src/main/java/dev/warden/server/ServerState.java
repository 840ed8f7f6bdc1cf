package dev.warden.server;

import dev.warden.server.pipeline.StateMachine;
import dev.warden.server.session.SessionTracker;
import dev.warden.server.tree.DataTree;
import dev.warden.server.tree.TreeSnapshot;
import dev.warden.server.txn.Txn;
import dev.warden.storage.LogIterator;
import dev.warden.storage.LogRecord;
import dev.warden.storage.Snapshot;
import dev.warden.storage.SnapshotStore;
import dev.warden.storage.TxnLog;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Snapshot contents (sessions, then the tree) and recovery: newest valid snapshot + log replay. */
final class ServerState {
    private static final Logger log = LoggerFactory.getLogger(ServerState.class);

    private ServerState() {
    }

    static Path writeSnapshot(SnapshotStore store, StateMachine state) throws IOException {
        long zxid = state.tree().lastAppliedZxid();
        return store.write(zxid, out -> write(state, out));
    }

    static void write(StateMachine state, DataOutputStream out) throws IOException {
        List<SessionTracker.Session> sessions = state.sessions().sessions();
        out.writeInt(sessions.size());
        for (SessionTracker.Session session : sessions) {
            out.writeLong(session.id());
            out.writeInt(session.timeoutMs());
            byte[] password = session.password();
            out.writeInt(password.length);
            out.write(password);
        }
        TreeSnapshot.write(state.tree(), out);
    }

    /** Reads what {@link #write} wrote into an empty state; returns nodes whose parent is missing. */
    static List<String> readBody(StateMachine state, DataInputStream in, long snapshotZxid) throws IOException {
        int sessionCount = in.readInt();
        for (int i = 0; i < sessionCount; i++) {
            long id = in.readLong();
            int timeoutMs = in.readInt();
            byte[] password = new byte[in.readInt()];
            in.readFully(password);
            state.sessions().add(id, timeoutMs, password);
        }
        return TreeSnapshot.read(state.tree(), in, snapshotZxid);
    }

    /** Rebuilds state from disk; returns the number of transactions replayed. */
    static long recover(StateMachine state, SnapshotStore store, TxnLog txnLog) throws IOException {
        long startZxid = 0;
        List<String> orphans = List.of();
        Optional<Snapshot> snapshot = store.newestValid();
        if (snapshot.isPresent()) {
            startZxid = snapshot.get().zxid();
            try (DataInputStream in = snapshot.get().openBody()) {
                orphans = readBody(state, in, startZxid);
            }
            log.info("loaded snapshot {} (zxid 0x{}, {} nodes)", snapshot.get().file(), Long.toHexString(startZxid),
                    state.tree().nodeCount());
        }
        long replayed = 0;
        try (LogIterator records = txnLog.readAfter(startZxid)) {
            while (records.hasNext()) {
                LogRecord record = records.next();
                state.apply(Txn.decode(record.payload()));
                replayed++;
            }
        }
        if (!orphans.isEmpty()) {
            List<String> left = state.tree().orphans();
            if (!left.isEmpty()) {
                throw new IOException("inconsistent state after recovery: nodes without parents " + left);
            }
        }
        DataTree tree = state.tree();
        log.info("recovered to zxid 0x{}: {} nodes, {} sessions, {} transactions replayed",
                Long.toHexString(tree.lastAppliedZxid()), tree.nodeCount(), state.sessions().size(), replayed);
        return replayed;
    }
}
