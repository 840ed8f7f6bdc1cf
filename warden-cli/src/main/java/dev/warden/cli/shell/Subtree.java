package dev.warden.cli.shell;

import dev.warden.client.BlockingClient;
import dev.warden.client.WardenException;
import java.util.ArrayList;
import java.util.List;

/** Walks a subtree for ls -R, deleteall and setAcl -R. */
final class Subtree {
    private Subtree() {
    }

    /**
     * The node and all its descendants, each parent before its children, children in name
     * order. Fails with NoNode if the node itself is missing; descendants deleted during the
     * walk are skipped.
     */
    static List<String> preOrder(BlockingClient client, String root) {
        List<String> nodes = new ArrayList<>();
        nodes.add(root);
        // Checked once up front so a missing root is an error rather than an empty walk.
        List<String> rootChildren = client.getChildren(root);
        appendChildren(client, root, rootChildren, nodes);
        return nodes;
    }

    private static void appendChildren(BlockingClient client, String parent, List<String> children, List<String> nodes) {
        List<String> sorted = new ArrayList<>(children);
        sorted.sort(null);
        for (String child : sorted) {
            String path = parent.equals("/") ? "/" + child : parent + "/" + child;
            List<String> grandChildren;
            try {
                grandChildren = client.getChildren(path);
            } catch (WardenException.NoNodeException e) {
                continue;
            }
            nodes.add(path);
            appendChildren(client, path, grandChildren, nodes);
        }
    }
}
