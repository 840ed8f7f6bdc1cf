package dev.warden.server;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** Apache ZooKeeper client sessions for tests that drive a Warden server directly. */
public final class ApacheClients {
    private ApacheClients() {
    }

    /** A connected session (10 s timeout), or an AssertionError if none within 10 s. */
    public static ZooKeeper connect(String connectString) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(10, TimeUnit.SECONDS)) {
            zk.close();
            throw new AssertionError("no session within 10 s");
        }
        return zk;
    }
}
