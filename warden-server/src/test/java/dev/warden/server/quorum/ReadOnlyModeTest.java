package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.server.ApacheClients;
import dev.warden.server.net.FourLetterWordClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * readonlymode.enabled with Apache's client: a member whose two peers are stopped serves reads
 * to a client that can be read-only and refuses its writes and any other client; once the peers
 * are back, the client moves to read-write on its own and writes again.
 */
class ReadOnlyModeTest {
    private static final long WAIT_MS = 60_000;
    private TestEnsemble ensemble;
    private ZooKeeper client;

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (ensemble != null) {
            ensemble.close();
        }
    }

    @Test
    void aMemberCutOffServesReadOnlyClientsUntilItsQuorumReturns(@TempDir Path dir) throws Exception {
        ensemble = new TestEnsemble(dir, List.of(1L, 2L, 3L), List.of(), ZabConsensus::new);
        ensemble.configureAll(b -> b.readOnlyModeEnabled(true));
        ensemble.startAll();
        ensemble.awaitAllServing(WAIT_MS);
        ZooKeeper writer = ApacheClients.connect(ensemble.connectString(3));
        writer.create("/kept", "before".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                CreateMode.PERSISTENT);
        writer.close();
        assertEquals("rw", FourLetterWordClient.ask(ensemble.connectString(3), "isro"));

        ensemble.stop(1);
        ensemble.stop(2);
        awaitWord(3, "isro", "ro");
        assertTrue(FourLetterWordClient.ask(ensemble.connectString(3), "srvr").contains("Mode: read-only\n"));
        assertTrue(FourLetterWordClient.ask(ensemble.connectString(3), "mntr").contains("zk_server_state\tread-only\n"));

        BlockingQueue<KeeperState> states = new LinkedBlockingQueue<>();
        client = new ZooKeeper(ensemble.connectStringAll(), 10_000, event -> {
            if (event.getType() == org.apache.zookeeper.Watcher.Event.EventType.None) {
                states.add(event.getState());
            }
        }, true);
        assertEquals(KeeperState.ConnectedReadOnly, states.poll(WAIT_MS, TimeUnit.MILLISECONDS));
        assertArrayEquals("before".getBytes(StandardCharsets.UTF_8), client.getData("/kept", false, null));
        assertTrue(client.getChildren("/", false).contains("kept"));
        assertThrows(KeeperException.NotReadOnlyException.class, () -> client.create("/new", new byte[0],
                ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
        assertThrows(KeeperException.NotReadOnlyException.class, () -> client.setData("/kept", new byte[0], -1));
        assertThrows(KeeperException.NotReadOnlyException.class, () -> client.delete("/kept", -1));
        CompletableFuture<Integer> sync = new CompletableFuture<>();
        client.sync("/kept", (rc, path, ctx) -> sync.complete(rc), null);
        assertEquals(KeeperException.Code.NOTREADONLY.intValue(), sync.get(WAIT_MS, TimeUnit.MILLISECONDS));
        // a client that did not ask for read-only is refused, as before
        assertTrue(MemberPipelineTest.handshakeRefused(ensemble.connectString(3), 0));

        ensemble.start(1);
        ensemble.start(2);
        KeeperState next;
        do {
            next = states.poll(WAIT_MS, TimeUnit.MILLISECONDS);
        } while (next != null && next != KeeperState.SyncConnected);
        assertEquals(KeeperState.SyncConnected, next);
        client.create("/after", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        assertTrue(client.exists("/after", false) != null);
        assertFalse(FourLetterWordClient.ask(ensemble.connectString(3), "isro").equals("ro"));
    }

    private void awaitWord(long id, String word, String expected) throws Exception {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        String last = null;
        while (System.currentTimeMillis() < deadline) {
            last = FourLetterWordClient.ask(ensemble.connectString(id), word);
            if (expected.equals(last)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("member " + id + " answered " + word + " with " + last + ", not " + expected);
    }
}
