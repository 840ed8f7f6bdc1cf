package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.consensus.Role;
import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.recovery.ResyncMarker;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.pipeline.StateSnapshots;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import dev.warden.storage.Snapshot;
import dev.warden.storage.SnapshotStore;
import java.io.DataInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Members check each other's trees while they run. A member restarted on a snapshot that
 * passes every checksum but holds a different tree (memory corrupted before the write) rejoins
 * with a tree the others do not have; the digests expose it, a quorum decides, and the diverged
 * member takes a copy, whether it follows or leads.
 */
class TreeCheckEnsembleTest {
    private static final long TIMEOUT_MS = 20_000;

    @TempDir
    Path baseDir;
    private TestEnsemble ensemble;
    private final List<ZooKeeper> clients = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (ZooKeeper zk : clients) {
            zk.close();
        }
        if (ensemble != null) {
            ensemble.close();
        }
    }

    @Test
    void aFollowerRestartedOnACorruptedButValidSnapshotIsToldToResyncAndServesTheRightTree() throws Exception {
        ensemble = new TestEnsemble(baseDir, List.of(1L, 2L, 3L), List.of(), ZabConsensus::new);
        ensemble.startAll();
        ensemble.awaitAllServing(TIMEOUT_MS);
        long leader = leader();
        long follower = ensemble.servers().keySet().stream().filter(id -> id != leader).findFirst().orElseThrow();
        ZooKeeper writer = connect(ensemble.connectString(leader));
        writer.create("/victim", bytes("good"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        for (int i = 0; i < 20; i++) {
            writer.create("/n" + i, bytes("v"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
        awaitApplied(follower, ensemble.server(leader).member().lastAppliedZxid());
        ensemble.server(follower).snapshotNow();
        ensemble.stop(follower);
        rewriteNewestSnapshot(ensemble.dataDir(follower), "/victim", "evil");

        ensemble.start(follower);
        ensemble.awaitServing(follower, TIMEOUT_MS);
        WardenServer healed = ensemble.server(follower);
        await(() -> healed.member().status().digestMismatches() > 0, "the follower to find its digest differs");
        ZooKeeper reader = connect(ensemble.connectString(follower));
        await(() -> readAfterSync(reader, "/victim").equals("good"), "the follower to serve the leader's tree");
        assertEquals(leader, leader(), "the leader was right and stays");
        await(() -> !ResyncMarker.exists(ensemble.dataDir(follower)), "the resync marker to go");
        assertTrue(setAside(ensemble.dataDir(follower)), "the diverged history is kept aside");
        // it counts again: with the other follower stopped, writes still commit
        long other = 6 - leader - follower;
        ensemble.stop(other);
        writer.create("/after", bytes("x"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        assertEquals("x", readAfterSync(reader, "/after"));
    }

    @Test
    void aLeaderOutvotedByTheOthersStepsDownAndTakesTheirHistory() throws Exception {
        ensemble = new TestEnsemble(baseDir, List.of(1L, 2L, 3L), List.of(), ZabConsensus::new);
        ensemble.startAll();
        ensemble.awaitAllServing(TIMEOUT_MS);
        ZooKeeper writer = connect(ensemble.connectStringAll());
        org.apache.zookeeper.data.Stat created = new org.apache.zookeeper.data.Stat();
        writer.create("/victim", bytes("good"), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, created);
        // the zxid of the create itself: the client may be on a follower, ahead of the leader's apply
        long lastZxid = created.getCzxid();
        for (long id = 1; id <= 3; id++) {
            awaitApplied(id, lastZxid);
        }
        ensemble.server(3).snapshotNow();
        writer.close();
        clients.clear();
        for (long id = 1; id <= 3; id++) {
            ensemble.stop(id);
        }
        // member 3 holds as long a history as member 1 and the higher id: with the two alone, it leads
        rewriteNewestSnapshot(ensemble.dataDir(3), "/victim", "evil");
        ensemble.start(3);
        ensemble.start(1);
        ensemble.awaitServing(3, TIMEOUT_MS);
        ensemble.awaitServing(1, TIMEOUT_MS);
        assertEquals(3, leader(), "the member with the diverged tree leads");
        // member 1 alone cannot outvote it; with member 2 a quorum agrees against the leader
        Thread.sleep(3 * TreeCheck.REPUBLISH_INTERVAL_MS);
        assertEquals(3, leaderOrZero());
        ensemble.start(2);

        await(() -> ensemble.servers().values().stream().allMatch(s -> s.member().isServing())
                && leaderOrZero() != 3 && leaderOrZero() != 0, "a leader other than member 3");
        ZooKeeper reader = connect(ensemble.connectString(3));
        await(() -> readAfterSync(reader, "/victim").equals("good"), "member 3 to serve the quorum's tree");
        for (long id = 1; id <= 2; id++) {
            assertEquals("good", readAfterSync(connect(ensemble.connectString(id)), "/victim"));
        }
        assertTrue(ensemble.server(3).member().status().digestMismatches() > 0);
        assertFalse(ResyncMarker.exists(ensemble.dataDir(3)));
    }

    /**
     * Loads the newest snapshot in the member's data directory, changes one node's data as a
     * memory error would before the write, and writes it back with a valid checksum.
     */
    private static void rewriteNewestSnapshot(Path dataDir, String path, String data) throws Exception {
        SnapshotStore store = new SnapshotStore(dataDir.resolve("snapshots"));
        Snapshot newest = store.newestValid().orElseThrow();
        StateMachine state = new StateMachine(new DataTree(), new SessionTracker(dev.warden.state.common.Clock.SYSTEM, 200, 1));
        try (DataInputStream in = newest.openBody()) {
            dev.warden.state.pipeline.StateSnapshots.readBody(state, in, newest.zxid());
        }
        int version = state.tree().node(path).version();
        state.tree().apply(new Txn(0, 0, newest.zxid(), System.currentTimeMillis(),
                new TxnBody.SetData(path, bytes(data), version + 1)));
        store.write(newest.zxid(), out -> StateSnapshots.writeBody(state, out));
        assertTrue(store.newestValid().isPresent());
    }

    private long leader() {
        long leader = leaderOrZero();
        assertTrue(leader != 0, "a serving leader");
        return leader;
    }

    private long leaderOrZero() {
        for (var entry : ensemble.servers().entrySet()) {
            if (entry.getValue().member().role() == Role.LEADING && entry.getValue().member().isServing()) {
                return entry.getKey();
            }
        }
        return 0;
    }

    private void awaitApplied(long id, long zxid) throws Exception {
        await(() -> ensemble.server(id).member().lastAppliedZxid() >= zxid, "member " + id + " to apply " + zxid);
    }

    private ZooKeeper connect(String connectString) throws Exception {
        ZooKeeper zk = ApacheClients.connect(connectString);
        clients.add(zk);
        return zk;
    }

    private static String readAfterSync(ZooKeeper zk, String path) throws Exception {
        CompletableFuture<Integer> synced = new CompletableFuture<>();
        zk.sync(path, (rc, p, ctx) -> synced.complete(rc), null);
        synced.get(10, TimeUnit.SECONDS);
        return new String(zk.getData(path, false, null), StandardCharsets.UTF_8);
    }

    private static boolean setAside(Path dataDir) throws Exception {
        try (Stream<Path> entries = Files.list(dataDir)) {
            return entries.anyMatch(p -> p.getFileName().toString().startsWith("snapshots.set-aside-"));
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void await(Check check, String what) throws Exception {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        Exception last = null;
        while (System.currentTimeMillis() < deadline) {
            try {
                if (check.holds()) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("timed out waiting for " + what + (last == null ? "" : ": " + last), last);
    }
}
