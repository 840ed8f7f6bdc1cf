package dev.warden.state.tree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/** A canonical text form of a tree (sorted paths, every Stat field, data, ACL, children). */
public final class TreeDump {
    private TreeDump() {
    }

    public static String of(DataTree tree) {
        TreeMap<String, String> lines = new TreeMap<>();
        tree.readLock().lock();
        try {
            for (String path : tree.paths()) {
                DataNode node = tree.node(path);
                List<String> children = new ArrayList<>(node.children());
                children.sort(null);
                lines.put(path, node.stat() + " owner=" + node.owner() + " counter=" + node.cversionCounter()
                        + " data=" + Arrays.toString(node.data()) + " acl=" + node.acl() + " children=" + children);
            }
        } finally {
            tree.readLock().unlock();
        }
        StringBuilder out = new StringBuilder();
        lines.forEach((path, line) -> out.append(path).append(' ').append(line).append('\n'));
        return out.toString();
    }
}
