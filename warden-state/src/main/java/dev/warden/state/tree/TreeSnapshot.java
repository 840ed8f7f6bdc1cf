package dev.warden.state.tree;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Id;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * Writes and reads the tree's part of a snapshot (format 2). Nodes come in pre-order, each
 * with its name (not its path) and the number of children that follow it, so loading links
 * every node straight to its parent without parsing or hashing paths. ACL lists are written
 * once and then referred to by number.
 *
 * <pre>
 * tree   = int magic "WTR2", node
 * node   = header, name (UTF-8), data, [acl list if the index is a new one], node * childCount
 * header = int nameLength, int dataLength (-1 = null), int aclIndex, long czxid, ctime, mzxid,
 *          mtime, pzxid, int version, cversionCounter, aversion, long owner, int childCount
 * acl list = int count, (int perms, UTF scheme, UTF id) * count
 * </pre>
 *
 * The fixed-size header is read and written in one call: a load spends its time on the
 * nodes, not on a dozen stream calls per node.
 * </pre>
 *
 * Writing is fuzzy: it holds the read lock for a chunk of nodes at a time so the applier keeps
 * going. Each node's children are copied when the node is written, and exactly those follow,
 * so the file is always well formed; the snapshot is made exact on load by replaying the log
 * from the zxid at which writing began (transactions are idempotent).
 */
public final class TreeSnapshot {
    static final int MAGIC = 0x57545232;
    private static final int NODES_PER_LOCK = 1000;
    /** Format 1 began with a per-node marker (1) or the end marker (-1). */
    private static final int FORMAT_1_NODE = 1;
    private static final int FORMAT_1_END = -1;
    private static final int MAX_NAME_BYTES = 1 << 20;
    private static final int MAX_DATA_BYTES = 1 << 28;
    private static final DataNode[] NO_CHILDREN = new DataNode[0];

    private TreeSnapshot() {
    }

    public static void write(DataTree tree, DataOutputStream out) throws IOException {
        write(tree, out, NODES_PER_LOCK, () -> { });
    }

    /** betweenChunks runs each time the read lock is let go, so tests can change the tree there. */
    static void write(DataTree tree, DataOutputStream out, int nodesPerLock, Runnable betweenChunks)
            throws IOException {
        out.writeInt(MAGIC);
        NodeWriter writer = new NodeWriter(out);
        ArrayDeque<Frame> stack = new ArrayDeque<>();
        Lock readLock = tree.readLock();
        readLock.lock();
        try {
            stack.push(writeNode(tree.root(), writer));
        } finally {
            readLock.unlock();
        }
        while (!stack.isEmpty()) {
            betweenChunks.run();
            readLock.lock();
            try {
                for (int i = 0; i < nodesPerLock && !stack.isEmpty(); i++) {
                    Frame top = stack.peek();
                    if (top.next == top.children.length) {
                        stack.pop();
                        continue;
                    }
                    stack.push(writeNode(top.children[top.next++], writer));
                }
            } finally {
                readLock.unlock();
            }
        }
    }

    /** A written node's children as they were when it was written, and how many are done. */
    private static final class Frame {
        final DataNode[] children;
        int next;

        Frame(DataNode[] children) {
            this.children = children;
        }
    }

    private static Frame writeNode(DataNode node, NodeWriter writer) throws IOException {
        DataNode[] children = node.children == null ? NO_CHILDREN : node.children.toArray();
        writer.write(node, children.length);
        return new Frame(children);
    }

    /**
     * Reads a snapshot into the tree, replacing its content, and labels it with snapshotZxid.
     * Returns the paths whose parent was missing, which this format cannot produce (children
     * are nested in their parent), so the list is always empty; it is kept for callers.
     */
    public static List<String> read(DataTree tree, DataInputStream in, long snapshotZxid) throws IOException {
        return read(tree, in, snapshotZxid, null);
    }

    /**
     * As {@link #read(DataTree, DataInputStream, long)}, but if {@code keptConfig} is given it
     * stands in for the snapshot's /zookeeper/config (when that has no children): a restore keeps
     * the member's own configuration node, content and Stat, whatever ensemble wrote the snapshot.
     */
    public static List<String> read(DataTree tree, DataInputStream in, long snapshotZxid, DataNode keptConfig)
            throws IOException {
        int magic = in.readInt();
        if (magic == FORMAT_1_NODE || magic == FORMAT_1_END) {
            throw new IOException("unsupported snapshot version: the tree is in format 1 (written by an earlier "
                    + "Warden); this server reads format 2 only. Move the snapshot aside and let the server "
                    + "recover from its log, or from the leader in an ensemble");
        }
        if (magic != MAGIC) {
            throw new IOException("not a tree snapshot: magic 0x" + Integer.toHexString(magic));
        }
        tree.writeLock().lock();
        try {
            new Loader(tree, in, keptConfig).load();
            tree.restored();
            tree.setLastAppliedZxid(snapshotZxid);
        } catch (IllegalStateException malformed) {
            throw new IOException("malformed tree snapshot: " + malformed.getMessage(), malformed);
        } finally {
            tree.writeLock().unlock();
        }
        return List.of();
    }

    /** Reads nodes depth first, with an explicit stack of the parents still expecting children. */
    private static final class Loader {
        private static final long CONFIG_PATH_HASH = TreeDigest.pathHash(DataTree.CONFIG);
        /** The most children a table is sized for ahead of reading them; beyond, it grows as they come. */
        private static final int MAX_RESERVED_CHILDREN = 1 << 20;
        private final DataTree tree;
        private final DataInputStream in;
        /** Installed instead of the snapshot's /zookeeper/config, if not null (see {@link #read}). */
        private final DataNode keptConfig;
        private final List<List<Acl>> acls = new ArrayList<>();
        private final ArrayDeque<Parent> parents = new ArrayDeque<>();
        private final NodeHeader header = new NodeHeader();
        private long nameHash64;

        Loader(DataTree tree, DataInputStream in, DataNode keptConfig) {
            this.tree = tree;
            this.in = in;
            this.keptConfig = keptConfig;
        }

        void load() throws IOException {
            DataNode root = readNode(true);
            tree.restore(null, root, TreeDigest.ROOT_PATH_HASH, 1, "/");
            expectChildren(root, TreeDigest.ROOT_PATH_HASH, 0);
            while (!parents.isEmpty()) {
                Parent parent = parents.peek();
                if (parent.remaining == 0) {
                    parents.pop();
                    continue;
                }
                parent.remaining--;
                DataNode node = readNode(false);
                long pathHash = TreeDigest.childPathHash(parent.pathHash, nameHash64);
                int pathChars = parent.pathChars + 1 + NodeNames.charLength(node.name);
                String path = node.owner() == NodeOwner.PERSISTENT ? null : pathOf(node.name);
                if (keptConfig != null && pathHash == CONFIG_PATH_HASH && header.childCount == 0
                        && keptConfig.numChildren() == 0 && parents.size() == 2 && node.name().equals("config")) {
                    node = keptConfig;
                }
                tree.restore(parent.node, node, pathHash, pathChars, path);
                expectChildren(node, pathHash, pathChars);
            }
        }

        private void expectChildren(DataNode node, long pathHash, int pathChars) {
            if (header.childCount > 0) {
                // sized for the count the snapshot claims, up to a bound a damaged count cannot pass
                node.childTable().reserve(Math.min(header.childCount, MAX_RESERVED_CHILDREN));
                parents.push(new Parent(node, pathHash, pathChars, header.childCount));
            }
        }

        /** The path of a child of the innermost open parent; only for the few nodes indexed by path. */
        private String pathOf(byte[] name) {
            StringBuilder path = new StringBuilder();
            var frames = parents.descendingIterator();
            frames.next(); // the root's name is empty
            while (frames.hasNext()) {
                path.append('/').append(NodeNames.decode(frames.next().node.name));
            }
            return path.append('/').append(NodeNames.decode(name)).toString();
        }

        /** Reads one node; leaves its name's hash in {@link #nameHash64} and its header in {@link #header}. */
        private DataNode readNode(boolean isRoot) throws IOException {
            header.read(in);
            int nameLength = header.nameLength;
            if (isRoot ? nameLength != 0 : nameLength <= 0 || nameLength > MAX_NAME_BYTES) {
                throw new IOException(isRoot ? "the first node of a tree snapshot must be the root"
                        : "a node name claims " + nameLength + " bytes");
            }
            if (header.dataLength < -1 || header.dataLength > MAX_DATA_BYTES) {
                throw new IOException("a node's data claims " + header.dataLength + " bytes");
            }
            if (header.childCount < 0) {
                throw new IOException("a node claims " + header.childCount + " children");
            }
            byte[] name = nameLength == 0 ? NodeNames.EMPTY : new byte[nameLength];
            in.readFully(name);
            byte[] data = null;
            if (header.dataLength >= 0) {
                data = new byte[header.dataLength];
                in.readFully(data);
            }
            List<Acl> acl = readAcl(header.aclIndex);
            nameHash64 = NodeNames.hash(name);
            DataNode node = DataNode.of(name, nameHash64, data, acl, header.czxid, header.ctime, header.mzxid,
                    header.mtime, header.version, header.aversion, header.owner);
            if (header.pzxid != header.czxid || header.cversionCounter != 0) {
                ChildTable children = node.childTable();
                children.pzxid = header.pzxid;
                children.cversionCounter = header.cversionCounter;
            }
            return node;
        }

        private List<Acl> readAcl(int index) throws IOException {
            if (index >= 0 && index < acls.size()) {
                return acls.get(index);
            }
            if (index != acls.size()) {
                throw new IOException("ACL reference " + index + " with " + acls.size() + " lists known");
            }
            int count = in.readInt();
            if (count < 0 || count > 1024) {
                throw new IOException("an ACL claims " + count + " entries");
            }
            List<Acl> acl = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int perms = in.readInt();
                acl.add(new Acl(perms, new Id(in.readUTF(), in.readUTF())));
            }
            List<Acl> interned = tree.intern(acl);
            acls.add(interned);
            return interned;
        }
    }

    private static final class Parent {
        final DataNode node;
        final long pathHash;
        final int pathChars;
        int remaining;

        Parent(DataNode node, long pathHash, int pathChars, int remaining) {
            this.node = node;
            this.pathHash = pathHash;
            this.pathChars = pathChars;
            this.remaining = remaining;
        }
    }
}
