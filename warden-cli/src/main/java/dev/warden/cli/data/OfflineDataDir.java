package dev.warden.cli.data;

import dev.warden.server.recovery.DataDirLock;
import dev.warden.server.recovery.DataDirRecovery;
import dev.warden.server.recovery.DataLayout;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.storage.SnapshotStore;
import dev.warden.storage.TxnLog;
import dev.warden.storage.TxnLogOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A stopped server's data directory opened by a tool: locked (so no server starts on it
 * meanwhile, and a running one makes the tool refuse), then recovered exactly as the server
 * recovers at start-up, with the same rule and the same refusal of data that proves no state.
 * Like a starting server, recovery may cut a torn log tail and move files it does not use aside.
 */
public final class OfflineDataDir implements AutoCloseable {
    private final DataDirLock lock;
    private final DataLayout layout;
    private final StateMachine state;
    private final TxnLog log;
    private final SnapshotStore snapshots;

    private OfflineDataDir(DataDirLock lock, DataLayout layout, StateMachine state, TxnLog log,
                           SnapshotStore snapshots) {
        this.lock = lock;
        this.layout = layout;
        this.state = state;
        this.log = log;
        this.snapshots = snapshots;
    }

    /** Opens {@code dataDir} (log under {@code dataLogDir}, or under dataDir when null) for {@code purpose}. */
    public static OfflineDataDir open(Path dataDir, Path dataLogDir, String purpose) throws IOException {
        DataLayout layout = new DataLayout(dataDir, dataLogDir == null ? dataDir : dataLogDir);
        requireWardenData(layout);
        DataDirLock lock = acquire(dataDir, purpose);
        try {
            StateMachine state = LoadedSnapshot.emptyState();
            DataDirRecovery.Outcome recovered = DataDirRecovery.recover(layout, TxnLogOptions.defaults(), state,
                    DataDirRecovery.OnUnprovable.REFUSE, System.currentTimeMillis());
            return new OfflineDataDir(lock, layout, state, recovered.log(), new SnapshotStore(layout.snapshotsDir()));
        } catch (IOException | RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    /** The lock on {@code dataDir}, or a refusal naming whoever holds it. */
    public static DataDirLock acquire(Path dataDir, String purpose) throws IOException {
        try {
            return DataDirLock.acquire(dataDir, purpose);
        } catch (DataDirLock.InUseException inUse) {
            throw new ToolRefusal(inUse.getMessage());
        }
    }

    private static void requireWardenData(DataLayout layout) throws ToolRefusal {
        Path dataDir = layout.dataDir();
        if (Files.isDirectory(dataDir.resolve("version-2"))) {
            throw new ToolRefusal(dataDir + " holds Apache ZooKeeper data (version-2/), not Warden's: 'warden import"
                    + " --from-zookeeper " + dataDir + " --data-dir NEW_DIR' converts it");
        }
        if (!Files.isDirectory(layout.snapshotsDir()) && !Files.isDirectory(layout.logDir())) {
            throw new ToolRefusal(dataDir + " is not a Warden data directory: it has neither snapshots/ nor "
                    + layout.logDir() + (Files.isDirectory(dataDir) ? "" : " (it does not exist)"));
        }
    }

    public DataLayout layout() {
        return layout;
    }

    public StateMachine state() {
        return state;
    }

    TxnLog log() {
        return log;
    }

    SnapshotStore snapshots() {
        return snapshots;
    }

    @Override
    public void close() throws IOException {
        try {
            log.close();
        } finally {
            lock.close();
        }
    }
}
