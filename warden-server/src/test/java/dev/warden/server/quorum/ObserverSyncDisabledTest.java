package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.server.recovery.DataLayout;
import dev.warden.server.recovery.ResyncMarker;
import dev.warden.storage.LogIterator;
import dev.warden.storage.SnapshotStore;
import dev.warden.storage.TxnLog;
import dev.warden.storage.TxnLogOptions;
import java.nio.file.Path;
import java.util.List;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An observer with syncEnabled=false (ZooKeeper's zookeeper.observer.syncEnabled) writes no log
 * record and no snapshot, serves the committed tree all the same, and after a restart takes the
 * leader's state again, including what was written while it was down.
 */
class ObserverSyncDisabledTest {
    private static final long TIMEOUT_MS = 30_000;
    private static final long OBSERVER = 4;
    /** Small, so the voters take snapshots during the test and the observer would too. */
    private static final int SNAP_COUNT = 10;

    @TempDir
    Path dir;

    private TestEnsemble ensemble;

    @AfterEach
    void tearDown() {
        if (ensemble != null) {
            ensemble.close();
        }
    }

    @Test
    void anObserverWithoutSyncLogsNothingServesTheTreeAndResyncsAfterARestart() throws Exception {
        ensemble = new TestEnsemble(dir, List.of(1L, 2L, 3L), List.of(OBSERVER), ZabConsensus::new);
        ensemble.configureAll(b -> b.snapCount(SNAP_COUNT));
        ensemble.configure(OBSERVER, b -> b.observerSyncEnabled(false));
        ensemble.startAll();
        ensemble.awaitAllServing(TIMEOUT_MS);
        assertEquals(Role.OBSERVING, ensemble.server(OBSERVER).member().role());

        createAll(1, "/before", 30);
        awaitAll(OBSERVER, "/before", 30);
        ensemble.stop(OBSERVER);
        assertEquals(0, logRecords(OBSERVER), "the observer logged transactions");
        assertEquals(0, snapshots(OBSERVER), "the observer wrote snapshots");
        assertTrue(logRecords(1) >= 30, "a voter logs every transaction");

        createAll(2, "/while-down", 15);
        ensemble.start(OBSERVER);
        ensemble.awaitServing(OBSERVER, TIMEOUT_MS);
        awaitAll(OBSERVER, "/before", 30);
        awaitAll(OBSERVER, "/while-down", 15);
        createAll(3, "/after", 10);
        awaitAll(OBSERVER, "/after", 10);
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        while (ResyncMarker.exists(ensemble.dataDir(OBSERVER)) && System.currentTimeMillis() < deadline) {
            Thread.sleep(10); // removed once the leader's state is installed
        }
        assertFalse(ResyncMarker.exists(ensemble.dataDir(OBSERVER)));
        ensemble.stop(OBSERVER);
        assertEquals(0, logRecords(OBSERVER), "the observer logged transactions after its restart");
        assertEquals(0, snapshots(OBSERVER), "the observer wrote snapshots after its restart");
    }

    private void createAll(long through, String prefix, int count) throws Exception {
        NumberedNodes.createAll(ensemble.connectString(through), prefix, count);
    }

    private void awaitAll(long id, String prefix, int count) throws Exception {
        NumberedNodes.awaitAll(id, ensemble.connectString(id), prefix, count);
    }

    private long logRecords(long id) throws Exception {
        DataLayout layout = new DataLayout(ensemble.dataDir(id), ensemble.config(id).dataLogDir());
        long records = 0;
        try (TxnLog log = TxnLog.open(layout.logDir(), TxnLogOptions.defaults());
             LogIterator it = log.readAfter(0)) {
            while (it.hasNext()) {
                it.next();
                records++;
            }
        }
        return records;
    }

    private int snapshots(long id) throws Exception {
        DataLayout layout = new DataLayout(ensemble.dataDir(id), ensemble.config(id).dataLogDir());
        return new SnapshotStore(layout.snapshotsDir(), dev.warden.storage.FileChannelFactory.DEFAULT)
                .snapshotFiles().size();
    }
}
