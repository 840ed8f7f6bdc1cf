package dev.warden.state.tree;

import dev.warden.protocol.QuotaText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Keeps every quota's zookeeper_stats node in step with the tree it counts and checks a change
 * against the limits (the layout is {@link QuotaStats}'s). The tree calls it on the applier's
 * thread under its write lock as nodes come and go, and readers under the read lock.
 */
final class QuotaUpkeep {
    private final DataTree tree;
    private final QuotaStats quotas = new QuotaStats();

    QuotaUpkeep(DataTree tree) {
        this.tree = tree;
    }

    void clear() {
        quotas.clear();
    }

    /**
     * After a snapshot load: the paths with a quota, and each stats node recomputed from the
     * subtree it counts (a fuzzy snapshot may hold a stats node older than the nodes beside it).
     */
    void setUp() {
        quotas.clear();
        DataNode quotaRoot = tree.node(QuotaStats.QUOTA_ROOT);
        if (quotaRoot == null) {
            return;
        }
        List<String> limits = new ArrayList<>();
        TreeWalk.preOrder(quotaRoot, (relative, node) -> {
            String path = QuotaStats.QUOTA_ROOT + (relative.equals("/") ? "" : relative);
            if (QuotaStats.quotaPathOf(path, QuotaStats.LIMITS) != null) {
                limits.add(QuotaStats.quotaPathOf(path, QuotaStats.LIMITS));
            }
        });
        quotas.roots().addAll(limits);
        for (String quotaPath : limits) {
            recount(quotaPath);
        }
    }

    /** A node was just created: it may start a quota, and it counts in the quota it falls under. */
    void created(String path, DataNode node) {
        noteQuotaNode(path, true);
        countIn(path, DataTree.dataLength(node), 1);
    }

    /**
     * A node is about to be detached: its whole subtree leaves the quota it falls under (it has
     * children only when replaying over a fuzzy snapshot).
     */
    void deleting(String path, DataNode node) {
        if (quotas.quotaFor(path) == null) {
            return;
        }
        long[] countAndBytes = {0, 0};
        TreeWalk.preOrder(node, (relative, gone) -> {
            countAndBytes[0]++;
            countAndBytes[1] += DataTree.dataLength(gone);
        });
        countIn(path, -countAndBytes[1], -countAndBytes[0]);
    }

    /** A node was just deleted: it may end a quota. */
    void deleted(String path) {
        noteQuotaNode(path, false);
    }

    /** A node's data changed length by {@code bytesDiff}. */
    void dataChanged(String path, long bytesDiff) {
        countIn(path, bytesDiff, 0);
    }

    /** Sets the stats node of {@code quotaPath} to the subtree's exact count and bytes, as ZooKeeper does. */
    private void recount(String quotaPath) {
        String statsPath = QuotaStats.statsPath(quotaPath);
        DataNode statsNode = tree.node(statsPath);
        DataNode top = tree.node(quotaPath);
        if (statsNode == null) {
            return;
        }
        long[] countAndBytes = {0, 0};
        if (top != null) {
            TreeWalk.preOrder(top, (relative, node) -> {
                countAndBytes[0]++;
                countAndBytes[1] += DataTree.dataLength(node);
            });
        }
        Map<String, Long> stats = QuotaText.parse(statsNode.data());
        stats.put("count", countAndBytes[0]);
        stats.put("bytes", countAndBytes[1]);
        tree.rewriteData(statsPath, statsNode, QuotaText.format(stats));
    }

    /** Adds to the figures of the quota {@code path} falls under, if any. */
    private void countIn(String path, long bytesDiff, long countDiff) {
        String quotaPath = quotas.quotaFor(path);
        if (quotaPath == null || bytesDiff == 0 && countDiff == 0) {
            return;
        }
        String statsPath = QuotaStats.statsPath(quotaPath);
        DataNode statsNode = tree.node(statsPath);
        if (statsNode == null) {
            return; // ZooKeeper logs this too: a limits node without its stats node
        }
        Map<String, Long> stats = QuotaText.parse(statsNode.data());
        stats.put("count", QuotaText.get(stats, "count") + countDiff);
        stats.put("bytes", QuotaText.get(stats, "bytes") + bytesDiff);
        tree.rewriteData(statsPath, statsNode, QuotaText.format(stats));
    }

    /** A node that was just created or deleted under /zookeeper/quota may start or end a quota. */
    private void noteQuotaNode(String path, boolean created) {
        if (!path.startsWith(QuotaStats.QUOTA_ROOT + "/")) {
            return;
        }
        String limitsOf = QuotaStats.quotaPathOf(path, QuotaStats.LIMITS);
        if (limitsOf != null) {
            if (created) {
                quotas.roots().add(limitsOf);
            } else {
                quotas.roots().remove(limitsOf);
            }
        }
        String statsOf = QuotaStats.quotaPathOf(path, QuotaStats.STATS);
        if (statsOf != null && created) {
            recount(statsOf);
        }
    }

    /**
     * The quota'd path whose hard limit the change would pass, if any; a soft limit passed is
     * reported to {@code softExceeded} and allows the change, as in ZooKeeper. The caller holds
     * the tree's read lock.
     */
    String hardLimitExceeded(String path, long bytesDiff, long countDiff, Consumer<String> softExceeded) {
        String quotaPath = quotas.quotaFor(path);
        if (quotaPath == null) {
            return null;
        }
        DataNode limitsNode = tree.node(QuotaStats.limitsPath(quotaPath));
        DataNode statsNode = tree.node(QuotaStats.statsPath(quotaPath));
        if (limitsNode == null || statsNode == null) {
            return null;
        }
        Map<String, Long> limits = QuotaText.parse(limitsNode.data());
        Map<String, Long> stats = QuotaText.parse(statsNode.data());
        String count = QuotaCheck.check(quotaPath, "count", "Count", countDiff, QuotaText.get(stats, "count"),
                QuotaText.get(limits, "count"), QuotaText.get(limits, "countHardLimit"), softExceeded);
        if (count != null) {
            return count;
        }
        return QuotaCheck.check(quotaPath, "bytes", "Byte", bytesDiff, QuotaText.get(stats, "bytes"),
                QuotaText.get(limits, "bytes"), QuotaText.get(limits, "byteHardLimit"), softExceeded);
    }
}
