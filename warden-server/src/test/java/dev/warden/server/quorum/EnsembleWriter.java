package dev.warden.server.quorum;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * A client that keeps writing a counter to one node through the whole ensemble (failing over
 * between members) and reads each acknowledged write back. A lost connection or an expired
 * session is counted and ridden out, since a stranger who names a real member in a hello can
 * disturb the ensemble for a moment; a wrong answer, or an error other than those, is a failure.
 */
final class EnsembleWriter implements Runnable {
    static final String PATH = "/healthy";
    private static final int SESSION_TIMEOUT_MS = 30_000;
    private static final long CONNECT_TIMEOUT_MS = 30_000;
    private static final long RETRY_PAUSE_MS = 20;

    private final String connectString;
    private final AtomicBoolean stop;
    private final AtomicReference<String> failure = new AtomicReference<>();
    private volatile long acknowledged;
    private volatile long lastAcknowledged;
    private volatile long lastAttempted;
    private volatile long connectionLosses;
    private volatile long sessions;

    EnsembleWriter(String connectString, AtomicBoolean stop) {
        this.connectString = connectString;
        this.stop = stop;
    }

    @Override
    public void run() {
        ZooKeeper zk = null;
        try {
            zk = open();
            try {
                zk.create(PATH, "0".getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.PERSISTENT);
            } catch (KeeperException.NodeExistsException created) {
                // created by an attempt whose answer was lost
            }
            for (long i = 1; !stop.get() && failure.get() == null; i++) {
                byte[] data = Long.toString(i).getBytes(StandardCharsets.UTF_8);
                lastAttempted = i;
                try {
                    zk.setData(PATH, data, -1);
                    lastAcknowledged = i;
                    acknowledged++;
                    // this client is the node's only writer, and a session reads its own writes
                    byte[] back = zk.getData(PATH, false, null);
                    if (!Arrays.equals(data, back)) {
                        failure.compareAndSet(null, "write " + i + " was acknowledged, then read back as "
                                + new String(back, StandardCharsets.UTF_8));
                    }
                } catch (KeeperException.ConnectionLossException | KeeperException.OperationTimeoutException lost) {
                    connectionLosses++;
                    Thread.sleep(RETRY_PAUSE_MS);
                } catch (KeeperException.SessionExpiredException expired) {
                    zk.close();
                    zk = open();
                }
                Thread.sleep(1); // a steady trickle, not a load test
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failure.compareAndSet(null, e.toString());
        } finally {
            if (zk != null) {
                try {
                    zk.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private ZooKeeper open() throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, SESSION_TIMEOUT_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            zk.close();
            throw new IllegalStateException("no session with " + connectString + " within " + CONNECT_TIMEOUT_MS + " ms");
        }
        sessions++;
        return zk;
    }

    String failure() {
        return failure.get();
    }

    long acknowledged() {
        return acknowledged;
    }

    /** The last write acknowledged; the node holds it or a later attempt whose answer was lost. */
    long lastAcknowledged() {
        return lastAcknowledged;
    }

    long lastAttempted() {
        return lastAttempted;
    }

    long connectionLosses() {
        return connectionLosses;
    }

    long sessions() {
        return sessions;
    }
}
