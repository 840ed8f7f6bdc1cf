package dev.warden.chaos.workload;

import java.nio.charset.StandardCharsets;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/** The workloads' nodes: parents created once by whoever gets there first, and numbers as node data. */
public final class WorkloadNodes {
    private WorkloadNodes() {
    }

    public static void ensure(ZooKeeper zk, String path, String data) throws KeeperException, InterruptedException {
        try {
            zk.create(path, data.getBytes(StandardCharsets.US_ASCII), ZooDefs.Ids.OPEN_ACL_UNSAFE,
                    CreateMode.PERSISTENT);
        } catch (KeeperException.NodeExistsException exists) {
            // someone else made it
        }
    }

    static long number(byte[] data) {
        return Long.parseLong(new String(data, StandardCharsets.US_ASCII).trim());
    }

    static byte[] bytes(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }
}
