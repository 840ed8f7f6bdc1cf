package dev.warden.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.testing.curator.TestingServer;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

/**
 * In memory, a server keeps its data on an in-memory file system and writes nothing to a real
 * one: not while it starts, takes writes and snapshots, restarts or stops and starts again, nor
 * while an ensemble loses its leader and a member comes back; yet everything written is still
 * there afterwards, since the server runs its real storage code on that file system.
 */
class NothingOnDiskTest {
    private static final int ZNODES = 40;

    @Test
    void aServerRestartedAfterASnapshotRecoversEverythingFromItsInMemoryFileSystem() throws Exception {
        try (WardenTestingServer server = WardenTestingServer.start()) {
            Path dir = server.dataDirectory();
            FileSystem memory = dir.getFileSystem();
            assertNotEquals(FileSystems.getDefault(), memory);
            assertEquals("jimfs", memory.provider().getScheme());

            writeZnodes(server.connectString(), "/a");
            Path snapshot = server.server().snapshotNow();
            assertSame(memory, snapshot.getFileSystem());
            assertTrue(Files.isRegularFile(snapshot), snapshot.toString());
            writeZnodes(server.connectString(), "/b");

            server.restart();
            assertZnodes(server.connectString(), "/a", "/b");
            server.stop();
            server.startServing();
            assertZnodes(server.connectString(), "/a", "/b");
            try (Stream<Path> files = Files.walk(dir)) {
                assertTrue(files.allMatch(file -> file.getFileSystem() == memory));
            }
        }
    }

    @Test
    void nothingIsWrittenToARealFileYetTheRecorderSeesAnOnDiskServersWrites() throws Exception {
        List<RealFileWrites.Write> writes;
        Path onDisk;
        try (RealFileWrites recorder = RealFileWrites.start()) {
            standaloneServerLifeInMemory();
            ensembleLifeInMemory();
            curatorTestingServerLifeInMemory();
            // The recorder must be able to see a server's writes: an on-disk server, last.
            try (WardenTestingServer durable = WardenTestingServer.builder().inMemory(false).start()) {
                onDisk = durable.dataDirectory();
                writeZnodes(durable.connectString(), "/d");
            }
            writes = recorder.stop();
        }
        List<RealFileWrites.Write> elsewhere = writes.stream().filter(w -> !Path.of(w.path()).startsWith(onDisk)).toList();
        assertTrue(elsewhere.isEmpty(), "in-memory servers wrote to real files " + elsewhere.size() + " times, first: "
                + elsewhere.subList(0, Math.min(5, elsewhere.size())));
        assertTrue(writes.stream().anyMatch(w -> w.event().equals("jdk.FileForce")),
                "the recorder saw no fsync of the on-disk server in " + onDisk + ": " + writes);
    }

    private static void standaloneServerLifeInMemory() throws Exception {
        try (WardenTestingServer server = WardenTestingServer.start()) {
            writeZnodes(server.connectString(), "/a");
            server.server().snapshotNow();
            writeZnodes(server.connectString(), "/b");
            server.restart();
            server.stop();
            server.startServing();
            assertZnodes(server.connectString(), "/a", "/b");
        }
    }

    private static void ensembleLifeInMemory() throws Exception {
        try (WardenTestingCluster cluster = WardenTestingCluster.builder(3).configure(b -> b.snapCount(10)).start()) {
            for (long id : cluster.memberIds()) {
                assertNotEquals(FileSystems.getDefault(), cluster.dataDirectory(id).getFileSystem());
            }
            writeZnodes(cluster.connectString(), "/a");
            long killed = cluster.killLeader();
            writeZnodes(cluster.connectString(), "/b");
            cluster.restart(killed);
            ZooKeeper onRestarted = Zk.connect(cluster.connectString(killed));
            try {
                onRestarted.sync("/", (rc, path, ctx) -> { }, null);
                assertZnodesOn(onRestarted, "/a", "/b");
            } finally {
                onRestarted.close();
            }
        }
    }

    private static void curatorTestingServerLifeInMemory() throws Exception {
        try (TestingServer server = new TestingServer()) {
            writeZnodes(server.getConnectString(), "/a");
            server.restart();
            assertZnodes(server.getConnectString(), "/a");
        }
    }

    private static void writeZnodes(String connectString, String parent) throws Exception {
        ZooKeeper zk = Zk.connect(connectString);
        try {
            zk.create(parent, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            for (int i = 0; i < ZNODES; i++) {
                zk.create(parent + "/n" + i, ("v" + i).getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
        } finally {
            zk.close();
        }
    }

    private static void assertZnodes(String connectString, String... parents) throws Exception {
        ZooKeeper zk = Zk.connect(connectString);
        try {
            assertZnodesOn(zk, parents);
        } finally {
            zk.close();
        }
    }

    private static void assertZnodesOn(ZooKeeper zk, String... parents) throws Exception {
        for (String parent : parents) {
            assertEquals(ZNODES, zk.getChildren(parent, false).size(), parent);
            assertArrayEquals(("v" + (ZNODES - 1)).getBytes(), zk.getData(parent + "/n" + (ZNODES - 1), false, null));
        }
        assertFalse(zk.getChildren("/", false).isEmpty());
    }
}
