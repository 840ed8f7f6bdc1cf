package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.support.ApacheStandaloneServer;
import dev.warden.client.support.Events;
import dev.warden.client.support.TargetServer;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.Perms;
import dev.warden.testsupport.FaultProxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Connection loss, reconnect, retries and expiry, with fault-injecting proxies in front of the server. */
class SessionTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final byte[] EMPTY = new byte[0];

    private TargetServer server;

    /** The server under test; subclasses run the same tests against another server. */
    TargetServer startServer() {
        return new ApacheStandaloneServer();
    }
    private FaultProxy proxy;
    private WardenClient admin;

    @BeforeEach
    void start() {
        server = startServer();
        proxy = new FaultProxy(server.port());
        admin = WardenClient.builder().connectString(server.connectString()).connect().join();
    }

    @AfterEach
    void stop() {
        admin.close();
        proxy.close();
        server.close();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        CompletionException e = assertThrows(CompletionException.class, () -> future.orTimeout(10, TimeUnit.SECONDS).join());
        return e.getCause();
    }

    @Test
    void expiryIsReportedLocallyAtTheSessionTimeoutWithoutReconnecting() throws Exception {
        Events events = new Events();
        WardenClient client = WardenClient.builder().connectString(proxy.address())
                .sessionTimeout(Duration.ofMillis(1500)).connectTimeout(Duration.ofMillis(300))
                .stateListener(events).connect().join();
        assertEquals(ConnectionState.CONNECTED, events.nextState(WAIT));
        client.create("/eph", EMPTY, CreateMode.EPHEMERAL).join();

        long pausedAt = System.nanoTime();
        proxy.pause();
        CompletableFuture<DataAndStat> stuck = client.getData("/eph");
        assertEquals(ConnectionState.SUSPENDED, events.nextState(WAIT));
        events.awaitState(ConnectionState.LOST, WAIT);
        long lostAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - pausedAt);
        // The last reply came just before the pause; expiry is due one timeout after it.
        assertTrue(lostAfterMs >= 1200 && lostAfterMs <= 3000, "LOST after " + lostAfterMs + " ms");
        assertInstanceOf(WardenException.SessionExpiredException.class, failureOf(stuck));
        assertInstanceOf(WardenException.SessionExpiredException.class, failureOf(client.exists("/")));
        proxy.resume();
        client.close();
        // The server expires the session on its own; its ephemeral goes with it.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (admin.exists("/eph").join().isPresent() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(admin.exists("/eph").join().isEmpty());
    }

    @Test
    void failoverKeepsTheSessionAndReplaysMissedWatchEvents() throws Exception {
        FaultProxy second = new FaultProxy(server.port());
        try {
            Events states = new Events();
            Events watched = new Events();
            Events persistent = new Events();
            admin.create("/w", bytes("0"), CreateMode.PERSISTENT).join();
            admin.create("/p", EMPTY, CreateMode.PERSISTENT).join();
            WardenClient client = WardenClient.builder().connectString(proxy.address() + "," + second.address())
                    .sessionTimeout(Duration.ofSeconds(4)).connectTimeout(Duration.ofMillis(500))
                    .stateListener(states).connect().join();
            long sessionId = client.sessionId();
            client.create("/mine", EMPTY, CreateMode.EPHEMERAL).join();
            client.getData("/w", watched).join();
            client.getChildren("/p", watched).join();
            client.exists("/new", watched).join();
            client.addWatch("/p", WatchMode.PERSISTENT_RECURSIVE, persistent).join();

            proxy.refuse(true);
            second.refuse(true);
            proxy.drop();
            second.drop();
            states.awaitState(ConnectionState.SUSPENDED, WAIT);
            admin.setData("/w", bytes("1")).join();
            admin.create("/p/kid", EMPTY, CreateMode.PERSISTENT).join();
            admin.create("/new", EMPTY, CreateMode.PERSISTENT).join();
            second.refuse(false);
            states.awaitState(ConnectionState.RECONNECTED, WAIT);
            assertEquals(sessionId, client.sessionId());

            // setWatches2 turns each missed change into one event; nothing twice.
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (int i = 0; i < 3; i++) {
                WatchEvent event = watched.nextEvent(WAIT);
                seen.add(event.kind() + " " + event.path());
            }
            assertEquals(java.util.Set.of("NODE_DATA_CHANGED /w", "NODE_CHILDREN_CHANGED /p", "NODE_CREATED /new"), seen);
            assertTrue(watched.noMoreEvents(Duration.ofMillis(300)));
            assertTrue(client.exists("/mine").join().isPresent(), "ephemeral survives failover");
            // The recursive watch was re-registered: a change after reconnect reaches it.
            admin.setData("/p/kid", bytes("x")).join();
            WatchEvent after = persistent.nextEvent(WAIT);
            assertEquals("/p/kid", after.path());
            assertEquals(WatchEvent.Kind.NODE_DATA_CHANGED, after.kind());
            client.close();
        } finally {
            second.close();
        }
    }

    @Test
    void idempotentReadsAreRetriedAndWritesFailWithConnectionLoss() throws Exception {
        Events states = new Events();
        admin.create("/r", bytes("v"), CreateMode.PERSISTENT).join();
        WardenClient client = WardenClient.builder().connectString(proxy.address())
                .sessionTimeout(Duration.ofSeconds(4)).retryPolicy(RetryPolicy.upTo(3, 10_000))
                .stateListener(states).connect().join();
        proxy.pause();
        CompletableFuture<DataAndStat> read = client.getData("/r");
        CompletableFuture<String> write = client.create("/w", EMPTY, CreateMode.PERSISTENT);
        CompletableFuture<DataAndStat> laterRead = client.getData("/r");
        Thread.sleep(100);
        proxy.drop();
        proxy.resume();
        states.awaitState(ConnectionState.RECONNECTED, WAIT);
        assertArrayEquals(bytes("v"), read.join().data());
        assertArrayEquals(bytes("v"), laterRead.join().data());
        assertInstanceOf(WardenException.ConnectionLossException.class, failureOf(write));
        client.close();
    }

    @Test
    void anAppliedVersionedWriteResentAfterALostReplyReportsBadVersionMarkedAsResent() throws Exception {
        Events states = new Events();
        admin.create("/v", bytes("0"), CreateMode.PERSISTENT).join();
        WardenClient client = WardenClient.builder().connectString(proxy.address())
                .sessionTimeout(Duration.ofSeconds(4)).stateListener(states).connect().join();
        proxy.pauseReplies();
        CompletableFuture<dev.warden.protocol.Stat> write = client.setData("/v", bytes("1"), 0);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (admin.getData("/v").join().stat().version() != 1) {
            assertTrue(System.nanoTime() < deadline, "the write never reached the server");
            Thread.sleep(10);
        }
        proxy.drop();
        proxy.resume();
        WardenException resent = assertInstanceOf(WardenException.BadVersionException.class, failureOf(write));
        assertTrue(resent.afterResend(), "the answer came to a resend");
        Throwable contended = failureOf(client.setData("/v", bytes("2"), 0));
        assertFalse(assertInstanceOf(WardenException.BadVersionException.class, contended).afterResend());
        client.close();
    }

    @Test
    void withoutRetriesEveryLostReplyFails() throws Exception {
        Events states = new Events();
        WardenClient client = WardenClient.builder().connectString(proxy.address())
                .sessionTimeout(Duration.ofSeconds(4)).retryPolicy(RetryPolicy.none())
                .stateListener(states).connect().join();
        proxy.pause();
        CompletableFuture<java.util.Optional<dev.warden.protocol.Stat>> read = client.exists("/");
        Thread.sleep(100);
        proxy.drop();
        proxy.resume();
        assertInstanceOf(WardenException.ConnectionLossException.class, failureOf(read));
        states.awaitState(ConnectionState.RECONNECTED, WAIT);
        assertTrue(client.exists("/").join().isPresent());
        client.close();
    }

    @Test
    void createProtectedFindsTheNodeWhoseReplyWasLost() throws Exception {
        admin.create("/q", EMPTY, CreateMode.PERSISTENT).join();
        WardenClient client = WardenClient.builder().connectString(proxy.address())
                .sessionTimeout(Duration.ofSeconds(4)).connect().join();
        proxy.pauseReplies();
        CompletableFuture<CreateResult> created = client.createProtected("/q/item-", EMPTY, Perms.OPEN_ACL_UNSAFE,
                CreateMode.EPHEMERAL_SEQUENTIAL);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (admin.getChildren("/q").join().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        proxy.drop();
        proxy.resume();
        CreateResult result = created.orTimeout(10, TimeUnit.SECONDS).join();
        List<String> children = admin.getChildren("/q").join();
        assertEquals(1, children.size(), "no duplicate after the lost reply: " + children);
        assertEquals("/q/" + children.get(0), result.path());
        assertEquals(client.sessionId(), result.stat().ephemeralOwner());
        client.close();
    }

    @Test
    void closeEndsTheSessionAndFailsLaterCalls() throws Exception {
        Events states = new Events();
        WardenClient client = WardenClient.builder().connectString(server.connectString()).stateListener(states)
                .connect().join();
        client.create("/gone", EMPTY, CreateMode.EPHEMERAL).join();
        client.close();
        states.awaitState(ConnectionState.CLOSED, WAIT);
        assertTrue(admin.exists("/gone").join().isEmpty(), "closeSession removes ephemerals at once");
        assertInstanceOf(WardenException.ClientClosedException.class, failureOf(client.exists("/")));
    }

    @Test
    void pingsKeepAnIdleSessionAliveWellPastItsTimeout() throws Exception {
        Events states = new Events();
        WardenClient client = WardenClient.builder().connectString(proxy.address())
                .sessionTimeout(Duration.ofMillis(2000)).stateListener(states).connect().join();
        assertEquals(ConnectionState.CONNECTED, states.nextState(WAIT));
        long sessionId = client.sessionId();
        // 2 s (the most these test servers grant): the client drops a connection silent for
        // 2/3 of it, so a shorter session would reconnect when a loaded CI host stalls for 0.6 s
        Thread.sleep(5000);
        assertTrue(client.exists("/").join().isPresent());
        assertEquals(sessionId, client.sessionId());
        assertEquals(1, proxy.acceptedConnections(), "never reconnected");
        client.close();
        assertEquals(ConnectionState.CLOSED, states.nextState(WAIT), "no state change before close");
    }

    @Test
    void aServerThatClosesTheHandshakeIsSkipped() throws Exception {
        // Like a server that is behind the client's lastZxidSeen: it accepts, then closes without a reply.
        proxy.refuse(true);
        try (FaultProxy healthy = new FaultProxy(server.port());
             WardenClient client = WardenClient.builder().connectString(proxy.address() + "," + healthy.address())
                     .connectTimeout(Duration.ofMillis(500)).connect().get(10, TimeUnit.SECONDS)) {
            assertTrue(client.exists("/").join().isPresent());
            assertEquals(1, healthy.acceptedConnections());
            assertTrue(proxy.acceptedConnections() <= 1);
        }
    }

    @Test
    void connectFailsWhenNoServerAnswersWithinTheSessionTimeout() {
        proxy.refuse(true);
        CompletableFuture<WardenClient> connecting = WardenClient.builder().connectString(proxy.address())
                .sessionTimeout(Duration.ofMillis(600)).connectTimeout(Duration.ofMillis(200)).connect();
        assertInstanceOf(WardenException.ConnectionLossException.class, failureOf(connecting));
    }
}
