package dev.warden.state.pipeline;

import dev.warden.state.tree.DataNode;
import dev.warden.state.tree.DataTree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tree plus the effect of transactions prepared but not yet applied. Written by the prep
 * thread; the applier removes a record once the tree reflects it (a record superseded by a
 * later transaction on the same path stays until that one is applied).
 */
public final class PendingState {
    private final DataTree tree;
    private final Map<String, PendingNode> pending = new ConcurrentHashMap<>();

    public PendingState(DataTree tree) {
        this.tree = tree;
    }

    /** The zxid of the last transaction the tree has applied. */
    long appliedZxid() {
        return tree.lastAppliedZxid();
    }

    public PendingNode lookup(String path) {
        PendingNode record = pending.get(path);
        if (record != null) {
            return record;
        }
        tree.readLock().lock();
        try {
            DataNode node = tree.node(path);
            if (node == null) {
                return PendingNode.absent(path, -1);
            }
            return new PendingNode(path, -1, true, node.acl(), node.version(), node.aversion(),
                    node.cversionCounter(), node.numChildren(), node.owner());
        } finally {
            tree.readLock().unlock();
        }
    }

    void put(PendingNode record) {
        pending.put(record.path(), record);
    }

    /** Called by the applier once the tree contains the record's transaction. */
    public void applied(List<PendingNode> records) {
        for (PendingNode record : records) {
            pending.remove(record.path(), record);
        }
    }

    /** Forgets everything pending; used after the log failed to persist prepared work. */
    public void clear() {
        pending.clear();
    }

    /** Ephemerals the session will own once pending work is applied, in close order. */
    List<String> ephemeralsOf(long sessionId) {
        java.util.LinkedHashSet<String> result = new java.util.LinkedHashSet<>(tree.ephemeralsInCloseOrder(sessionId));
        for (PendingNode record : pending.values()) {
            if (!record.exists()) {
                result.remove(record.path());
            } else if (record.owner() == sessionId) {
                result.add(record.path());
            }
        }
        return new ArrayList<>(result);
    }

    public int size() {
        return pending.size();
    }

    /** A scratch layer for one request: a multi's ops see each other's effects, and the
     *  layer is published only if the whole request succeeds. */
    final class Overlay {
        private final Map<String, PendingNode> changes = new HashMap<>();
        private final List<PendingNode> order = new ArrayList<>();

        PendingNode lookup(String path) {
            PendingNode changed = changes.get(path);
            return changed != null ? changed : PendingState.this.lookup(path);
        }

        void put(PendingNode record) {
            changes.put(record.path(), record);
            order.add(record);
        }

        /** Publishes the final record of each touched path, stamped with zxid. */
        List<PendingNode> publish(long zxid) {
            List<PendingNode> published = new ArrayList<>(changes.size());
            for (PendingNode record : changes.values()) {
                PendingNode stamped = record.withZxid(zxid);
                pending.put(stamped.path(), stamped);
                published.add(stamped);
            }
            return published;
        }
    }

    Overlay overlay() {
        return new Overlay();
    }
}
