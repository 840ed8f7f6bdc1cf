package dev.warden.bench.resources;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Drives a server through the Apache Java client with many requests in flight, so loading 1M
 * znodes takes minutes, not hours. One session: its FIFO order guarantees a parent's create is
 * applied before its children's, without waiting for it.
 */
final class ZnodeLoader implements AutoCloseable {
    static final int VALUE_BYTES = 100;
    /** The value {@link #setTree} writes: as long as the created ones, and told apart from them. */
    static final byte[] TAIL_VALUE = tailValue();
    private static final int SESSION_TIMEOUT_MS = 30_000;
    private static final long CONNECT_TIMEOUT_MS = 30_000;
    private static final long DRAIN_TIMEOUT_MS = 600_000;

    private final ZooKeeper client;
    private final int maxInFlight;
    private final Semaphore inFlight;
    private final AtomicReference<String> firstFailure = new AtomicReference<>();

    private ZnodeLoader(ZooKeeper client, int maxInFlight) {
        this.client = client;
        this.maxInFlight = maxInFlight;
        this.inFlight = new Semaphore(maxInFlight);
    }

    static ZnodeLoader connect(String connectString, int maxInFlight) throws IOException, InterruptedException {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be >= 1: " + maxInFlight);
        }
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper client = new ZooKeeper(connectString, SESSION_TIMEOUT_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            client.close();
            throw new IOException("no session with " + connectString + " within " + CONNECT_TIMEOUT_MS + " ms");
        }
        return new ZnodeLoader(client, maxInFlight);
    }

    /** Creates znodes 0..count-1 of {@link ZnodeLayout} (and their parents) with 100-byte values. */
    void createTree(int count) throws InterruptedException {
        byte[] value = new byte[VALUE_BYTES];
        AsyncCallback.StringCallback done = (rc, path, ctx, name) -> finish(rc, "create " + path);
        for (int i = 0; i < count; i++) {
            for (String parent : ZnodeLayout.parentsToCreateBefore(i)) {
                inFlight.acquire();
                client.create(parent, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, done, null);
            }
            inFlight.acquire();
            client.create(ZnodeLayout.nodePath(i), value, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
                    done, null);
        }
        drain();
    }

    /** Sets znodes 0..count-1 to {@link #TAIL_VALUE}, one logged write each. */
    void setTree(int count) throws InterruptedException {
        AsyncCallback.StatCallback done = (rc, path, ctx, stat) -> finish(rc, "setData " + path);
        for (int i = 0; i < count; i++) {
            inFlight.acquire();
            client.setData(ZnodeLayout.nodePath(i), TAIL_VALUE, -1, done, null);
        }
        drain();
    }

    private static byte[] tailValue() {
        byte[] value = new byte[VALUE_BYTES];
        Arrays.fill(value, (byte) 't');
        return value;
    }

    /** Sets one exists-watch on each of znodes 0..count-1; the watches live as long as this session. */
    void watchTree(int count) throws InterruptedException {
        Watcher ignore = event -> { };
        AsyncCallback.StatCallback done = (rc, path, ctx, stat) -> finish(rc, "exists " + path);
        for (int i = 0; i < count; i++) {
            inFlight.acquire();
            client.exists(ZnodeLayout.nodePath(i), ignore, done, null);
        }
        drain();
    }

    /** A plain read, to prove the server serves a znode. */
    byte[] getData(String path) throws KeeperException, InterruptedException {
        return client.getData(path, false, null);
    }

    private void finish(int rc, String what) {
        if (rc != KeeperException.Code.OK.intValue()) {
            firstFailure.compareAndSet(null, what + " failed: " + KeeperException.Code.get(rc));
        }
        inFlight.release();
    }

    private void drain() throws InterruptedException {
        if (!inFlight.tryAcquire(maxInFlight, DRAIN_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("requests still unanswered after " + DRAIN_TIMEOUT_MS + " ms");
        }
        inFlight.release(maxInFlight);
        String failure = firstFailure.get();
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    @Override
    public void close() throws InterruptedException {
        client.close();
    }
}
