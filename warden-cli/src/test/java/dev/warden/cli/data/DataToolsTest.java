package dev.warden.cli.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import dev.warden.state.pipeline.StateSnapshots;
import dev.warden.storage.SnapshotStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import java.util.stream.Stream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** warden log dump, snapshot dump and take, restore and purge on the data of a real server. */
class DataToolsTest {
    @TempDir
    Path dir;

    private static WardenServer start(Path dataDir) throws Exception {
        return WardenServer.start(ServerConfig.builder().dataDir(dataDir).clientPort(0)
                .clientPortAddress("127.0.0.1").extendedTypesEnabled(true).build());
    }

    /** Writes one of each kind of transaction; returns the session id of the ephemeral's owner, still open. */
    private static ZooKeeper writeSample(WardenServer server) throws Exception {
        ZooKeeper zk = TreeImage.connect(server.connectString());
        zk.create("/app", "config v1".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT);
        zk.create("/app/binary", new byte[] {0, 1, 2, (byte) 0xff}, ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT);
        zk.setData("/app", "config v2".getBytes(StandardCharsets.UTF_8), 0);
        zk.setACL("/app/binary", new java.util.ArrayList<>(List.of(new ACL(ZooDefs.Perms.READ, new Id("world", "anyone")))), 0);
        zk.create("/app/lock-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
        zk.multi(List.of(Op.create("/app/m", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                Op.check("/app", 1)));
        zk.create("/gone", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        zk.delete("/gone", 0);
        return zk;
    }

    @Test
    void logDumpShowsEveryRecordWithItsFieldsAsTextAndJson() throws Exception {
        Path data = dir.resolve("data");
        long session;
        try (WardenServer server = start(data); ZooKeeper zk = writeSample(server)) {
            session = zk.getSessionId();
            // reads only: works while the server runs
            ToolRun live = ToolRun.of("log", "dump", data.toString());
            assertEquals(0, live.exitCode(), live.toString());
        }
        ToolRun text = ToolRun.of("log", "dump", data.toString());
        assertEquals(0, text.exitCode(), text.toString());
        String hexSession = "0x" + Long.toHexString(session);
        assertTrue(text.out().contains("session:" + hexSession + " cxid:0x0 zxid:0x1 createSession timeoutMs="),
                text.out());
        assertTrue(text.out().contains("create path='/app' data='config v1' acl=[world:anyone:cdrwa] mode=persistent"),
                text.out());
        assertTrue(text.out().contains("create path='/app/binary' data=base64:AAEC/w=="), text.out());
        assertTrue(text.out().contains("setData path='/app' data='config v2' version=1"), text.out());
        assertTrue(text.out().contains("setACL path='/app/binary' acl=[world:anyone:r] aclVersion=1"), text.out());
        assertTrue(text.out().contains("mode=ephemeral:" + hexSession), text.out());
        assertTrue(text.out().contains("multi ops=[create path='/app/m'"), text.out());
        assertTrue(text.out().contains("; check path='/app']"), text.out());
        assertTrue(text.out().contains("delete path='/gone'"), text.out());

        ToolRun json = ToolRun.of("log", "dump", "--json", "--path", "/app/binary", data.resolve("log").toString());
        assertEquals(0, json.exitCode(), json.toString());
        List<String> lines = json.out().lines().toList();
        assertEquals(2, lines.size(), json.out());
        assertTrue(lines.get(0).matches("\\{\"zxid\":\"0x[0-9a-f]+\",\"timeMs\":\\d+,\"time\":\"[^\"]+\",\"session\":\""
                + hexSession + "\",\"cxid\":\\d+,\"type\":\"create\",\"path\":\"/app/binary\",\"data\":\"AAEC/w==\","
                + "\"dataEncoding\":\"base64\",\"acl\":\\[\"world:anyone:cdrwa\"],\"mode\":\"persistent\","
                + "\"parentCversion\":1}"), lines.get(0));

        ToolRun limited = ToolRun.of("log", "dump", "--type", "check", "--limit", "1", data.toString());
        assertEquals(1, limited.out().lines().filter(l -> !l.startsWith("#")).count(), limited.toString());
        assertTrue(limited.out().contains("multi ops="), limited.toString());
    }

    @Test
    void aTornTailIsReportedAndDamageFailsTheDump() throws Exception {
        Path data = dir.resolve("data");
        try (WardenServer server = start(data); ZooKeeper zk = writeSample(server)) {
            zk.getSessionId();
        }
        Path segment;
        try (Stream<Path> files = Files.list(data.resolve("log"))) {
            segment = files.filter(f -> f.getFileName().toString().startsWith("log.")).findFirst().orElseThrow();
        }
        long dataEnd = dev.warden.storage.LogFiles.inspectFile(segment, true).dataEndBytes();
        byte[] bytes = Files.readAllBytes(segment);
        // half a record header after the last record: what a crash mid-write leaves
        bytes[(int) dataEnd] = 0;
        bytes[(int) dataEnd + 1] = 0;
        bytes[(int) dataEnd + 2] = 1;
        bytes[(int) dataEnd + 3] = 0;
        Files.write(segment, bytes);
        ToolRun torn = ToolRun.of("log", "dump", data.toString());
        assertEquals(0, torn.exitCode(), torn.toString());
        assertTrue(torn.err().contains("torn tail at byte offset " + dataEnd), torn.toString());
        assertTrue(torn.out().contains("delete path='/gone'"), torn.toString());
        assertEquals(bytes.length, Files.size(segment), "the dump changes nothing");

        // corrupt the first record's payload: the records after it are valid, so this is damage
        bytes[24 + 16 + 3] ^= 0x55;
        Files.write(segment, bytes);
        ToolRun damaged = ToolRun.of("log", "dump", data.toString());
        assertEquals(LogDumpCommand.EXIT_DAMAGED, damaged.exitCode(), damaged.toString());
        assertTrue(damaged.err().contains(segment + ": damaged at byte offset 24: CRC32C mismatch"), damaged.toString());
    }

    @Test
    void snapshotTakeDumpAndRestoreGiveTheSameTree() throws Exception {
        Path data = dir.resolve("data");
        SortedMap<String, String> before;
        long session;
        ZooKeeper owner;
        try (WardenServer server = start(data)) {
            owner = writeSample(server);
            session = owner.getSessionId();
            before = TreeImage.read(server.connectString());
            ToolRun refused = ToolRun.of("snapshot", "take", data.toString());
            assertEquals(2, refused.exitCode(), refused.toString());
            assertTrue(refused.err().contains("is in use by pid " + ProcessHandle.current().pid() + ", a Warden server"),
                    refused.toString());
        }
        owner.close(); // the server is gone: the session stays in its state, with its ephemeral
        ToolRun take = ToolRun.of("snapshot", "take", data.toString());
        assertEquals(0, take.exitCode(), take.toString());
        assertTrue(take.out().startsWith("wrote " + data.resolve("snapshots")), take.toString());

        ToolRun dump = ToolRun.of("snapshot", "dump", data.toString());
        assertEquals(0, dump.exitCode(), dump.toString());
        assertTrue(dump.out().contains("/app\n  cZxid = 0x2\n"), dump.out());
        assertTrue(dump.out().contains("  dataVersion = 1\n"), dump.out());
        assertTrue(dump.out().contains("  acl = [world:anyone:r]\n  data (base64) = AAEC/w==\n"), dump.out());
        assertTrue(dump.out().contains("Sessions (1):\n0x" + Long.toHexString(session) + " timeout "), dump.out());
        assertTrue(dump.out().contains(" ms, 1 ephemerals\n  /app/lock-0000000001\n"), dump.out());

        ToolRun json = ToolRun.of("snapshot", "dump", "--json", "--path", "/app/m", "--no-sessions", data.toString());
        assertEquals(0, json.exitCode(), json.toString());
        assertTrue(json.out().contains("\"nodes\":[{\"path\":\"/app/m\",\"stat\":{\"czxid\":"), json.out());
        assertFalse(json.out().contains("\"sessions\""), json.out());

        Path restored = dir.resolve("restored");
        Path snapshotFile = Path.of(take.out().substring("wrote ".length(), take.out().indexOf(':')));
        ToolRun restore = ToolRun.of("restore", snapshotFile.toString(), "--data-dir", restored.toString());
        assertEquals(0, restore.exitCode(), restore.toString());
        try (WardenServer server = start(restored)) {
            assertEquals(before, TreeImage.read(server.connectString()));
        }

        ToolRun again = ToolRun.of("restore", snapshotFile.toString(), "--data-dir", restored.toString());
        assertEquals(2, again.exitCode(), again.toString());
        assertTrue(again.err().contains("--data-dir " + restored + " is not empty"), again.toString());
    }

    @Test
    void aFuzzySnapshotIsRestoredOnlyWithTheLogThatMakesItExact() throws Exception {
        Path data = dir.resolve("data");
        SortedMap<String, String> tree;
        try (WardenServer server = start(data); ZooKeeper zk = writeSample(server)) {
            zk.close();
            tree = TreeImage.read(server.connectString());
        }
        // a snapshot named after an early zxid whose body says it was finished at the log's end,
        // as one a running server writes while transactions keep coming
        Path fuzzy;
        try (OfflineDataDir offline = OfflineDataDir.open(data, null, "test")) {
            long end = offline.state().tree().lastAppliedZxid();
            offline.state().loadedSnapshotReaching(end);
            Path elsewhere = dir.resolve("backup");
            fuzzy = new SnapshotStore(elsewhere).write(3, body -> StateSnapshots.writeBody(offline.state(), body));
        }
        Path restored = dir.resolve("restored");
        ToolRun refused = ToolRun.of("restore", fuzzy.toString(), "--data-dir", restored.toString());
        assertEquals(2, refused.exitCode(), refused.toString());
        assertTrue(refused.err().contains("is fuzzy: it was started at zxid 0x3"), refused.toString());
        assertFalse(Files.exists(restored), "nothing written");

        ToolRun restore = ToolRun.of("restore", fuzzy.toString(), "--data-dir", restored.toString(), "--log",
                data.toString());
        assertEquals(0, restore.exitCode(), restore.toString());
        try (WardenServer server = start(restored)) {
            assertEquals(tree, TreeImage.read(server.connectString()));
        }
    }

    @Test
    void purgeKeepsTheNewestSnapshotsAndWhatRecoveryNeeds() throws Exception {
        Path data = dir.resolve("data");
        for (int round = 0; round < 5; round++) {
            try (WardenServer server = start(data); ZooKeeper zk = TreeImage.connect(server.connectString())) {
                zk.create("/round-" + round, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            ToolRun take = ToolRun.of("snapshot", "take", data.toString());
            assertEquals(0, take.exitCode(), take.toString());
        }
        SortedMap<String, String> tree;
        try (WardenServer server = start(data); ZooKeeper zk = TreeImage.connect(server.connectString())) {
            zk.create("/after", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            tree = TreeImage.read(zk);
            ToolRun refused = ToolRun.of("purge", data.toString(), "-n", "3");
            assertEquals(2, refused.exitCode(), refused.toString());
        }
        assertEquals(2, ToolRun.of("purge", data.toString(), "-n", "2").exitCode());
        ToolRun purge = ToolRun.of("purge", data.toString(), "-n", "3");
        assertEquals(0, purge.exitCode(), purge.toString());
        assertTrue(purge.out().contains("kept 3 snapshots"), purge.toString());
        try (Stream<Path> files = Files.list(data.resolve("snapshots"))) {
            assertEquals(3, files.count());
        }
        try (WardenServer server = start(data)) {
            assertEquals(tree, TreeImage.read(server.connectString()));
        }
    }
}
