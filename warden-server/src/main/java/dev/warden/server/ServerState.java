package dev.warden.server;

import dev.warden.server.pipeline.StateMachine;
import dev.warden.server.quorum.StateSnapshots;
import dev.warden.server.tree.DataTree;
import dev.warden.server.txn.Txn;
import dev.warden.storage.LogIterator;
import dev.warden.storage.LogRecord;
import dev.warden.storage.Snapshot;
import dev.warden.storage.SnapshotStore;
import dev.warden.storage.TxnLog;
import java.io.DataInputStream;
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
        return store.write(zxid, out -> StateSnapshots.writeBody(state, out));
    }

    /** Rebuilds state from disk; returns the number of transactions replayed. */
    static long recover(StateMachine state, SnapshotStore store, TxnLog txnLog) throws IOException {
        long startZxid = 0;
        List<String> orphans = List.of();
        Optional<Snapshot> snapshot = store.newestValid();
        if (snapshot.isPresent()) {
            startZxid = snapshot.get().zxid();
            try (DataInputStream in = snapshot.get().openBody()) {
                orphans = StateSnapshots.readBody(state, in, startZxid);
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
