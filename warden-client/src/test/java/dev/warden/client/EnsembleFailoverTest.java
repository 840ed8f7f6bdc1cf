package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.support.ApacheEnsemble;
import dev.warden.client.support.Events;
import dev.warden.protocol.CreateMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A client keeps its session, ephemerals and watches when the member it talks to is stopped. */
class EnsembleFailoverTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private ApacheEnsemble ensemble;

    @BeforeEach
    void start() {
        ensemble = new ApacheEnsemble();
    }

    @AfterEach
    void stop() {
        ensemble.close();
    }

    /** Finds the member the client actually talks to (a member still joining may have refused it). */
    private int awaitHostingMember(long sessionId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            int index = ensemble.memberHosting(sessionId);
            if (index >= 0) {
                return index;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no member hosts session 0x" + Long.toHexString(sessionId));
    }

    private WardenClient connectWithRetries(String connectString, Events states) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return WardenClient.builder().connectString(connectString).sessionTimeout(Duration.ofSeconds(10))
                        .connectTimeout(Duration.ofSeconds(2)).stateListener(states)
                        .connect().get(15, TimeUnit.SECONDS);
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("ensemble never served " + connectString, e);
                }
            }
        }
    }

    @Test
    void sessionAndWatchesSurviveStoppingTheConnectedMember() throws Exception {
        String connectString = ensemble.connectString();
        Events states = new Events();
        Events oneShot = new Events();
        Events tree = new Events();
        WardenClient client = connectWithRetries(connectString, states);
        int connectedIndex = awaitHostingMember(client.sessionId());
        WardenClient admin = connectWithRetries(ensemble.address((connectedIndex + 1) % 3), new Events());
        admin.create("/f", "0".getBytes(StandardCharsets.UTF_8), CreateMode.PERSISTENT).join();
        long sessionId = client.sessionId();
        client.create("/eph", new byte[0], CreateMode.EPHEMERAL).join();
        client.sync("/f").join(); // the admin wrote through another member
        client.getData("/f", oneShot).join();
        client.addWatch("/f", WatchMode.PERSISTENT_RECURSIVE, tree).join();

        ensemble.stopPeer(connectedIndex);
        states.awaitState(ConnectionState.SUSPENDED, WAIT);
        states.awaitState(ConnectionState.RECONNECTED, WAIT);
        assertEquals(sessionId, client.sessionId());
        CompletableFuture<java.util.Optional<dev.warden.protocol.Stat>> eph = client.exists("/eph");
        assertTrue(eph.get(20, TimeUnit.SECONDS).isPresent(), "ephemeral kept across failover");

        WardenClient writer = connectWithRetries(ensemble.address((connectedIndex + 1) % 3), new Events());
        writer.setData("/f", "1".getBytes(StandardCharsets.UTF_8)).get(20, TimeUnit.SECONDS);
        writer.setData("/f", "2".getBytes(StandardCharsets.UTF_8)).get(20, TimeUnit.SECONDS);
        assertEquals(WatchEvent.Kind.NODE_DATA_CHANGED, oneShot.nextEvent(WAIT).kind());
        assertEquals(WatchEvent.Kind.NODE_DATA_CHANGED, tree.nextEvent(WAIT).kind());
        assertEquals(WatchEvent.Kind.NODE_DATA_CHANGED, tree.nextEvent(WAIT).kind());
        assertTrue(oneShot.noMoreEvents(Duration.ofMillis(500)), "one-shot watch fired once");
        assertTrue(tree.noMoreEvents(Duration.ofMillis(10)), "no duplicated events");
        writer.close();
        client.close();
        admin.close();
    }
}
