package dev.warden.state.pipeline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.protocol.Perms;
import dev.warden.state.common.Clock;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.tree.NodeOwner;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import dev.warden.storage.SnapshotStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotRestoreTest {
    private static final long BACKUP_SESSION = 0x100000000000001L;
    private static final long LATER_SESSION = 0x100000000000002L;

    @TempDir
    Path dir;

    @Test
    void aRestoreGivesExactlyTheSnapshotsTreeSessionsAndDigest() throws Exception {
        StateMachine source = newState();
        source.tree().setConfigData("server.1=a:1:2\n".getBytes(StandardCharsets.UTF_8));
        apply(source, BACKUP_SESSION, 1, new TxnBody.CreateSession(4000, new byte[16]));
        apply(source, BACKUP_SESSION, 2, create("/app", "v1", NodeOwner.PERSISTENT));
        apply(source, BACKUP_SESSION, 3, create("/app/eph", "e", BACKUP_SESSION));
        apply(source, BACKUP_SESSION, 4, new TxnBody.SetData("/app", "v2".getBytes(StandardCharsets.UTF_8), 1));
        byte[] backup = snapshotFile(source);
        List<String> backupNodes = nodes(source.tree());
        long backupDigest = source.tree().replicatedDigest();

        // the live state moves on: a new session, new nodes, the backup's nodes changed or gone
        StateMachine live = newState();
        live.tree().setConfigData("server.7=b:1:2\n".getBytes(StandardCharsets.UTF_8));
        apply(live, LATER_SESSION, 1, new TxnBody.CreateSession(9000, new byte[16]));
        apply(live, LATER_SESSION, 2, create("/other", "x", NodeOwner.PERSISTENT));
        apply(live, LATER_SESSION, 3, create("/other/eph", "y", LATER_SESSION));
        for (long zxid = 4; zxid <= 8; zxid++) {
            apply(live, LATER_SESSION, zxid, new TxnBody.SetData("/other", new byte[] {(byte) zxid}, (int) zxid - 3));
        }
        apply(live, LATER_SESSION, 9, new TxnBody.Reconfig("server.7=b:1:2\nserver.8=c:1:2\n"
                .getBytes(StandardCharsets.UTF_8)));
        String configBefore = config(live.tree());

        Txn restore = new Txn(0, 0, 10, 10, new TxnBody.Restore(backup));
        live.apply(restore);

        List<String> restoredNodes = nodes(live.tree());
        // every node and Stat is the snapshot's (config aside, which stays the member's own)
        assertEquals(withoutConfig(backupNodes), withoutConfig(restoredNodes));
        assertEquals(backupDigest, live.tree().replicatedDigest());
        // /zookeeper/config stays the member's own, data and Stat (the version a member starts from)
        assertEquals(configBefore, config(live.tree()));
        assertEquals(9, live.tree().configZxid());
        assertEquals(10, live.lastAppliedZxid(), "the restore's zxid is the last applied");
        assertEquals(List.of(BACKUP_SESSION), live.sessions().sessions().stream().map(SessionTracker.Session::id)
                .toList());
        assertEquals(4000, live.sessions().get(BACKUP_SESSION).timeoutMs());
        assertEquals(List.of("/app/eph"), live.tree().ephemerals(BACKUP_SESSION));
        assertEquals(List.of(), live.tree().ephemerals(LATER_SESSION));

        // writes after the restore go on from its zxid, over the restored nodes
        live.apply(new Txn(BACKUP_SESSION, 5, 11, 11, new TxnBody.SetData("/app", new byte[] {1}, 2)));
        assertEquals(11, live.tree().node("/app").stat().mzxid());

        // replaying the restore over a state that already holds it changes nothing (fuzzy snapshots)
        StateMachine replayed = newState();
        replayed.apply(restore);
        replayed.apply(restore);
        assertEquals(withoutConfig(backupNodes), withoutConfig(nodes(replayed.tree())));
        assertEquals(backupDigest, replayed.tree().replicatedDigest());
    }

    @Test
    void aVerifiedSnapshotReportsWhatItHolds() throws Exception {
        StateMachine source = newState();
        apply(source, BACKUP_SESSION, 1, new TxnBody.CreateSession(4000, new byte[16]));
        apply(source, BACKUP_SESSION, 2, create("/app", "v1", NodeOwner.PERSISTENT));
        SnapshotRestore.Verified verified = SnapshotRestore.verify(snapshotFile(source));
        assertEquals(2, verified.snapshotZxid());
        assertEquals(source.nodeCount(), verified.nodeCount());
        assertEquals(1, verified.sessionCount());
        assertEquals(source.tree().replicatedDigest(), verified.replicatedDigest());
    }

    @Test
    void damagedTruncatedOversizedOrFuzzySnapshotsAreRefusedAndChangeNothing() throws Exception {
        StateMachine source = newState();
        apply(source, BACKUP_SESSION, 1, create("/app", "v1", NodeOwner.PERSISTENT));
        byte[] good = snapshotFile(source);

        byte[] flipped = good.clone();
        flipped[good.length / 2] ^= 1;
        assertRefused(flipped, "CRC32C mismatch");
        assertRefused(Arrays.copyOf(good, good.length - 5), "trailer says");
        assertRefused(Arrays.copyOf(good, 10), "fewer than a snapshot's header");
        byte[] badMagic = good.clone();
        badMagic[0] = 'X';
        assertRefused(badMagic, "bad magic");
        assertRefused(new byte[SnapshotRestore.maxSnapshotBytes() + 1], "above the");
        assertRefused(fuzzySnapshotFile(), "fuzzy");

        // a damaged restore transaction (say, read back from a damaged log) leaves the state alone
        StateMachine live = newState();
        apply(live, LATER_SESSION, 1, create("/kept", "k", NodeOwner.PERSISTENT));
        List<String> before = nodes(live.tree());
        assertThrows(IllegalStateException.class, () -> live.apply(new Txn(0, 0, 2, 2, new TxnBody.Restore(flipped))));
        assertEquals(before, nodes(live.tree()));
        assertEquals(1, live.lastAppliedZxid());
    }

    private static void assertRefused(byte[] file, String why) {
        SnapshotRestore.RefusedSnapshot refused = assertThrows(SnapshotRestore.RefusedSnapshot.class,
                () -> SnapshotRestore.verify(file));
        assertTrue(refused.getMessage().contains(why), refused.getMessage());
    }

    /** A snapshot labelled with zxid 1 whose body says it was finished at zxid 3, as a fuzzy one is. */
    private byte[] fuzzySnapshotFile() throws IOException {
        StateMachine state = newState();
        apply(state, BACKUP_SESSION, 1, create("/a", "", NodeOwner.PERSISTENT));
        apply(state, BACKUP_SESSION, 3, create("/b", "", NodeOwner.PERSISTENT));
        Path fuzzyDir = Files.createDirectories(dir.resolve("fuzzy"));
        Path file = new SnapshotStore(fuzzyDir).write(1, out -> StateSnapshots.writeBody(state, out));
        return Files.readAllBytes(file);
    }

    private byte[] snapshotFile(StateMachine state) throws IOException {
        Path snapshotDir = Files.createTempDirectory(dir, "snap");
        Path file = new SnapshotStore(snapshotDir).write(state.lastAppliedZxid(),
                out -> StateSnapshots.writeBody(state, out));
        return Files.readAllBytes(file);
    }

    private static StateMachine newState() {
        return new StateMachine(new DataTree(), new SessionTracker(Clock.SYSTEM, 1000, 1));
    }

    private static TxnBody.Create create(String path, String data, long owner) {
        return new TxnBody.Create(path, data.getBytes(StandardCharsets.UTF_8), Perms.OPEN_ACL_UNSAFE, owner, 0);
    }

    private static void apply(StateMachine state, long sessionId, long zxid, TxnBody body) {
        state.apply(new Txn(sessionId, 0, zxid, zxid * 1000, body));
    }

    /** Every node as "path stat data acl", in tree order. */
    private static List<String> nodes(DataTree tree) {
        List<String> nodes = new ArrayList<>();
        tree.forEachNodeInOrder((path, node) -> nodes.add(path + " " + node.stat() + " "
                + Arrays.toString(node.data()) + " " + node.acl()));
        return nodes;
    }

    private static String config(DataTree tree) {
        return nodes(tree).stream().filter(line -> line.startsWith(DataTree.CONFIG + " ")).findFirst().orElseThrow();
    }

    private static List<String> withoutConfig(List<String> nodes) {
        return nodes.stream().filter(line -> !line.startsWith(DataTree.CONFIG + " ")).toList();
    }

    @Test
    void theLimitLeavesRoomForTheTransactionInOneLogRecord() {
        byte[] largest = new byte[SnapshotRestore.maxSnapshotBytes()];
        assertEquals(dev.warden.storage.TxnLog.maxPayloadBytes(),
                new Txn(Long.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE,
                        new TxnBody.Restore(largest)).encode().length);
        assertArrayEquals(largest, ((TxnBody.Restore) Txn.decode(
                new Txn(1, 1, 1, 1, new TxnBody.Restore(largest)).encode()).body()).snapshotFile());
    }
}
