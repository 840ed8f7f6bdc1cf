package dev.warden.state.tree;

import dev.warden.protocol.EventType;
import dev.warden.protocol.Stat;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import java.util.List;

/**
 * The write side of the {@link DataTree}: applies each kind of transaction to its nodes, keeping
 * the tree's node count, size, digest and owner index right, the quotas' stats up to date, and
 * firing the watches. Runs on the applier's thread under the tree's write lock.
 */
final class TxnApplier {
    private final DataTree tree;
    private final QuotaUpkeep quotas;

    TxnApplier(DataTree tree, QuotaUpkeep quotas) {
        this.tree = tree;
        this.quotas = quotas;
    }

    /** Applies one transaction body (each op of a multi in turn), adding per op its Stat or null. */
    void applyBody(Txn txn, TxnBody body, List<Stat> stats) {
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
        } else if (body instanceof TxnBody.Reconfig r) {
            stats.add(reconfigure(r, txn.zxid(), txn.timeMs()));
        } else {
            // CreateSession and Check change nothing in the tree.
            stats.add(null);
        }
    }

    private Stat create(TxnBody.Create c, long zxid, long timeMs) {
        String path = c.path();
        int slash = path.lastIndexOf('/');
        if (slash < 0 || slash == path.length() - 1) {
            return null; // not a creatable path; the preparer never lets one through
        }
        DataNode parent = tree.walkHashing(path, slash);
        if (parent == null) {
            // Only possible while replaying over a fuzzy snapshot that saw a later delete.
            return null;
        }
        long parentPathHash = tree.walkedPathHash;
        long nameHash = NodeNames.hash(path, slash + 1, path.length());
        DataNode existing = parent.children == null ? null
                : parent.children.get(path, slash + 1, path.length(), nameHash);
        long parentTermBefore = TreeDigest.children(parentPathHash, parent);
        if (c.parentCversion() > parent.cversionCounter()) {
            parent.childTable().cversionCounter = c.parentCversion();
        }
        if (existing != null) {
            tree.digest += TreeDigest.children(parentPathHash, parent) - parentTermBefore;
            return existing.stat();
        }
        ChildTable siblings = parent.childTable();
        if (zxid > siblings.pzxid) {
            siblings.pzxid = zxid;
        }
        DataNode node = DataNode.create(NodeNames.encode(path, slash + 1, path.length()), nameHash, c.data(),
                tree.intern(c.acl()), zxid, timeMs, c.owner());
        siblings.add(node);
        tree.nodeCount++;
        tree.owners.add(path, node.owner());
        tree.approximateDataBytes += path.length() + DataTree.dataLength(node);
        tree.digest += TreeDigest.children(parentPathHash, parent) - parentTermBefore
                + TreeDigest.of(TreeDigest.childPathHash(parentPathHash, nameHash), node);
        quotas.created(path, node);
        tree.events.fire(path, EventType.NODE_CREATED, zxid, node.acl);
        tree.events.fire(path.substring(0, Math.max(slash, 1)), EventType.NODE_CHILDREN_CHANGED, zxid, parent.acl);
        return node.stat();
    }

    private void delete(String path, long zxid) {
        int slash = path.lastIndexOf('/');
        DataNode parent = slash < 0 ? null : tree.walkHashing(path, slash);
        if (parent == null || parent.children == null || slash + 1 >= path.length()) {
            return;
        }
        long parentPathHash = tree.walkedPathHash;
        long nameHash = NodeNames.hash(path, slash + 1, path.length());
        DataNode node = parent.children.get(path, slash + 1, path.length(), nameHash);
        if (node == null) {
            return;
        }
        long parentTermBefore = TreeDigest.children(parentPathHash, parent);
        quotas.deleting(path, node);
        parent.children.remove(node);
        if (zxid > parent.children.pzxid) {
            parent.children.pzxid = zxid;
        }
        tree.digest += TreeDigest.children(parentPathHash, parent) - parentTermBefore;
        forgetSubtree(path, node, TreeDigest.childPathHash(parentPathHash, nameHash));
        quotas.deleted(path);
        tree.events.fire(path, EventType.NODE_DELETED, zxid, node.acl);
        tree.events.fire(path.substring(0, Math.max(slash, 1)), EventType.NODE_CHILDREN_CHANGED, zxid, parent.acl);
    }

    /**
     * Takes a detached node out of the counts, the digest and the owner index. It has children
     * only when replaying over a fuzzy snapshot that holds nodes created after this delete;
     * those go with it, and the replay re-creates them.
     */
    private void forgetSubtree(String path, DataNode node, long pathHash) {
        if (node.children == null || node.children.size() == 0) {
            forgetNode(path, node, pathHash);
            return;
        }
        TreeWalk.preOrder(node, path, pathHash, (childPath, child, childPathHash) ->
                forgetNode(childPath, child, childPathHash));
    }

    private void forgetNode(String path, DataNode node, long pathHash) {
        tree.nodeCount--;
        tree.owners.remove(path, node.owner());
        tree.approximateDataBytes -= path.length() + DataTree.dataLength(node);
        tree.digest -= TreeDigest.of(pathHash, node);
    }

    private Stat setData(TxnBody.SetData s, long zxid, long timeMs) {
        DataNode found = tree.nodeHashing(s.path());
        if (found == null) {
            return null;
        }
        long pathHash = tree.walkedPathHash;
        long termBefore = TreeDigest.content(pathHash, found);
        ModifiedNode node = tree.modifiable(s.path(), found);
        long bytesDiff = (s.data() == null ? 0 : s.data().length) - DataTree.dataLength(node);
        tree.approximateDataBytes += bytesDiff;
        node.replaceData(s.data());
        node.version = s.version();
        node.mzxid = zxid;
        node.mtime = timeMs;
        tree.digest += TreeDigest.content(pathHash, node) - termBefore;
        quotas.dataChanged(s.path(), bytesDiff);
        tree.events.fire(s.path(), EventType.NODE_DATA_CHANGED, zxid, node.acl);
        return node.stat();
    }

    /**
     * A configuration change: /zookeeper/config holds the new member text and its version (the
     * change's zxid), as ZooKeeper writes it; its version, mzxid and mtime move as a setData's
     * would, and its data watches fire. Replayed over a state that already holds it (a fuzzy
     * snapshot), it changes nothing.
     */
    private Stat reconfigure(TxnBody.Reconfig r, long zxid, long timeMs) {
        DataNode found = tree.nodeHashing(DataTree.CONFIG);
        if (found.mzxid() >= zxid) {
            return found.stat();
        }
        long pathHash = tree.walkedPathHash;
        long termBefore = TreeDigest.content(pathHash, found);
        byte[] text = (new String(r.memberText(), java.nio.charset.StandardCharsets.UTF_8) + "version="
                + Long.toHexString(zxid)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        // the replicated value: a rebuild (clear, then replay) brings it back from the log, while
        // the member's own value from its files (configData) is what an empty tree starts with
        ModifiedNode node = tree.modifiable(DataTree.CONFIG, found);
        tree.approximateDataBytes += text.length - DataTree.dataLength(node);
        node.replaceData(text);
        node.version = node.version + 1;
        node.mzxid = zxid;
        node.mtime = timeMs;
        tree.digest += TreeDigest.content(pathHash, node) - termBefore;
        tree.configContentTerm = TreeDigest.content(pathHash, node);
        tree.events.fire(DataTree.CONFIG, EventType.NODE_DATA_CHANGED, zxid, node.acl);
        return node.stat();
    }

    private Stat setAcl(TxnBody.SetAcl s) {
        DataNode found = tree.nodeHashing(s.path());
        if (found == null) {
            return null;
        }
        long pathHash = tree.walkedPathHash;
        long termBefore = TreeDigest.access(pathHash, found);
        ModifiedNode node = tree.modifiable(s.path(), found);
        node.acl = tree.intern(s.acl());
        node.aversion = s.aversion();
        tree.digest += TreeDigest.access(pathHash, node) - termBefore;
        return node.stat();
    }

    private void closeSession(long sessionId, List<String> orderedPaths, long zxid) {
        for (String path : orderedPaths) {
            DataNode node = tree.node(path);
            if (node != null && node.owner() == sessionId) {
                delete(path, zxid);
            }
        }
        // Left-overs occur only when replaying over a fuzzy snapshot.
        for (String path : tree.owners.removeSession(sessionId)) {
            delete(path, zxid);
        }
    }
}
