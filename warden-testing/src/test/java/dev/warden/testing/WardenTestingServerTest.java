package dev.warden.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WardenTestingServerTest {

    @Test
    void servesStopsRestartsWithItsDataAndFreesItOnClose() throws Exception {
        Path dir;
        try (WardenTestingServer server = WardenTestingServer.start()) {
            dir = server.dataDirectory();
            assertTrue(server.inMemory());
            assertNotEquals(FileSystems.getDefault(), dir.getFileSystem(), dir + " should be on an in-memory file system");
            ZooKeeper zk = Zk.connect(server.connectString());
            zk.create("/kept", "v".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.close();

            int port = server.port();
            server.stop();
            assertFalse(server.isRunning());
            assertThrows(Exception.class, () -> new java.net.Socket("127.0.0.1", port).close(),
                    "a stopped server must not accept connections");
            server.restart();
            assertEquals(port, server.port());
            zk = Zk.connect(server.connectString());
            assertArrayEquals("v".getBytes(), zk.getData("/kept", false, null));
            zk.close();
        }
        assertFalse(dir.getFileSystem().isOpen(), "close must free the in-memory file system of " + dir);
    }

    @Test
    void onDiskItFsyncsInATemporaryDirectoryThatCloseDeletes() throws Exception {
        Path dir;
        try (WardenTestingServer server = WardenTestingServer.builder().inMemory(false).start()) {
            dir = server.dataDirectory();
            assertEquals(FileSystems.getDefault(), dir.getFileSystem());
            assertTrue(dir.startsWith(Path.of(System.getProperty("java.io.tmpdir"))), dir.toString());
            assertTrue(server.server().config().forceSync());
            ZooKeeper zk = Zk.connect(server.connectString());
            zk.create("/kept", "v".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.close();
            assertTrue(Files.isDirectory(dir.resolve("log")), "the log is on disk in " + dir);
        }
        assertFalse(Files.exists(dir), "close must delete the temporary directory " + dir);
    }

    @Test
    void aSessionSurvivesAQuickRestart() throws Exception {
        try (WardenTestingServer server = WardenTestingServer.builder().inMemory(false).start()) {
            ZooKeeper zk = Zk.connect(server.connectString());
            zk.create("/mine", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL);
            long session = zk.getSessionId();
            server.restart();
            // The client reconnects by itself and finds its session and ephemeral again.
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (true) {
                try {
                    assertEquals(session, zk.exists("/mine", false).getEphemeralOwner());
                    break;
                } catch (KeeperException.ConnectionLossException reconnecting) {
                    if (System.nanoTime() > deadline) {
                        throw reconnecting;
                    }
                    Thread.sleep(50);
                }
            }
            zk.close();
        }
    }

    @Test
    void aGivenDirectoryIsKeptAndReusedAfterClose(@TempDir Path given) throws Exception {
        try (WardenTestingServer server = WardenTestingServer.builder().dataDirectory(given).inMemory(false).start()) {
            ZooKeeper zk = Zk.connect(server.connectString());
            zk.create("/durable", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            zk.close();
        }
        assertTrue(Files.isDirectory(given));
        try (WardenTestingServer again = WardenTestingServer.builder().dataDirectory(given).start()) {
            ZooKeeper zk = Zk.connect(again.connectString());
            assertTrue(zk.exists("/durable", false) != null);
            zk.close();
        }
    }

    @Test
    void aClosedServerRefusesToStart() {
        WardenTestingServer server = WardenTestingServer.start();
        server.close();
        assertThrows(IllegalStateException.class, server::startServing);
    }

    /**
     * Time from the call to a server that answers a client, in memory, after the JVM has loaded
     * the classes (the first server of a JVM pays that once). Printed for the docs; bounded
     * loosely so that a loaded build machine does not fail it.
     */
    @Test
    void anInMemoryServerIsReadyInAFewTensOfMilliseconds() throws Exception {
        long coldStarted = System.nanoTime();
        WardenTestingServer.start().close();   // the first in this class: pays for class loading if first in the JVM
        long coldMs = (System.nanoTime() - coldStarted) / 1_000_000;
        long[] readyMs = new long[7];
        for (int i = 0; i < readyMs.length; i++) {
            long started = System.nanoTime();
            try (WardenTestingServer server = WardenTestingServer.start()) {
                readyMs[i] = (System.nanoTime() - started) / 1_000_000;
                ZooKeeper zk = Zk.connect(server.connectString());
                zk.close();
            }
        }
        Arrays.sort(readyMs);
        long medianMs = readyMs[readyMs.length / 2];
        System.out.println("in-memory server ready in (ms, sorted): " + Arrays.toString(readyMs)
                + "; first start in this class " + coldMs + " ms");
        assertTrue(medianMs < 100, "median start " + medianMs + " ms: " + Arrays.toString(readyMs));
    }
}
