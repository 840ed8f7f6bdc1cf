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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
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
        try (ZooKeeper zk = new ZooKeeper(ensemble.connectString(through), 30_000, event -> { })) {
            for (int i = 0; i < count; i++) {
                String path = prefix + "-" + i;
                long deadline = System.currentTimeMillis() + TIMEOUT_MS;
                while (true) {
                    try {
                        zk.create(path, path.getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                                CreateMode.PERSISTENT);
                        break;
                    } catch (KeeperException.NodeExistsException createdByALostAttempt) {
                        break;
                    } catch (KeeperException.ConnectionLossException settling) {
                        if (System.currentTimeMillis() > deadline) {
                            throw settling;
                        }
                        Thread.sleep(50);
                    }
                }
            }
        }
    }

    /** Waits until member {@code id} serves every node {@code prefix-0 .. prefix-(count-1)}. */
    private void awaitAll(long id, String prefix, int count) throws Exception {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        try (ZooKeeper zk = new ZooKeeper(ensemble.connectString(id), 30_000, event -> { })) {
            for (int i = 0; i < count; i++) {
                String path = prefix + "-" + i;
                while (true) {
                    try {
                        byte[] data = zk.getData(path, false, null);
                        assertEquals(path, new String(data, StandardCharsets.UTF_8));
                        break;
                    } catch (KeeperException.NoNodeException | KeeperException.ConnectionLossException notYet) {
                        if (System.currentTimeMillis() > deadline) {
                            throw new AssertionError("member " + id + " does not serve " + path, notYet);
                        }
                        Thread.sleep(20);
                    }
                }
            }
        }
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
