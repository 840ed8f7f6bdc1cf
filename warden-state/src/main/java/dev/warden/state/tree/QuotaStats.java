package dev.warden.state.tree;

import java.util.Set;
import java.util.TreeSet;

/**
 * ZooKeeper's quotas as the tree keeps them: a path P has a quota while
 * {@code /zookeeper/quota/P/zookeeper_limits} exists (its data the limits, in ZooKeeper's text, see {@link
 * dev.warden.protocol.QuotaText}), and {@code /zookeeper/quota/P/zookeeper_stats} holds what P's
 * subtree uses ("count=N,bytes=M": nodes including P, bytes of data). The tree updates the
 * stats node as it applies each create, delete and setData under P, without a version change
 * (as ZooKeeper does), and recomputes every stats node after loading a snapshot, so a fuzzy
 * snapshot and the log replayed over it still give exact figures. The quota of a path is the
 * one of its deepest ancestor-or-self that has one.
 */
final class QuotaStats {
    static final String QUOTA_ROOT = "/zookeeper/quota";
    static final String LIMITS = "zookeeper_limits";
    static final String STATS = "zookeeper_stats";

    /** Paths that have a quota. */
    private final Set<String> roots = new TreeSet<>();

    void clear() {
        roots.clear();
    }

    Set<String> roots() {
        return roots;
    }

    /** The quota'd path a node under /zookeeper/quota belongs to, if the node is its limits or stats node. */
    static String quotaPathOf(String quotaNodePath, String name) {
        if (!quotaNodePath.startsWith(QUOTA_ROOT + "/") || !quotaNodePath.endsWith("/" + name)) {
            return null;
        }
        String parent = quotaNodePath.substring(0, quotaNodePath.length() - name.length() - 1);
        String path = parent.substring(QUOTA_ROOT.length());
        return path.isEmpty() ? "/" : path;
    }

    static String statsPath(String quotaPath) {
        return (quotaPath.equals("/") ? QUOTA_ROOT : QUOTA_ROOT + quotaPath) + "/" + STATS;
    }

    static String limitsPath(String quotaPath) {
        return (quotaPath.equals("/") ? QUOTA_ROOT : QUOTA_ROOT + quotaPath) + "/" + LIMITS;
    }

    /** The deepest path with a quota that is {@code path} or one of its ancestors; null if none. */
    String quotaFor(String path) {
        if (roots.isEmpty() || path.startsWith(QUOTA_ROOT + "/") || path.equals(QUOTA_ROOT)) {
            return null; // the quota nodes themselves are not counted
        }
        String candidate = path;
        while (true) {
            if (roots.contains(candidate)) {
                return candidate;
            }
            if (candidate.equals("/")) {
                return null;
            }
            int slash = candidate.lastIndexOf('/');
            candidate = slash == 0 ? "/" : candidate.substring(0, slash);
        }
    }
}
