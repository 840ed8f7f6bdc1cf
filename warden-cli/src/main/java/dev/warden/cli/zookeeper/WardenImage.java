package dev.warden.cli.zookeeper;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Id;
import dev.warden.state.tree.TreeImageWriter;
import dev.warden.storage.SnapshotStore;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Writes a ZooKeeper tree and session table as a Warden snapshot (the body of
 * {@code StateSnapshots}: sessions, the tree in pre-order, the zxid it is exact at). Every Stat
 * field carries over as it is: Warden stores the same persisted Stat (its cversion counter is
 * ZooKeeper's persisted cversion, its owner encoding ZooKeeper's ephemeralOwner). Two things are
 * Warden's own: /zookeeper/config is written empty, as Warden's fresh one (each member fills it
 * from its own configuration), and each session's password is the one ZooKeeper derives from
 * the session id, so clients that held a session on ZooKeeper resume it on Warden.
 */
final class WardenImage {
    /** ZooKeeper's session passwords are 16 bytes from java.util.Random seeded with the id xor this. */
    private static final long ZOOKEEPER_PASSWORD_SECRET = 0xB3415C00L;
    private static final int PASSWORD_BYTES = 16;
    private static final String CONFIG = "/zookeeper/config";
    private static final List<Acl> READ_ONLY = List.of(new Acl(1, new Id("world", "anyone")));

    private WardenImage() {
    }

    /** The password ZooKeeper gives session {@code id}. */
    static byte[] zooKeeperPassword(long id) {
        byte[] password = new byte[PASSWORD_BYTES];
        new Random(id ^ ZOOKEEPER_PASSWORD_SECRET).nextBytes(password);
        return password;
    }

    /** Writes the snapshot into {@code snapshotsDir}; returns the file and how many nodes it holds. */
    record Written(Path file, long nodes) {
    }

    static Written write(Path snapshotsDir, ZkTree tree, Map<Long, Integer> sessions, long zxid) throws IOException {
        long[] nodes = {0};
        Path file = new SnapshotStore(snapshotsDir).write(zxid, out -> {
            out.writeInt(sessions.size());
            for (Map.Entry<Long, Integer> session : sessions.entrySet()) {
                out.writeLong(session.getKey());
                out.writeInt(session.getValue());
                byte[] password = zooKeeperPassword(session.getKey());
                out.writeInt(password.length);
                out.write(password);
            }
            nodes[0] = writeTree(tree, out);
            out.writeLong(zxid);
        });
        return new Written(file, nodes[0]);
    }

    /** Pre-order from the root, iteratively (a tree may be deeper than the stack); returns the node count. */
    private static long writeTree(ZkTree tree, DataOutputStream out) throws IOException {
        TreeImageWriter writer = new TreeImageWriter(out);
        ArrayDeque<String> pending = new ArrayDeque<>();
        pending.push("/");
        long count = 0;
        while (!pending.isEmpty()) {
            String path = pending.pop();
            ZkNode node = tree.node(path);
            List<String> children = new ArrayList<>(node.children);
            Collections.sort(children);
            String name = path.equals("/") ? "" : ZkTree.nameOf(path);
            if (path.equals(CONFIG)) {
                writer.node(name, new byte[0], READ_ONLY, 0, 0, 0, 0, 0, 0, 0, -1, 0, children.size());
            } else {
                writer.node(name, node.data, node.acl, node.czxid, node.ctime, node.mzxid, node.mtime, node.pzxid,
                        node.version, node.cversion, node.aversion, node.ephemeralOwner, children.size());
            }
            count++;
            String prefix = path.equals("/") ? "/" : path + "/";
            for (int i = children.size() - 1; i >= 0; i--) {
                String child = prefix + children.get(i);
                if (tree.node(child) == null) {
                    throw new IOException(path + " lists a child " + children.get(i) + " the tree does not hold");
                }
                pending.push(child);
            }
        }
        return count;
    }
}
