package dev.warden.cli.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.cli.data.ToolRun;
import dev.warden.cli.data.TreeImage;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * warden import on data directories written by real servers of the older ZooKeeper releases
 * (3.5 to 3.8; ZooKeeperImportTest covers the test classpath's 3.9), each run as its own JVM on
 * its own jars. A client writes every kind of node, ACLs and data sizes, enough to roll the log
 * and snapshot, then more after the last snapshot; the server is stopped with SIGTERM, as
 * zkServer.sh stops it, except the newest release, which is killed with SIGKILL while writes are
 * in flight. The Warden server started on the import serves the tree the client saw, every Stat
 * field and ACL included, resumes the session that held ephemerals, and the import checked
 * ZooKeeper's digests where the release writes them (3.6 and later).
 */
class ZooKeeperReleaseImportTest {
    /** Set by warden-cli's pom: the releases the build copied, and where. */
    private static final String RELEASES_PROPERTY = "warden.zookeeper.releases";
    private static final String RELEASES_DIR_PROPERTY = "warden.zookeeper.releases.dir";

    /** The kill comes once this many in-flight writes are answered, while later ones are on their way. */
    private static final int ACKED_BEFORE_KILL = 3;
    private static final int SESSION_TIMEOUT_MS = 30_000;
    private static final int CLOSE_WAIT_MS = 1_000;
    private static final long WAIT_SECONDS = 30;
    private static final Pattern IMPORTED = Pattern.compile("imported .*: \\d+ nodes, (\\d+) sessions,"
            + " (\\d+) ephemerals at zxid 0x[0-9a-f]+ \\(snapshot\\.([0-9a-f]+) and (\\d+) logged transactions;"
            + " (\\d+) of ZooKeeper's digests checked, all equal\\)");

    @TempDir
    Path dir;

    static List<String> releases() {
        String releases = System.getProperty(RELEASES_PROPERTY);
        if (releases == null || releases.isBlank()) {
            throw new IllegalStateException(RELEASES_PROPERTY + " is not set: run this test through Maven, whose"
                    + " warden-cli pom lists the ZooKeeper releases and copies their jars");
        }
        return Arrays.stream(releases.split(",")).map(String::trim).toList();
    }

    private static Path jarsDir(String version) {
        String dir = System.getProperty(RELEASES_DIR_PROPERTY);
        if (dir == null) {
            throw new IllegalStateException(RELEASES_DIR_PROPERTY + " is not set: run this test through Maven");
        }
        return Paths.get(dir, version);
    }

    /** The newest release stands for the unclean end: SIGKILL with writes in flight. */
    private static boolean killedMidWrite(String version) {
        List<String> releases = releases();
        return version.equals(releases.get(releases.size() - 1));
    }

    /** ZooKeeper writes digests into its snapshots and logs from 3.6 on. */
    private static boolean writesDigests(String version) {
        return !version.startsWith("3.5.");
    }

    @ParameterizedTest(name = "ZooKeeper {0}")
    @MethodSource("releases")
    void aDirectoryWrittenByThisReleaseImportsWithItsTreeSessionsAndDigests(String version) throws Exception {
        Path zkData = Files.createDirectories(dir.resolve("zookeeper-data"));
        Path serverDir = Files.createDirectories(dir.resolve("zookeeper-server"));
        boolean kill = killedMidWrite(version);
        SortedMap<String, String> seen;
        int tailWrites;
        long ownerSession;
        byte[] ownerPassword;
        List<String> ownerEphemerals;
        InFlightWrites inFlight = null;
        ZooKeeper writer = null;
        ZooKeeper owner = null;
        try (ZooKeeperReleaseProcess zookeeper = ZooKeeperReleaseProcess.start(version, jarsDir(version), serverDir,
                zkData, ReleaseWorkload.SNAP_COUNT)) {
            try {
                writer = TreeImage.connect(zookeeper.connectString());
                owner = TreeImage.connect(zookeeper.connectString());
                ReleaseWorkload.writeBulk(writer);
                ReleaseWorkload.awaitLogRoll(writer, zkData.resolve("version-2"));
                tailWrites = ReleaseWorkload.writeTail(writer, owner, zookeeper.connectString());
                ownerEphemerals = List.of("/app/lock", writer.getChildren("/app", false).stream()
                        .filter(child -> child.startsWith("worker-")).map(child -> "/app/" + child)
                        .findFirst().orElseThrow());
                ownerSession = owner.getSessionId();
                ownerPassword = owner.getSessionPasswd();
                seen = TreeImage.read(writer);
                if (kill) {
                    inFlight = InFlightWrites.issue(writer);
                    inFlight.awaitAcks(ACKED_BEFORE_KILL);
                    zookeeper.kill9();
                    inFlight.stopIssuing();
                } else {
                    zookeeper.terminate();
                }
            } catch (Exception | AssertionError e) {
                throw new AssertionError("ZooKeeper " + version + " output:\n" + zookeeper.output(), e);
            } finally {
                // after the server is gone, so the sessions stay open in its files
                closeDisconnected(writer, owner);
            }
        }

        Path data = dir.resolve("warden");
        ToolRun imported = ToolRun.of("import", "--from-zookeeper", zkData.toString(), "--data-dir", data.toString());
        assertEquals(0, imported.exitCode(), imported.toString());
        System.out.println("ZooKeeper " + version + (kill ? ", killed mid-write" : ", stopped") + ": "
                + imported.out().strip());
        Matcher summary = IMPORTED.matcher(imported.out());
        assertTrue(summary.find(), imported.out());
        assertEquals(2, Integer.parseInt(summary.group(1)), "the writer's and the owner's sessions: " + imported.out());
        assertEquals(2, Integer.parseInt(summary.group(2)), "the owner's ephemerals: " + imported.out());
        assertTrue(Long.parseLong(summary.group(3), 16) > 0, "a snapshot ZooKeeper rolled to: " + imported.out());
        assertTrue(Integer.parseInt(summary.group(4)) >= tailWrites,
                "the writes after the last snapshot come from the log: " + imported.out());
        if (writesDigests(version)) {
            assertTrue(Integer.parseInt(summary.group(5)) > 0, imported.out());
        } else {
            assertTrue(imported.out().contains("note: no ZooKeeper digest to check the tree against"), imported.out());
        }

        SortedMap<String, String> served;
        try (WardenServer warden = startWarden(data)) {
            served = TreeImage.read(warden.connectString());
            if (inFlight == null) {
                assertEquals(seen, served);
            } else {
                inFlight.check(seen, served);
            }
            try (ZooKeeper resumed = resume(warden.connectString(), ownerSession, ownerPassword)) {
                for (String ephemeral : ownerEphemerals) {
                    assertEquals(ownerSession, resumed.exists(ephemeral, false).getEphemeralOwner(), ephemeral);
                }
            }
            try (ZooKeeper zk = TreeImage.connect(warden.connectString())) {
                for (String ephemeral : ownerEphemerals) {
                    assertNull(zk.exists(ephemeral, false), "closing the resumed session deleted " + ephemeral);
                }
            }
        }
        if (inFlight != null) {
            aTornLastRecordIsLeftOut(zkData, served, Integer.parseInt(summary.group(4)));
        }
    }

    /**
     * The killed server's files (the import only read them) with the last record of the newest
     * log cut short, as a power loss can leave a write the disk had not finished: the import
     * leaves that record out, says so with its offset, and brings over everything before it.
     */
    private void aTornLastRecordIsLeftOut(Path zkData, SortedMap<String, String> servedWhole, int loggedWhole)
            throws Exception {
        Path log = newestLog(zkData.resolve("version-2"));
        byte[] bytes = Files.readAllBytes(log);
        int end = bytes.length;
        while (bytes[end - 1] == 0) {
            end--; // the zeros ZooKeeper preallocated after the last record
        }
        Arrays.fill(bytes, end - 20, end, (byte) 0);
        bytes[end - 20] = 7; // leftovers of the record's last write
        Files.write(log, bytes);

        Path data = dir.resolve("warden-torn");
        ToolRun imported = ToolRun.of("import", "--from-zookeeper", zkData.toString(), "--data-dir", data.toString());
        assertEquals(0, imported.exitCode(), imported.toString());
        System.out.println("the same files with the last record torn: " + imported.out().strip());
        assertTrue(imported.out().contains("note: " + log + ": torn tail at byte offset "), imported.out());
        Matcher summary = IMPORTED.matcher(imported.out());
        assertTrue(summary.find(), imported.out());
        assertEquals(loggedWhole - 1, Integer.parseInt(summary.group(4)), imported.out());
        List<String> inFlightWhole = servedWhole.keySet().stream().filter(InFlightWrites::isChild).toList();
        String lastWrite = inFlightWhole.get(inFlightWhole.size() - 1);
        try (WardenServer warden = startWarden(data)) {
            SortedMap<String, String> served = TreeImage.read(warden.connectString());
            assertEquals(inFlightWhole.subList(0, inFlightWhole.size() - 1),
                    served.keySet().stream().filter(InFlightWrites::isChild).toList(), "all but " + lastWrite);
            assertEquals(InFlightWrites.outside(servedWhole), InFlightWrites.outside(served));
        }
    }

    private static Path newestLog(Path version2) throws Exception {
        return ReleaseWorkload.logFiles(version2).stream()
                .max(Comparator.comparingLong(f -> ZkSnapshot.zxidOfName(f, "log"))).orElseThrow();
    }

    private static WardenServer startWarden(Path data) throws Exception {
        return WardenServer.start(ServerConfig.builder().dataDir(data).clientPort(0).clientPortAddress("127.0.0.1")
                .extendedTypesEnabled(true).build());
    }

    private static ZooKeeper resume(String connectString, long sessionId, byte[] password) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, SESSION_TIMEOUT_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, sessionId, password);
        if (!connected.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
            zk.close();
            throw new AssertionError("session 0x" + Long.toHexString(sessionId) + " did not resume on Warden");
        }
        assertEquals(sessionId, zk.getSessionId(), "Warden resumed the imported session");
        return zk;
    }

    /** Side by side: a client whose server is gone takes up to its reconnect backoff to close. */
    private static void closeDisconnected(ZooKeeper... clients) {
        CompletableFuture.allOf(Arrays.stream(clients).filter(Objects::nonNull)
                .map(zk -> CompletableFuture.runAsync(() -> {
                    try {
                        zk.close(CLOSE_WAIT_MS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                })).toArray(CompletableFuture[]::new)).join();
    }
}
