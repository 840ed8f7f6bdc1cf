package dev.warden.cli.data;

import dev.warden.server.recovery.DataLayout;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.pipeline.StateSnapshots;
import dev.warden.storage.SnapshotStore;
import dev.warden.storage.TxnLog;
import dev.warden.storage.TxnLogOptions;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes a new Warden data directory that holds exactly one state: a snapshot of it, exact (not
 * fuzzy), and an empty log whose base file says it continues from the snapshot's zxid, as a
 * log restarted after a leader's SNAP does. A server recovers that state from it and appends
 * after it (docs/STORAGE.md, "Recovery: only a state the data proves").
 */
public final class WardenDataWriter {
    private WardenDataWriter() {
    }

    /** Returns the snapshot file; the state's last applied zxid names it. */
    public static Path write(DataLayout layout, StateMachine state) throws IOException {
        long zxid = state.tree().lastAppliedZxid();
        Path file = new SnapshotStore(layout.snapshotsDir())
                .write(zxid, body -> StateSnapshots.writeBody(state, body));
        startLogAfter(layout, zxid);
        return file;
    }

    /** Creates the empty log, its base file saying it continues from {@code zxid} (a snapshot's). */
    public static void startLogAfter(DataLayout layout, long zxid) throws IOException {
        try (TxnLog log = TxnLog.open(layout.logDir(), TxnLogOptions.defaults())) {
            log.restartAfter(zxid);
        }
    }
}
