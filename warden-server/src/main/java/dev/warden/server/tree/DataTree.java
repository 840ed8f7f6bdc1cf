package dev.warden.server.tree;

import dev.warden.protocol.Acl;
import dev.warden.protocol.EventType;
import dev.warden.protocol.Perms;
import dev.warden.protocol.Stat;
import dev.warden.server.txn.Txn;
import dev.warden.server.txn.TxnBody;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The replicated state: znodes by full path, plus indexes of ephemerals by session and of
 * container and TTL nodes. One writer (the applier) changes it under the write lock; readers
 * (network threads) hold the read lock for a whole request, so a read sees either all or
 * none of a transaction (a multi included) and a watch registered during a read can never
 * miss the change that follows it.
 */
public final class DataTree {
    public static final String ZOOKEEPER = "/zookeeper";
    public static final String QUOTA = "/zookeeper/quota";
    public static final String CONFIG = "/zookeeper/config";

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, DataNode> nodes = new ConcurrentHashMap<>();
    private final Map<Long, Set<String>> ephemeralsBySession = new HashMap<>();
    private final Set<String> containers = new HashSet<>();
    private final Set<String> ttlNodes = new HashSet<>();
    /** Most nodes share a handful of ACL lists; keeping one instance of each saves memory. */
    private final Map<List<Acl>, List<Acl>> internedAcls = new ConcurrentHashMap<>();
    private volatile TreeEvents events = TreeEvents.NONE;
    private volatile long lastAppliedZxid;
    private long approximateDataBytes;

    public DataTree() {
        initSystemNodes();
    }

    /**
     * Forgets every node and transaction: back to a fresh tree at zxid 0. An ensemble member
     * does this before it rebuilds its state from a snapshot sent by the leader or after its
     * log was truncated; it fires no watches (the member dropped its connections first).
     */
    public void clear() {
        lock.writeLock().lock();
        try {
            nodes.clear();
            ephemeralsBySession.clear();
            containers.clear();
            ttlNodes.clear();
            approximateDataBytes = 0;
            lastAppliedZxid = 0;
            initSystemNodes();
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void initSystemNodes() {
        DataNode root = new DataNode(new byte[0], Perms.OPEN_ACL_UNSAFE, 0, 0, 0, 0, 0, 0, 0, 0, NodeOwner.PERSISTENT);
        nodes.put("/", root);
        insertSystemNode(ZOOKEEPER, Perms.OPEN_ACL_UNSAFE);
        insertSystemNode(QUOTA, Perms.OPEN_ACL_UNSAFE);
        // ZooKeeper reports aversion -1 for its config node; clients comparing Stats see the same.
        insertSystemNode(CONFIG, Perms.READ_ACL_UNSAFE, -1);
    }

    private void insertSystemNode(String path, List<Acl> acl) {
        insertSystemNode(path, acl, 0);
    }

    private void insertSystemNode(String path, List<Acl> acl, int aversion) {
        DataNode node = new DataNode(new byte[0], acl, 0, 0, 0, 0, 0, 0, 0, aversion, NodeOwner.PERSISTENT);
        nodes.put(path, node);
        nodes.get(PathValidator.parent(path)).addChild(PathValidator.name(path));
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

    /** The node, or null. Callers hold the read (or write) lock while they use it. */
    public DataNode node(String path) {
        return nodes.get(path);
    }

    public int nodeCount() {
        return nodes.size();
    }

    public long approximateDataBytes() {
        return approximateDataBytes;
    }

    /** Paths of the session's ephemerals (a copy). Takes the read lock itself. */
    public List<String> ephemerals(long sessionId) {
        lock.readLock().lock();
        try {
            Set<String> paths = ephemeralsBySession.get(sessionId);
            return paths == null ? List.of() : new ArrayList<>(paths);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Session id → its ephemeral paths (a copy), for `dump`. */
    public Map<Long, List<String>> ephemeralsBySession() {
        lock.readLock().lock();
        try {
            Map<Long, List<String>> copy = new HashMap<>();
            ephemeralsBySession.forEach((session, paths) -> copy.put(session, new ArrayList<>(paths)));
            return copy;
        } finally {
            lock.readLock().unlock();
        }
    }

    public int ephemeralCount() {
        lock.readLock().lock();
        try {
            int count = 0;
            for (Set<String> paths : ephemeralsBySession.values()) {
                count += paths.size();
            }
            return count;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Container and TTL node paths (copies), for the reaper. */
    public List<String> containerAndTtlPaths() {
        lock.readLock().lock();
        try {
            List<String> paths = new ArrayList<>(containers.size() + ttlNodes.size());
            paths.addAll(containers);
            paths.addAll(ttlNodes);
            return paths;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Number of all descendants of path (not counting path). Caller holds the read lock. */
    public int descendantCount(String path) {
        DataNode node = nodes.get(path);
        if (node == null) {
            return 0;
        }
        int count = 0;
        for (String child : node.children()) {
            count += 1 + descendantCount(PathValidator.child(path, child));
        }
        return count;
    }

    /** All paths, for snapshots and diagnostics (weakly consistent without the lock). */
    public Set<String> paths() {
        return Collections.unmodifiableSet(nodes.keySet());
    }

    /**
     * Applies a transaction and fires its watches. Returns, per op (one for a non-multi
     * transaction), the node's Stat after the op, or null where the op leaves no node.
     */
    public List<Stat> apply(Txn txn) {
        lock.writeLock().lock();
        try {
            List<Stat> stats = new ArrayList<>(1);
            applyBody(txn, txn.body(), stats);
            if (txn.zxid() > lastAppliedZxid) {
                lastAppliedZxid = txn.zxid();
            }
            return stats;
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void applyBody(Txn txn, TxnBody body, List<Stat> stats) {
        if (body instanceof TxnBody.Create c) {
            stats.add(create(c, txn.zxid(), txn.timeMs()));
        } else if (body instanceof TxnBody.Delete d) {
            delete(d.path(), txn.zxid());
            stats.add(null);
        } else if (body instanceof TxnBody.SetData s) {
            stats.add(setData(s, txn.zxid(), txn.timeMs()));
        } else if (body instanceof TxnBody.SetAcl s) {
            stats.add(setAcl(s));
        } else if (body instanceof TxnBody.CloseSession c) {
            closeSession(txn.sessionId(), c.ephemeralPaths(), txn.zxid());
            stats.add(null);
        } else if (body instanceof TxnBody.Multi m) {
            for (TxnBody op : m.ops()) {
                applyBody(txn, op, stats);
            }
        } else {
            // CreateSession and Check change nothing in the tree.
            stats.add(null);
        }
    }

    private Stat create(TxnBody.Create c, long zxid, long timeMs) {
        String parentPath = PathValidator.parent(c.path());
        DataNode parent = nodes.get(parentPath);
        DataNode existing = nodes.get(c.path());
        if (parent == null) {
            // Only possible while replaying over a fuzzy snapshot that saw a later delete.
            return existing == null ? null : existing.stat();
        }
        if (c.parentCversion() > parent.cversionCounter) {
            parent.cversionCounter = c.parentCversion();
        }
        if (existing != null) {
            return existing.stat();
        }
        if (zxid > parent.pzxid) {
            parent.pzxid = zxid;
        }
        DataNode node = new DataNode(c.data(), intern(c.acl()), zxid, timeMs, c.owner());
        nodes.put(c.path(), node);
        parent.addChild(PathValidator.name(c.path()));
        index(c.path(), node);
        events.fire(c.path(), EventType.NODE_CREATED, zxid, node.acl);
        events.fire(parentPath, EventType.NODE_CHILDREN_CHANGED, zxid, parent.acl);
        return node.stat();
    }

    private void index(String path, DataNode node) {
        long owner = node.owner;
        if (NodeOwner.isContainer(owner)) {
            containers.add(path);
        } else if (NodeOwner.isTtl(owner)) {
            ttlNodes.add(path);
        } else if (owner != NodeOwner.PERSISTENT) {
            ephemeralsBySession.computeIfAbsent(owner, k -> new HashSet<>()).add(path);
        }
        approximateDataBytes += path.length() + (node.data == null ? 0 : node.data.length);
    }

    private void unindex(String path, DataNode node) {
        long owner = node.owner;
        if (NodeOwner.isContainer(owner)) {
            containers.remove(path);
        } else if (NodeOwner.isTtl(owner)) {
            ttlNodes.remove(path);
        } else if (owner != NodeOwner.PERSISTENT) {
            // An emptied set stays until its session closes, as in ZooKeeper: the order in which
            // a close deletes ephemerals is this set's iteration order (see ephemeralsInCloseOrder).
            Set<String> paths = ephemeralsBySession.get(owner);
            if (paths != null) {
                paths.remove(path);
            }
        }
        approximateDataBytes -= path.length() + (node.data == null ? 0 : node.data.length);
    }

    private void delete(String path, long zxid) {
        DataNode node = nodes.remove(path);
        if (node == null) {
            return;
        }
        unindex(path, node);
        String parentPath = PathValidator.parent(path);
        DataNode parent = nodes.get(parentPath);
        if (parent != null) {
            parent.removeChild(PathValidator.name(path));
            if (zxid > parent.pzxid) {
                parent.pzxid = zxid;
            }
        }
        events.fire(path, EventType.NODE_DELETED, zxid, node.acl);
        if (parent != null) {
            events.fire(parentPath, EventType.NODE_CHILDREN_CHANGED, zxid, parent.acl);
        }
    }

    private Stat setData(TxnBody.SetData s, long zxid, long timeMs) {
        DataNode node = nodes.get(s.path());
        if (node == null) {
            return null;
        }
        approximateDataBytes += (s.data() == null ? 0 : s.data().length) - (node.data == null ? 0 : node.data.length);
        node.data = s.data();
        node.version = s.version();
        node.mzxid = zxid;
        node.mtime = timeMs;
        events.fire(s.path(), EventType.NODE_DATA_CHANGED, zxid, node.acl);
        return node.stat();
    }

    private Stat setAcl(TxnBody.SetAcl s) {
        DataNode node = nodes.get(s.path());
        if (node == null) {
            return null;
        }
        node.acl = intern(s.acl());
        node.aversion = s.aversion();
        return node.stat();
    }

    private void closeSession(long sessionId, List<String> orderedPaths, long zxid) {
        for (String path : orderedPaths) {
            DataNode node = nodes.get(path);
            if (node != null && node.owner == sessionId) {
                delete(path, zxid);
            }
        }
        Set<String> left = ephemeralsBySession.remove(sessionId);
        if (left != null && !left.isEmpty()) {
            // Only when replaying over a fuzzy snapshot; sorted so replicas still agree.
            List<String> ordered = new ArrayList<>(left);
            Collections.sort(ordered);
            for (String path : ordered) {
                delete(path, zxid);
            }
        }
    }

    /**
     * The session's ephemerals in the order a close deletes them: the iteration order of a clone
     * of the session's set, which is the order Apache ZooKeeper uses, so watch events of a closed
     * session arrive in the same order from both servers.
     */
    @SuppressWarnings("unchecked")
    public List<String> ephemeralsInCloseOrder(long sessionId) {
        lock.readLock().lock();
        try {
            Set<String> paths = ephemeralsBySession.get(sessionId);
            return paths == null ? new ArrayList<>() : new ArrayList<>((Set<String>) ((HashSet<String>) paths).clone());
        } finally {
            lock.readLock().unlock();
        }
    }

    List<Acl> intern(List<Acl> acl) {
        List<Acl> copy = List.copyOf(acl);
        List<Acl> existing = internedAcls.putIfAbsent(copy, copy);
        return existing == null ? copy : existing;
    }

    /** Inserts a node restored from a snapshot; children are linked by {@link #linkRestored()}. */
    void restore(String path, DataNode node) {
        nodes.put(path, node);
    }

    /** Links restored nodes to their parents and rebuilds the indexes. Returns orphan paths. */
    List<String> linkRestored() {
        List<String> orphans = new ArrayList<>();
        for (Map.Entry<String, DataNode> entry : nodes.entrySet()) {
            String path = entry.getKey();
            if (path.equals("/")) {
                continue;
            }
            DataNode parent = nodes.get(PathValidator.parent(path));
            if (parent == null) {
                orphans.add(path);
            } else {
                parent.addChild(PathValidator.name(path));
            }
            index(path, entry.getValue());
        }
        return orphans;
    }

    void setLastAppliedZxid(long zxid) {
        lastAppliedZxid = zxid;
    }

    /** Paths whose parent is missing; empty in any consistent tree. */
    public List<String> orphans() {
        lock.readLock().lock();
        try {
            List<String> orphans = new ArrayList<>();
            for (String path : nodes.keySet()) {
                if (!path.equals("/") && !nodes.containsKey(PathValidator.parent(path))) {
                    orphans.add(path);
                }
            }
            return orphans;
        } finally {
            lock.readLock().unlock();
        }
    }
}
