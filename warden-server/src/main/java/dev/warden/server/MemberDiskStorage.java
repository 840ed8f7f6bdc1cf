package dev.warden.server;

import dev.warden.consensus.EpochState;
import dev.warden.consensus.SnapshotData;
import dev.warden.server.log.EpochFiles;
import dev.warden.server.log.TxnLogView;
import dev.warden.server.quorum.Member;
import dev.warden.server.recovery.DataDirRecovery;
import dev.warden.server.recovery.DataLayout;
import dev.warden.server.recovery.ResyncMarker;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.pipeline.StateSnapshots;
import dev.warden.storage.SnapshotStore;
import dev.warden.storage.TxnLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A member's durable state beside its log: epoch files, snapshots, and state transfer bytes. */
final class MemberDiskStorage implements Member.Storage {
    private static final Logger log = LoggerFactory.getLogger(MemberDiskStorage.class);

    private final Path dataDir;
    private final EpochFiles epochFiles;
    private final SnapshotStore snapshots;
    private final TxnLog txnLog;
    private final ExecutorService snapshotter;
    private final TxnLogView logView;
    private final AtomicBoolean snapshotRunning = new AtomicBoolean();

    MemberDiskStorage(Path dataDir, EpochFiles epochFiles, SnapshotStore snapshots, TxnLog txnLog,
                      ExecutorService snapshotter, TxnLogView logView) {
        this.logView = logView;
        this.dataDir = dataDir;
        this.epochFiles = epochFiles;
        this.snapshots = snapshots;
        this.txnLog = txnLog;
        this.snapshotter = snapshotter;
    }

    @Override
    public void saveEpochs(EpochState epochs) throws IOException {
        epochFiles.store(dataDir, epochs);
    }

    @Override
    public void rebuildState(StateMachine state) throws IOException {
        DataDirRecovery.rebuild(state, snapshots, txnLog);
    }

    @Override
    public void loadSnapshot(StateMachine state, SnapshotData snapshot) throws IOException {
        // The tree format stores children under their parents, so a loaded snapshot has no orphans.
        StateSnapshots.load(snapshot, state);
        log.info("installed the leader's snapshot at zxid 0x{}: {} nodes", Long.toHexString(snapshot.zxid()),
                state.tree().nodeCount());
    }

    @Override
    public void restartAfterSnapshot(long zxid, StateMachine state) throws IOException {
        // The snapshot is durable before the log forgets what came before it.
        snapshots.write(zxid, out -> StateSnapshots.writeBody(state, out));
        logView.restartAfter(zxid);
    }

    @Override
    public void abandonHistory(String reason) throws IOException {
        // On the snapshot thread, after any snapshot of the old state it is writing: one
        // finished later would leave a snapshot of a history this member no longer vouches for.
        var done = snapshotter.submit(() -> {
            ResyncMarker.write(dataDir, reason);
            long nowMs = System.currentTimeMillis();
            logView.restartAfter(0, DataLayout.setAsideDirFor(txnLog.dir(), nowMs));
            snapshots.moveAside(snapshots.snapshotFiles(), DataLayout.setAsideDirFor(snapshots.dir(), nowMs));
            return null;
        });
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while setting the history aside", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("setting the history aside failed",
                    e.getCause());
        }
    }

    @Override
    public void resynced() throws IOException {
        ResyncMarker.remove(dataDir);
    }

    @Override
    public SnapshotData take(StateMachine state) {
        return StateSnapshots.take(state);
    }

    @Override
    public void snapshotDue(StateMachine state) {
        if (!snapshotRunning.compareAndSet(false, true)) {
            return;
        }
        snapshotter.execute(() -> {
            try {
                txnLog.rollSegment();
                var file = ServerState.writeSnapshot(snapshots, state);
                log.info("snapshot {} written", file.getFileName());
            } catch (IOException | RuntimeException e) {
                log.error("snapshot failed; the log still holds every transaction", e);
            } finally {
                snapshotRunning.set(false);
            }
        });
    }
}
