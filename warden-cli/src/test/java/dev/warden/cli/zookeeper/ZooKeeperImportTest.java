package dev.warden.cli.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.data.ToolRun;
import dev.warden.cli.data.TreeImage;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * warden import and export on data directories written by a real Apache ZooKeeper 3.9 server:
 * the same tree (every Stat field, ACLs, data), sessions a client can resume, ephemerals; a
 * torn log tail left out; damage refused with the file and offset, nothing written.
 */
class ZooKeeperImportTest {
    private static final String EXTENDED_TYPES = "zookeeper.extendedTypesEnabled";

    @TempDir
    Path dir;

    @BeforeEach
    void enableTtlNodes() {
        System.setProperty(EXTENDED_TYPES, "true");
    }

    @AfterEach
    void restore() {
        System.clearProperty(EXTENDED_TYPES);
    }

    private static WardenServer startWarden(Path dataDir) throws Exception {
        return WardenServer.start(ServerConfig.builder().dataDir(dataDir).clientPort(0)
                .clientPortAddress("127.0.0.1").extendedTypesEnabled(true).build());
    }

    private static List<ACL> acl(ACL... entries) {
        return new ArrayList<>(List.of(entries));
    }

    /** Every kind of node and change; a snapshot half way, so the import reads both a snapshot and a log. */
    private static void writeVariedTree(ApacheServer zookeeper, ZooKeeper zk) throws Exception {
        zk.create("/app", "v1".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        zk.create("/app/bin", new byte[] {0, (byte) 0x80, (byte) 0xff}, ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT);
        zk.create("/app/null", null, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        String hash = DigestAuthenticationProvider.generateDigest("bob:secret");
        zk.create("/app/private", new byte[0], acl(new ACL(ZooDefs.Perms.ALL, new Id("digest", hash)),
                new ACL(ZooDefs.Perms.READ, new Id("world", "anyone"))), CreateMode.PERSISTENT);
        for (int i = 0; i < 5; i++) {
            zk.create("/app/seq-", new byte[] {(byte) i}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL);
        }
        zk.delete("/app/seq-0000000003", 0);
        zookeeper.takeSnapshot();
        zk.setData("/app", "v2".getBytes(StandardCharsets.UTF_8), 0);
        zk.setData("/app", "v3".getBytes(StandardCharsets.UTF_8), 1);
        zk.setACL("/app/bin", acl(new ACL(ZooDefs.Perms.READ | ZooDefs.Perms.WRITE, new Id("world", "anyone"))), 0);
        zk.create("/jobs", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.CONTAINER);
        zk.create("/jobs/one", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        zk.create("/cache", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_WITH_TTL, null, 60_000);
        zk.multi(List.of(Op.create("/batch", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                Op.create("/batch/a", new byte[] {1}, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                Op.check("/app", 2)));
        try {
            zk.multi(List.of(Op.create("/failed", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT),
                    Op.check("/app", 99)));
        } catch (org.apache.zookeeper.KeeperException.BadVersionException expected) {
            // logged as a multi of error results: changes nothing
        }
    }

    @Test
    void aZooKeeperDirectoryComesOverWithItsTreeSessionsAndEphemerals() throws Exception {
        Path running = dir.resolve("running");
        Path zkData = dir.resolve("zookeeper");
        SortedMap<String, String> tree;
        long ownerSession;
        byte[] ownerPassword;
        ZooKeeper owner;
        String worker;
        try (ApacheServer zookeeper = new ApacheServer(running); ZooKeeper zk = TreeImage.connect(zookeeper.connectString())) {
            owner = TreeImage.connect(zookeeper.connectString());
            writeVariedTree(zookeeper, zk);
            worker = owner.create("/app/worker-", "me".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.EPHEMERAL_SEQUENTIAL);
            ownerSession = owner.getSessionId();
            ownerPassword = owner.getSessionPasswd();
            tree = TreeImage.read(zk);
            ApacheServer.copyFiles(running, zkData);
        }
        owner.close();
        assertTrue(tree.get(worker).contains("owner=" + Long.toHexString(ownerSession)), tree.toString());

        Path data = dir.resolve("warden");
        ToolRun imported = ToolRun.of("import", "--from-zookeeper", zkData.toString(), "--data-dir", data.toString());
        assertEquals(0, imported.exitCode(), imported.toString());
        assertTrue(imported.out().matches("(?s).*sessions, 1 ephemerals at zxid 0x[0-9a-f]+ \\(snapshot\\.[0-9a-f]+ and \\d+"
                + " logged transactions; [1-9]\\d* of ZooKeeper's digests checked, all equal\\)\\n"), imported.out());

        try (WardenServer warden = startWarden(data)) {
            assertEquals(tree, TreeImage.read(warden.connectString()));
            // the client's session goes on: Warden holds it with the password ZooKeeper gave
            CountDownLatch resumed = new CountDownLatch(1);
            try (ZooKeeper again = new ZooKeeper(warden.connectString(), 30_000, event -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    resumed.countDown();
                }
            }, ownerSession, ownerPassword)) {
                assertTrue(resumed.await(30, TimeUnit.SECONDS), "the imported session resumes");
                assertEquals(ownerSession, again.getSessionId());
            }
            try (ZooKeeper zk = TreeImage.connect(warden.connectString())) {
                assertEquals(null, zk.exists(worker, false), "closing the session deleted its ephemeral");
            }
        }
    }

    /**
     * The files of ZooKeeper before 3.6 (no digests in snapshots or logs, closeSession records
     * without the paths they delete) and 3.6-3.8 (no last-processed zxid in snapshots), written by
     * this ZooKeeper with those features turned off.
     */
    @Test
    void theFormatsOfOlderZooKeeperVersionsImportToo() throws Exception {
        org.apache.zookeeper.server.ZooKeeperServer.setDigestEnabled(false);
        org.apache.zookeeper.server.ZooKeeperServer.setCloseSessionTxnEnabled(false);
        org.apache.zookeeper.server.ZooKeeperServer.setSerializeLastProcessedZxidEnabled(false);
        Path running = dir.resolve("running");
        Path zkData = dir.resolve("zookeeper");
        SortedMap<String, String> tree;
        try (ApacheServer zookeeper = new ApacheServer(running); ZooKeeper zk = TreeImage.connect(zookeeper.connectString())) {
            writeVariedTree(zookeeper, zk);
            try (ZooKeeper gone = TreeImage.connect(zookeeper.connectString())) {
                gone.create("/app/gone-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
            }
            tree = TreeImage.read(zk);
            ApacheServer.copyFiles(running, zkData);
        } finally {
            org.apache.zookeeper.server.ZooKeeperServer.setDigestEnabled(true);
            org.apache.zookeeper.server.ZooKeeperServer.setCloseSessionTxnEnabled(true);
            org.apache.zookeeper.server.ZooKeeperServer.setSerializeLastProcessedZxidEnabled(true);
        }
        Path data = dir.resolve("warden");
        ToolRun imported = ToolRun.of("import", "--from-zookeeper", zkData.toString(), "--data-dir", data.toString());
        assertEquals(0, imported.exitCode(), imported.toString());
        assertTrue(imported.out().contains("note: no ZooKeeper digest to check the tree against"), imported.out());
        try (WardenServer warden = startWarden(data)) {
            assertEquals(tree, TreeImage.read(warden.connectString()));
        }
    }

    @Test
    void aTornLogTailIsLeftOutAndReported() throws Exception {
        Path running = dir.resolve("running");
        Path zkData = dir.resolve("zookeeper");
        SortedMap<String, String> beforeLastWrite;
        try (ApacheServer zookeeper = new ApacheServer(running); ZooKeeper zk = TreeImage.connect(zookeeper.connectString())) {
            zk.create("/kept", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            beforeLastWrite = TreeImage.read(zk);
            zk.create("/torn", "never acknowledged".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT);
            ApacheServer.copyFiles(running, zkData);
        }
        Path log = newestLog(zkData);
        byte[] bytes = Files.readAllBytes(log);
        int end = bytes.length;
        while (bytes[end - 1] == 0) {
            end--;
        }
        // the last record, /torn's create, loses its end, as a write cut short by a crash
        int cut = end - 20;
        for (int i = cut; i < end; i++) {
            bytes[i] = 0;
        }
        bytes[cut] = 7; // a partial length field's leftovers
        Files.write(log, bytes);

        Path data = dir.resolve("warden");
        ToolRun imported = ToolRun.of("import", "--from-zookeeper", zkData.toString(), "--data-dir", data.toString());
        assertEquals(0, imported.exitCode(), imported.toString());
        assertTrue(imported.out().contains("note: " + log + ": torn tail at byte offset "), imported.out());
        try (WardenServer warden = startWarden(data)) {
            SortedMap<String, String> tree = TreeImage.read(warden.connectString());
            assertFalse(tree.containsKey("/torn"), tree.toString());
            assertEquals(beforeLastWrite, tree);
        }
    }

    @Test
    void aDamagedLogOrSnapshotIsRefusedWithFileAndOffsetAndNothingIsWritten() throws Exception {
        Path running = dir.resolve("running");
        Path zkData = dir.resolve("zookeeper");
        try (ApacheServer zookeeper = new ApacheServer(running); ZooKeeper zk = TreeImage.connect(zookeeper.connectString())) {
            for (int i = 0; i < 20; i++) {
                zk.create("/n" + i, new byte[100], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            ApacheServer.copyFiles(running, zkData);
        }
        Path log = newestLog(zkData);
        byte[] original = Files.readAllBytes(log);
        byte[] damaged = original.clone();
        damaged[16 + 300] ^= 0x40; // inside an early record: valid records follow it
        Files.write(log, damaged);
        Path data = dir.resolve("warden");
        ToolRun refused = ToolRun.of("import", "--from-zookeeper", zkData.toString(), "--data-dir", data.toString());
        assertEquals(2, refused.exitCode(), refused.toString());
        assertTrue(refused.err().matches("(?s)cannot import .*, nothing written: " + java.util.regex.Pattern.quote(
                log.toString()) + " at byte offset \\d+: .*valid records follow it.*"), refused.err());
        assertFalse(Files.exists(data), "nothing written");

        Files.write(log, original);
        Path snapshot;
        try (Stream<Path> files = Files.list(zkData.resolve("version-2"))) {
            snapshot = files.filter(f -> f.getFileName().toString().startsWith("snapshot.")).findFirst().orElseThrow();
        }
        byte[] snapshotBytes = Files.readAllBytes(snapshot);
        snapshotBytes[40] ^= 0x01;
        Files.write(snapshot, snapshotBytes);
        ToolRun badSnapshot = ToolRun.of("import", "--from-zookeeper", zkData.toString(), "--data-dir", data.toString());
        assertEquals(2, badSnapshot.exitCode(), badSnapshot.toString());
        assertTrue(badSnapshot.err().contains(snapshot + " at byte offset "), badSnapshot.err());
        assertFalse(Files.exists(data), "nothing written");
    }

    @Test
    void importIntoANonEmptyDirectoryIsRefused() throws Exception {
        Path zkData = dir.resolve("zookeeper");
        try (ApacheServer zookeeper = new ApacheServer(zkData); ZooKeeper zk = TreeImage.connect(zookeeper.connectString())) {
            zk.create("/a", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
        Path data = Files.createDirectories(dir.resolve("warden"));
        Files.writeString(data.resolve("keep-me"), "existing");
        ToolRun refused = ToolRun.of("import", "--from-zookeeper", zkData.toString(), "--data-dir", data.toString());
        assertEquals(2, refused.exitCode(), refused.toString());
        assertTrue(refused.err().contains("--data-dir " + data + " is not empty (it holds keep-me)"), refused.err());
        try (Stream<Path> files = Files.list(data)) {
            assertEquals(List.of(data.resolve("keep-me")), files.toList());
        }
    }

    @Test
    void exportGoesBackToAZooKeeperThatServesTheSameTree() throws Exception {
        Path zkData = dir.resolve("zookeeper");
        ZooKeeper owner;
        try (ApacheServer zookeeper = new ApacheServer(zkData); ZooKeeper zk = TreeImage.connect(zookeeper.connectString())) {
            owner = TreeImage.connect(zookeeper.connectString());
            owner.create("/lock", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            writeVariedTree(zookeeper, zk);
        }
        owner.close();
        Path data = dir.resolve("warden");
        assertEquals(0, ToolRun.of("import", "--from-zookeeper", zkData.toString(), "--data-dir", data.toString())
                .exitCode());
        SortedMap<String, String> wardenTree;
        try (WardenServer warden = startWarden(data); ZooKeeper zk = TreeImage.connect(warden.connectString())) {
            zk.create("/written-on-warden", "w".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT);
            zk.setData("/app", "v4".getBytes(StandardCharsets.UTF_8), -1);
            wardenTree = TreeImage.read(zk);
        }
        Path back = dir.resolve("zookeeper-again");
        ToolRun exported = ToolRun.of("export", "--to-zookeeper", back.toString(), "--data-dir", data.toString());
        assertEquals(0, exported.exitCode(), exported.toString());
        try (ApacheServer zookeeper = new ApacheServer(back)) {
            assertEquals(wardenTree, TreeImage.read(zookeeper.connectString()));
        }
        // and round again: what ZooKeeper wrote from the export imports cleanly
        ToolRun again = ToolRun.of("import", "--from-zookeeper", back.toString(), "--data-dir",
                dir.resolve("warden-again").toString());
        assertEquals(0, again.exitCode(), again.toString());
    }

    private static Path newestLog(Path zkData) throws Exception {
        try (Stream<Path> files = Files.list(zkData.resolve("version-2"))) {
            return files.filter(f -> f.getFileName().toString().startsWith("log."))
                    .max(java.util.Comparator.comparingLong(f -> ZkSnapshot.zxidOfName(f, "log"))).orElseThrow();
        }
    }
}
