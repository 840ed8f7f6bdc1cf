package dev.warden.server.tree;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Id;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;

/**
 * Writes and reads the tree's part of a snapshot (format 2). Nodes come in pre-order, each
 * with its name (not its path) and the number of children that follow it, so loading links
 * every node straight to its parent without parsing or hashing paths. ACL lists are written
 * once and then referred to by number.
 *
 * <pre>
 * tree = int magic "WTR2", node
 * node = int nameLength, name (UTF-8), int dataLength (-1 = null), data, acl,
 *        long czxid, ctime, mzxid, mtime, pzxid, int version, cversionCounter, aversion,
 *        long owner, int childCount, node * childCount
 * acl  = int index; if index is the next new one: int count, (int perms, UTF scheme, UTF id) * count
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

    private TreeSnapshot() {
    }

    public static void write(DataTree tree, DataOutputStream out) throws IOException {
        write(tree, out, NODES_PER_LOCK, () -> { });
    }

    /** betweenChunks runs each time the read lock is let go, so tests can change the tree there. */
    static void write(DataTree tree, DataOutputStream out, int nodesPerLock, Runnable betweenChunks)
            throws IOException {
        out.writeInt(MAGIC);
        Map<List<Acl>, Integer> aclIndexes = new IdentityHashMap<>();
        ArrayDeque<Frame> stack = new ArrayDeque<>();
        Lock readLock = tree.readLock();
        readLock.lock();
        try {
            stack.push(writeNode(tree.root(), out, aclIndexes));
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
                    stack.push(writeNode(top.children[top.next++], out, aclIndexes));
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

    private static Frame writeNode(DataNode node, DataOutputStream out, Map<List<Acl>, Integer> aclIndexes)
            throws IOException {
        out.writeInt(node.name.length);
        out.write(node.name);
        if (node.data == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(node.data.length);
            out.write(node.data);
        }
        writeAcl(node.acl, out, aclIndexes);
        out.writeLong(node.czxid);
        out.writeLong(node.ctime);
        out.writeLong(node.mzxid);
        out.writeLong(node.mtime);
        out.writeLong(node.pzxid());
        out.writeInt(node.version);
        out.writeInt(node.cversionCounter());
        out.writeInt(node.aversion);
        out.writeLong(node.owner());
        DataNode[] children = node.children == null ? new DataNode[0] : node.children.toArray();
        out.writeInt(children.length);
        return new Frame(children);
    }

    private static void writeAcl(List<Acl> acl, DataOutputStream out, Map<List<Acl>, Integer> aclIndexes)
            throws IOException {
        Integer known = aclIndexes.get(acl);
        if (known != null) {
            out.writeInt(known);
            return;
        }
        int index = aclIndexes.size();
        aclIndexes.put(acl, index);
        out.writeInt(index);
        out.writeInt(acl.size());
        for (Acl entry : acl) {
            out.writeInt(entry.perms());
            out.writeUTF(entry.id().scheme());
            out.writeUTF(entry.id().id());
        }
    }

    /**
     * Reads a snapshot into the tree, replacing its content, and labels it with snapshotZxid.
     * Returns the paths whose parent was missing, which this format cannot produce (children
     * are nested in their parent), so the list is always empty; it is kept for callers.
     */
    public static List<String> read(DataTree tree, DataInputStream in, long snapshotZxid) throws IOException {
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
            new Loader(tree, in).load();
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
        private final DataTree tree;
        private final DataInputStream in;
        private final List<List<Acl>> acls = new ArrayList<>();
        private final ArrayDeque<Parent> parents = new ArrayDeque<>();

        Loader(DataTree tree, DataInputStream in) {
            this.tree = tree;
            this.in = in;
        }

        void load() throws IOException {
            byte[] rootName = readName();
            if (rootName.length != 0) {
                throw new IOException("the first node of a tree snapshot must be the root");
            }
            DataNode root = readNode(rootName, 0);
            tree.restore(null, root, TreeDigest.ROOT_PATH_HASH, 1, "/");
            expectChildren(root, TreeDigest.ROOT_PATH_HASH, 0);
            while (!parents.isEmpty()) {
                Parent parent = parents.peek();
                if (parent.remaining == 0) {
                    parents.pop();
                    continue;
                }
                parent.remaining--;
                byte[] name = readName();
                if (name.length == 0) {
                    throw new IOException("a node other than the root has an empty name");
                }
                long nameHash = NodeNames.hash(name);
                DataNode node = readNode(name, nameHash);
                long pathHash = TreeDigest.childPathHash(parent.pathHash, nameHash);
                int pathChars = parent.pathChars + 1 + NodeNames.charLength(name);
                String path = node.owner() == NodeOwner.PERSISTENT ? null : pathOf(name);
                tree.restore(parent.node, node, pathHash, pathChars, path);
                expectChildren(node, pathHash, pathChars);
            }
        }

        private void expectChildren(DataNode node, long pathHash, int pathChars) throws IOException {
            int childCount = in.readInt();
            if (childCount < 0) {
                throw new IOException("a node claims " + childCount + " children");
            }
            if (childCount > 0) {
                parents.push(new Parent(node, pathHash, pathChars, childCount));
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

        private byte[] readName() throws IOException {
            int length = in.readInt();
            if (length < 0 || length > MAX_NAME_BYTES) {
                throw new IOException("a node name claims " + length + " bytes");
            }
            byte[] name = length == 0 ? NodeNames.EMPTY : new byte[length];
            in.readFully(name);
            return name;
        }

        private DataNode readNode(byte[] name, long nameHash) throws IOException {
            int dataLength = in.readInt();
            if (dataLength < -1 || dataLength > MAX_DATA_BYTES) {
                throw new IOException("a node's data claims " + dataLength + " bytes");
            }
            byte[] data = null;
            if (dataLength >= 0) {
                data = new byte[dataLength];
                in.readFully(data);
            }
            List<Acl> acl = readAcl();
            long czxid = in.readLong();
            long ctime = in.readLong();
            long mzxid = in.readLong();
            long mtime = in.readLong();
            long pzxid = in.readLong();
            int version = in.readInt();
            int cversionCounter = in.readInt();
            int aversion = in.readInt();
            long owner = in.readLong();
            DataNode node = DataNode.create(name, nameHash, data, acl, czxid, ctime, owner);
            node.mzxid = mzxid;
            node.mtime = mtime;
            node.version = version;
            node.aversion = aversion;
            if (pzxid != czxid || cversionCounter != 0) {
                ChildTable children = node.childTable();
                children.pzxid = pzxid;
                children.cversionCounter = cversionCounter;
            }
            return node;
        }

        private List<Acl> readAcl() throws IOException {
            int index = in.readInt();
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
