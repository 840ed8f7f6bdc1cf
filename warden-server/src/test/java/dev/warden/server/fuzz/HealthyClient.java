package dev.warden.server.fuzz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * A well-behaved Apache client session that writes and reads back its own node for as long as
 * the fuzz runs. Any exception, wrong answer or connection state change is a failure: a server
 * under attack from other connections must keep serving this one without a hiccup.
 */
final class HealthyClient implements Runnable, AutoCloseable {
    static final String PATH = "/healthy";
    private static final int SESSION_TIMEOUT_MS = 30_000;
    private static final long CONNECT_TIMEOUT_MS = 30_000;

    private final ZooKeeper zk;
    private final AtomicBoolean stop;
    private final AtomicReference<String> failure = new AtomicReference<>();
    private volatile long operations;

    private HealthyClient(ZooKeeper zk, AtomicBoolean stop) {
        this.zk = zk;
        this.stop = stop;
    }

    static HealthyClient connect(String connectString, AtomicBoolean stop) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        AtomicReference<HealthyClient> self = new AtomicReference<>();
        ZooKeeper zk = new ZooKeeper(connectString, SESSION_TIMEOUT_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            } else if (self.get() != null && !self.get().stop.get()) {
                self.get().fail("session state became " + event.getState());
            }
        });
        HealthyClient client = new HealthyClient(zk, stop);
        self.set(client);
        if (!connected.await(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            zk.close();
            throw new IOException("the healthy client could not connect to " + connectString);
        }
        return client;
    }

    @Override
    public void run() {
        try {
            zk.create(PATH, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            for (int i = 1; !stop.get() && failure.get() == null; i++) {
                byte[] data = ("write " + i).getBytes(StandardCharsets.UTF_8);
                Stat written = zk.setData(PATH, data, i - 1);
                Stat read = new Stat();
                byte[] back = zk.getData(PATH, false, read);
                if (!Arrays.equals(data, back) || read.getVersion() != i || written.getVersion() != i) {
                    fail("write " + i + " read back as '" + new String(back, StandardCharsets.UTF_8)
                            + "' version " + read.getVersion());
                }
                if (i % 20 == 0) {
                    zk.create(PATH + "/c", data, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL);
                }
                operations += 2;
                Thread.sleep(1); // a steady trickle, not a second load generator
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            fail(e.toString());
        }
    }

    /** Whether the session still answers a read now. */
    boolean answers() {
        try {
            return zk.exists(PATH, false) != null;
        } catch (Exception e) {
            fail("final read failed: " + e);
            return false;
        }
    }

    private void fail(String why) {
        failure.compareAndSet(null, why);
    }

    String failure() {
        return failure.get();
    }

    long operations() {
        return operations;
    }

    @Override
    public void close() throws InterruptedException {
        zk.close();
    }
}
