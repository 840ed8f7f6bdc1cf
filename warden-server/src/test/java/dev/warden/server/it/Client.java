package dev.warden.server.it;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;

/** One Apache ZooKeeper client handle plus the events its default watcher saw, in order. */
final class Client implements AutoCloseable {
    static final int DEFAULT_SESSION_TIMEOUT_MS = 8_000;

    final ZooKeeper zk;
    /** Everything delivered to the default watcher: state changes and default-watch events. */
    final BlockingQueue<WatchedEvent> events;

    private Client(ZooKeeper zk, BlockingQueue<WatchedEvent> events) {
        this.zk = zk;
        this.events = events;
    }

    /** Opens a new session and waits until it is connected. */
    static Client connect(String connectString) throws Exception {
        return connect(connectString, DEFAULT_SESSION_TIMEOUT_MS);
    }

    static Client connect(String connectString, int sessionTimeoutMs) throws Exception {
        BlockingQueue<WatchedEvent> events = new LinkedBlockingQueue<>();
        Client client = new Client(new ZooKeeper(connectString, sessionTimeoutMs, events::add), events);
        client.awaitState(KeeperState.SyncConnected);
        return client;
    }

    /** Attaches a new handle to an existing session; does not wait, as the server may refuse. */
    static Client attach(String connectString, int sessionTimeoutMs, long sessionId, byte[] password)
            throws Exception {
        BlockingQueue<WatchedEvent> events = new LinkedBlockingQueue<>();
        return new Client(new ZooKeeper(connectString, sessionTimeoutMs, events::add, sessionId, password), events);
    }

    /** Waits for the default watcher to report {@code state}, skipping other events. */
    void awaitState(KeeperState state) throws InterruptedException {
        long deadlineNs = System.nanoTime() + Await.DEFAULT_TIMEOUT.toNanos();
        while (true) {
            long leftNs = deadlineNs - System.nanoTime();
            WatchedEvent event = events.poll(Math.max(0, leftNs), TimeUnit.NANOSECONDS);
            if (event == null) {
                throw new AssertionError("client never reached state " + state);
            }
            if (event.getType() == org.apache.zookeeper.Watcher.Event.EventType.None
                    && event.getState() == state) {
                return;
            }
        }
    }

    long sessionId() {
        return zk.getSessionId();
    }

    @Override
    public void close() throws InterruptedException {
        zk.close();
    }
}
