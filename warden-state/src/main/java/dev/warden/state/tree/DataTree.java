package dev.warden.state.tree;

import dev.warden.protocol.Acl;
import dev.warden.protocol.Perms;
import dev.warden.protocol.Stat;
import dev.warden.state.txn.Txn;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * The replicated state: a tree of znodes found by walking from the root segment by segment
 * (no full path is stored, see {@link DataNode}), plus an index of the nodes that have an
 * owner. One writer (the applier) changes it under the write lock; readers (network threads)
 * hold the read lock for a whole request, so a read sees either all or none of a transaction
 * (a multi included) and a watch registered during a read can never miss the change that
 * follows it. A rolling {@link #digest()} of the content is kept up to date on every change.
 */
public final class DataTree {
    public static final String ZOOKEEPER = "/zookeeper";
    public static final String QUOTA = "/zookeeper/quota";
    public static final String CONFIG = "/zookeeper/config";

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    // The owner index, events and running figures below are also kept by TxnApplier (the write
    // side), on the applier's thread under the write lock.
    final OwnerIndex owners = new OwnerIndex();
    /** Most nodes share a handful of ACL lists; keeping one instance of each saves memory. */
    private final Map<List<Acl>, List<Acl>> internedAcls = new ConcurrentHashMap<>();
    volatile TreeEvents events = TreeEvents.NONE;
    private volatile long lastAppliedZxid;
    volatile int nodeCount;
    volatile long digest;
    long approximateDataBytes;
    /** Path hash of the node the applier's last {@link #walkHashing} reached. */
    long walkedPathHash;
    private DataNode root;
    /** The data of /zookeeper/config: the ensemble's members, or empty for a standalone server. */
    private byte[] configData = new byte[0];
    /**
     * The content term of /zookeeper/config within {@link #digest}: each member sets that node
     * from its own configuration rather than through the log, so {@link #replicatedDigest()}
     * leaves it out. Kept up to date wherever the node changes, so reading costs nothing.
     */
    volatile long configContentTerm;
    private final DigestHistory digestHistory = new DigestHistory();
    private final QuotaUpkeep quotas = new QuotaUpkeep(this);
    private final TxnApplier applier = new TxnApplier(this, quotas);

    public DataTree() {
        reset();
    }

    /** Back to a fresh tree: the four system nodes only, zxid 0. Used before rebuilding state. */
    public void clear() {
        lock.writeLock().lock();
        try {
            reset();
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void reset() {
        owners.clear();
        if (quotas != null) { // null while the constructor runs
            quotas.clear();
        }
        if (digestHistory != null) { // null while the constructor runs
            digestHistory.clear();
        }
        lastAppliedZxid = 0;
        approximateDataBytes = 0;
        root = DataNode.create(NodeNames.EMPTY, 0, new byte[0], intern(Perms.OPEN_ACL_UNSAFE), 0, 0,
                NodeOwner.PERSISTENT);
        nodeCount = 1;
        digest = TreeDigest.of(TreeDigest.ROOT_PATH_HASH, root);
        insertSystemNode(ZOOKEEPER, Perms.OPEN_ACL_UNSAFE, 0);
        insertSystemNode(QUOTA, Perms.OPEN_ACL_UNSAFE, 0);
        // ZooKeeper reports aversion -1 for its config node; clients comparing Stats see the same.
        insertSystemNode(CONFIG, Perms.READ_ACL_UNSAFE, -1, configData);
        noteConfigContentTerm();
    }

    /** Recomputes {@link #configContentTerm}; under the write lock, on the applier's thread. */
    private void noteConfigContentTerm() {
        DataNode config = nodeHashing(CONFIG);
        configContentTerm = config == null ? 0 : TreeDigest.content(walkedPathHash, config);
    }

    /** A snapshot was loaded into the tree (its /zookeeper/config is the snapshot writer's). */
    void restored() {
        noteConfigContentTerm();
        quotas.setUp();
    }

    /**
     * Replaces a node's data outside any transaction of its own (no version or zxid change, no
     * event), keeping the digest and size figures right: how quota stats are kept.
     */
    void rewriteData(String path, DataNode node, byte[] data) {
        nodeHashing(path);
        long pathHash = walkedPathHash;
        long termBefore = TreeDigest.content(pathHash, node);
        ModifiedNode modified = modifiable(path, node);
        approximateDataBytes += data.length - dataLength(modified);
        modified.replaceData(data);
        digest += TreeDigest.content(pathHash, modified) - termBefore;
    }

    /**
     * For the quota check before a create or setData (enforceQuota): the quota'd path whose hard
     * limit the change would pass, if any; a soft limit passed is reported to {@code softExceeded}
     * and allows the change, as in ZooKeeper. Reads the applied tree, as ZooKeeper does.
     */
    public String hardQuotaExceeded(String path, long bytesDiff, long countDiff,
                                    java.util.function.Consumer<String> softExceeded) {
        lock.readLock().lock();
        try {
            return quotas.hardLimitExceeded(path, bytesDiff, countDiff, softExceeded);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The data of {@code path} as it is now (for the quota check of a setData); null if absent. */
    public byte[] dataOf(String path) {
        lock.readLock().lock();
        try {
            DataNode node = node(path);
            return node == null ? null : node.data();
        } finally {
            lock.readLock().unlock();
        }
    }

    private void insertSystemNode(String path, List<Acl> acl, int aversion) {
        insertSystemNode(path, acl, aversion, new byte[0]);
    }

    private void insertSystemNode(String path, List<Acl> acl, int aversion, byte[] data) {
        int slash = path.lastIndexOf('/');
        DataNode parent = walk(path, slash);
        long nameHash = NodeNames.hash(path, slash + 1, path.length());
        DataNode node = DataNode.of(NodeNames.encode(path, slash + 1, path.length()), nameHash, data,
                intern(acl), 0, 0, 0, 0, 0, aversion, NodeOwner.PERSISTENT);
        parent.childTable().add(node);
        nodeCount++;
        approximateDataBytes += path.length() + data.length;
        digest += TreeDigest.of(TreeDigest.pathHash(path), node);
    }

    /**
     * Sets what /zookeeper/config holds (an ensemble member lists its members there, as ZooKeeper
     * does). It is configuration, not a transaction: every member with the same server lines
     * holds the same bytes with version 0 and zxid 0, so digests stay comparable, and the
     * value survives {@link #clear()}.
     */
    public void setConfigData(byte[] data) {
        lock.writeLock().lock();
        try {
            configData = data.clone();
            DataNode found = nodeHashing(CONFIG);
            long pathHash = walkedPathHash;
            long termBefore = TreeDigest.content(pathHash, found);
            ModifiedNode node = modifiable(CONFIG, found);
            approximateDataBytes += configData.length - dataLength(node);
            node.replaceData(configData);
            digest += TreeDigest.content(pathHash, node) - termBefore;
            configContentTerm = TreeDigest.content(pathHash, node);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The four nodes every tree has and no client may delete. */
    public static boolean isSystemPath(String path) {
        return path.equals("/") || path.equals(ZOOKEEPER) || path.equals(QUOTA) || path.equals(CONFIG);
    }

    public ReentrantReadWriteLock.ReadLock readLock() {
        return lock.readLock();
    }

    public ReentrantReadWriteLock.WriteLock writeLock() {
        return lock.writeLock();
    }

    public void setEvents(TreeEvents events) {
        this.events = events;
    }

    public long lastAppliedZxid() {
        return lastAppliedZxid;
    }

    /**
     * A hash of the whole content (every node's path, data, ACL and the Stat fields replicas
     * agree on), equal for equal trees whatever the order of the changes that built them.
     */
    public long digest() {
        return digest;
    }

    /**
     * The digest of what the log replicates: {@link #digest()} without /zookeeper/config, which
     * each member fills from its own configuration. Members that applied the same history have
     * equal replicated digests even while their configuration files differ (a rolling change).
     */
    /** The replicated digest after every 128th zxid applied since start-up (the hash word). */
    public DigestHistory digestHistory() {
        return digestHistory;
    }

    public long replicatedDigest() {
        return digest - configContentTerm;
    }

    /** The node, or null (also for any malformed path). Callers hold the read or write lock. */
    public DataNode node(String path) {
        if (path == null || path.isEmpty() || path.charAt(0) != '/') {
            return null;
        }
        return walk(path, path.length());
    }

    /** The node at path[0, end), walking from the root without allocating; null if absent. */
    private DataNode walk(String path, int end) {
        return walk(path, end, false);
    }

    /**
     * As {@link #walk(String, int)}, and leaves the path hash of the node reached in
     * {@link #walkedPathHash}, built from the name hashes the lookup computes anyway, so a change
     * does not walk the path a second time for its digest. Only the applier calls it, under the
     * write lock, so no reader ever sees the field change.
     */
    DataNode walkHashing(String path, int end) {
        return walk(path, end, true);
    }

    private DataNode walk(String path, int end, boolean hashing) {
        DataNode node = root;
        long pathHash = TreeDigest.ROOT_PATH_HASH;
        int from = 1;
        while (from <= end && end > 1) {
            int slash = path.indexOf('/', from);
            int to = slash < 0 || slash > end ? end : slash;
            ChildTable children = node.children;
            if (to == from || children == null) {
                return null;
            }
            long nameHash = NodeNames.hash(path, from, to);
            node = children.get(path, from, to, nameHash);
            if (node == null) {
                return null;
            }
            if (hashing) {
                pathHash = TreeDigest.childPathHash(pathHash, nameHash);
            }
            if (to == end) {
                break;
            }
            from = to + 1;
        }
        if (hashing) {
            walkedPathHash = pathHash;
        }
        return node;
    }

    /** The applier's lookup of a whole path; see {@link #walkHashing}. */
    DataNode nodeHashing(String path) {
        if (path == null || path.isEmpty() || path.charAt(0) != '/') {
            return null;
        }
        return walkHashing(path, path.length());
    }

    DataNode root() {
        return root;
    }

    public int nodeCount() {
        return nodeCount;
    }

    public long approximateDataBytes() {
        return approximateDataBytes;
    }

    /** Paths of the session's ephemerals (a copy). Takes the read lock itself. */
    public List<String> ephemerals(long sessionId) {
        return underReadLock(() -> owners.ephemerals(sessionId));
    }

    /** Session id → its ephemeral paths (a copy), for `dump`. */
    public Map<Long, List<String>> ephemeralsBySession() {
        return underReadLock(owners::ephemeralsBySession);
    }

    public int ephemeralCount() {
        return underReadLock(owners::ephemeralCount);
    }

    /** Container and TTL node paths (copies), for the reaper. */
    public List<String> containerAndTtlPaths() {
        return underReadLock(owners::containerAndTtlPaths);
    }

    /** The session's ephemerals in the order a close deletes them (Apache ZooKeeper's order). */
    public List<String> ephemeralsInCloseOrder(long sessionId) {
        return underReadLock(() -> owners.closeOrder(sessionId));
    }

    private <T> T underReadLock(Supplier<T> read) {
        lock.readLock().lock();
        try {
            return read.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Number of all descendants of path (not counting path). Caller holds the read lock. */
    public int descendantCount(String path) {
        DataNode top = node(path);
        return top == null ? 0 : TreeWalk.descendantCount(top);
    }

    /**
     * Visits every node with its path, parents before children and siblings in name order, for
     * tools that print or convert a whole tree. Takes the read lock for the whole walk, so call it
     * on a tree no applier is changing (a loaded snapshot, a stopped server's recovered state).
     */
    public void forEachNodeInOrder(java.util.function.BiConsumer<String, DataNode> visitor) {
        underReadLock(() -> {
            java.util.ArrayDeque<Object[]> pending = new java.util.ArrayDeque<>();
            pending.push(new Object[] {"/", root});
            while (!pending.isEmpty()) {
                Object[] next = pending.pop();
                String path = (String) next[0];
                DataNode node = (DataNode) next[1];
                visitor.accept(path, node);
                if (node.children == null || node.children.size() == 0) {
                    continue;
                }
                DataNode[] children = node.children.toArray();
                java.util.Arrays.sort(children, java.util.Comparator.comparing(DataNode::name).reversed());
                String prefix = path.equals("/") ? "/" : path + "/";
                for (DataNode child : children) {
                    pending.push(new Object[] {prefix + child.name(), child});
                }
            }
            return null;
        });
    }

    /** All paths, parents before children, for diagnostics and tests. Takes the read lock. */
    public Set<String> paths() {
        return underReadLock(() -> {
            Set<String> paths = new LinkedHashSet<>();
            TreeWalk.preOrder(root, (path, node) -> paths.add(path));
            return paths;
        });
    }

    /**
     * Applies a transaction and fires its watches. Returns, per op (one for a non-multi
     * transaction), the node's Stat after the op, or null where the op leaves no node.
     */
    public List<Stat> apply(Txn txn) {
        lock.writeLock().lock();
        try {
            List<Stat> stats = new ArrayList<>(1);
            applier.applyBody(txn, txn.body(), stats);
            if (txn.zxid() > lastAppliedZxid) {
                lastAppliedZxid = txn.zxid();
                digestHistory.maybeRecord(txn.zxid(), replicatedDigest());
            }
            return stats;
        } finally {
            lock.writeLock().unlock();
        }
    }

    static int dataLength(DataNode node) {
        return node.data == null ? 0 : node.data.length;
    }

    /** The zxid of the configuration change /zookeeper/config shows, or 0 if it shows the member's files. */
    public long configZxid() {
        lock.readLock().lock();
        try {
            DataNode config = node(CONFIG);
            return config == null ? 0 : config.mzxid();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** What /zookeeper/config holds now. */
    public byte[] configData() {
        lock.readLock().lock();
        try {
            DataNode config = node(CONFIG);
            return config == null || config.data == null ? new byte[0] : config.data.clone();
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The node at path as a {@link ModifiedNode}, ready for a change: a pristine node is
     * replaced in its parent's table (or as the root) by a copy that can hold the change.
     */
    ModifiedNode modifiable(String path, DataNode node) {
        ModifiedNode modified = node.toModified();
        if (modified != node) {
            if (node == root) {
                root = modified;
            } else {
                walk(path, path.lastIndexOf('/')).children.replace(node, modified);
            }
        }
        return modified;
    }

    List<Acl> intern(List<Acl> acl) {
        List<Acl> copy = List.copyOf(acl);
        List<Acl> existing = internedAcls.putIfAbsent(copy, copy);
        return existing == null ? copy : existing;
    }

    /**
     * Installs a node read from a snapshot: the root (parent null, which first empties the
     * tree) or a child of an already restored node. Caller holds the write lock.
     *
     * @param pathChars the length of the node's path in chars
     * @param path the node's path if it has an owner (only those are indexed by path), else null
     */
    void restore(DataNode parent, DataNode node, long pathHash, int pathChars, String path) {
        if (parent == null) {
            owners.clear();
            root = node;
            nodeCount = 1;
            digest = TreeDigest.of(pathHash, node);
            approximateDataBytes = dataLength(node);
            return;
        }
        if (!parent.childTable().addIfAbsent(node)) {
            throw new IllegalStateException("two children named '" + node.name() + "' under one parent");
        }
        nodeCount++;
        digest += TreeDigest.of(pathHash, node);
        approximateDataBytes += pathChars + dataLength(node);
        if (node.owner() != NodeOwner.PERSISTENT) {
            owners.add(path, node.owner());
        }
    }

    void setLastAppliedZxid(long zxid) {
        lastAppliedZxid = zxid;
    }
}
