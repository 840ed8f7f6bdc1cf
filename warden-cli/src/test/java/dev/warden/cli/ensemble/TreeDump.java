package dev.warden.cli.ensemble;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/** One member's whole tree, read through a session connected to that member alone. */
final class TreeDump {
    /** The parts of a node that must be equal on every member. */
    record Node(String data, long czxid, long mzxid, int version, int cversion, long ephemeralOwner) {
        @Override
        public String toString() {
            return "data='" + data + "' czxid=0x" + Long.toHexString(czxid) + " mzxid=0x" + Long.toHexString(mzxid)
                    + " version=" + version + " cversion=" + cversion + " ephemeralOwner=0x"
                    + Long.toHexString(ephemeralOwner);
        }
    }

    private TreeDump() {
    }

    /** Makes the member catch up with the leader, then reads every node breadth first. */
    static SortedMap<String, Node> read(ZooKeeper zk) throws Exception {
        sync(zk, "/");
        SortedMap<String, Node> nodes = new TreeMap<>();
        Deque<String> pending = new ArrayDeque<>(List.of("/"));
        while (!pending.isEmpty()) {
            String path = pending.removeFirst();
            Stat stat = new Stat();
            byte[] data;
            List<String> children;
            try {
                data = zk.getData(path, false, stat);
                children = zk.getChildren(path, false);
            } catch (KeeperException.NoNodeException deletedMeanwhile) {
                // only an expiring session's ephemerals can vanish while the load is stopped
                continue;
            }
            nodes.put(path, new Node(data == null ? "" : new String(data, java.nio.charset.StandardCharsets.UTF_8),
                    stat.getCzxid(), stat.getMzxid(), stat.getVersion(), stat.getCversion(),
                    stat.getEphemeralOwner()));
            for (String child : children) {
                pending.addLast(path.equals("/") ? "/" + child : path + "/" + child);
            }
        }
        return nodes;
    }

    /** {@code sync} and wait for its answer: later reads on this session see all committed before it. */
    static void sync(ZooKeeper zk, String path) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        AtomicInteger resultCode = new AtomicInteger();
        zk.sync(path, (rc, p, ctx) -> {
            resultCode.set(rc);
            done.countDown();
        }, null);
        if (!done.await(30, TimeUnit.SECONDS)) {
            throw new AssertionError("sync of " + path + " got no answer within 30 s");
        }
        if (resultCode.get() != KeeperException.Code.OK.intValue()) {
            throw new AssertionError("sync of " + path + " failed: " + KeeperException.Code.get(resultCode.get()));
        }
    }

    /** The first path (in order) where the two trees differ, described; empty if they are equal. */
    static Optional<String> firstDifference(String nameA, SortedMap<String, Node> a, String nameB,
                                            SortedMap<String, Node> b) {
        Set<String> paths = new HashSet<>(a.keySet());
        paths.addAll(b.keySet());
        return paths.stream().sorted().filter(path -> !java.util.Objects.equals(a.get(path), b.get(path)))
                .findFirst()
                .map(path -> "first difference at " + path + ": " + nameA + " has " + describe(a.get(path)) + ", "
                        + nameB + " has " + describe(b.get(path)) + " (" + a.size() + " vs " + b.size() + " nodes)");
    }

    private static String describe(Node node) {
        return node == null ? "no such node" : node.toString();
    }
}
