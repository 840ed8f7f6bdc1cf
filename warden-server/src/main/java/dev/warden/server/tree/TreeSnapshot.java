package dev.warden.server.tree;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Id;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * Writes and reads the tree's part of a snapshot. Writing is fuzzy: it holds the read lock for
 * a chunk of nodes at a time so the applier keeps going; the snapshot is made exact on load by
 * replaying the log from the zxid at which writing began (transactions are idempotent).
 */
public final class TreeSnapshot {
    private static final int NODES_PER_LOCK = 1000;
    private static final int END_OF_NODES = -1;

    private TreeSnapshot() {
    }

    public static void write(DataTree tree, DataOutputStream out) throws IOException {
        Iterator<String> paths = tree.paths().iterator();
        Lock readLock = tree.readLock();
        while (paths.hasNext()) {
            readLock.lock();
            try {
                for (int i = 0; i < NODES_PER_LOCK && paths.hasNext(); i++) {
                    String path = paths.next();
                    DataNode node = tree.node(path);
                    if (node != null) {
                        writeNode(path, node, out);
                    }
                }
            } finally {
                readLock.unlock();
            }
        }
        out.writeInt(END_OF_NODES);
    }

    private static void writeNode(String path, DataNode node, DataOutputStream out) throws IOException {
        out.writeInt(1);
        out.writeUTF(path);
        if (node.data == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(node.data.length);
            out.write(node.data);
        }
        out.writeInt(node.acl.size());
        for (Acl acl : node.acl) {
            out.writeInt(acl.perms());
            out.writeUTF(acl.id().scheme());
            out.writeUTF(acl.id().id());
        }
        out.writeLong(node.czxid);
        out.writeLong(node.ctime);
        out.writeLong(node.mzxid);
        out.writeLong(node.mtime);
        out.writeLong(node.pzxid);
        out.writeInt(node.version);
        out.writeInt(node.cversionCounter);
        out.writeInt(node.aversion);
        out.writeLong(node.owner);
    }

    /**
     * Reads nodes into a fresh tree. Orphans (a node whose parent the fuzzy snapshot missed)
     * are returned so the caller can check that log replay removed them.
     */
    public static List<String> read(DataTree tree, DataInputStream in, long snapshotZxid) throws IOException {
        while (in.readInt() != END_OF_NODES) {
            String path = in.readUTF();
            int dataLength = in.readInt();
            byte[] data = null;
            if (dataLength >= 0) {
                data = new byte[dataLength];
                in.readFully(data);
            }
            int aclCount = in.readInt();
            List<Acl> acl = new ArrayList<>(aclCount);
            for (int i = 0; i < aclCount; i++) {
                int perms = in.readInt();
                acl.add(new Acl(perms, new Id(in.readUTF(), in.readUTF())));
            }
            DataNode node = new DataNode(data, tree.intern(acl), in.readLong(), in.readLong(), in.readLong(),
                    in.readLong(), in.readLong(), in.readInt(), in.readInt(), in.readInt(), in.readLong());
            tree.restore(path, node);
        }
        tree.setLastAppliedZxid(snapshotZxid);
        return tree.linkRestored();
    }
}
