package dev.warden.cli.data;

import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * A whole tree as a client sees it: every node's full Stat, ACL and data, read through the Apache
 * client, so trees served by different servers (or before and after a conversion) compare with
 * assertEquals. /zookeeper/config is left out: each server fills it from its own configuration.
 */
public final class TreeImage {
    private TreeImage() {
    }

    public static ZooKeeper connect(String connectString) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, 30_000, (WatchedEvent event) -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        if (!connected.await(30, TimeUnit.SECONDS)) {
            zk.close();
            throw new AssertionError("no session with " + connectString + " within 30 s");
        }
        return zk;
    }

    public static SortedMap<String, String> read(String connectString) throws Exception {
        try (ZooKeeper zk = connect(connectString)) {
            return read(zk);
        }
    }

    public static SortedMap<String, String> read(ZooKeeper zk) throws Exception {
        SortedMap<String, String> nodes = new TreeMap<>();
        Deque<String> pending = new ArrayDeque<>(List.of("/"));
        while (!pending.isEmpty()) {
            String path = pending.removeFirst();
            Stat stat = new Stat();
            byte[] data = zk.getData(path, false, stat);
            List<ACL> acl = zk.getACL(path, new Stat());
            if (!path.equals("/zookeeper/config")) {
                nodes.put(path, describe(stat, acl, data));
            }
            for (String child : zk.getChildren(path, false)) {
                pending.addLast(path.equals("/") ? "/" + child : path + "/" + child);
            }
        }
        return nodes;
    }

    private static String describe(Stat stat, List<ACL> acl, byte[] data) {
        StringBuilder text = new StringBuilder();
        text.append("czxid=").append(Long.toHexString(stat.getCzxid()))
                .append(" mzxid=").append(Long.toHexString(stat.getMzxid()))
                .append(" pzxid=").append(Long.toHexString(stat.getPzxid()))
                .append(" ctime=").append(stat.getCtime()).append(" mtime=").append(stat.getMtime())
                .append(" version=").append(stat.getVersion()).append(" cversion=").append(stat.getCversion())
                .append(" aversion=").append(stat.getAversion())
                .append(" owner=").append(Long.toHexString(stat.getEphemeralOwner()))
                .append(" children=").append(stat.getNumChildren()).append(" acl=");
        for (ACL entry : acl) {
            text.append(entry.getId().getScheme()).append(':').append(entry.getId().getId()).append(':')
                    .append(entry.getPerms()).append(',');
        }
        text.append(" data=").append(data == null ? "null" : Base64.getEncoder().encodeToString(data));
        return text.toString();
    }
}
