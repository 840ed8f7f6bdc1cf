package dev.warden.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.warden.client.support.Events;
import dev.warden.protocol.CreateMode;
import dev.warden.protocol.ErrorCode;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Watch removal, metrics and the admin view, against Apache ZooKeeper here and Warden in
 * {@link WardenClientParityTest}.
 */
class ClientParityTest extends PerClassServerTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration QUIET = Duration.ofMillis(300);

    private WardenClient connect(Events states) {
        return WardenClient.builder().connectString(server.connectString()).sessionTimeout(Duration.ofSeconds(10))
                .stateListener(states).connect().join();
    }

    private static int code(Throwable failure) {
        Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
        return assertInstanceOf(WardenException.class, cause).code().code();
    }

    @Test
    void removingOneWatcherLocallyLeavesTheOthersAndWorksOffline() throws Exception {
        String path = "/rw-local-" + System.nanoTime();
        try (WardenClient client = connect(new Events())) {
            client.create(path, new byte[0], CreateMode.PERSISTENT).join();
            Events a = new Events();
            Events b = new Events();
            client.getData(path, a).join();
            client.getData(path, b).join();

            client.removeWatcher(path, a, WatchKind.DATA, true).join();
            assertEquals(WatchEvent.Kind.DATA_WATCH_REMOVED, a.nextEvent(WAIT).kind());
            client.setData(path, "x".getBytes()).join();
            assertEquals(WatchEvent.Kind.NODE_DATA_CHANGED, b.nextEvent(WAIT).kind());
            assertTrue(a.noMoreEvents(QUIET), "a removed watcher hears nothing more");

            Events never = new Events();
            Throwable none = client.removeWatcher(path, never, WatchKind.DATA, false).handle((ok, e) -> e).join();
            assertEquals(ErrorCode.NO_WATCHER.code(), code(none), "a watcher never registered is refused locally");

            // Offline: the local removal needs no server.
            Events c = new Events();
            client.getChildren(path, c).join();
            server.stop();
            try {
                client.removeWatcher(path, c, WatchKind.CHILDREN, true).get(2, TimeUnit.SECONDS);
                assertEquals(WatchEvent.Kind.CHILD_WATCH_REMOVED, c.nextEvent(WAIT).kind());
            } finally {
                server.restart();
            }
        }
    }

    @Test
    void removingOneOfSeveralOnTheServerChecksAndKeepsTheServersWatch() throws Exception {
        String path = "/rw-check-" + System.nanoTime();
        try (WardenClient client = connect(new Events())) {
            client.create(path, new byte[0], CreateMode.PERSISTENT).join();
            Events a = new Events();
            Events b = new Events();
            client.exists(path, a).join();
            client.getData(path, b).join();
            // a is not the last data watcher: checkWatches, the server keeps its watch for b.
            client.removeWatcher(path, a, WatchKind.DATA, false).join();
            assertEquals(WatchEvent.Kind.DATA_WATCH_REMOVED, a.nextEvent(WAIT).kind());
            client.setData(path, "1".getBytes()).join();
            assertEquals(WatchEvent.Kind.NODE_DATA_CHANGED, b.nextEvent(WAIT).kind());
            assertTrue(a.noMoreEvents(QUIET));

            // the last one: the server removes its watch too, and a later change fires nothing.
            client.getData(path, b).join();
            client.removeWatcher(path, b, WatchKind.DATA, false).join();
            assertEquals(WatchEvent.Kind.DATA_WATCH_REMOVED, b.nextEvent(WAIT).kind());
            Throwable gone = client.removeAllWatches(path, WatchKind.DATA, false).handle((ok, e) -> e).join();
            assertEquals(ErrorCode.NO_WATCHER.code(), code(gone));
            client.setData(path, "2".getBytes()).join();
            assertTrue(b.noMoreEvents(QUIET));
        }
    }

    @Test
    void removeAllWatchesLocalDropsEveryWatcherOfTheKind() throws Exception {
        String path = "/rw-all-" + System.nanoTime();
        try (WardenClient client = connect(new Events())) {
            client.create(path, new byte[0], CreateMode.PERSISTENT).join();
            Events a = new Events();
            Events b = new Events();
            client.getChildren(path, a).join();
            client.getChildren(path, b).join();
            client.getData(path, a).join();
            client.removeAllWatches(path, WatchKind.CHILDREN, true).join();
            assertEquals(WatchEvent.Kind.CHILD_WATCH_REMOVED, a.nextEvent(WAIT).kind());
            assertEquals(WatchEvent.Kind.CHILD_WATCH_REMOVED, b.nextEvent(WAIT).kind());
            client.create(path + "/child", new byte[0], CreateMode.PERSISTENT).join();
            client.setData(path, "x".getBytes()).join();
            assertEquals(WatchEvent.Kind.NODE_DATA_CHANGED, a.nextEvent(WAIT).kind(), "the data watch stays");
            assertTrue(b.noMoreEvents(QUIET));
        }
    }

    @Test
    void metricsCountStatesRequestsAndLatency() throws Exception {
        Events states = new Events();
        try (WardenClient client = connect(states)) {
            assertEquals(ConnectionState.CONNECTED, states.nextState(WAIT));
            ClientMetrics metrics = client.metrics();
            metrics.resetLatency();
            String path = "/metrics-" + System.nanoTime();
            client.create(path, new byte[0], CreateMode.PERSISTENT).join();
            for (int i = 0; i < 20; i++) {
                client.getData(path).join();
            }
            ClientMetrics.LatencySummary latency = metrics.latency();
            assertEquals(21, latency.requests());
            assertTrue(latency.meanMs() > 0 && latency.maxMs() >= latency.p99Ms() * 0.89 && latency.p99Ms() >= latency.p50Ms(),
                    latency.toString());
            assertEquals(0, metrics.outstandingRequests());
            assertEquals(1, metrics.stateChanges(ConnectionState.CONNECTED));
            assertEquals(ConnectionState.CONNECTED, metrics.connectionState());
            assertTrue(client.connectedServer().isPresent());

            server.stop();
            try {
                states.awaitState(ConnectionState.SUSPENDED, WAIT);
                assertTrue(client.connectedServer().isEmpty());
                var pending = client.exists(path);
                assertEquals(1, metrics.outstandingRequests(), "a request made while disconnected waits");
                server.restart();
                states.awaitState(ConnectionState.RECONNECTED, WAIT);
                pending.get(10, TimeUnit.SECONDS);
            } finally {
                if (client.connectedServer().isEmpty()) {
                    server.restart();
                }
            }
            assertEquals(0, metrics.outstandingRequests());
            assertEquals(1, metrics.stateChanges(ConnectionState.SUSPENDED));
            assertEquals(1, metrics.stateChanges(ConnectionState.RECONNECTED));
        }
    }

    @Test
    void getConfigReadsTheConfigNodeWhateverTheChroot() throws Exception {
        try (WardenClient plain = connect(new Events())) {
            plain.create("/chrooted-" + System.nanoTime(), new byte[0], CreateMode.PERSISTENT).join();
        }
        try (WardenClient client = connect(new Events())) {
            DataAndStat config = client.getConfig().join();
            DataAndStat direct = client.getData("/zookeeper/config").join();
            assertEquals(new String(direct.data()), new String(config.data()));
        }
        String root = "/chroot-" + System.nanoTime();
        try (WardenClient plain = connect(new Events())) {
            plain.create(root, new byte[0], CreateMode.PERSISTENT).join();
        }
        try (WardenClient chrooted = WardenClient.builder().connectString(server.connectString() + root).connect().join()) {
            DataAndStat config = chrooted.getConfig(new Events()).join();
            assertFalse(config.stat() == null);
        }
    }
}
