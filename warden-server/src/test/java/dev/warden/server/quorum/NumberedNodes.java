package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Numbered nodes written through one member and awaited on another, through Apache's client,
 * for the ensemble tests that check what a member serves after faults.
 */
final class NumberedNodes {
    private static final long TIMEOUT_MS = 30_000;

    private NumberedNodes() {
    }

    /** Creates {@code prefix-0 .. prefix-(count-1)} through {@code connectString}, each holding its own path. */
    static void createAll(String connectString, String prefix, int count) throws Exception {
        try (ZooKeeper zk = new ZooKeeper(connectString, 30_000, event -> { })) {
            for (int i = 0; i < count; i++) {
                String path = prefix + "-" + i;
                long deadline = System.currentTimeMillis() + TIMEOUT_MS;
                while (true) {
                    try {
                        zk.create(path, path.getBytes(StandardCharsets.UTF_8), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                                CreateMode.PERSISTENT);
                        break;
                    } catch (KeeperException.NodeExistsException createdByALostAttempt) {
                        break;
                    } catch (KeeperException.ConnectionLossException settling) {
                        if (System.currentTimeMillis() > deadline) {
                            throw settling;
                        }
                        Thread.sleep(50);
                    }
                }
            }
        }
    }

    /** Waits until member {@code id}, at {@code connectString}, serves every node {@code createAll} made. */
    static void awaitAll(long id, String connectString, String prefix, int count) throws Exception {
        long deadline = System.currentTimeMillis() + TIMEOUT_MS;
        try (ZooKeeper zk = new ZooKeeper(connectString, 30_000, event -> { })) {
            for (int i = 0; i < count; i++) {
                String path = prefix + "-" + i;
                while (true) {
                    try {
                        byte[] data = zk.getData(path, false, null);
                        assertEquals(path, new String(data, StandardCharsets.UTF_8));
                        break;
                    } catch (KeeperException.NoNodeException | KeeperException.ConnectionLossException notYet) {
                        if (System.currentTimeMillis() > deadline) {
                            throw new AssertionError("member " + id + " does not serve " + path, notYet);
                        }
                        Thread.sleep(20);
                    }
                }
            }
        }
    }
}
