package dev.warden.state.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.warden.protocol.Perms;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** The child table against a HashMap model, across the dense/hashed switch in both directions. */
class ChildTableProperties {
    @Property(tries = 200)
    void behavesLikeAMapOfNames(@ForAll @Size(max = 400) List<@IntRange(min = 0, max = 60) Integer> keys,
                                @ForAll @Size(max = 400) List<Boolean> removes) {
        ChildTable table = new ChildTable(0);
        Map<String, DataNode> model = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            String name = "n" + keys.get(i);
            boolean remove = i < removes.size() && removes.get(i);
            DataNode present = model.get(name);
            if (remove && present != null) {
                assertEquals(true, table.remove(present));
                model.remove(name);
            } else if (!remove && present == null) {
                DataNode node = node(name);
                table.add(node);
                model.put(name, node);
            }
            assertEquals(model.size(), table.size());
        }
        for (int k = 0; k <= 60; k++) {
            String name = "n" + k;
            String path = "/p/" + name;
            DataNode found = table.get(path, 3, path.length(), NodeNames.hash(path, 3, path.length()));
            if (model.containsKey(name)) {
                assertSame(model.get(name), found, name);
            } else {
                assertNull(found, name);
            }
        }
        assertEquals(model.keySet(), new HashSet<>(table.names()));
        assertEquals(model.size(), table.toArray().length);
    }

    /**
     * A snapshot's reader adds a node's children in the order another table listed them, into a
     * table sized ahead ({@code reserve}) or not: every child is found afterwards, and a second
     * child of the same name is refused without changing anything.
     */
    @Property(tries = 50)
    void childrenCopiedInListedOrderAreAllFoundAndDuplicatesRefused(
            @ForAll @IntRange(min = 1, max = 5000) int count, @ForAll boolean reserved,
            @ForAll @IntRange(min = 0, max = 4999) int duplicateIndex) {
        ChildTable source = new ChildTable(0);
        for (int i = 0; i < count; i++) {
            source.add(node("n" + i));
        }
        ChildTable copy = new ChildTable(0);
        if (reserved) {
            copy.reserve(count);
        }
        for (DataNode child : source.toArray()) {
            assertEquals(true, copy.addIfAbsent(child));
        }
        assertEquals(count, copy.size());
        String duplicate = "n" + (duplicateIndex % count);
        assertEquals(false, copy.addIfAbsent(node(duplicate)), duplicate);
        assertEquals(count, copy.size());
        for (int i = 0; i < count; i++) {
            String path = "/n" + i;
            DataNode found = copy.get(path, 1, path.length(), NodeNames.hash(path, 1, path.length()));
            assertSame(source.get(path, 1, path.length(), NodeNames.hash(path, 1, path.length())), found, path);
        }
    }

    @Property(tries = 50)
    void manyChildrenGrowAndShrinkTheTable(@ForAll @IntRange(min = 1, max = 3000) int count) {
        ChildTable table = new ChildTable(0);
        DataNode[] nodes = new DataNode[count];
        for (int i = 0; i < count; i++) {
            nodes[i] = node("child-" + i);
            table.add(nodes[i]);
        }
        for (int i = 0; i < count; i += 2) {
            assertEquals(true, table.remove(nodes[i]));
        }
        assertEquals(count / 2, table.size());
        for (int i = 0; i < count; i++) {
            String path = "/child-" + i;
            DataNode found = table.get(path, 1, path.length(), NodeNames.hash(path, 1, path.length()));
            assertSame(i % 2 == 0 ? null : nodes[i], found, path);
        }
    }

    private static DataNode node(String name) {
        byte[] bytes = NodeNames.encode(name, 0, name.length());
        return DataNode.create(bytes, NodeNames.hash(bytes), new byte[0], Perms.OPEN_ACL_UNSAFE, 1, 1,
                NodeOwner.PERSISTENT);
    }
}
