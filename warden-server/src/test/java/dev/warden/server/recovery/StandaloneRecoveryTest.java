package dev.warden.server.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.ApacheClients;
import dev.warden.server.WardenServer;
import dev.warden.server.config.ServerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standalone server on a data directory damaged at rest: it refuses a state it cannot prove,
 * changing nothing, recovers around damage it does not need, and with --discard-unprovable gives
 * up exactly what it cannot prove.
 */
class StandaloneRecoveryTest {
    private static final int NODES = 1500;

    @TempDir
    Path dataDir;
    private ServerConfig config;

    @BeforeEach
    void writeHistory() throws Exception {
        // a snapshot (and a new log segment) every 100 transactions or so
        config = ServerConfig.builder().dataDir(dataDir).clientPort(0).snapCount(100).build();
        try (WardenServer server = WardenServer.start(config)) {
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                for (int i = 0; i < NODES; i++) {
                    zk.create("/n" + i, new byte[10], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
                }
            } finally {
                zk.close();
            }
            waitFor(() -> files(snapshots()).size() >= 8, "snapshots to be written");
        }
    }

    @Test
    void damagedSnapshotsAndAMissingFirstSegmentAreRefusedAndNothingChanges() throws Exception {
        for (Path snapshot : files(snapshots())) {
            overwrite64Bytes(snapshot);
        }
        Path first = files(log()).get(0);
        Files.delete(first);
        Map<Path, Long> before = listing();

        UnprovableStateException refused = assertThrows(UnprovableStateException.class,
                () -> WardenServer.start(config));
        String message = refused.getMessage();
        assertTrue(message.contains("no snapshot is valid"), message);
        assertTrue(message.contains("the log's records start after"), message);
        assertTrue(message.contains(files(snapshots()).get(0).toString()), message);
        assertTrue(message.contains("--discard-unprovable"), message);
        assertEquals(before, listing(), "a refusal moves, cuts and deletes nothing");

        // asked to, it gives up what it cannot prove, which here is everything, and keeps it aside
        try (WardenServer server = WardenServer.start(config.toBuilder().discardUnprovable(true).build())) {
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                assertEquals(List.of("zookeeper"), zk.getChildren("/", false));
            } finally {
                zk.close();
            }
        }
        for (Path file : before.keySet()) {
            assertTrue(Files.notExists(file), file + " was set aside");
        }
        assertEquals(before.size(), setAsideFiles().size(), "every old file is kept aside");
    }

    @Test
    void aDamagedSegmentBeforeTheNewestSnapshotIsSetAsideAndNothingIsLost() throws Exception {
        Path first = files(log()).get(0);
        byte[] bytes = Files.readAllBytes(first);
        bytes[60] ^= 0x10;
        Files.write(first, bytes);
        try (WardenServer server = WardenServer.start(config)) {
            assertEveryNodeIsThere(server);
        }
        assertTrue(setAsideFiles().stream().anyMatch(f -> f.getFileName().equals(first.getFileName())),
                "the damaged segment was moved aside: " + setAsideFiles());
    }

    @Test
    void aMissingSegmentAfterTheNewestValidSnapshotIsRefused() throws Exception {
        List<Path> snapshotFiles = files(snapshots());
        // the three newest snapshots damaged: the newest valid one is older than the missing segment
        for (Path snapshot : snapshotFiles.subList(snapshotFiles.size() - 3, snapshotFiles.size())) {
            overwrite64Bytes(snapshot);
        }
        List<Path> segments = files(log());
        Files.delete(segments.get(segments.size() - 2));
        UnprovableStateException refused = assertThrows(UnprovableStateException.class,
                () -> WardenServer.start(config));
        assertTrue(refused.getMessage().contains("the records between are missing"), refused.getMessage());
        try (WardenServer server = WardenServer.start(config.toBuilder().discardUnprovable(true).build())) {
            ZooKeeper zk = ApacheClients.connect(server.connectString());
            try {
                int children = zk.getChildren("/", false).size();
                assertTrue(children > 1 && children < NODES + 1, "a prefix of the history: " + children);
            } finally {
                zk.close();
            }
        }
    }

    @Test
    void anUndamagedDirectoryRecoversEverything() throws Exception {
        try (WardenServer server = WardenServer.start(config)) {
            assertEveryNodeIsThere(server);
        }
        assertTrue(setAsideFiles().isEmpty());
    }

    private static void assertEveryNodeIsThere(WardenServer server) throws Exception {
        ZooKeeper zk = ApacheClients.connect(server.connectString());
        try {
            assertEquals(NODES + 1, zk.getChildren("/", false).size(), "every node plus /zookeeper");
        } finally {
            zk.close();
        }
    }

    private Path snapshots() {
        return dataDir.resolve("snapshots");
    }

    private Path log() {
        return dataDir.resolve("log");
    }

    /** Bit rot: 64 bytes in the middle of the file overwritten. */
    private static void overwrite64Bytes(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 0; i < 64; i++) {
            bytes[bytes.length / 2 + i] = (byte) 0xA5;
        }
        Files.write(file, bytes);
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private List<Path> setAsideFiles() throws IOException {
        try (Stream<Path> entries = Files.walk(dataDir)) {
            return entries.filter(Files::isRegularFile)
                    .filter(f -> f.getParent().getFileName().toString().contains(".set-aside-")).toList();
        }
    }

    /** Every file under the data directory with its size. */
    private Map<Path, Long> listing() throws IOException {
        Map<Path, Long> listing = new TreeMap<>();
        try (Stream<Path> entries = Files.walk(dataDir)) {
            // the lock file says who holds the directory; it is no data, and recovery leaves it alone
            for (Path file : entries.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().equals(DataDirLock.FILE_NAME)).toList()) {
                listing.put(file, Files.size(file));
            }
        }
        return listing;
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void waitFor(Check check, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!check.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }
}
