package dev.warden.cli.zookeeper;

import dev.warden.protocol.Acl;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A ZooKeeper data tree rebuilt from its files, changed by replayed transactions exactly as
 * ZooKeeper's own DataTree changes on replay (including its tolerance of a fuzzy snapshot:
 * a create of a node that exists, or a delete of one that does not, is skipped), and keeping
 * ZooKeeper's digest up to date so it can be checked against the digests ZooKeeper wrote.
 * Nodes are kept by path, as ZooKeeper keeps them.
 */
final class ZkTree {
    static final long CONTAINER_OWNER = Long.MIN_VALUE;
    private static final long EXTENDED_MASK = 0xFF00000000000000L;

    private final Map<String, ZkNode> nodes = new HashMap<>();
    private final Map<Long, Set<String>> ephemerals = new HashMap<>();
    private long digest;

    Map<String, ZkNode> nodes() {
        return nodes;
    }

    long digest() {
        return digest;
    }

    ZkNode node(String path) {
        return nodes.get(path);
    }

    int nodeCount() {
        return nodes.size();
    }

    /** True for an owner that is a session (not persistent, container or TTL). */
    static boolean isSessionOwner(long owner) {
        return owner != 0 && owner != CONTAINER_OWNER && (owner & EXTENDED_MASK) != EXTENDED_MASK;
    }

    /** Adds a node read from a snapshot; its parent must already be there (pre-order). */
    void load(String path, ZkNode node) {
        if (!path.equals("/")) {
            ZkNode parent = nodes.get(parentOf(path));
            if (parent == null) {
                throw new IllegalStateException("the snapshot has " + path + " but not its parent");
            }
            parent.children.add(nameOf(path));
        }
        nodes.put(path, node);
        node.digest = ZkDigest.of(path, node);
        digest += node.digest;
        if (isSessionOwner(node.ephemeralOwner)) {
            ephemerals.computeIfAbsent(node.ephemeralOwner, id -> new HashSet<>()).add(path);
        }
    }

    private void rehash(String path, ZkNode node) {
        digest -= node.digest;
        node.digest = ZkDigest.of(path, node);
        digest += node.digest;
    }

    static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash == 0 ? "/" : path.substring(0, slash);
    }

    static String nameOf(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /**
     * ZooKeeper's createNode: false (nothing changed) when the parent is missing or the node
     * exists. A parentCversion of -1 means one above the parent's.
     */
    boolean create(String path, byte[] data, List<Acl> acl, long owner, int parentCversion, long zxid, long time) {
        ZkNode parent = nodes.get(parentOf(path));
        if (parent == null || parent.children.contains(nameOf(path))) {
            return false;
        }
        int cversion = parentCversion == -1 ? parent.cversion + 1 : parentCversion;
        if (cversion > parent.cversion) {
            parent.cversion = cversion;
            parent.pzxid = zxid;
        }
        parent.children.add(nameOf(path));
        rehash(parentOf(path), parent);
        ZkNode node = new ZkNode();
        node.data = data;
        node.acl = acl;
        node.czxid = zxid;
        node.mzxid = zxid;
        node.pzxid = zxid;
        node.ctime = time;
        node.mtime = time;
        node.ephemeralOwner = owner;
        load(path, node);
        return true;
    }

    /** What ZooKeeper does after replaying a create of a node that already exists (ZOOKEEPER-1046). */
    void raiseParentCversion(String path, int parentCversion, long zxid) {
        String parentPath = parentOf(path);
        ZkNode parent = nodes.get(parentPath);
        if (parent == null) {
            return;
        }
        int cversion = parentCversion == -1 ? parent.cversion + 1 : parentCversion;
        if (cversion > parent.cversion) {
            parent.cversion = cversion;
            parent.pzxid = zxid;
            rehash(parentPath, parent);
        }
    }

    /** ZooKeeper's deleteNode: removes the node itself (never its children) if it is there. */
    void delete(String path, long zxid) {
        ZkNode node = nodes.remove(path);
        if (node == null) {
            return;
        }
        digest -= node.digest;
        if (isSessionOwner(node.ephemeralOwner)) {
            Set<String> owned = ephemerals.get(node.ephemeralOwner);
            if (owned != null) {
                owned.remove(path);
                if (owned.isEmpty()) {
                    ephemerals.remove(node.ephemeralOwner);
                }
            }
        }
        String parentPath = parentOf(path);
        ZkNode parent = nodes.get(parentPath);
        if (parent != null) {
            parent.children.remove(nameOf(path));
            if (zxid > parent.pzxid) {
                parent.pzxid = zxid;
            }
            rehash(parentPath, parent);
        }
    }

    void setData(String path, byte[] data, int version, long zxid, long time) {
        ZkNode node = nodes.get(path);
        if (node == null) {
            return;
        }
        node.data = data;
        node.version = version;
        node.mzxid = zxid;
        node.mtime = time;
        rehash(path, node);
    }

    void setAcl(String path, List<Acl> acl, int aversion) {
        ZkNode node = nodes.get(path);
        if (node == null) {
            return;
        }
        node.acl = acl;
        node.aversion = aversion;
        rehash(path, node);
    }

    /** ZooKeeper's killSession: the paths its closeSession lists, then whatever the session still owns. */
    void closeSession(long sessionId, List<String> listedPaths, long zxid) {
        if (listedPaths != null) {
            for (String path : listedPaths) {
                delete(path, zxid);
            }
        }
        Set<String> rest = ephemerals.remove(sessionId);
        if (rest != null) {
            for (String path : List.copyOf(rest)) {
                delete(path, zxid);
            }
        }
    }

    /** Session id to the paths it owns (a copy), for reports. */
    Map<Long, Set<String>> ephemerals() {
        Map<Long, Set<String>> copy = new HashMap<>();
        ephemerals.forEach((id, paths) -> copy.put(id, Set.copyOf(paths)));
        return copy;
    }
}
