package dev.warden.testing.curator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Written as a Curator user writes a test with {@code org.apache.curator.test.TestingServer}:
 * only the import of {@code TestingServer} names this package instead (the class is in the
 * same package here, so there is no import at all). Nothing else refers to Warden.
 */
class CuratorTestingServerDropInTest {
    private TestingServer server;
    private CuratorFramework client;
    private final BlockingQueue<ConnectionState> states = new LinkedBlockingQueue<>();

    @BeforeEach
    void setUp() throws Exception {
        server = new TestingServer();
        client = CuratorFrameworkFactory.newClient(server.getConnectString(), 10_000, 5_000,
                new ExponentialBackoffRetry(100, 10));
        // before start: Curator hands CONNECTED to listeners on its own thread, which may come
        // after blockUntilConnected returns, so one added later may or may not see it
        client.getConnectionStateListenable().addListener((c, state) -> states.add(state));
        client.start();
        assertTrue(client.blockUntilConnected(10, TimeUnit.SECONDS));
    }

    @AfterEach
    void tearDown() throws Exception {
        client.close();
        server.close();
    }

    @Test
    void recipesWorkAndTheClientRidesThroughARestart() throws Exception {
        assertEquals(ConnectionState.CONNECTED, states.poll(10, TimeUnit.SECONDS));

        client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath("/app/config", "a".getBytes());
        InterProcessMutex mutex = new InterProcessMutex(client, "/app/lock");
        assertTrue(mutex.acquire(5, TimeUnit.SECONDS));
        try (LeaderLatch latch = new LeaderLatch(client, "/app/leader", "me")) {
            latch.start();
            assertTrue(latch.await(5, TimeUnit.SECONDS));
        }
        mutex.release();

        try (CuratorCache cache = CuratorCache.build(client, "/app/config")) {
            BlockingQueue<String> changes = new LinkedBlockingQueue<>();
            cache.listenable().addListener((type, before, after) -> {
                if (after != null) {
                    changes.add(new String(after.getData()));
                }
            });
            cache.start();
            assertEquals("a", changes.poll(5, TimeUnit.SECONDS));

            server.restart();
            assertEquals(ConnectionState.SUSPENDED, states.poll(10, TimeUnit.SECONDS));
            assertEquals(ConnectionState.RECONNECTED, states.poll(10, TimeUnit.SECONDS));

            client.setData().forPath("/app/config", "b".getBytes());
            assertEquals("b", changes.poll(5, TimeUnit.SECONDS));
        }
        assertArrayEquals("b".getBytes(), client.getData().forPath("/app/config"));
    }

    @Test
    void stopAndStartKeepThePortAndTheData() throws Exception {
        int port = server.getPort();
        client.create().forPath("/kept", "x".getBytes());
        server.stop();
        server.start();
        assertEquals(port, server.getPort());
        assertEquals(List.of("kept", "zookeeper"), client.getChildren().forPath("/").stream().sorted().toList());
    }

    @Test
    void aServerOnAGivenDirectoryKeepsItsDataThereAcrossStopAndStart(@TempDir File dir) throws Exception {
        try (TestingServer onDisk = new TestingServer(-1, dir);
             CuratorFramework diskClient = CuratorFrameworkFactory.newClient(onDisk.getConnectString(), 10_000, 5_000,
                     new ExponentialBackoffRetry(100, 10))) {
            assertEquals(dir, onDisk.getTempDirectory());
            diskClient.start();
            diskClient.create().forPath("/kept", "x".getBytes());
            onDisk.stop();
            assertTrue(dir.list().length > 0, "the data is in " + dir);
            onDisk.start();
            assertArrayEquals("x".getBytes(), diskClient.getData().forPath("/kept"));
        }
    }
}
