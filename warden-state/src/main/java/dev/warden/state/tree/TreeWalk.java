package dev.warden.state.tree;

import java.util.ArrayDeque;
import java.util.function.BiConsumer;

/**
 * Pre-order walks that rebuild paths on the way down. Iterative, since a tree may be far
 * deeper than the thread stack. Callers hold the tree's lock for the whole walk.
 */
final class TreeWalk {
    @FunctionalInterface
    interface Visitor {
        void visit(String path, DataNode node, long pathHash);
    }

    private record Pending(String path, DataNode node, long pathHash) {
    }

    private TreeWalk() {
    }

    static void preOrder(DataNode root, BiConsumer<String, DataNode> visitor) {
        preOrder(root, "/", TreeDigest.ROOT_PATH_HASH, (path, node, pathHash) -> visitor.accept(path, node));
    }

    /** Visits top (whose path and path hash are given) and all its descendants. */
    static void preOrder(DataNode top, String topPath, long topPathHash, Visitor visitor) {
        ArrayDeque<Pending> pending = new ArrayDeque<>();
        pending.push(new Pending(topPath, top, topPathHash));
        while (!pending.isEmpty()) {
            Pending next = pending.pop();
            visitor.visit(next.path, next.node, next.pathHash);
            ChildTable children = next.node.children;
            if (children == null) {
                continue;
            }
            String prefix = next.path.equals("/") ? "/" : next.path + "/";
            for (DataNode child : children.toArray()) {
                long nameHash = NodeNames.hash(child.name);
                pending.push(new Pending(prefix + NodeNames.decode(child.name), child,
                        TreeDigest.childPathHash(next.pathHash, nameHash)));
            }
        }
    }

    /** Number of nodes below {@code top}, not counting it. */
    static int descendantCount(DataNode top) {
        int count = 0;
        ArrayDeque<DataNode> pending = new ArrayDeque<>();
        pending.push(top);
        while (!pending.isEmpty()) {
            ChildTable children = pending.pop().children;
            if (children != null) {
                for (DataNode child : children.toArray()) {
                    count++;
                    pending.push(child);
                }
            }
        }
        return count;
    }
}
